import ArgumentParser
import VCLintCore

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint captured logs and report lifecycle violations.",
        discussion: """
        PATH is a log file, a directory (every *.log, *.txt, *.ndjson, *.jsonl below it) or - for \
        standard input; no PATH reads standard input. Findings are reported per input file, with \
        1-based physical line numbers.

        Exit codes: 0 no finding at a failing severity (error; with --strict also warning), \
        1 at least one such finding, 2 the run failed (bad arguments, unreadable input).
        """
    )

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: "Output format: xcode (default, one line per finding) or json (versioned report).")
    var reporter: String = "xcode"

    @Flag(name: .long, help: "Fail (exit 1) on warnings too.")
    var strict = false

    @Option(name: .long, help: "Seconds a removed controller may take to deallocate before it counts as leaked.")
    var leakGraceSeconds: Double = 3

    @Option(name: .long, help: "Rule ids to enable in addition to the defaults (e.g. slow_transition); repeatable.")
    var enable: [String] = []

    @Option(name: .long, help: "Rule ids to disable; repeatable.")
    var disable: [String] = []

    @Flag(name: .long, help: "Do not print the summary line on stderr.")
    var quiet = false

    func validate() throws {
        guard ReporterRegistry.reporter(named: reporter) != nil else {
            throw ValidationError("unknown reporter '\(reporter)'; expected one of: \(ReporterRegistry.names.joined(separator: ", "))")
        }
        for id in enable + disable where RuleRegistry.rule(id) == nil {
            throw ValidationError("unknown rule '\(id)'; `vclint rules` lists them")
        }
        guard leakGraceSeconds >= 0, leakGraceSeconds.isFinite else {
            throw ValidationError("--leak-grace-seconds must be a non-negative number")
        }
    }

    func run() throws {
        var options = LintOptions()
        options.timeline.leakGraceSeconds = leakGraceSeconds
        var enabled = RuleSettings.default.enabled
        enabled.formUnion(enable)
        enabled.subtract(disable)
        options.rules = RuleSettings(enabled: enabled)
        let linter = Linter(options: options)
        let result: LintResult
        do {
            let sources = try InputResolver.resolve(paths)
            result = try linter.lint(sources)
        } catch let error as InputError {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
        let report = ReporterRegistry.reporter(named: reporter)!.report(result)
        writeStdout(report)
        if !quiet { printError(XcodeReporter.summary(result)) }
        let failing = result.findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
        if failing { throw ExitCode(1) }
    }
}
