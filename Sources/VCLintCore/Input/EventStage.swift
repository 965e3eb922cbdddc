#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a candidate line says on its own, before the lines around it give it a context. A struct
/// rather than an enum with payloads, so that the stage sets the line number and hands the event on
/// in place (an enum's payload is copied out, and an event's strings with it, at every step).
struct ParsedLine {
    enum Kind: UInt8 {
        /// Not an event (noise, a continuation, a capture's metadata).
        case none
        /// An event in an envelope: its process, pid and time are the envelope's. `message` (or
        /// the decoded ndjson message) is what the message parser read.
        case enveloped
        /// An event in a line without an envelope: it belongs to the context process.
        case bare
        /// Not an event, but it mentions a callback name as a word (lifecycle.md §1): counted, so
        /// that a capture in a shape vclint cannot read never looks clean.
        case unread
    }
    var kind: Kind
    /// Meaningless for `.none` and `.unread`.
    var event: Event
    var process: String? = nil
    var pid: Int? = nil
    var message: Range<Int> = 0..<0
    var decoded: [UInt8]? = nil
    /// A free-form statement's outcome word, printed value and shape (`MessageParser.Note`).
    var phase: FreeFormStatement.Phase = .none
    var value: String? = nil
    var shape: UInt64 = 0
    var template: String? = nil

    /// (Made anew each time: a stored one would be copied, with a global's lazy-initialisation check.)
    static var none: ParsedLine { ParsedLine(kind: .none, event: Event(kind: .dealloc, className: "", dialect: .uikit)) }

    static func enveloped(_ e: consuming Event, process: String?, pid: Int?, message: Range<Int>, decoded: [UInt8]?) -> ParsedLine {
        ParsedLine(kind: .enveloped, event: e, process: process, pid: pid, message: message, decoded: decoded)
    }

    static func bare(_ e: consuming Event) -> ParsedLine { ParsedLine(kind: .bare, event: e) }

    static func unread(message: Range<Int>, decoded: [UInt8]?) -> ParsedLine {
        ParsedLine(kind: .unread, event: Event(kind: .dealloc, className: "", dialect: .uikit), message: message, decoded: decoded)
    }

    /// What the message parser noted besides the event.
    @inline(__always)
    mutating func take(_ note: MessageParser.Note) {
        guard note.phase != .none || note.shape != 0 else { return }
        phase = note.phase
        value = note.value
        shape = note.shape
        template = note.template
    }
}

/// The context-free half of turning a line into an event: envelope, message grammars, timestamp.
/// One per thread (it owns PCRE2 match data and caches); the same line gives the same result in
/// any instance.
final class LineParser {
    let parser: MessageParser
    private var minuteCache = TimestampParser.MinuteCache()
    private var envelopeCache = EnvelopeParser.NSLogCache()
    /// The last process name built, reused while lines come from the same process.
    private var internedName = ""
    private var internedBytes: [UInt8] = []

    init(customDialects: [CustomDialect]) {
        parser = MessageParser(custom: customDialects)
    }

    /// A line the candidate search let through; `format` is its envelope (`EnvelopeParser.classify`)
    /// and `afterEnvelope` whether an enveloped line came before it.
    func parse(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat?, afterEnvelope: Bool) -> ParsedLine {
        // Android's logcat: its messages are not UIKit events, nor lines vclint failed to read.
        if format == .logcat { return .none }
        if let format, format != .bare, let info = EnvelopeParser.parse(p, n, format: format, cache: &envelopeCache) {
            if info.isMetadata { return .none }
            var event: Event?
            if let d = info.decodedMessage {
                event = d.withUnsafeBufferPointer { parser.parse($0) }
            } else {
                event = parser.parse(UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count))
            }
            // The event moves into the result (`take`): no copy of it, nor of its strings.
            guard var e = event.take() else { return parser.note.unread ? .unread(message: info.message, decoded: info.decodedMessage) : .none }
            e.time = EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
            var parsed: ParsedLine
            if info.process == nil, info.decodedProcess == nil, info.pid == nil {
                // A timestamp and no process (`2017-02-11 17:25:16.964 viewDidLoad`): the line keeps
                // its time and belongs to the context process, as a `print` line does.
                parsed = .bare(consume e)
            } else {
                parsed = .enveloped(consume e, process: processName(info, p), pid: info.pid, message: info.message, decoded: info.decodedMessage)
            }
            parsed.take(parser.note)
            return parsed
        }
        // No envelope: a continuation of the previous message (indented, as NSLog prints a
        // dictionary) is part of that message; an unindented complete statement after enveloped
        // lines is a `print` mixed into the console and belongs to the same process.
        if afterEnvelope, n > 0, p[0] == 0x20 || p[0] == 0x09 { return .none }
        guard let e = parser.parse(UnsafeBufferPointer(start: p, count: n)) else { return parser.note.unread ? .unread(message: 0..<n, decoded: nil) : .none }
        var parsed = ParsedLine.bare(e)
        parsed.take(parser.note)
        return parsed
    }

    /// An NSLog envelope with a pid and no process name (`[7397:f803] message`).
    static func isNameless(_ info: EnvelopeInfo) -> Bool {
        info.process == nil && info.decodedProcess == nil && info.pid != nil && info.format != .ndjson
    }

    func time(_ p: UnsafePointer<UInt8>, _ n: Int, info: EnvelopeInfo) -> LogTime? {
        EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
    }

    func processName(_ info: EnvelopeInfo, _ p: UnsafePointer<UInt8>) -> String? {
        if let d = info.decodedProcess { return d }
        // `[7397:f803] message`: NSLog's pid and thread without a name; the pid tells the runs apart.
        guard let r = info.process else { return Self.isNameless(info) ? "" : nil }
        let bytes = UnsafeBufferPointer(start: p + r.lowerBound, count: r.count)
        if bytes.count == internedBytes.count, bytes.count > 0,
           internedBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
            return internedName
        }
        internedBytes = Array(bytes)
        internedName = String(decoding: bytes, as: UTF8.self)
        return internedName
    }
}

/// lines → events → timeline (the second half of `LogScanner`): parses the lines the scanner let
/// through and keeps the context a line's envelope gives to the unenveloped lines after it. It sees
/// the lines in input order, either called by the scanner directly or, for a file with a core to
/// spare, from `EventPipe` on a thread of its own, possibly parsed already (`apply`); all give the
/// same events.
final class EventStage {
    let lines: LineParser
    let builder: TimelineBuilder
    /// Lines that carried a lifecycle event or a UIKit warning.
    private(set) var events = 0
    /// Sees each lifecycle line (its message bytes, event and envelope context) before the timeline.
    var tap: ((UnsafeBufferPointer<UInt8>, Event, String?, Int?) -> Void)?

    /// The process of the latest enveloped event line (or, before any, of the first enveloped
    /// line): `print` lines without an envelope belong to it.
    private(set) var contextProcess: String?
    private var contextPID: Int?

    init(options: TimelineOptions, customDialects: [CustomDialect]) {
        lines = LineParser(customDialects: customDialects)
        builder = TimelineBuilder(options: options)
    }

    var parser: MessageParser { lines.parser }

    /// Whether a line with this envelope would give `learn` a process (the scanner's own record of
    /// whether the context is known, when this stage runs on another thread).
    static func givesProcess(_ info: EnvelopeInfo) -> Bool {
        !info.isMetadata && (info.process != nil || info.decodedProcess != nil || LineParser.isNameless(info))
    }

    /// An enveloped line, event or not, while no context is known: `print` lines get the process of
    /// the enveloped lines around them.
    func learn(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) {
        guard contextProcess == nil, let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata else { return }
        contextProcess = lines.processName(info, p)
        contextPID = info.pid
    }

    /// Lines that mention a callback name but were not read as an event (lifecycle.md §1), and
    /// the first of them.
    private(set) var unread = 0
    private(set) var firstUnread: Int?
    /// Sees every candidate line's outcome (`vclint inspect`); set only for a one-thread scan.
    var observer: LineObserver?
    /// Printed values after the callback wait here until the capture shows whether they name the
    /// controllers (`LabelLearner`); every later line waits with them, to keep the order.
    private let learner = LabelLearner()
    /// Free-form statements announced as started (`viewDidLoad begin`, `>>> viewDidLoad`) whose
    /// end was not logged yet: the end is the same callback again, not a second one.
    private var started: Set<String> = []

    /// A line the candidate search let through, numbered `line` (see `LineParser.parse`).
    func candidate(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, format: EnvelopeFormat?, afterEnvelope: Bool) {
        var parsed = lines.parse(p, n, format: format, afterEnvelope: afterEnvelope)
        useContext(parsed)
        if let tap, parsed.kind == .enveloped || parsed.kind == .bare {
            var e = parsed.event
            e.line = line
            if parsed.kind == .bare {
                tap(UnsafeBufferPointer(start: p, count: n), e, contextProcess, contextPID)
            } else if let decoded = parsed.decoded {
                decoded.withUnsafeBufferPointer { tap($0, e, parsed.process, parsed.pid) }
            } else {
                tap(UnsafeBufferPointer(start: p + parsed.message.lowerBound, count: parsed.message.count), e, parsed.process, parsed.pid)
            }
        }
        if let observer { observer.line(line, parsed, UnsafeBufferPointer(start: p, count: n)) }
        apply(&parsed, line: line)
    }

    /// A parsed candidate line in its context: an enveloped event gives the context its process.
    func apply(_ parsed: inout ParsedLine, line: Int) {
        useContext(parsed)
        switch parsed.kind {
        case .none:
            return
        case .unread:
            unread += 1
            if firstUnread == nil { firstUnread = line }
            return
        case .enveloped, .bare:
            parsed.event.line = line
            if parsed.value != nil || learner.waiting {
                learner.hold(.line(parsed))
                drain()
                return
            }
            deliver(&parsed)
        }
    }

    private func deliver(_ parsed: inout ParsedLine) {
        if parsed.phase != .none, !pairs(parsed) { return }
        events += 1
        if parsed.kind == .enveloped {
            // `[100:200] msg` among `Shop[100:200] msg` lines: the same run, its name left out.
            if parsed.process == "", parsed.pid != nil, parsed.pid == contextPID, let named = contextProcess { parsed.process = named }
            contextProcess = parsed.process
            contextPID = parsed.pid
            builder.handle(parsed.event, process: parsed.process, pid: parsed.pid)
        } else {
            builder.handle(parsed.event, process: contextProcess, pid: contextPID)
        }
    }

    /// Whether a statement with an outcome word is an event: the end of a callback whose start was
    /// logged is the same callback again.
    private func pairs(_ parsed: ParsedLine) -> Bool {
        let key = parsed.event.kind.rawValue + "\u{1F}" + parsed.event.className
        if parsed.phase == .enter {
            if started.count >= 4096 { started.removeAll() }
            started.insert(key)
            return true
        }
        return started.remove(key) == nil
    }

    /// Delivers what the learner no longer holds back.
    private func drain() {
        while let next = learner.release() {
            switch next {
            case .line(var parsed): deliver(&parsed)
            case .sample(let process, let pid, let time): observe(process, pid, time)
            }
        }
    }

    /// The end of the input: nothing waits any more.
    func finish() {
        learner.decideAll()
        drain()
    }

    /// The enveloped line before the next candidate, which has none (`LogScanner.sendContext`).
    private var contextLine: [UInt8] = []
    private var contextWaiting = false
    /// The context line read last: the prints after one line do not read it again.
    private var contextRead: [UInt8] = []

    func context(_ p: UnsafePointer<UInt8>, _ n: Int) {
        contextLine.removeAll(keepingCapacity: true)
        contextLine.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
        contextWaiting = true
    }

    /// A `print` event belongs to the run of the enveloped line before it: that line is read as a
    /// sample (it may show a relaunch) before the event is.
    @inline(__always)
    private func useContext(_ parsed: ParsedLine) {
        guard contextWaiting else { return }
        contextWaiting = false
        guard parsed.kind == .bare, contextLine != contextRead else { return }
        swap(&contextRead, &contextLine)
        contextRead.withUnsafeBufferPointer { sample($0.baseAddress!, $0.count) }
    }

    /// A line (event or noise) that tells how far in time its session went.
    func sample(_ p: UnsafePointer<UInt8>, _ n: Int) {
        let (format, skip) = EnvelopeParser.locate(p, n)
        guard let format, format != .bare, format != .logcat else { return }
        let q = p + skip, k = n - skip
        guard let info = EnvelopeParser.parse(q, k, format: format), !info.isMetadata,
              let process = lines.processName(info, q) else { return }
        let time = lines.time(q, k, info: info)
        if learner.waiting {
            learner.hold(.sample(process, info.pid, time))
            return
        }
        observe(process, info.pid, time)
    }

    private func observe(_ process: String, _ pid: Int?, _ time: LogTime?) {
        builder.observe(process: process, pid: pid, time: time)
        if contextProcess == process { contextPID = pid }
    }
}

/// Sees each candidate line as the stage read it, with its bytes (`vclint inspect`).
protocol LineObserver: AnyObject {
    func line(_ number: Int, _ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>)
}

/// Whether a printed value after the callback names the controller (lifecycle.md §1): `viewWillAppear:
/// 2 UIDeviceRGBColorSpace 1 0.5 0 1` prints page 2's number and colour with every callback of page 2.
/// A value that stays the same across several callbacks while other values appear is a label; one
/// that changes with every line (a frame, a count) is an argument, and the lines are `(unnamed)`'s.
/// The capture decides, shape by shape; until it has, the lines after the first such one wait (at
/// most `limit` of them), so that the timeline still sees every event in order.
final class LabelLearner {
    enum Held {
        case line(ParsedLine)
        case sample(String, Int?, LogTime?)
    }

    private struct Shape {
        /// The callbacks seen with each value (at most `valueLimit` values are followed).
        var values: [String: UInt32] = [:]
        var lines = 0
        var decision: Bool?  // true: the value is a label
    }

    static let limit = 4096
    private static let valueLimit = 256
    /// Shapes followed at most: a capture has a few; past this, a new shape's values are arguments.
    private static let shapeLimit = 1024
    private var shapes: [UInt64: Shape] = [:]
    private var held: [Held] = []
    private var next = 0

    /// Whether lines are being held back.
    var waiting: Bool { next < held.count }

    func hold(_ h: Held) {
        if case .line(let parsed) = h, parsed.value != nil { learn(parsed) }
        held.append(h)
        if held.count - next >= Self.limit { decideAll() }
    }

    /// The next line that may go on, with its label settled.
    func release() -> Held? {
        guard next < held.count else {
            held.removeAll(keepingCapacity: true)
            next = 0
            return nil
        }
        guard case .line(var parsed) = held[next] else {
            next += 1
            return held[next - 1]
        }
        if let v = parsed.value {
            guard let decision = shapes[parsed.shape]?.decision else { return nil }
            if decision { parsed.event.className = v }
            parsed.value = nil
        }
        next += 1
        return .line(parsed)
    }

    private func learn(_ parsed: ParsedLine) {
        guard let v = parsed.value else { return }
        if shapes[parsed.shape] == nil, shapes.count >= Self.shapeLimit {
            var decided = Shape()
            decided.decision = false
            shapes[parsed.shape] = decided
            return
        }
        var shape = shapes[parsed.shape] ?? Shape()
        shape.lines += 1
        if shape.decision == nil {
            if shape.values[v] != nil || shape.values.count < Self.valueLimit { shape.values[v, default: 0] |= parsed.event.kind.bit }
            let repeated = shape.values.values.contains { $0.nonzeroBitCount >= 2 }
            if repeated, shape.values.count >= 2 {
                shape.decision = true
            } else if !repeated, shape.lines >= 8 {
                shape.decision = false
            }
            if shape.decision != nil { shape.values = [:] }
        }
        shapes[parsed.shape] = shape
    }

    /// Decides every open shape on what the capture has shown so far.
    func decideAll() {
        for (key, var shape) in shapes where shape.decision == nil {
            shape.decision = shape.values.values.contains { $0.nonzeroBitCount >= 2 }
            shape.values = [:]
            shapes[key] = shape
        }
    }
}
