/// Escaping for Markdown table cells (the Markdown report, `vclint leaks --format markdown`). Text
/// from a log stays text: `|` and newlines cannot break the table (a line break is `<br>`),
/// Markdown punctuation cannot start emphasis, links, code, math or HTML (it is backslash-escaped),
/// other control characters and the characters that reorder or break what is shown (bidirectional
/// controls, U+2028/U+2029) become U+FFFD, `##[` cannot form (its `[` is escaped as all are), and `@` is followed by a zero-width space so a class
/// name like `@team` does not notify anyone.
public enum MarkdownText {
    /// Text for one table cell.
    public static func cell(_ s: String) -> String {
        var out = ""
        var lastWasCR = false
        for u in s.unicodeScalars {
            defer { lastWasCR = u == "\r" }
            switch u {
            case "\r": out += "<br>"
            case "\n": if !lastWasCR { out += "<br>" }
            case "\t": out += " "
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "&", "~", "$":  // `$`: GitHub's inline math
                out += "\\"
                out.unicodeScalars.append(u)
            case "@": out += "@\u{200B}"
            default:
                if u.value < UInt8.space || TerminalText.escaped(u) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}
