/// Findings → text, the last stage of a run. A reporter never re-reads a log.
///
/// A reporter is the format of the lint report, as `ViewFormat`s are those of the other views: its
/// `identifier` is the name `--reporter` takes, its `summary` what `--reporter`'s help says of it,
/// and `write(_:to:)` writes the complete report. A report is written as it is produced, finding by
/// finding: its header, each finding's piece, its footer. Neither the report nor a copy of the
/// findings is ever held whole (a reporter that groups keeps indices, not findings), so a run with
/// hundreds of thousands of findings adds little more than the writer's buffer to what the findings
/// themselves take.
public protocol Reporter: ViewFormat where Subject == LintResult {}

extension Reporter {
    /// The complete report as one string (tests, small results).
    public func report(_ result: LintResult) -> String { render(result) }
}

/// A reporter that can also print each finding as soon as it is decided, before the run's result
/// exists (`lint --follow`). A stream is `begin` once; for each input, `input` and then the
/// findings decided in it (one `finding` each); `end` once with the run's result. Text from a log
/// is escaped as in the reporter's batch form, so a streamed finding is as inert as a reported one.
public protocol StreamingReporter: Reporter {
    /// Before anything else.
    mutating func begin(to out: ReportWriter) throws(ReportWriteError)
    /// An input starts (following a file, also each time it was rotated or truncated).
    mutating func input(_ path: String, to out: ReportWriter) throws(ReportWriteError)
    /// One finding, as it was decided.
    mutating func finding(_ finding: Finding, to out: ReportWriter) throws(ReportWriteError)
    /// A finding streamed before that a later line changed (`lint --follow`: a leak deallocated
    /// late, or a controller that appeared again), at once.
    mutating func resolution(_ resolution: Resolution, to out: ReportWriter) throws(ReportWriteError)
    /// The run is over: `result` holds every input's statistics and every finding, counted as streamed.
    mutating func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError)
}

extension StreamingReporter {
    public mutating func begin(to out: ReportWriter) throws(ReportWriteError) {}
    public mutating func input(_ path: String, to out: ReportWriter) throws(ReportWriteError) {}
    public mutating func end(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {}

    /// A whole result played through the stream, input by input: the text a live run of the same
    /// findings prints (and the batch report of a format whose two forms are one).
    public func stream(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        var sink = self
        try sink.begin(to: out)
        for file in result.files {
            try sink.input(file.stats.path, to: out)
            for f in file.findings { try sink.finding(f, to: out) }
        }
        try sink.end(result, to: out)
    }
}

/// One format `--reporter` can name: what its help says, and how a run makes it.
public struct ReporterEntry: Sendable {
    public let identifier: String
    public let summary: String
    /// Whether it is a `StreamingReporter`: `lint --follow` can print it on stdout.
    public let streams: Bool
    /// The reporter of a run, from what the run knows.
    public let make: @Sendable (ReportContext) -> any Reporter

    public init<R: Reporter>(_ type: R.Type, make: @escaping @Sendable (ReportContext) -> R) {
        identifier = R.identifier
        summary = R.summary
        streams = false
        self.make = make
    }

    /// A format that can stream (chosen by the compiler, not by a conformance lookup at run time).
    public init<R: StreamingReporter>(_ type: R.Type, make: @escaping @Sendable (ReportContext) -> R) {
        identifier = R.identifier
        summary = R.summary
        streams = true
        self.make = make
    }
}

/// Every report format. Adding one is a file with its `Reporter` and one entry here.
public enum ReporterRegistry {
    /// In the order help and error messages list them.
    public static let entries: [ReporterEntry] = [
        ReporterEntry(XcodeReporter.self) { XcodeReporter(color: $0.color, foldInfos: $0.terminal && !$0.allInfos) },
        ReporterEntry(JSONReporter.self) { JSONReporter(configuration: $0.configuration) },
        ReporterEntry(SARIFReporter.self) { SARIFReporter(rules: $0.rules) },
        ReporterEntry(JUnitReporter.self) { JUnitReporter(maxWarnings: $0.maxWarnings) },
        ReporterEntry(GitHubActionsReporter.self) { _ in GitHubActionsReporter() },
        ReporterEntry(CheckstyleReporter.self) { _ in CheckstyleReporter() },
        ReporterEntry(CodeClimateReporter.self) { _ in CodeClimateReporter() },
        ReporterEntry(MarkdownReporter.self) { MarkdownReporter(maxRows: $0.markdownRows, foldInfos: !$0.allInfos) },
    ]

    public static let names = entries.map(\.identifier)

    /// The formats `lint --follow` can print as findings are decided.
    public static let streamingNames = entries.filter(\.streams).map(\.identifier)

    /// What a run prints when no `--reporter` is given.
    public static let defaultName = XcodeReporter.identifier

    public static func entry(named name: String) -> ReporterEntry? {
        entries.first { $0.identifier == name }
    }

    /// `rules` is the run's rule settings: reports that list rules (SARIF's configuration
    /// overrides) describe the rules that actually ran.
    public static func reporter(named name: String, rules: RuleSettings = .default) -> (any Reporter)? {
        reporter(named: name, context: ReportContext(rules: rules))
    }

    public static func reporter(named name: String, context: ReportContext) -> (any Reporter)? {
        entry(named: name)?.make(context)
    }

    /// The reporter `name` of a run, when it can stream.
    public static func streamingReporter(named name: String, context: ReportContext) -> (any StreamingReporter)? {
        reporter(named: name, context: context) as? any StreamingReporter
    }
}

/// What a run tells its reporters beyond the findings.
public struct ReportContext: Sendable {
    /// The rules that ran, at their severities.
    public var rules: RuleSettings
    /// Recorded in the JSON report (`vclint merge` compares it); nil leaves it out.
    public var configuration: RunConfiguration?
    /// `--max-warnings N`: JUnit shows the gate as a test case of its own.
    public var maxWarnings: Int?
    /// ANSI colors, for a report printed on a terminal that shows them (`--color`); never in a file.
    public var color: Bool
    /// The report is printed on a terminal, where a person reads it: the xcode format folds the
    /// infos into one line per rule (in a file or a pipe, which scripts read, it keeps each).
    public var terminal: Bool
    /// `--infos`: the formats a person reads (xcode on a terminal, markdown) list every info too.
    public var allInfos: Bool
    /// `--markdown-rows`: the markdown table's rows at most; nil for as many as its byte bound holds.
    public var markdownRows: Int?

    public init(rules: RuleSettings = .default, configuration: RunConfiguration? = nil, maxWarnings: Int? = nil, color: Bool = false,
                terminal: Bool = false, allInfos: Bool = false, markdownRows: Int? = MarkdownReporter.defaultRows) {
        self.rules = rules
        self.configuration = configuration
        self.maxWarnings = maxWarnings
        self.color = color
        self.terminal = terminal
        self.allInfos = allInfos
        self.markdownRows = markdownRows
    }

    /// The context of a run made with `configuration`.
    public init(configuration: RunConfiguration, maxWarnings: Int? = nil) {
        self.init(rules: configuration.ruleSettings, configuration: configuration, maxWarnings: maxWarnings)
    }
}
