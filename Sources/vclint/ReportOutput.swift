import Foundation
import VCLintCore

/// Reporters and stderr notes as `lint` and `merge` print them.
enum ReportOutput {
    /// The reporter `name` of a run's report file (no color, not on a terminal).
    static func reporter(_ name: String, _ context: ReportContext) -> any Reporter {
        ReporterRegistry.reporter(named: name, context: context)!
    }

    /// The reporter `name` printing on stdout: `color` as --color decided, and for a person when
    /// stdout is a terminal (the xcode format folds infos there).
    static func stdoutReporter(_ name: String, _ context: ReportContext, color: Bool) -> any Reporter {
        var context = context
        context.color = color
        context.terminal = isatty(1) == 1
        return reporter(name, context)
    }

    /// The reporter `name`, which `lint --follow` streams (validated: `streamingFormats` holds it).
    static func streamingReporter(_ name: String, _ context: ReportContext, color: Bool) -> any StreamingReporter {
        stdoutReporter(name, context, color: color) as! any StreamingReporter
    }

    /// `xcode, github-actions or json`: the formats `lint --follow` can print on stdout.
    static var streamingFormats: String {
        ListWording.spoken(ReporterRegistry.streamingNames, "or")
    }

    /// `--reporter`'s list of formats: `xcode (default, one line per finding, …), json (…), …`.
    static var formats: String {
        ReporterRegistry.entries.map { e in
            "\(e.identifier) (\(e.identifier == ReporterRegistry.defaultName ? "default, " : "")\(e.summary))"
        }.joined(separator: ", ")
    }

    static func baselineNotes(_ outcome: Baseline.Outcome, path: String) {
        printError("vclint: \(outcome.suppressed) finding\(outcome.suppressed == 1 ? "" : "s") suppressed by the baseline \(path)")
        for e in outcome.stale {
            printError("vclint: baseline entry no longer occurs: \(e.rule) \(e.className) (fingerprint \(e.fingerprint))")
        }
    }
}
