/// GitHub Actions workflow commands: one `::error file=PATH,line=N,title=RULE::MESSAGE` line per
/// error (`::warning` per warning), which the runner turns into annotations on the run and the pull
/// request. One command a finding, so it streams as it is.
///
/// Infos get no annotation each: a capture with a memory warning in every session would bury the
/// errors under hundreds of notices. They are counted by rule, and the stream ends with one
/// `::notice title=vclint::` line, on the run rather than a file, that gives the counts
/// (`335 infos are not annotated (memory_warning: 335); …`); the other formats list them.
///
/// Escaping follows the runner's: in the message, `%` → `%25`, CR → `%0D`, LF → `%0A`; in
/// property values also `:` → `%3A` and `,` → `%2C`. So text from a log can neither end the
/// command line (and start a command of its own) nor add or end a property. The `[` of a `##[` is
/// `%5B` (the runner's older commands are `##[name]…`, and it parses them anywhere in a line that
/// is not a `::` command). Other control characters, which the runner would print raw (terminal
/// escapes), become U+FFFD.
public struct GitHubActionsReporter: StreamingReporter {
    public static let identifier = "github-actions"
    public static let summary = "workflow commands that annotate the run and the pull request"
    /// The infos of this stream so far, by rule: they are summed up at its end, not annotated.
    private var infos: [String: Int] = [:]

    public init() {}

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        try stream(result, to: out)
    }

    public mutating func begin(to out: ReportWriter) throws(ReportWriteError) {
        infos = [:]
    }

    public mutating func finding(_ f: Finding, to out: ReportWriter) throws(ReportWriteError) {
        if f.severity == .info {
            infos[f.rule, default: 0] += 1
            return
        }
        if let d = f.declaration {
            // Annotate the controller's source; the message says where in the log.
            try out.write("::\(Self.command(f.severity)) file=\(Self.property(d.path)),line=\(d.line),title=\(Self.property(f.rule))::\(Self.data("\(f.logLine?.path ?? f.path):\(f.logLine?.line ?? f.line): \(f.message)"))\n")
        } else {
            try out.write("::\(Self.command(f.severity)) file=\(Self.property(f.path)),line=\(f.line),title=\(Self.property(f.rule))::\(Self.data(f.message))\n")
        }
    }

    /// A notice at the finding's line: the error annotation printed before stays on the run (a
    /// workflow command cannot take one back), and this one says what became of it.
    public mutating func resolution(_ r: Resolution, to out: ReportWriter) throws(ReportWriteError) {
        let f = r.finding
        try out.write("::notice file=\(Self.property(f.path)),line=\(f.line),title=\(Self.property("resolved: \(f.rule)"))::\(Self.data(r.message))\n")
    }

    public mutating func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        if let line = Self.infoSummary(infos) { try out.write(line) }
    }

    /// The one line that stands for the infos of a run (nil when there were none): a notice on the
    /// run, not on a file, with the count of each rule, the most frequent first.
    public static func infoSummary(_ counts: [String: Int]) -> String? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rules = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let message = "\(total) info\(total == 1 ? " is" : "s are") not annotated (\(rules)); the other report formats list them"
        return "::notice title=\(property(VCLintVersion.name))::\(data(message))\n"
    }

    public static func command(_ s: Severity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "notice"
        }
    }

    /// A command's message.
    public static func data(_ s: String) -> String { escape(s, property: false) }

    /// A property value.
    public static func property(_ s: String) -> String { escape(s, property: true) }

    private static func escape(_ s: String, property: Bool) -> String {
        var out = ""
        var hashes = 0  // `#`s right before this scalar
        for u in s.unicodeScalars {
            defer { hashes = u == "#" ? hashes + 1 : 0 }
            switch u {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            case "[" where hashes >= 2: out += "%5B"
            default:
                // (Bidirectional controls too: they would reorder what the annotation shows.)
                if u.value < UInt8.space && u != "\t" || TerminalText.escaped(u) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }
}
