/// Escaping for the HTML report. Every byte that came from a log goes through here, in text and in
/// attribute values alike: `&`, `<`, `>`, both quotes are character references; C0 and C1 control
/// characters (other than tab and newline), U+2028/9 and noncharacters become U+FFFD (invalid UTF-8
/// already has when the line was read), so a hostile capture can neither inject markup nor make
/// the document invalid.
public enum HTMLText {
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(u)
            default:
                if isAllowed(u) { out.unicodeScalars.append(u) } else { out += "\u{FFFD}" }
            }
        }
        return out
    }

    static func isAllowed(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
        if v == 0x2028 || v == 0x2029 { return false }
        if (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE { return false }
        return true
    }
}
