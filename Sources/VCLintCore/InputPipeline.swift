/// Per-input statistics (the JSON report's `inputs[]`), added up from the three parts of the front
/// end when the input ends (`InputPipeline.finish`).
public struct InputStats: Sendable {
    public var path: String
    public var lines = 0
    public var bytes = 0
    /// Lines that carried a lifecycle event or a UIKit warning.
    public var events = 0
    public var sessions = 0
    public var controllers = 0
    public var formats: [EnvelopeFormat: Int] = [:]
    /// Lines longer than the read buffer: parsed by their head, counted here.
    public var overlongLines = 0
    /// Objects of a JSON array (`log show --style json`) larger than `JSONArrayReader.maxObjectBytes`:
    /// skipped, counted here.
    public var oversizedObjects = 0
    /// Lines on which a custom dialect's pattern hit PCRE2's match or depth limit (not parsed by it).
    public var patternLimitHits = 0
    /// Class names on which an `ignore_classes` or `persistent_classes` pattern hit PCRE2's match or
    /// depth limit (not matched by it).
    public var classPatternLimitHits = 0
    /// Lines that mention a callback name but were not read as an event, and the first of them: a
    /// capture in a shape vclint cannot read must not look clean (docs/lifecycle.md#mentions-and-unread-lines).
    public var unrecognized = 0
    public var firstUnrecognized: Int?
    /// Events whose label the unified log redacted (`<private> viewDidLoad`), and the first of them
    /// (docs/lifecycle.md#redacted-labels).
    public var redacted = 0
    public var firstRedacted: Int?
    /// Of `events`, those that were only an initializer (`Firebase initialized`, `-[X init]`): alone
    /// they say nothing about a screen's lifecycle, so an input of nothing else is not read.
    public var initializers = 0

    public init(path: String) { self.path = path }
}

/// One input's front end, composed as ripgrep composes a searcher and its sink: the scanner turns
/// bytes into lines and pushes them to the event stage, directly or through the pipe that runs the
/// stage on a second thread; the stage turns lines into events for the timeline builder. No part
/// owns another's job: this is where they meet, and where the input's statistics are added up.
/// `Linter` runs one per input; live mode (`LiveLinter`) runs one it keeps feeding.
public final class InputPipeline {
    public let path: String
    let builder: TimelineBuilder
    let stage: EventStage
    /// The scanner, by its sink's type: each case calls code specialized for its sink (an
    /// existential would run the scanner's generic code, every line's sink call dispatched).
    private enum Scanner {
        case direct(LogScanner<EventStage>)
        case piped(LogScanner<EventPipe>)
    }
    private let scanner: Scanner
    /// `vclint inspect`'s recorder, when the options ask for it.
    let inspector: InspectRecorder?
    /// What the input's first bytes say of its lines (classic Mac line ends, a JSON array), for the
    /// bytes fed through `read` or `scan(fd:head:)`.
    @exclusivity(unchecked) private var front = LineEndTranslator()

    /// The parts `options` describe. `pipelined` applies only when neither live mode nor inspect
    /// is on (both read on one thread).
    public init(path: String, options: LintOptions = LintOptions()) {
        self.path = path
        builder = TimelineBuilder(options: options.timeline)
        stage = EventStage(builder: builder, customDialects: options.customDialects)
        if options.inspect {
            let recorder = InspectRecorder()
            stage.observer = recorder
            stage.parser.recordShapes = true
            inspector = recorder
        } else {
            inspector = nil
        }
        // Live mode follows every line's time: a leak is due once its grace period has passed.
        let sampleInterval = options.timeline.live ? 1 : 64 * 1024
        if options.pipelined && !options.timeline.live && !options.inspect {
            let pipe = EventPipe(stage: stage, customDialects: options.customDialects, size: options.pipeBatch)
            let scanner = LogScanner(sink: pipe, chunkSize: options.chunkSize, customDialects: options.customDialects,
                                     prefilter: options.prefilter, sampleInterval: sampleInterval)
            scanner.progress = options.progress
            scanner.mapWindow = options.mapWindow
            scanner.windowMapped = options.windowMapped
            self.scanner = .piped(scanner)
        } else {
            let scanner = LogScanner(sink: stage, chunkSize: options.chunkSize, customDialects: options.customDialects,
                                     prefilter: options.prefilter, sampleInterval: sampleInterval)
            scanner.progress = options.progress
            scanner.mapWindow = options.mapWindow
            scanner.windowMapped = options.windowMapped
            self.scanner = .direct(scanner)
        }
    }

    /// Feeds the input's bytes as read (any split) through the translator its first bytes choose:
    /// classic Mac line ends become LFs, a JSON array's objects ndjson lines (`LineEndTranslator`).
    public func read(_ bytes: UnsafeRawBufferPointer) {
        front.pass(bytes) { consume($0) }
    }

    /// The input fed through `read` ended (what the translator held back is read); once.
    public func endOfInput() {
        front.finish { consume($0) }
    }

    /// Feeds bytes straight to the scanner, untranslated; chunk boundaries may fall anywhere.
    public func consume(_ bytes: UnsafeRawBufferPointer) {
        switch scanner {
        case .direct(let s): s.consume(bytes)
        case .piped(let s): s.consume(bytes)
        }
    }

    /// Reads a file descriptor to its end (`InputReadError` when a read fails).
    public func scan(fd: Int32) throws {
        var limit = ReadLimit.none
        switch scanner {
        case .direct(let s): try s.scan(fd: fd, limit: &limit)
        case .piped(let s): try s.scan(fd: fd, limit: &limit)
        }
    }

    /// Reads a file descriptor to its end (or to `limit`), `head` (bytes already read) first,
    /// translating classic Mac line ends when the input has them (`LineEndTranslator`).
    func scan(fd: Int32, head: [UInt8], limit: inout ReadLimit) throws {
        switch scanner {
        case .direct(let s): try LineEndTranslator.scan(fd: fd, head: head, limit: &limit, into: s, through: &front)
        case .piped(let s): try LineEndTranslator.scan(fd: fd, head: head, limit: &limit, into: s, through: &front)
        }
    }

    /// Ends the input: the scanner reads its last line and finishes its sink, the timeline ends
    /// every session; the statistics are the three parts' counts together. A JSON array's lines
    /// count as `json` and its bytes as the file's, not as the ndjson lines they were read as.
    public func finish() -> (InputStats, TimelineSummary) {
        endOfInput()
        let scan: ScanStats, limitHits: Int
        switch scanner {
        case .direct(let s): (scan, limitHits) = (s.finish(), s.sink.patternLimitHits)
        case .piped(let s): (scan, limitHits) = (s.finish(), s.sink.patternLimitHits)
        }
        let summary = builder.finish()
        var stats = InputStats(path: path)
        stats.lines = scan.lines
        stats.bytes = scan.bytes
        stats.formats = scan.formats
        stats.overlongLines = scan.overlongLines
        if front.mode == .json {
            stats.bytes += front.bytesRemoved
            // Every line of the array is part of it (the scanner counts the empty lines left of its
            // members as continuations of the object before, the first ones as bare).
            stats.formats = stats.lines > 0 ? [.json: stats.lines] : [:]
            stats.oversizedObjects = front.oversizedObjects
            inspector?.renameEnvelope(.ndjson, to: .json)
        }
        stats.events = stage.events
        stats.initializers = stage.initializers
        stats.unrecognized = stage.unread
        stats.firstUnrecognized = stage.firstUnread
        stats.redacted = stage.redacted
        stats.firstRedacted = stage.firstRedacted
        stats.patternLimitHits = limitHits
        stats.classPatternLimitHits = builder.classPatternLimitHits
        stats.sessions = summary.sessions
        stats.controllers = summary.controllers
        return (stats, summary)
    }

    /// The timeline's observations that the rules judge: in an input whose labels were redacted
    /// (`<private> viewDidLoad`), the unnamed controller is many screens that nothing tells apart,
    /// and what the timeline observed of it is not judged (`redacted_labels` says why).
    static func judged(_ o: Observation, _ redacted: Int) -> Bool {
        redacted == 0 || o.controller.className != MessageParser.unnamed
    }

    static func judged(_ list: ObservationList, _ stats: InputStats) -> ObservationList {
        stats.redacted == 0 ? list : list.filter { judged($0, stats.redacted) }
    }

    /// What the rules observe of the input as a whole, once it has ended (batch and live mode alike).
    static func inputObservations(_ stats: InputStats) -> [Observation] {
        if stats.redacted > 0, let first = stats.firstRedacted {
            return [Observation(RedactedLabels(statements: stats.redacted), controller: RedactedLabelsRule.subject, line: first, time: nil)]
        }
        guard stats.events == stats.initializers else { return [] }
        return [Observation(NoLifecycleEvents(lines: stats.lines, unread: stats.unrecognized, firstUnread: stats.firstUnrecognized,
                                              initializers: stats.initializers),
                            controller: NoLifecycleEventsRule.subject, line: stats.firstUnrecognized ?? 1, time: nil)]
    }
}
