/// Every view's formats: what `--format` of `vclint timeline`, `leaks` and `inspect` takes. Adding
/// a format is a type conforming to `ViewFormat` and one entry here; the command's help, its
/// validation and its error for an unknown name come from the entry.
public enum ViewFormats {
    /// `vclint timeline`, in the order its help lists them (the first is the default).
    public static let timeline = ViewFormatRegistry<[TimelineInput], TimelineDrawing>(command: "timeline", [
        ViewFormatEntry(TimelineTextRenderer.self) { TimelineTextRenderer(width: $0.width, color: $0.color, axis: $0.axis, window: $0.window) },
        ViewFormatEntry(TimelineJSON.self) { _ in TimelineJSON() },
        ViewFormatEntry(ChromeTrace.self) { _ in ChromeTrace() },
    ])

    /// `vclint leaks`: the context is the run's configuration, which the JSON records so that the
    /// reports of shards can be merged (nil leaves it out).
    public static let leaks = ViewFormatRegistry<LeakReport, RunConfiguration?>(command: "leaks", [
        ViewFormatEntry(LeakText.self) { _ in LeakText() },
        ViewFormatEntry(LeakJSON.self) { LeakJSON(configuration: $0) },
        ViewFormatEntry(LeakMarkdown.self) { _ in LeakMarkdown() },
        ViewFormatEntry(LeakHTML.self) { _ in LeakHTML() },
    ])

    /// `vclint inspect`.
    public static let inspect = ViewFormatRegistry<[Inspection], Void>(command: "inspect", [
        ViewFormatEntry(InspectionText.self) { _ in InspectionText() },
        ViewFormatEntry(InspectionJSON.self) { _ in InspectionJSON() },
    ])
}

/// What `vclint timeline` tells its formats beyond the inputs: how the text is drawn (the data
/// formats hold the whole timeline and need none of it).
public struct TimelineDrawing: Sendable {
    /// Columns (40 at least).
    public var width: Int
    /// ANSI colors, for a terminal that shows them.
    public var color: Bool
    public var axis: TimelineAxis
    /// `--from`/`--to`.
    public var window: TimelineWindow

    public init(width: Int = 100, color: Bool = false, axis: TimelineAxis = .events, window: TimelineWindow = TimelineWindow()) {
        self.width = width
        self.color = color
        self.axis = axis
        self.window = window
    }
}
