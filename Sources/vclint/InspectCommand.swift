import ArgumentParser
import VCLintCore

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what vclint understood of a capture: why did it say nothing about my log?",
        discussion: """
        For each input: the envelopes found (with an example line each), the dialects that read its \
        lifecycle lines (for the app's own free-form statements, each shape with an example and how many \
        lines it read), the sessions (one per run of the app), what each class logs (a rule needs its \
        callbacks: a class that logs no dealloc cannot leak in vclint's eyes), and the lines that mention \
        lifecycle callbacks without being read, grouped by shape: a .vclint.yml dialect that reads a \
        shape that repeats as a lifecycle statement of the app's own format, and for any other shape \
        (a sentence that mentions a callback is noise) why it gets none. The first thing to run when `vclint lint` reports no_lifecycle_events or unread lines.

        Examples:
          vclint inspect capture.log
          vclint inspect captures/ --format json

        Exit codes: 0 inspected, 2 the run failed (unreadable input, bad configuration).
        """
    )

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp(ViewFormats.inspect.help, valueName: "format"), completion: .list(ViewFormats.inspect.names))
    var format: String = ViewFormats.inspect.defaultName

    @Option(name: .long, help: "Write to this file (replaced only once complete) instead of standard output.")
    var output: String?

    @OptionGroup var ruleOptions: RuleOptions

    func validate() throws {
        if let problem = ViewFormats.inspect.problem(with: format) { throw ValidationError(problem) }
    }

    func run() throws {
        let (result, _, file) = try VisualRun.load(paths, ruleOptions, output: output, command: Self.self, inspect: true, lanes: false)
        let view = ViewFormats.inspect.format(named: format)!
        try VisualRun.emit(view.writer(for: result.files.compactMap(\.inspection)), to: file)
    }
}
