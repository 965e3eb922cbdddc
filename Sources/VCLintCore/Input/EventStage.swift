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
    }
    var kind: Kind
    /// Meaningless for `.none`.
    var event: Event
    var process: String? = nil
    var pid: Int? = nil
    var message: Range<Int> = 0..<0
    var decoded: [UInt8]? = nil

    /// (Made anew each time: a stored one would be copied, with a global's lazy-initialisation check.)
    static var none: ParsedLine { ParsedLine(kind: .none, event: Event(kind: .dealloc, className: "", dialect: .uikit)) }

    static func enveloped(_ e: consuming Event, process: String?, pid: Int?, message: Range<Int>, decoded: [UInt8]?) -> ParsedLine {
        ParsedLine(kind: .enveloped, event: e, process: process, pid: pid, message: message, decoded: decoded)
    }

    static func bare(_ e: consuming Event) -> ParsedLine { ParsedLine(kind: .bare, event: e) }
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
        if let format, format != .bare, let info = EnvelopeParser.parse(p, n, format: format, cache: &envelopeCache) {
            if info.isMetadata { return .none }
            var event: Event?
            if let d = info.decodedMessage {
                event = d.withUnsafeBufferPointer { parser.parse($0) }
            } else {
                event = parser.parse(UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count))
            }
            // The event moves into the result (`take`): no copy of it, nor of its strings.
            guard var e = event.take() else { return .none }
            e.time = EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
            return .enveloped(consume e, process: processName(info, p), pid: info.pid, message: info.message, decoded: info.decodedMessage)
        }
        // No envelope: a continuation of the previous message (indented, as NSLog prints a
        // dictionary) is part of that message; an unindented complete statement after enveloped
        // lines is a `print` mixed into the console and belongs to the same process.
        if afterEnvelope, n > 0, p[0] == 0x20 || p[0] == 0x09 { return .none }
        guard let e = parser.parse(UnsafeBufferPointer(start: p, count: n)) else { return .none }
        return .bare(e)
    }

    func time(_ p: UnsafePointer<UInt8>, _ n: Int, info: EnvelopeInfo) -> LogTime? {
        EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
    }

    func processName(_ info: EnvelopeInfo, _ p: UnsafePointer<UInt8>) -> String? {
        if let d = info.decodedProcess { return d }
        guard let r = info.process else { return nil }
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
        !info.isMetadata && (info.process != nil || info.decodedProcess != nil)
    }

    /// An enveloped line, event or not, while no context is known: `print` lines get the process of
    /// the enveloped lines around them.
    func learn(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) {
        guard contextProcess == nil, let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata else { return }
        contextProcess = lines.processName(info, p)
        contextPID = info.pid
    }

    /// A line the candidate search let through, numbered `line` (see `LineParser.parse`).
    func candidate(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, format: EnvelopeFormat?, afterEnvelope: Bool) {
        var parsed = lines.parse(p, n, format: format, afterEnvelope: afterEnvelope)
        if let tap, parsed.kind != .none {
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
        apply(&parsed, line: line)
    }

    /// A parsed candidate line in its context: an enveloped event gives the context its process.
    func apply(_ parsed: inout ParsedLine, line: Int) {
        switch parsed.kind {
        case .none:
            return
        case .enveloped:
            contextProcess = parsed.process
            contextPID = parsed.pid
            parsed.event.line = line
            events += 1
            builder.handle(parsed.event, process: parsed.process, pid: parsed.pid)
        case .bare:
            parsed.event.line = line
            events += 1
            builder.handle(parsed.event, process: contextProcess, pid: contextPID)
        }
    }

    /// A line (event or noise) that tells how far in time its session went.
    func sample(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0, let format = EnvelopeParser.classify(p, n), format != .bare,
              let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata,
              let process = lines.processName(info, p) else { return }
        builder.observe(process: process, pid: info.pid, time: lines.time(p, n, info: info))
        if contextProcess == process { contextPID = info.pid }
    }
}
