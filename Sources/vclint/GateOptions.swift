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
