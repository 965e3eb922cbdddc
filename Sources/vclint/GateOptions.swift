import ArgumentParser
import VCLintCore

/// What fails a run (exit 1), shared by `lint` and `merge`.
struct GateOptions: ParsableArguments {
    @Flag(name: .long, help: "Report warnings as errors (in every format) and fail (exit 1) on them, as SwiftLint's --strict does.")
    var strict = false

    @Option(name: .customLong("max-warnings"), parsing: .unconditional,
            help: ArgumentHelp("Fail (exit 1) when there are more than N warnings (N: 0 or more); stderr says so.", valueName: "max-warnings"))
    var maxWarningsText: String?

    /// --max-warnings, checked by `validate()`.
    var maxWarnings: Int? { NumberArgument.checked(maxWarningsText, Self.parse) }

    private static func parse(_ text: String) throws -> Int {
        try NumberArgument.whole(text, option: "--max-warnings", NumberArgument.maxWarnings)
    }

    func validate() throws {
        if let maxWarningsText { _ = try Self.parse(maxWarningsText) }
    }

    /// Exit 1 when a finding is an error (with --strict, warnings already are) or when there are more
    /// warnings than --max-warnings allows, which one stderr line says: a CI log must show why it failed.
    func check(_ result: LintResult) throws {
        var failing = result.count(.error) > 0
        let warnings = result.count(.warning)
        if let maxWarnings, warnings > maxWarnings {
            printError("vclint: \(warnings) warning\(warnings == 1 ? "" : "s"), more than --max-warnings \(maxWarnings) allows")
            failing = true
        }
        if failing { throw ExitCode(1) }
    }
}

/// `--baseline` for the commands that show findings rather than gate on them (`report`, `leaks`,
/// `timeline`): a finding the baseline records is shown greyed, counted apart, and fails nothing, so
/// that these agree with `lint --baseline` (docs/visual.md#baselines).
struct BaselineOption: ParsableArguments {
    @Option(name: .long, help: "Show the findings recorded in this baseline file (`vclint baseline create`) as baselined: greyed, counted apart, failing nothing.")
    var baseline: String?

    /// The baseline, loaded (one stderr line and exit 2 when it cannot be); nil without --baseline.
    func load() throws -> Baseline? {
        guard let baseline else { return nil }
        do {
            return try Baseline.load(path: baseline)
        } catch let error as Baseline.LoadError {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
    }

    /// The findings that fail (the baselined ones taken out), and the baseline's fingerprints; the
    /// baseline's notes (how many it suppressed, its stale entries) on stderr, as `lint` prints them.
    func apply(_ known: Baseline?, to result: LintResult) -> (failing: LintResult, fingerprints: Set<String>) {
        guard let known, let path = baseline else { return (result, []) }
        let outcome = known.apply(to: result)
        ReportOutput.baselineNotes(outcome, path: path)
        return (outcome.result, Set(known.entries.map(\.fingerprint)))
    }
}
