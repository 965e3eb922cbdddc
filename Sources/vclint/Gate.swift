import ArgumentParser
import Foundation
import VCLintCore

/// What fails a run (exit 1), shared by `lint` and `merge`.
struct GateOptions: ParsableArguments {
    @Flag(name: .long, help: "Report warnings as errors (in every format) and fail (exit 1) on them, as SwiftLint's --strict does.")
    var strict = false

    @Option(name: .long, help: "Fail (exit 1) when there are more than N warnings; stderr says so.")
    var maxWarnings: Int?

    func validate() throws {
        if let maxWarnings, maxWarnings < 0 { throw ValidationError("--max-warnings must be 0 or more") }
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

/// `--color auto|always|never`: colored findings and summary; auto means on a terminal, and
/// never with NO_COLOR set (https://no-color.org), which --color always overrides, as ripgrep's does.
struct ColorOption: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(name: .long, help: "Color the output: auto (on a terminal, unless NO_COLOR is set), always (CI logs that show colors), or never.")
    var color: Choice = .auto

    func enabled(fd: Int32) -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            if let v = ProcessInfo.processInfo.environment["NO_COLOR"], !v.isEmpty { return false }
            return isatty(fd) == 1
        }
    }

    var stdout: Bool { enabled(fd: 1) }
    var stderr: Bool { enabled(fd: 2) }
}

/// Reporters and stderr notes as `lint` and `merge` print them.
enum ReportOutput {
    static func reporter(_ name: String, _ context: ReportContext, color: Bool) -> any Reporter {
        if name == XcodeReporter.identifier { return XcodeReporter(color: color) }
        return ReporterRegistry.reporter(named: name, context: context)!
    }

    static func baselineNotes(_ outcome: Baseline.Outcome, path: String) {
        printError("vclint: \(outcome.suppressed) finding\(outcome.suppressed == 1 ? "" : "s") suppressed by the baseline \(path)")
        for e in outcome.stale {
            printError("vclint: baseline entry no longer occurs: \(e.rule) \(e.className) (fingerprint \(e.fingerprint))")
        }
    }
}
