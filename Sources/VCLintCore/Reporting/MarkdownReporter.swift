/// A Markdown summary for a pull-request comment or a job summary (`$GITHUB_STEP_SUMMARY`): a
/// heading, the counts, and a table of findings. Text from a log goes through `MarkdownText`, so it
/// stays text.
///
/// A person reads it, so the infos are folded (`foldInfos`, unless `--infos`): after the errors and
/// warnings, one row per info rule, at its first finding, with the count. The table stops at
/// `maxRows` rows (GitHub comments hold 65,536 characters) and before the report passes `maxBytes`
/// (GitHub keeps 1 MiB of a step's summary), with a line that says how many findings it left out.
public struct MarkdownReporter: Reporter {
    public static let identifier = "markdown"
    public static let summary = "a summary table for a pull-request comment"
    /// The rows of the table when `--markdown-rows` does not say.
    public static let defaultRows = 100
    /// GitHub's bound on a step's job summary.
    public static let summaryBytes = 1024 * 1024
    /// Past this many rows the table stops and says how many findings were left out; nil for no bound but `maxBytes`.
    public var maxRows: Int?
    /// The report's size at most, the line that says what was cut included.
    public var maxBytes: Int
    /// One row per info rule with its count, instead of a row per info.
    public var foldInfos: Bool

    public init(maxRows: Int? = defaultRows, foldInfos: Bool = false, maxBytes: Int = summaryBytes) {
        self.maxRows = maxRows
        self.foldInfos = foldInfos
        self.maxBytes = maxBytes
    }

    /// Room kept for the line that says what was cut.
    static let cutLineRoom = 200

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        var written = 0
        func put(_ s: String) throws(ReportWriteError) {
            try out.write(s)
            written += s.utf8.count
        }
        try put("## \(VCLintVersion.name)\n\n")
        try put(Self.counts(result) + "\n\n")
        let total = result.files.reduce(0) { $0 + $1.findings.count }
        if total == 0 {
            try put("No lifecycle violations.\n")
            return
        }
        try put("| location | severity | rule | message |\n")
        try put("| --- | --- | --- | --- |\n")
        let folded = foldInfos ? InfoFolds(result) : nil
        var rows = 0, shown = 0, cutBySize = false
        // One row: false when the table is full.
        func row(_ f: Finding, count: Int = 1) throws(ReportWriteError) -> Bool {
            if let maxRows, rows >= maxRows { return false }
            let cell = MarkdownText.cell
            let message = count == 1 ? cell(f.message) : cell(InfoFolds.message(f, count: count)) + " (`--infos` lists each)"
            let line = "| \(cell("\(f.path):\(f.line)")) | \(f.severity.rawValue) | \(Self.ruleCell(f.rule)) | \(message) |\n"
            guard written + line.utf8.count + Self.cutLineRoom <= maxBytes else {
                cutBySize = true
                return false
            }
            try put(line)
            rows += 1
            shown += count
            return true
        }
        rows: for file in result.files {
            for f in file.findings where folded == nil || f.severity != .info {
                guard try row(f) else { break rows }
            }
        }
        if let folded {
            for (f, count) in folded.rules {
                guard try row(f, count: count) else { break }
            }
        }
        if total > shown {
            let rest = total - shown
            let where_ = cutBySize ? ": a job summary holds \(Self.summaryBytes / 1024 / 1024) MiB; the other report formats list every finding" : ""
            try put("\n… and \(rest) more finding\(rest == 1 ? "" : "s") not shown\(where_).\n")
        }
    }

    /// `**2 errors**, 1 warning, 0 infos in 3 files (1,204 lines)`; failing counts in bold.
    static func counts(_ result: LintResult) -> String {
        let plural = RunSummary.plural
        let parts = [(Severity.error, "error"), (.warning, "warning"), (.info, "info")].map { s, word in
            let n = result.count(s)
            return n > 0 && s != .info ? "**\(plural(n, word))**" : plural(n, word)
        }
        return "\(parts.joined(separator: ", ")) in \(plural(result.files.count, "file")) (\(plural(result.totalLines, "line")))"
    }

    /// A rule id in code style when it is a plain identifier (every built-in one is).
    static func ruleCell(_ rule: String) -> String {
        let plain = !rule.isEmpty && rule.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "." }
        return plain ? "`\(rule)`" : MarkdownText.cell(rule)
    }
}
