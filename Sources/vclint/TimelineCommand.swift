import ArgumentParser
import VCLintCore

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show every controller's lifecycle side by side, or export the timeline (JSON, Chrome trace).",
        discussion: """
        Per session (one run of the app), a swimlane per controller instance: . loaded, > appearing, \
        # visible, < disappearing, - hidden, X deallocated, ! a finding. Above the lanes each transition \
        is labelled with what the timeline made of it: push, pop, present, dismiss, sheet, tab, child, \
        cancelled swipe-back, or push/present and pop/dismiss where the log cannot tell them apart \
        (log `X present end`/`X dismiss end` in completion blocks, or willMove(toParent:), and it can). \
        Below, a ruler of log lines, the transitions with their members, removals, deallocs and findings.

        The text fits the terminal (or --width); colored on a terminal unless NO_COLOR is set, or as \
        --color says (always, never). \
        Left to right is one step per event by default; --axis time spaces events by their timestamps. \
        --from/--to zoom on a line range or a time of day.

        --format json prints the timeline as data (sessions, instances with their state intervals and \
        callbacks, transitions with kind and members, findings); --format chrome-trace prints Trace Event \
        Format JSON for ui.perfetto.dev or chrome://tracing: a process per session, a track per controller.

        Examples:
          vclint timeline Fixtures/seeds/navtest-seed000.log
          vclint timeline capture.log --from 1200 --to 1400 --width 160
          vclint timeline capture.log --format chrome-trace --output capture.trace.json

        Exit codes: 0 the timeline was written, 2 the run failed (unreadable input, bad arguments).
        """
    )

    @Argument(help: "Log files or directories; - or nothing for standard input.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp(ViewFormats.timeline.help, valueName: "format"), completion: .list(ViewFormats.timeline.names))
    var format: String = ViewFormats.timeline.defaultName

    @Option(name: .long, help: "Write to this file (replaced only once complete) instead of standard output.")
    var output: String?

    @Option(name: .customLong("width"), parsing: .unconditional,
            help: ArgumentHelp("Text width in columns, 40 to 1000 (default: the terminal's, else $COLUMNS, else 100; clamped to 40…1000).", valueName: "width"))
    var widthText: String?

    /// --width, checked by `validate()`.
    var width: Int? { NumberArgument.checked(widthText) { try NumberArgument.whole($0, option: "--width", NumberArgument.width) } }

    @Option(name: .long, help: "Left to right: one step per event (events), or by timestamp (time).")
    var axis: TimelineAxis = .events

    @Option(name: .long, parsing: .unconditional, help: "Text: start at this line number (1 or more) or time of day (17:30:30.5, or 2017-02-11T17:30:30).")
    var from: String?

    @Option(name: .long, parsing: .unconditional, help: "Text: end at this line number or time of day.")
    var to: String?

    @OptionGroup var ruleOptions: RuleOptions

    @OptionGroup var baselineOption: BaselineOption

    @OptionGroup var color: ColorOption

    func validate() throws {
        if let problem = ViewFormats.timeline.problem(with: format) { throw ValidationError(problem) }
        if let widthText { _ = try NumberArgument.whole(widthText, option: "--width", NumberArgument.width) }
        for (name, value) in [("--from", from), ("--to", to)] {
            guard let value, TimelineBound.parse(value) == nil else { continue }
            if let why = TimelineBound.invalidDate(value) {
                throw ValidationError("\(name) '\(value)' is not a day of the calendar: \(why)")
            }
            if let n = Int(value.trimmingCharacters(in: .whitespaces)), n < 1 {
                throw ValidationError("\(name) must be a line number, 1 or more, or a time of day (HH:MM:SS.fff), not '\(value)'")
            }
            throw ValidationError("\(name) '\(value)' is neither a line number (1 or more) nor a time of day (HH:MM:SS.fff)")
        }
        if let from, let to, let a = TimelineBound.parse(from), let b = TimelineBound.parse(to), TimelineBound.isReversed(from: a, to: b) {
            throw ValidationError("--from \(from) comes after --to \(to), which shows nothing; did you mean --from \(to) --to \(from)?")
        }
        if format != TimelineTextRenderer.identifier, from != nil || to != nil {
            let whole = ViewFormats.timeline.names.filter { $0 != TimelineTextRenderer.identifier }
            throw ValidationError("--from/--to zoom the text timeline; the \(ListWording.spoken(whole, "and")) formats hold the whole timeline")
        }
    }

    func run() throws {
        let known = try baselineOption.load()
        let (result, _, file) = try VisualRun.load(paths, ruleOptions, output: output, command: Self.self, classes: false,
                                                   others: baselineOption.baseline.map { [$0] } ?? [])
        let (_, baselined) = baselineOption.apply(known, to: result)
        let window = TimelineWindow(from: from.flatMap(TimelineBound.parse), to: to.flatMap(TimelineBound.parse))
        let toFile = file != nil
        let painted = color.color == .always || (!toFile && color.stdout)
        let drawing = TimelineDrawing(width: width ?? (toFile ? 100 : Terminal.width), color: painted, axis: axis, window: window)
        let view = ViewFormats.timeline.format(named: format, context: drawing)!
        try VisualRun.emit(view.writer(for: TimelineInput.from(result, baselined: baselined)), to: file)
    }
}

extension TimelineAxis: ExpressibleByArgument {}
