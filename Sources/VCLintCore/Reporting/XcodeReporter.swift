/// `PATH:LINE: error: MESSAGE (rule_id)`: what Xcode, editors and CI log viewers make clickable.
/// Each finding is its own line (or two, with its declaration), so it streams as it is.
///
/// On a terminal (`foldInfos`, unless `--infos`) the infos are folded: one line per rule at its
/// first info, with the count, after everything else (a capture with a memory warning in every
/// session printed thousands of lines). In a file or a pipe, which scripts read, each info keeps its line.
public struct XcodeReporter: StreamingReporter {
    public static let identifier = "xcode"
    public static let summary = "one line per finding, as compilers print them"
    /// ANSI colors (`--color`): the location in bold, one color per severity, the rule id dimmed.
    public var color: Bool
    /// One line per info rule, at the end, instead of one per info.
    public var foldInfos: Bool
    /// The infos of this stream so far, when they are folded.
    private var infos = InfoFolds()

    public init(color: Bool = false, foldInfos: Bool = false) {
        self.color = color
        self.foldInfos = foldInfos
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        try stream(result, to: out)
    }

    /// Text from the log (and, for `vclint merge`, from the shard reports: the path, the rule id)
    /// goes through `TerminalText.field`, so a finding stays one inert line.
    public mutating func begin(to out: ReportWriter) throws(ReportWriteError) {
        infos = InfoFolds()
    }

    public mutating func finding(_ f: Finding, to out: ReportWriter) throws(ReportWriteError) {
        if foldInfos && f.severity == .info {
            infos.add(f)
            return
        }
        try line(f, message: f.message, to: out)
    }

    /// The folded infos, one line each rule (a rule's only info as it is).
    public mutating func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        for (f, count) in infos.rules {
            try line(f, message: count == 1 ? f.message : InfoFolds.message(f, count: count) + "; --infos prints each", to: out)
        }
    }

    private func line(_ f: Finding, message: String, to out: ReportWriter) throws(ReportWriteError) {
        let field = TerminalText.field
        let rule = paint("(\(field(f.rule)))", Self.dim)
        try out.write("\(paint("\(field(f.path)):\(f.line):", Self.bold)) \(paint("\(f.severity.rawValue):", Self.code(f.severity))) \(field(message)) \(rule)\n")
        if let log = f.logLine {
            // --location source: the finding is at the declaration, and this note at its log line.
            try out.write("\(paint("\(field(log.path)):\(log.line):", Self.bold)) \(paint("note:", Self.dim)) logged here \(rule)\n")
        } else if let d = f.declaration {
            try out.write("\(paint("\(field(d.path)):\(d.line):", Self.bold)) \(paint("note:", Self.dim)) \(field(f.controller.className)) is declared here \(rule)\n")
        }
    }

    /// `PATH:LINE: note: resolved: MESSAGE (rule_id)`, at the finding's line.
    public func resolution(_ r: Resolution, to out: ReportWriter) throws(ReportWriteError) {
        let field = TerminalText.field, f = r.finding
        try out.write("\(paint("\(field(f.path)):\(f.line):", Self.bold)) \(paint("note:", Self.dim)) resolved: \(field(r.message)) \(paint("(\(field(f.rule)))", Self.dim))\n")
    }

    static let bold = "1", dim = "2"
    /// error red, warning yellow, info cyan (as compilers and ripgrep color them).
    public static func code(_ s: Severity) -> String {
        switch s {
        case .error: return "1;31"
        case .warning: return "1;33"
        case .info: return "1;36"
        }
    }

    private func paint(_ s: String, _ code: String) -> String { color ? Self.paint(s, code) : s }
    static func paint(_ s: String, _ code: String) -> String { "\u{1B}[\(code)m\(s)\u{1B}[0m" }
}
