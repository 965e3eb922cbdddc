import ArgumentParser
import VCLintCore

struct LeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaks",
        abstract: "Report leaked controllers over one or many captures, grouped by class.",
        discussion: """
        A leak is a controller that left for good (popped, dismissed, removed from its parent, closed) \
        and was never deallocated while its session went on for --leak-grace-seconds (default 3). Per \
        class: how many instances leaked, in how many sessions and files, how they were removed (a \
        dismiss marker or a parent move is evidence; pop/dismiss, pop to root and closed sheets are \
        inferred from the transitions), how long the session went on, and the evidence lines. Then \
        the unconfirmed leaks (the log ended within the grace period) and the classes whose dealloc \
        is not logged at all: a leak of those cannot be judged, log their dealloc/deinit.

        Examples:
          vclint leaks Fixtures/flows/leak-pop.log
          vclint leaks captures/ --format markdown >> "$GITHUB_STEP_SUMMARY"
          vclint leaks captures/ --format html --output leaks.html

        Exit codes: 0 no confirmed leak, 1 at least one confirmed leak, 2 the run failed.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown, html
    }

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: "text, json, markdown or html.")
    var format: Format = .text

    @Option(name: .long, help: "Write to this file (replaced only once complete) instead of standard output.")
    var output: String?

    @OptionGroup var ruleOptions: RuleOptions

    func run() throws {
        let (result, options, file) = try VisualRun.load(paths, ruleOptions, output: output, command: Self.self)
        let report = LeakReport(inputs: TimelineInput.from(result), graceSeconds: options.timeline.leakGraceSeconds)
        let text: String
        switch format {
        case .text: text = report.text()
        case .json: text = report.json()
        case .markdown: text = report.markdown()
        case .html: text = report.html()
        }
        try VisualRun.emit(text, to: file)
        if report.confirmedCount > 0 { throw ExitCode(1) }
    }
}
