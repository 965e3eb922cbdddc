/// Escaping for the HTML report. Every byte that came from a log goes through here, in text and in
/// attribute values alike: `&`, `<`, `>`, both quotes are character references; C0 and C1 control
/// characters (other than tab and newline), U+2028/9, the bidirectional controls (which would
/// reorder the page's text) and noncharacters become U+FFFD (invalid UTF-8 already has when the
/// line was read), so a hostile capture can neither inject markup nor make the document invalid.
/// The page printed on a CI runner's log runs nothing either: the `[` of `##[` and a `:` that would
/// start a line with `::` are character references.
public enum HTMLText {
    public static func escape(_ s: String) -> String {
        if isPlain(s) { return s }
        return MarkupText.escape(s, apostrophe: "&#39;") { u, out in
            switch u {
            case "\t", "\n": out.unicodeScalars.append(u)
            default:
                if isAllowed(u) { out.unicodeScalars.append(u) } else { out += "\u{FFFD}" }
            }
        }
    }

    /// Whether `escape` would give `s` back as it is: no markup character, `[`, control or
    /// disallowed scalar, and no `:` or non-ASCII scalar (a Unicode space, maybe) before the first
    /// character other than a space. Most labels, numbers, names and headings are.
    static func isPlain(_ s: String) -> Bool {
        var leading = true
        for u in s.unicodeScalars {
            let v = u.value
            if v == 0x20 { continue }
            switch v {
            case 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x5B: return false  // & < > " ' [
            case 0x3A: if leading { return false }  // :
            case 0x21...0x7E: break
            case 0x80...: if leading || !isAllowed(u) { return false }
            default: return false
            }
            leading = false
        }
        return true
    }

    static func isAllowed(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x20 || TerminalText.escaped(u) { return false }
        if (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE { return false }
        return true
    }
}

/// What XML and HTML escape alike: the markup characters, and what a CI runner's log would run when
/// the document is printed there (the `[` of `##[`, a `:` that starts a line with `::`, as character
/// references). Every other scalar goes to `other`, the format's own rules.
enum MarkupText {
    static func escape(_ s: String, apostrophe: String, other: (Unicode.Scalar, inout String) -> Void) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        let scalars = s.unicodeScalars
        var lineStart = true  // conservative: the text may begin a line
        var hashes = 0
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let u = scalars[i]
            i = scalars.index(after: i)
            defer {
                hashes = u == "#" ? hashes + 1 : 0
                lineStart = u == "\n" || (lineStart && u != "\r" && u.properties.isWhitespace)
            }
            switch u {
            case ":" where lineStart && (i == scalars.endIndex || scalars[i] == ":"): out += "&#58;"
            case "[" where hashes >= 2: out += "&#91;"
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"  // also keeps `]]>` out of XML character data
            case "\"": out += "&quot;"
            case "'": out += apostrophe
            default: other(u, &out)
            }
        }
        return out
    }
}
