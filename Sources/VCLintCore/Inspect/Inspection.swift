#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What vclint understood of one capture (`vclint inspect`): the envelopes and dialects it found
/// (each free-form shape with an example line and how many lines it read), the sessions, what each
/// class logs (the instrumentation that decides which rules apply to it), and the lines that
/// mention callbacks without being read, grouped by shape: a `.vclint.yml` dialect that reads a
/// group when its shape is a lifecycle statement of the capture's own format, else why it is not
/// (`InspectRecorder.unreadGroup`). It answers "why did vclint say nothing about my log?".
public struct Inspection: Sendable {
    public struct Example: Sendable, Equatable {
        public var line: Int
        public var text: String
    }

    public struct Envelope: Sendable {
        /// nil: lines without an envelope of their own (bare lines, continuations).
        public var format: EnvelopeFormat?
        public var lines: Int
        public var example: Example?
    }

    /// A built-in dialect, or one shape of the capture's free-form statements.
    public struct Shape: Sendable {
        public var dialect: Dialect
        /// The free-form shape (`{label} – {callback}`); nil for the built-in dialects.
        public var template: String?
        public var lines: Int
        public var callbacks: [EventKind]
        /// Distinct labels (classes) seen with it, counted up to `Inspection.labelLimit`.
        public var labels: Int
        public var example: Example
    }

    public struct Session: Sendable {
        public var id: Int
        public var process: String
        public var pid: Int?
        public var firstLine: Int
        public var lastLine: Int
        public var events: Int
        public var controllers: Int
        /// Of the instances, the objects and the SwiftUI views (not in `controllers`).
        public var objects = 0
        public var views = 0
        public var start: LogTime?
        public var end: LogTime?
    }

    /// A class as the recording sums it (`RecordedClass`, its dialects and callbacks packed: 400k classes cost no
    /// arrays of their own).
    public struct ClassInfo: Sendable, CustomStringConvertible {
        let summary: RecordedClass
        public var name: String { summary.name }
        public var dialects: [Dialect] { summary.dialects }
        public var instances: Int { summary.instances }
        public var callbacks: [EventKind] { summary.callbacks }
        /// Whether a missing dealloc of it is judged (it, or every class of its dialect, logs dealloc).
        public var deallocJudged: Bool { summary.deallocJudged }
        /// An object class (docs/lifecycle.md#objects): it logs only init and deinit.
        public var isObject: Bool { summary.isObject }
        /// A SwiftUI view (docs/lifecycle.md#swiftui-views).
        public var isView: Bool { summary.isView }
        /// An object class's instances by owner class and why (`stem`, `setup`; `none` for
        /// app-lifetime instances), most frequent first.
        public var owners: [(owner: String, reason: String, count: Int)] = []

        /// Its public fields (what `inspect` shows), in order.
        public var description: String {
            "\(name): \(dialects) ×\(instances) \(callbacks) judged \(deallocJudged) object \(isObject) view \(isView) owners \(owners)"
        }

        init(_ summary: RecordedClass) {
            self.summary = summary
            guard summary.isObject else { return }
            owners = summary.owners.map { key, n in
                let parts = key.split(separator: "\u{1F}", omittingEmptySubsequences: false)
                return (owner: String(parts[0]), reason: String(parts[1]), count: n)
            }.sorted { $0.count != $1.count ? $0.count > $1.count : ($0.owner, $0.reason) < ($1.owner, $1.reason) }
        }
    }

    /// A `.vclint.yml` dialect (a PCRE2 pattern, named groups `class` and `event`:
    /// docs/configuration.md#your-apps-own-log-format-dialects).
    public struct SuggestedDialect: Sendable, Equatable {
        public var pattern: String
        /// Captured event text → event kind, in the order of the pattern's alternatives.
        public var events: [(text: String, kind: EventKind)]

        public static func == (a: SuggestedDialect, b: SuggestedDialect) -> Bool {
            a.pattern == b.pattern && a.events.map(\.text) == b.events.map(\.text) && a.events.map(\.kind) == b.events.map(\.kind)
        }

        /// The entry of the configuration's `dialects:` list.
        public var yaml: String {
            let quoted = "'" + pattern.replacingOccurrences(of: "'", with: "''") + "'"
            let map = events.map { "\(Self.yamlKey($0.text)): \($0.kind.rawValue)" }.joined(separator: ", ")
            return "- pattern: \(quoted)\n  events: {\(map)}"
        }

        private static func yamlKey(_ s: String) -> String {
            s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? s : "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    /// Lines that mention callbacks without being read, of one shape.
    public struct UnreadGroup: Sendable {
        /// The lines' shape: digits as `#`, the callback as `{callback}`, the word that would name the
        /// controller as `{class}`.
        public var template: String
        public var lines: Int
        public var example: Example
        /// The callbacks its lines mention.
        public var callbacks: [EventKind]
        /// Distinct words in the `{class}` place, counted up to `Inspection.labelLimit`.
        public var labels: Int
        /// The dialect that reads its lines, when the shape is a lifecycle statement of the capture's own
        /// format (`Inspection.suggests`); nil otherwise, and `reason` says why.
        public var dialect: SuggestedDialect?
        /// Why no dialect is suggested ("mentions callbacks in sentences (`queued`, `screen`): noise").
        public var reason: String?
    }

    public var path: String
    public var lines: Int
    public var events: Int
    public var unread: Int
    /// Events whose label the unified log redacted (`<private> viewDidLoad`), and the first of them.
    public var redacted = 0
    public var firstRedacted: Int?
    public var envelopes: [Envelope]
    public var shapes: [Shape]
    /// Lines of shapes past `shapeLimit`, not listed.
    public var otherShapeLines: Int
    public var sessions: [Session]
    /// The recording's classes, shared with it (not copied: 400k classes are held once).
    var classSummaries: [RecordedClass]
    /// Each class as `inspect` shows it, made as it is read.
    public var classes: LazyMapSequence<[RecordedClass], ClassInfo> { classSummaries.lazy.map(ClassInfo.init) }
    public var unreadGroups: [UnreadGroup]
    /// Unread lines of groups past `groupLimit`, not listed.
    public var otherUnreadLines: Int

    static let shapeLimit = 64
    static let groupLimit = 64
    static let labelLimit = 64
    /// A shape is a format of the capture when it repeats: this many lines, with at least two
    /// callbacks and two labels (docs/lifecycle.md#mentions-and-unread-lines).
    public static let suggestionLines = 3
}

/// Sees the candidate lines of one input as the stage reads them (`LineObserver`), and the first
/// line of each envelope format; bounded by `Inspection.shapeLimit` and `groupLimit`.
final class InspectRecorder: LineObserver {
    private struct ShapeKey: Hashable {
        var dialect: Dialect
        var template: String?
    }
    private struct ShapeStats {
        var lines = 0
        var callbacks = Instrumentation.EventKinds()
        var labels: Set<String> = []
        var example: Inspection.Example
        var order: Int
    }
    private struct GroupStats {
        var lines = 0
        var example: Inspection.Example
        var shape: UnreadShape
        var callbacks = Instrumentation.EventKinds()
        /// The callbacks as printed, in the order seen (at most 32).
        var callbackTexts: [String] = []
        var labels: Set<String> = []
        var order: Int

        mutating func add(_ s: UnreadShape) {
            lines += 1
            if let k = s.kind { callbacks.insert(k) }
            if let c = s.callback, callbackTexts.count < 32, !callbackTexts.contains(c) { callbackTexts.append(c) }
            if let l = s.label, labels.count < Inspection.labelLimit { labels.insert(l) }
        }
    }
    private var shapes: [ShapeKey: ShapeStats] = [:]
    private var otherShapeLines = 0
    private var groups: [String: GroupStats] = [:]
    private var otherUnreadLines = 0
    private(set) var envelopeExamples: [EnvelopeFormat: Inspection.Example] = [:]

    func envelope(_ format: EnvelopeFormat, line: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        if envelopeExamples[format] == nil { envelopeExamples[format] = Inspection.Example(line: line, text: Self.text(bytes)) }
    }

    /// The input's lines were read as another format's (a JSON array's objects as ndjson lines).
    func renameEnvelope(_ format: EnvelopeFormat, to name: EnvelopeFormat) {
        if let example = envelopeExamples.removeValue(forKey: format) { envelopeExamples[name] = example }
    }

    func line(_ number: Int, _ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch parsed.kind {
        case .none, .runner, .evidence:
            return
        case .enveloped, .bare:
            let key = ShapeKey(dialect: parsed.event.dialect, template: parsed.event.dialect == .freeForm ? parsed.template : nil)
            if var s = shapes[key] {
                s.lines += 1
                s.callbacks.insert(parsed.event.kind)
                if s.labels.count < Inspection.labelLimit { s.labels.insert(parsed.value ?? parsed.event.className) }
                shapes[key] = s
            } else if shapes.count < Inspection.shapeLimit {
                var s = ShapeStats(example: Inspection.Example(line: number, text: message(parsed, bytes) { Self.text($0) }), order: shapes.count)
                s.lines = 1
                s.callbacks.insert(parsed.event.kind)
                s.labels.insert(parsed.value ?? parsed.event.className)
                shapes[key] = s
            } else {
                otherShapeLines += 1
            }
        case .unread:
            message(parsed, bytes) { m in
                let shape = UnreadShape.describe(m)
                if var g = groups[shape.template] {
                    g.add(shape)
                    groups[shape.template] = g
                } else if groups.count < Inspection.groupLimit {
                    var g = GroupStats(example: Inspection.Example(line: number, text: Self.text(m)), shape: shape, order: groups.count)
                    g.add(shape)
                    groups[shape.template] = g
                } else {
                    otherUnreadLines += 1
                }
            }
        }
    }

    /// The line's message (what the dialects read): past the envelope, or the decoded ndjson message.
    private func message<T>(_ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let d = parsed.decoded { return d.withUnsafeBufferPointer(body) }
        if parsed.kind != .bare, !parsed.message.isEmpty, parsed.message.upperBound <= bytes.count {
            return body(UnsafeBufferPointer(rebasing: bytes[parsed.message]))
        }
        return body(bytes)
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let r = TextScalars.trimmed(bytes.baseAddress!, 0..<min(bytes.count, 300))
        return String(decoding: UnsafeBufferPointer(start: bytes.baseAddress! + r.lowerBound, count: r.count), as: UTF8.self)
    }

    /// A group, with the dialect that reads it only when its shape is a lifecycle statement of the
    /// capture's own format: a statement by its words (`UnreadShape.Verdict`), repeated over several
    /// lines with two or more callbacks and two or more labels. Anything less is listed with the reason.
    private static func unreadGroup(_ template: String, _ g: GroupStats) -> Inspection.UnreadGroup {
        let callbacks = EventKind.allCases.filter { g.callbacks.contains($0) }
        var group = Inspection.UnreadGroup(template: template, lines: g.lines, example: g.example, callbacks: callbacks,
                                           labels: g.labels.count, dialect: nil, reason: nil)
        func quoted(_ words: [String]) -> String { words.map { "`\($0)`" }.joined(separator: ", ") }
        switch g.shape.verdict {
        case .sentence(let words):
            group.reason = "mentions callbacks in a sentence (\(quoted(words))): noise; no dialect suggested"
        case .callbacks(let names):
            group.reason = "names several callbacks (\(quoted(names))): a sentence about them, noise; no dialect suggested"
        case .noLabel:
            group.reason = "names no controller: no dialect suggested"
        case .statement:
            if g.lines >= Inspection.suggestionLines, callbacks.count >= 2, g.labels.count >= 2 {
                group.dialect = g.shape.dialect(callbacks: g.callbackTexts)
            } else {
                let seen = "\(RunSummary.plural(callbacks.count, "callback")) and \("\(g.labels.count) \(g.labels.count == 1 ? "class" : "classes")") in \(RunSummary.plural(g.lines, "line"))"
                group.reason = "seen with \(seen): a format of the capture repeats with several callbacks and classes; no dialect suggested"
            }
        }
        return group
    }

    func inspection(stats: InputStats, recording: TimelineRecording?) -> Inspection {
        var envelopes: [Inspection.Envelope] = stats.formats.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }.map {
            Inspection.Envelope(format: $0.key, lines: $0.value, example: envelopeExamples[$0.key])
        }
        let enveloped = stats.formats.filter { $0.key != .bare }.values.reduce(0, +)
        if stats.formats.isEmpty && stats.lines > 0 || stats.lines > enveloped + (stats.formats[.bare] ?? 0) {
            envelopes.append(Inspection.Envelope(format: nil, lines: stats.lines - enveloped - (stats.formats[.bare] ?? 0), example: nil))
        }
        let listed = shapes.sorted { $0.value.lines != $1.value.lines ? $0.value.lines > $1.value.lines : $0.value.order < $1.value.order }.map { k, s in
            Inspection.Shape(dialect: k.dialect, template: k.template, lines: s.lines, callbacks: EventKind.allCases.filter { s.callbacks.contains($0) },
                             labels: s.labels.count, example: s.example)
        }
        let unread = groups.sorted { $0.value.lines != $1.value.lines ? $0.value.lines > $1.value.lines : $0.value.order < $1.value.order }.map { t, g in
            Self.unreadGroup(t, g)
        }
        var sessions: [Inspection.Session] = []
        if let recording {
            for (k, s) in recording.sessions.enumerated() {
                let n = recording.instanceCounts[k]
                sessions.append(Inspection.Session(id: s.id, process: s.process, pid: s.pid, firstLine: s.firstEvent.line, lastLine: s.lastEvent.line,
                                                   events: s.eventCount, controllers: n.controllers, objects: n.objects, views: n.views,
                                                   start: s.firstEvent.time, end: s.endTime ?? s.lastEvent.time))
            }
        }
        return Inspection(path: stats.path, lines: stats.lines, events: stats.events, unread: stats.unrecognized,
                          redacted: stats.redacted, firstRedacted: stats.firstRedacted,
                          envelopes: envelopes, shapes: listed, otherShapeLines: otherShapeLines, sessions: sessions, classSummaries: recording?.classes ?? [],
                          unreadGroups: unread, otherUnreadLines: otherUnreadLines)
    }
}

