import ArgumentParser
import VCLintCore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML report: summary, swimlane timelines, findings, leaks, file stats.",
        discussion: """
        The page has no script and makes no network request (inline CSS and SVG), so it opens from a \
        CI artifact as it is. Each session's controllers are drawn as swimlanes (loaded, appearing, \
        visible, disappearing, hidden, deallocated) with the transitions labelled; a finding is a red \
        dot on its controller's lane (red error, amber warning, blue info) that links to its row in \
        the findings table, which comes first, each finding with the log lines around it and its \
        related lines marked. Everything taken from a log is escaped.

        Examples:
          vclint report Fixtures/seeds/ --output report.html
          vclint report capture.log --output - > report.html

        Exit codes (as for lint): 0 no finding at a failing severity, 1 at least one (the report is \
        written either way), 2 the run failed (unreadable input, unwritable output).
        """
    )

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: "The HTML file to write (replaced only once complete); - for standard output.")
    var output: String

    @Flag(name: .long, help: "Report warnings as errors and fail (exit 1) on them.")
    var strict = false

    @OptionGroup var ruleOptions: RuleOptions

    @OptionGroup var baselineOption: BaselineOption

    func run() throws {
        let known = try baselineOption.load()
        var (result, options, file, sources) = try VisualRun.loadWithSources(paths, ruleOptions, output: output, command: Self.self,
                                                                             others: baselineOption.baseline.map { [$0] } ?? [])
        if strict { result = result.promotingWarnings() }
        let (failing, baselined) = baselineOption.apply(known, to: result)
        let inputs = TimelineInput.from(result, baselined: baselined)
        let leaks = LeakReport(inputs: inputs, graceSeconds: options.timeline.leakGraceSeconds)
        // The log around each finding, read again from the captures (not from standard input).
        let wanted = HTMLReport.excerptLines(inputs)
        var excerpts: [String: [Int: String]] = [:]
        for (source, input) in zip(sources, inputs) where excerpts[input.path] == nil {
            if let lines = wanted[input.path] { excerpts[input.path] = LineExcerpts.read(source, lines: lines) }
        }
        let page = HTMLReport(inputs: inputs, leaks: leaks, excerpts: excerpts)
        try VisualRun.emit({ out in try page.write(to: out) }, to: file)
        if failing.fails(strict: strict) { throw ExitCode(1) }
    }
}
