import ArgumentParser
import Foundation
import VCLintCore

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of a CI matrix's shards into one report and one exit code.",
        discussion: """
        Each shard of a matrix lints its captures with --reporter json:FILE; a final job merges the \
        files, in the order given, into one report in any reporter format, as if one vclint lint had \
        read every capture: the same inputs with their counts, the same findings with their \
        fingerprints, the same exit code. Reports of another vclint, or linted with another rule \
        configuration (rules, severities, .vclint.yml, --strict, --baseline), are refused, and so is a \
        capture that two shards both linted (by its path however written: c.log and ./c.log are one), \
        or a finding no lint run could have written (a line outside its input, a rule this vclint does \
        not have, a path that is not an input of its shard). The warnings lint printed while reading \
        an input (over-long lines, pattern limits, gzip trailing bytes) are printed again. --baseline, --strict and --max-warnings apply to the \
        merged findings, as lint applies them.

        Examples:
          vclint merge shard-*.json
          vclint merge reports/*.json --reporter sarif:vclint.sarif --reporter junit:vclint.xml --reporter github-actions

        Exit codes (as for lint): 0 no finding at a failing severity, 1 at least one, \
        2 the merge failed (an unreadable or refused report, an unwritable output).
        """
    )

    @Argument(help: ArgumentHelp("JSON reports written by `vclint lint --reporter json:FILE`.", valueName: "report.json"))
    var reports: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Report format, optionally written to a file; repeatable (as for lint).",
        discussion: "NAME is one of: \(ReportOutput.formats).",
        valueName: "NAME[:FILE]"))
    var reporter: [String] = []

    @Option(name: .long, help: "Suppress the findings recorded in this baseline file (`vclint baseline create`).")
    var baseline: String?

    @OptionGroup var gate: GateOptions

    @Flag(name: .customLong("allow-duplicate-inputs"), help: "Merge shards that report the same input (by its path, however written) instead of refusing them; its findings then count once per shard.")
    var allowDuplicateInputs = false

    @Flag(name: .long, help: "Do not print the summary line on stderr.")
    var quiet = false

    @OptionGroup var color: ColorOption

    @OptionGroup var shape: ReportShapeOptions

    func validate() throws {
        if reports.isEmpty { throw ValidationError("name the JSON reports to merge (vclint merge shard-1.json shard-2.json …)") }
        do {
            _ = try ReporterRequest.parseAll(reporter)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let requests = try ReporterRequest.parseAll(reporter)
        var files: [PendingReportFile] = []
        var result: LintResult
        var context: ReportContext
        var baselineOutcome: Baseline.Outcome?
        do {
            let loaded = try reports.map { path throws(ReportReadError) -> LoadedReport in
                var r = try LoadedReport.read(path: path)
                r.path = path
                return r
            }
            let merged = try ReportMerger.merge(loaded, allowingDuplicates: allowDuplicateInputs)
            result = merged.result
            // A report file must not overwrite one of the reports being merged.
            try ReportTransaction.refuseInputs(requests.compactMap(\.path), inputs: reports.map { .file($0) },
                                               others: baseline.map { [.init($0, "the --baseline file")] } ?? [])
            for r in requests { if let path = r.path { files.append(try PendingReportFile(path: path)) } }
            let known = try baseline.map { try Baseline.load(path: $0) }
            var configuration = merged.configuration
            if let known, let path = baseline {
                let recorded = RunConfiguration(options: LintOptions(), baseline: known).baseline
                if let applied = configuration.baseline {
                    // The shards left these findings out already; applied again, it would find none.
                    guard applied.digest == recorded?.digest else {
                        throw ReportReadError(path: path, reason: .other("the shards were linted with another baseline; pass --baseline to the shards or to merge, not both"))
                    }
                    printError("vclint: the shards were linted with the baseline \(path) already; its findings are left out of their reports")
                } else {
                    let outcome = known.apply(to: result)
                    result = outcome.result
                    baselineOutcome = outcome
                    configuration.baseline = recorded
                }
            }
            if gate.strict {
                result = result.promotingWarnings()
                configuration.strict = true
            }
            context = ReportContext(configuration: configuration, maxWarnings: gate.maxWarnings)
            shape.apply(to: &context)
            try ReportTransaction(files).commit(requests.filter { $0.path != nil }.map { ReportOutput.reporter($0.name, context).writer(for: result) })
        } catch let error as ReportReadError {
            files.forEach { $0.discard() }
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as Baseline.LoadError {
            files.forEach { $0.discard() }
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as ReportFileError {
            files.forEach { $0.discard() }
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
        if let r = requests.first(where: { $0.path == nil }) {
            writeStdout(ReportOutput.stdoutReporter(r.name, context, color: color.stdout).writer(for: result))
        }
        if let outcome = baselineOutcome, let path = baseline { ReportOutput.baselineNotes(outcome, path: path) }
        printInputWarnings(result)
        if !quiet {
            RunSummary.unreadNotes(result).forEach(printError)
            printText(RunSummary.line(result, color: color.stderr, reports: reports.count))
        }
        try gate.check(result)
    }
}
