/// Text from a log, or from a report file given to `vclint merge` or `vclint leaks`, as a terminal
/// or a CI runner's log shows it: inert. Every human text output goes through here (the xcode
/// reporter, `inspect`, `timeline` and `leaks` as text, `rules`, `explain`, the lines on stderr);
/// the machine formats keep their own escaping (`JSONValue`, `XMLText`, `HTMLText`, `MarkdownText`,
/// the github-actions reporter's).
///
/// The notation is the one `PathName.display` gives a file name, so one rule reads both:
///
/// - a line feed is written `\n` and a carriage return `\r` (in `field`; `text` keeps its line feeds);
/// - any other C0 control but tab (ESC, BEL, NUL …), DEL and the C1 controls U+0080–U+009F are
///   written `\xNN`, two uppercase hex digits: ESC is `\x1B`, the C1 CSI is `\x9B`;
/// - the characters that reorder or break what is shown (the bidirectional controls U+202A–U+202E,
///   U+2066–U+2069, U+200E, U+200F, U+061C, and U+2028, U+2029) are written `\u{NNNN}`: U+202E is `\u{202E}`.
///
/// GitHub's runner executes a line of a step's output that starts with `::` (after whitespace) and
/// any `##[` on a line. So a `:` that would start such a line (a `:` at the start of a line, after
/// whitespace, followed by another `:` or by nothing) is written `\x3A`, and the `[` of `##[` is
/// written `\x5B`: `\x3A:error::…`, `##\x5B add-mask]…` read as what the log said, and run nothing.
///
/// Nothing is dropped, and a backslash is not escaped: a text already made inert is left as it is
/// (applying either function twice gives what one application gives). A string that holds none of
/// these characters is returned as it is, after one pass over its bytes.
public enum TerminalText {
    /// One field that must stay on one line (a class name, a path, a message, a line on stderr).
    /// Its start is treated as the start of a line, since a field may begin one.
    public static func field(_ s: String) -> String {
        isInert(s, keepingLines: false) ? s : escape(s, keepingLines: false)
    }

    /// A whole text of several lines (a report printed on a terminal): its line feeds stay, every
    /// line is made inert, and the color sequences vclint itself writes (SGR, `ESC[…m`) are kept.
    /// Fields from a log must have gone through `field` first: a line feed inside one would
    /// otherwise start a line here.
    public static func text(_ s: String) -> String {
        isInert(s, keepingLines: true) ? s : escape(s, keepingLines: true)
    }

    // MARK: - Finding the rare characters

    /// Whether nothing in `s` needs escaping: one pass over the UTF-8 bytes.
    static func isInert(_ s: String, keepingLines: Bool) -> Bool {
        var s = s
        return s.withUTF8 { b in
            var lineStart = true
            var i = 0
            let n = b.count
            while i < n {
                let c = b[i]
                if lineStart {
                    if c == .space || c == .tab { i += 1; continue }
                    if c == .colon || c >= 0x80 { return false }  // `:`, or maybe a Unicode space before one
                    lineStart = false
                }
                switch c {
                case .newline:
                    guard keepingLines else { return false }
                    lineStart = true
                case .tab: break
                case 0..<UInt8.space, 0x7F: return false
                case .openBracket: if i >= 2 && b[i - 1] == .hash && b[i - 2] == .hash { return false }
                case 0xC2: if i + 1 < n && b[i + 1] >= 0x80 && b[i + 1] <= 0x9F { return false }
                case 0xD8: if i + 1 < n && b[i + 1] == 0x9C { return false }
                case 0xE2:
                    if i + 2 < n {
                        let c1 = b[i + 1], c2 = b[i + 2]
                        if c1 == 0x80 && (c2 == 0x8E || c2 == 0x8F || (0xA8...0xAE).contains(c2)) { return false }
                        if c1 == 0x81 && (0xA6...0xA9).contains(c2) { return false }
                    }
                default: break
                }
                i += 1
            }
            return true
        }
    }

    /// Whether the scalar is written as an escape (tab and, for `text`, line feed are not).
    static func escaped(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09: return false  // tab
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    static func notation(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\n": return "\\n"
        case "\r": return "\\r"
        default:
            let hex = String(u.value, radix: 16, uppercase: true)
            // (Four digits at least, as Unicode writes code points: U+061C is `\u{061C}`.)
            return u.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" + hex : hex)
                : "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
        }
    }

    // MARK: - Escaping

    private static func escape(_ s: String, keepingLines: Bool) -> String {
        let scalars = s.unicodeScalars
        var out = String.UnicodeScalarView()
        func append(_ text: String) { out.append(contentsOf: text.unicodeScalars) }
        var lineStart = true
        var hashes = 0  // `#` written just before, unescaped
        var i = scalars.startIndex
        while i < scalars.endIndex {
            let u = scalars[i]
            let next = scalars.index(after: i)
            if keepingLines, u == "\u{1B}", let end = sgrEnd(scalars, from: next) {
                // vclint's own colors: kept, and invisible to what comes before and after.
                out.append(contentsOf: scalars[i..<end])
                i = end
                continue
            }
            if keepingLines, u == "\n" {
                out.append(u)
                lineStart = true
                hashes = 0
            } else if escaped(u) {
                append(notation(u))
                lineStart = false
                hashes = 0
            } else if lineStart && u.properties.isWhitespace {
                out.append(u)
            } else if lineStart && u == ":" && (next == scalars.endIndex || scalars[next] == ":" || scalars[next] == "\n") {
                append("\\x3A")
                lineStart = false
                hashes = 0
            } else if u == "[" && hashes >= 2 {
                append("\\x5B")
                lineStart = false
                hashes = 0
            } else {
                out.append(u)
                lineStart = false
                hashes = u == "#" ? hashes + 1 : 0
            }
            i = next
        }
        return String(out)
    }

    /// The end of an SGR sequence (`[`, digits and `;`, `m`) that starts at `i`, right after an ESC.
    private static func sgrEnd(_ s: String.UnicodeScalarView, from i: String.UnicodeScalarView.Index) -> String.UnicodeScalarView.Index? {
        guard i < s.endIndex, s[i] == "[" else { return nil }
        var j = s.index(after: i)
        while j < s.endIndex {
            let u = s[j]
            if u == "m" { return s.index(after: j) }
            guard ("0"..."9").contains(u) || u == ";" else { return nil }
            j = s.index(after: j)
        }
        return nil
    }
}
