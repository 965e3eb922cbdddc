/// Escaping for the XML reporters (JUnit, Checkstyle). Text from a log is hostile: class names and
/// UIKit warnings may hold quotes, `<`, `&`, newlines and control characters, and invalid UTF-8 has
/// already become U+FFFD. A character XML 1.0 does not allow at all (C0 controls other than tab,
/// newline and carriage return; U+FFFE, U+FFFF) becomes U+FFFD, so the document always parses.
/// What a terminal or CI runner would act on when the report is printed is written as a character
/// reference, which a parser reads back as the character itself: DEL, the C1 controls, the
/// bidirectional controls and U+2028/U+2029 (those `TerminalText` escapes), the `[` of `##[`, and a
/// `:` that would start a line with `::` (GitHub's runner runs such lines as commands).
enum XMLText {
    /// The XML declaration every report starts with.
    static let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#

    /// Character data between tags.
    static func text(_ s: String) -> String {
        escape(s, attribute: false)
    }

    /// An attribute value, for use between double quotes. Tab, newline and carriage return are
    /// written as character references: a parser would otherwise normalise them to spaces.
    static func attribute(_ s: String) -> String {
        escape(s, attribute: true)
    }

    /// Whether XML 1.0 allows the scalar anywhere in a document (the `Char` production).
    static func isAllowed(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func escape(_ s: String, attribute: Bool) -> String {
        MarkupText.escape(s, apostrophe: "&apos;") { u, out in
            switch u {
            case "\t" where attribute: out += "&#9;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"  // a raw CR would be read back as a newline
            default:
                if !isAllowed(u) {
                    out += "\u{FFFD}"
                } else if TerminalText.escaped(u) && u != "\n" {
                    out += "&#x\(String(u.value, radix: 16, uppercase: true));"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
    }
}
