import ArgumentParser
import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// What `timeline`, `leaks` and `report` share: the captures linted with the timeline recorded,
/// and the result written to stdout or, atomically, to `--output`.
enum VisualRun {
    /// Lints the inputs with the timeline recorded. An unreadable input or a bad configuration
    /// prints one line and exits 2; `output` (when given) is opened first so a bad path fails at once.
    /// `lanes`: whether the views draw swimlanes (`TimelineOptions.recordLanes`); `leaks` and
    /// `inspect` do not, and their recording follows the classes, not the instances or the events.
    /// `classes`: whether they read the instances per class (`TimelineOptions.summarizesClasses`; `timeline` does not).
    static func load(_ paths: [String], _ ruleOptions: RuleOptions, output: String?, command: ParsableCommand.Type,
                     inspect: Bool = false, lanes: Bool = true, classes: Bool = true,
                     others: [String] = []) throws -> (LintResult, LintOptions, PendingReportFile?) {
        let (result, options, file, _) = try loadWithSources(paths, ruleOptions, output: output, command: command, inspect: inspect, lanes: lanes,
                                                             classes: classes, others: others)
        return (result, options, file)
    }

    /// `load`, with the inputs the paths named (in the order of `result.files`). `others`: files the
    /// run reads besides its captures and configuration (a `--baseline`), which `output` must not be.
    static func loadWithSources(_ paths: [String], _ ruleOptions: RuleOptions, output: String?, command: ParsableCommand.Type,
                                inspect: Bool = false, lanes: Bool = true, classes: Bool = true,
                                others: [String] = []) throws -> (LintResult, LintOptions, PendingReportFile?, [InputSource]) {
        var (options, configuration) = try ruleOptions.resolve()
        options.timeline.recordTimeline = true
        options.timeline.recordLanes = lanes
        options.timeline.summarizesClasses = classes
        // Only the inspection reads the classes whole.
        options.timeline.keepsClasses = inspect
        options.inspect = inspect
        var file: PendingReportFile?
        do {
            let sources = try ruleOptions.inputs(paths, configuration, command: command)
            if let output, output != "-" {
                try ReportTransaction.refuseInputs([output], inputs: sources,
                                                   others: ruleOptions.otherInputs + others.map { .init($0, "the --baseline file") })
                file = try PendingReportFile(path: output)
            }
            let result = try Linter(options: options).lint(sources)
            printInputWarnings(result)
            return (result, options, file, sources)
        } catch let error as InputError {
            file?.discard()
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        } catch let error as ReportFileError {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
    }

    /// Streams what `write` produces into the pending file, or to stdout when there is none: a
    /// timeline or report is written as it is drawn, never held whole.
    static func emit(_ write: @escaping ReportWriting, to file: PendingReportFile?) throws {
        guard let file else {
            writeStdout(write)
            return
        }
        do {
            try file.commit(write)
        } catch {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
    }
}

/// The terminal: its width (`ioctl(TIOCGWINSZ)` on stdout, else `COLUMNS`, else 100). Whether to
/// color is `ColorOption`'s.
enum Terminal {
    static var isTTY: Bool { isatty(1) == 1 }

    /// Clamped to 40…1000 columns (`NumberArgument.environmentWidth`): COLUMNS=2147483647 is not a
    /// request for a 2-gigacolumn timeline.
    static var width: Int {
        if isTTY {
            var ws = winsize()
            if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return NumberArgument.environmentWidth(Int(ws.ws_col)) }
        }
        return NumberArgument.environmentWidth(NumberArgument.columns(ProcessInfo.processInfo.environment["COLUMNS"]))
    }
}
