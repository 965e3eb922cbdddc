import ArgumentParser
import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint captured logs and report lifecycle violations.",
        discussion: """
        PATH is a log file, a directory (every *.log, *.txt, *.ndjson, *.jsonl below it, the *.json \
        files that hold log show --style json output, and their .gz forms) or - for standard input; no PATH reads standard input. gzip input is inflated while it \
        is read. Files are linted in parallel (--jobs); findings are reported per input file, in input \
        order, with 1-based physical line numbers.

        Exit codes: 0 no finding at a failing severity (error; with --strict also warning), \
        1 at least one such finding, 2 the run failed (bad arguments, unreadable input).
        """
    )

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Report format, optionally written to a file; repeatable.",
        discussion: """
        NAME is one of: \(ReportOutput.formats). NAME:FILE writes that report to FILE (replaced only once \
        the report is complete); at most one reporter prints to standard output.
        """,
        valueName: "NAME[:FILE]"))
    var reporter: [String] = []

    @OptionGroup var gate: GateOptions

    @Option(name: .long, help: "The app's source folder: findings also point at their controller's class declaration (Swift or Objective-C).")
    var sourceRoot: String?

    @Option(name: .long, help: "Suppress the findings recorded in this baseline file (`vclint baseline create`).")
    var baseline: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Follow one growing input (a file, or - for a pipe) and print each finding as soon as it is decidable.",
        discussion: """
        A leak is printed once the grace period has passed in log time, a missing did-callback once its \
        transition settled; a later line that changes a printed leak (its late dealloc, the controller \
        shown again) prints a resolution. A pipe is read to its end; a file is followed like tail -f until \
        Ctrl-C. The summary, the report files and the exit code come at the end, those of a batch run over \
        the same bytes. Standard output takes \(ReportOutput.streamingFormats) \
        (json as JSON Lines: a line per finding, then one with the report's other fields); other formats \
        can be written to a file, at the end. Example: \
        xcrun simctl spawn booted log stream --style ndjson | vclint lint --follow -
        """))
    var follow = false

    @Option(name: [.customShort("j", allowingJoined: true), .customLong("jobs")], parsing: .unconditional,
            help: ArgumentHelp("Threads, 1 to 1024 (default: the number of cores). Each file is read by one thread; with at least two threads per file, its events are parsed on a second one. The report order is the input order.", valueName: "jobs"))
    var jobsText: String?

    /// --jobs, checked by `validate()`.
    var jobs: Int? { NumberArgument.checked(jobsText) { try NumberArgument.whole($0, option: "--jobs", NumberArgument.jobs) } }

    @OptionGroup var ruleOptions: RuleOptions

    @Flag(name: .long, help: "Do not print the summary line on stderr.")
    var quiet = false

    @OptionGroup var color: ColorOption

    @OptionGroup var shape: ReportShapeOptions

    func validate() throws {
        if let jobsText { _ = try NumberArgument.whole(jobsText, option: "--jobs", NumberArgument.jobs) }
        if follow {
            if paths.count > 1 { throw ValidationError("--follow reads one input (a file, or - for standard input)") }
            if let r = (try? ReporterRequest.parseAll(reporter))?.first(where: { $0.path == nil }), ReporterRegistry.entry(named: r.name)?.streams == false {
                throw ValidationError("--follow prints each finding as it is decided, which \(r.name) cannot; print \(ReportOutput.streamingFormats) instead, or write \(r.name) to a file with --reporter \(r.name):FILE")
            }
        }
        do {
            _ = try ReporterRequest.parseAll(reporter)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let (options, configuration) = try ruleOptions.resolve()
        let linter = Linter(options: options)
        let requests = try ReporterRequest.parseAll(reporter)
        var result: LintResult
        var live: LiveReport?
        var files: [(request: ReporterRequest, file: PendingReportFile)] = []
        var baselineOutcome: Baseline.Outcome?
        var context = ReportContext(rules: options.rules, maxWarnings: gate.maxWarnings)
        shape.apply(to: &context)
        do {
            let known = try baseline.map { try Baseline.load(path: $0) }
            context.configuration = RunConfiguration(options: options, strict: gate.strict, baseline: known)
            let sources = try ruleOptions.inputs(paths, configuration)
            try ReportTransaction.refuseInputs(requests.compactMap(\.path), inputs: sources,
                                               others: ruleOptions.otherInputs + (baseline.map { [.init($0, "the --baseline file")] } ?? []),
                                               sourceRoot: sourceRoot)
            // Report files are opened before the (possibly long) lint, so a bad path fails at once.
            for r in requests {
                if let path = r.path { files.append((r, try PendingReportFile(path: path))) }
            }
            if follow {
                guard sources.count == 1 else { throw InputError(path: paths.first ?? "-", reason: "--follow needs one file, not a directory of them") }
                // With every report in a file, the findings still stream to stdout, in the default format.
                let name = requests.first(where: { $0.path == nil })?.name ?? ReporterRegistry.defaultName
                let report = LiveReport(ReportOutput.streamingReporter(name, context, color: color.stdout), strict: gate.strict, baseline: known)
                live = report
                result = try self.follow(sources[0], options: options, report: report)
            } else {
                var batch = linter
                let progress = ProgressDisplay.start(for: sources, quiet: quiet)
                batch.options.progress = progress?.counter
                defer { progress?.end() }
                result = batch.lintAll(sources, jobs: jobs ?? Linter.defaultJobs)
            }
            if let root = sourceRoot {
                var st = stat()
                guard PathName.withCString(root, { stat($0, &st) }) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                    throw InputError(path: root, reason: "not a directory (--source-root)")
                }
                result.attachDeclarations(under: root, settings: options.rules, note: { printError("vclint: note: \($0)") })
                if options.location == .source { result.locateAtDeclarations() }
            } else if options.location == .source {
                printError("vclint: note: location: source needs --source-root (the app's sources); findings point at their log lines")
            }
            if let known {
                let outcome = known.apply(to: result)
                result = outcome.result
                baselineOutcome = outcome
            }
            if gate.strict { result = result.promotingWarnings() }
            if !result.failures.isEmpty {
                // An input is missing from every report: a report file or document that looks complete
                // (and maybe clean) would lie, so none is written; findings of the inputs read still print.
                files.forEach { $0.file.discard() }
                failedInputs(result, requests: requests, context: context)
                throw ExitCode(2)
            }
            // Every file first, all or none: a run that fails prints nothing on stdout.
            try ReportTransaction(files.map(\.file)).commit(files.map { ReportOutput.reporter($0.request.name, context).writer(for: result) })
        } catch let error as InputError {
            files.forEach { $0.file.discard() }
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as Baseline.LoadError {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as ReportFileError {
            files.forEach { $0.file.discard() }
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
        if let live {
            live.end(result)
        } else if let r = requests.first(where: { $0.path == nil }) {
            writeStdout(ReportOutput.stdoutReporter(r.name, context, color: color.stdout).writer(for: result))
        }
        if let outcome = baselineOutcome, let path = baseline { ReportOutput.baselineNotes(outcome, path: path) }
        printInputWarnings(result)
        if !quiet {
            RunSummary.unreadNotes(result).forEach(printError)
            printText(RunSummary.line(result, color: color.stderr))
        }
        try gate.check(result)
    }

    /// Reporters whose every stdout line is one finding: nothing they print can pass for a clean report.
    static let findingPerLineReporters: Set<String> = [XcodeReporter.identifier, GitHubActionsReporter.identifier]

    /// Some inputs could not be read (the others were linted): their findings on stdout when the
    /// reporter prints one finding per line, then one stderr line per unreadable input (no summary:
    /// a "0 errors" line must not be the last word of a failed run).
    private func failedInputs(_ result: LintResult, requests: [ReporterRequest], context: ReportContext) {
        if let r = requests.first(where: { $0.path == nil }), Self.findingPerLineReporters.contains(r.name) {
            writeStdout(ReportOutput.stdoutReporter(r.name, context, color: color.stdout).writer(for: result))
        }
        for failure in result.failures { printError("vclint: error: \(failure.description)") }
    }
}

/// Options that decide which findings a run produces (shared by `lint` and `baseline create`).
struct RuleOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (default: .vclint.yml in this directory or a parent).")
    var config: String?

    /// `--leak-grace-seconds` and every other flag of the settings table.
    @OptionGroup var settings: SettingFlags

    @Option(name: .long, help: "Rule ids to enable in addition to the defaults (e.g. slow_transition); repeatable.")
    var enable: [String] = []

    @Option(name: .long, help: "Rule ids to disable; repeatable.")
    var disable: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Read more paths from FILE, one per line (- for standard input); repeatable. @FILE on the command line is the same.",
        valueName: "FILE"))
    var filesFrom: [String] = []

    @Flag(name: .long, help: "The --files-from lists are NUL-separated (find -print0), so a path may hold a newline.")
    var null = false

    @Flag(name: .long, help: "In folders, read hidden files and folders and what .gitignore ignores too (skipped by default, as by ripgrep).")
    var noIgnore = false

    func validate() throws {
        for id in enable + disable where RuleRegistry.description(of: id) == nil {
            throw ValidationError("\(RuleRegistry.unknown(id)); `vclint rules` lists them")
        }
    }

    /// The files these options make a run read besides its captures (the configuration file, given
    /// or found; the --files-from lists and @FILEs): no report may overwrite one.
    var otherInputs: [ReportTransaction.OtherInput] {
        var out: [ReportTransaction.OtherInput] = []
        if let config { out.append(.init(config, "the --config file")) } else if let found = Configuration.discover() { out.append(.init(found, "the configuration file")) }
        for list in filesFrom where list != "-" { out.append(.init(list, "a --files-from or @FILE list")) }
        return out
    }

    /// The configuration file (given, or found) applied first, then the command-line flags.
    /// A bad configuration prints one line and exits 2.
    func resolve() throws -> (LintOptions, Configuration?) {
        var options = LintOptions()
        var configuration: Configuration?
        if let path = config ?? Configuration.discover() {
            do {
                configuration = try Configuration.load(path: path)
            } catch {
                printError("vclint: error: \(error.description)")
                throw ExitCode(2)
            }
            configuration?.apply(to: &options)
        }
        settings.apply(to: &options)
        var enabled = options.rules.enabled
        enabled.formUnion(enable)
        enabled.subtract(disable)
        options.rules = RuleSettings(enabled: enabled, severities: options.rules.severities)
        return (options, configuration)
    }

    /// The inputs the paths name: those of the command line (those ArgumentParser parsed, then those
    /// taken out before it), then those of the --files-from lists. No path reads standard input, but
    /// not from a terminal: a user who typed `vclint lint` gets the command's usage (exit 2), not a
    /// prompt that waits for a log.
    func inputs(_ paths: [String], _ configuration: Configuration?, command: ParsableCommand.Type = LintCommand.self) throws -> [InputSource] {
        var all = paths + ExtraPaths.values
        for list in filesFrom { all += try PathList.read(list, separator: null ? 0 : 0x0A) }
        // Paths only from lists that turned out empty: no input, not standard input.
        if all.isEmpty && !filesFrom.isEmpty { throw InputError(path: filesFrom[0], reason: "lists no path") }
        if all.isEmpty, isatty(0) != 0 {
            printText(VCLint.helpMessage(for: command))
            throw InputError.terminal(command: command._commandName)
        }
        return try InputResolver.resolve(all, admit: { configuration?.admits($0) ?? true }, ignoring: !noIgnore,
                                         note: { printError("vclint: note: \($0)") })
    }
}
