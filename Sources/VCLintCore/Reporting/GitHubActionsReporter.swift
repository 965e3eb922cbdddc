/// GitHub Actions workflow commands: one `::error file=PATH,line=N,title=RULE::MESSAGE` line per
/// error (`::warning` per warning), which the runner turns into annotations on the run and the pull
/// request.
///
/// GitHub shows at most 10 annotations of each severity (error, warning, notice) a step, and 50 a
/// job; the rest are dropped without a word. So the reporter spends that budget on what matters
/// most (`AnnotationBudget`): in a batch report, the 10 most important errors and the 10 most
/// important warnings (by the rule's own severity, then the earliest line), and at the end one
/// `::notice title=vclint::` line on the run that counts, by rule, what was not annotated and says
/// where every finding is (the job summary and the other report formats). `lint --follow` cannot
/// wait to sort: it annotates the first 10 of each severity as they are decided and counts the rest
/// for the notice at the end.
///
/// Infos get no annotation each: a capture with a memory warning in every session would bury the
/// errors under hundreds of notices. They are counted by rule in the same notice
/// (`335 infos are not annotated (memory_warning: 335); …` when nothing else was left out).
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
    /// What this stream annotated and left out so far.
    private var budget = AnnotationBudget()

    public init() {}

    /// The most important findings first, within the budget; the notice of the rest last.
    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        var budget = AnnotationBudget()
        // The best `perStep` of each severity, kept sorted: a run's findings are never copied whole.
        var best: [Severity: [AnnotationBudget.Rank]] = [.error: [], .warning: []]
        for (k, file) in result.files.enumerated() {
            for i in file.findings.indices {
                let f = file.findings[i]
                guard f.severity != .info else {
                    budget.leaveOut(f)
                    continue
                }
                let rank = AnnotationBudget.Rank(f, file: k, index: i)
                var kept = best[f.severity]!
                let at = kept.firstIndex { rank < $0 } ?? kept.count
                if at < AnnotationBudget.perStep {
                    kept.insert(rank, at: at)
                    if kept.count > AnnotationBudget.perStep {
                        let dropped = kept.removeLast()
                        budget.leaveOut(result.files[dropped.file].findings[dropped.index])
                    }
                } else {
                    budget.leaveOut(f)
                }
                best[f.severity] = kept
            }
        }
        for s in [Severity.error, .warning] {
            for r in best[s]! { try Self.annotate(result.files[r.file].findings[r.index], to: out) }
        }
        if let line = budget.notice() { try out.write(line) }
    }

    public mutating func begin(to out: ReportWriter) throws(ReportWriteError) {
        budget = AnnotationBudget()
    }

    public mutating func finding(_ f: Finding, to out: ReportWriter) throws(ReportWriteError) {
        if budget.spend(f) { try Self.annotate(f, to: out) }
    }

    /// One annotation: on the controller's source when it is known (the message says where in the
    /// log), else on the log's line.
    static func annotate(_ f: Finding, to out: ReportWriter) throws(ReportWriteError) {
        if let d = f.declaration {
            // Annotate the controller's source; the message says where in the log.
            try out.write("::\(Self.command(f.severity)) file=\(Self.property(d.path)),line=\(d.line),title=\(Self.property(f.rule))::\(Self.data("\(f.logLine?.path ?? f.path):\(f.logLine?.line ?? f.line): \(f.message)"))\n")
        } else {
            try out.write("::\(Self.command(f.severity)) file=\(Self.property(f.path)),line=\(f.line),title=\(Self.property(f.rule))::\(Self.data(f.message))\n")
        }
    }

    /// A notice at the finding's line: the error annotation printed before stays on the run (a
    /// workflow command cannot take one back), and this one says what became of it. Notices are
    /// budgeted too: one is kept for the notice at the end, the resolutions past the rest are counted in it.
    public mutating func resolution(_ r: Resolution, to out: ReportWriter) throws(ReportWriteError) {
        guard budget.spendResolution() else { return }
        let f = r.finding
        try out.write("::notice file=\(Self.property(f.path)),line=\(f.line),title=\(Self.property("resolved: \(f.rule)"))::\(Self.data(r.message))\n")
    }

    public mutating func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        if let line = budget.notice() { try out.write(line) }
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
