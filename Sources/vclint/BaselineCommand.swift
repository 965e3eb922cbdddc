import ArgumentParser
import VCLintCore

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record today's findings so that CI fails only on new ones.",
        subcommands: [Create.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Lint the captures and record every finding by fingerprint.",
            discussion: """
            Fingerprints come from the rule, the controller's class and the kind of cause (never the path, \
            line, time or address), so `vclint lint --baseline FILE` also suppresses the same bugs in \
            tomorrow's capture. A new kind of finding still fails the run.
            """
        )

        @Argument(help: "Log files or directories; - or nothing for standard input.")
        var paths: [String] = []

        @Option(name: .long, help: "Where to write the baseline (replaced only once complete); - for standard output.")
        var output: String = ".vclint-baseline.json"

        @OptionGroup var ruleOptions: RuleOptions

        func run() throws {
            let (options, configuration) = try ruleOptions.resolve()
            let linter = Linter(options: options)
            do {
                let sources = try ruleOptions.inputs(paths, configuration, command: Self.self)
                // `-`: standard output, as for every option that names a file to write.
                let toStdout = output == "-"
                if !toStdout { try ReportTransaction.refuseInputs([output], inputs: sources, others: ruleOptions.otherInputs) }
                let file = toStdout ? nil : try PendingReportFile(path: output)
                let result = linter.lintAll(sources)
                // A baseline without some input's findings would hide them tomorrow: none is written.
                if !result.failures.isEmpty {
                    file?.discard()
                    for failure in result.failures { printError("vclint: error: \(failure.description)") }
                    throw ExitCode(2)
                }
                let baseline = Baseline(result: result)
                if let file { try file.commit(baseline.serialized()) } else { writeStdout(baseline.serialized()) }
                let n = result.findings.count
                let place = toStdout ? "on standard output" : "in \(output)"
                printError("vclint: recorded \(n) finding\(n == 1 ? "" : "s") (\(baseline.entries.count) fingerprint\(baseline.entries.count == 1 ? "" : "s")) \(place)")
            } catch let error as InputError {
                printError("vclint: error: \(error.description)")
                throw ExitCode(2)
            } catch let error as ReportFileError {
                printError("vclint: error: \(error.description)")
                throw ExitCode(2)
            }
        }
    }
}
