import ArgumentParser
import VCLintCore

struct LeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaks",
        abstract: "Report leaked controllers over one or many captures, grouped by class.",
        discussion: """
        A leak is a controller that left for good (popped, dismissed, removed from its parent, closed) \
        and was never deallocated while its session went on for --leak-grace-seconds (default \(Self.grace)). Per \
        class: how many instances leaked, in how many sessions and files, how they were removed (a \
        dismiss marker or a parent move is evidence; pop/dismiss, pop to root and closed sheets are \
        inferred from the transitions), how long the session went on, and the evidence lines. Then \
        the unconfirmed leaks (the log ended within the grace period) and the classes whose dealloc \
        is not logged at all: a leak of those cannot be judged, log their dealloc/deinit.

        The paths may instead all be JSON leak reports (`--format json`) of a CI matrix's shards, \
        made with the same configuration: they are merged into one leak report, as if one run had \
        read every capture.

        Examples:
          vclint leaks Fixtures/flows/leak-pop.log
          vclint leaks captures/ --format markdown >> "$GITHUB_STEP_SUMMARY"
          vclint leaks captures/ --format html --output leaks.html
          vclint leaks leaks-shard-1.json leaks-shard-2.json --format markdown

        Exit codes: 0 no confirmed leak, 1 at least one confirmed leak, 2 the run failed.
        """
    )

    /// The grace's default, as the settings table has it.
    static var grace: String { Setting.text(Setting.named("leak_grace_seconds")?.defaultValue) }

    @Argument(help: "Log files or directories (- or nothing for standard input), or the JSON leak reports of shards.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp(ViewFormats.leaks.help, valueName: "format"), completion: .list(ViewFormats.leaks.names))
    var format: String = ViewFormats.leaks.defaultName

    @Option(name: .long, help: "Write to this file (replaced only once complete) instead of standard output.")
    var output: String?

    @OptionGroup var ruleOptions: RuleOptions

    @OptionGroup var baselineOption: BaselineOption

    /// A path ending in .json is a leak report to merge, not a capture (captures are *.log, *.txt,
    /// *.ndjson, *.jsonl), unless it holds `log show --style json`'s array.
    static func isReport(_ path: String) -> Bool { path.lowercased().hasSuffix(".json") && !InputResolver.holdsLog(atPath: path) }

    func validate() throws {
        if let problem = ViewFormats.leaks.problem(with: format) { throw ValidationError(problem) }
    }

    func run() throws {
        let report: LeakReport
        let configuration: RunConfiguration
        let file: PendingReportFile?
        let all = paths + ExtraPaths.values
        if !all.isEmpty, all.allSatisfy(Self.isReport) {
            let given = [("--config", ruleOptions.config != nil), ("--baseline", baselineOption.baseline != nil)]
                + ruleOptions.settings.givenOptions.map { ($0, true) }
                + [("--enable", !ruleOptions.enable.isEmpty), ("--disable", !ruleOptions.disable.isEmpty)]
            if let (flag, _) = given.first(where: \.1) {
                printError("vclint: error: \(flag) decides how captures are linted; the JSON leak reports were made with their own configuration (give it to the shards' vclint leaks)")
                throw ExitCode(2)
            }
            (report, configuration, file) = try merged(all)
        } else {
            if let json = all.first(where: Self.isReport) {
                printError("vclint: error: \(json): a JSON leak report among captures; give vclint leaks either captures or the JSON leak reports of shards")
                throw ExitCode(2)
            }
            let known = try baselineOption.load()
            let (result, options, pending) = try VisualRun.load(paths, ruleOptions, output: output, command: Self.self, lanes: false,
                                                                others: baselineOption.baseline.map { [$0] } ?? [])
            let (_, baselined) = baselineOption.apply(known, to: result)
            report = LeakReport(inputs: TimelineInput.from(result, baselined: baselined), graceSeconds: options.timeline.leakGraceSeconds)
            configuration = RunConfiguration(options: options)
            file = pending
        }
        let view = ViewFormats.leaks.format(named: format, context: configuration)!
        try VisualRun.emit(view.writer(for: report), to: file)
        if report.confirmedCount > 0 { throw ExitCode(1) }
    }
}

extension LeaksCommand {
    /// The shards' JSON leak reports, read and merged; the output file opened (and checked not to
    /// be one of them) before anything is written.
    private func merged(_ reports: [String]) throws -> (LeakReport, RunConfiguration, PendingReportFile?) {
        var file: PendingReportFile?
        do {
            let loaded = try reports.map { path throws(ReportReadError) in try LeakReport.read(path: path) }
            let (report, configuration) = try LeakReport.merge(loaded)
            if let output, output != "-" {
                try ReportTransaction.refuseInputs([output], inputs: reports.map { .file($0) })
                file = try PendingReportFile(path: output)
            }
            return (report, configuration, file)
        } catch let error as ReportReadError {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as ReportFileError {
            file?.discard()
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
    }
}
