#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// lines → events → timeline (the second half of `LogScanner`): parses the lines the scanner let
/// through and keeps the context a line's envelope gives to the unenveloped lines after it. It sees
/// the lines in input order, either called by the scanner directly or, for a file with a core to
/// spare, from `EventPipe` on a thread of its own; both give the same events.
final class EventStage {
    let parser: MessageParser
    let builder: TimelineBuilder
    /// Lines that carried a lifecycle event or a UIKit warning.
    private(set) var events = 0
    /// Sees each lifecycle line (its message bytes, event and envelope context) before the timeline.
    var tap: ((UnsafeBufferPointer<UInt8>, Event, String?, Int?) -> Void)?

    /// The process of the latest enveloped event line (or, before any, of the first enveloped
    /// line): `print` lines without an envelope belong to it.
    private(set) var contextProcess: String?
    private var contextPID: Int?
    private var minuteCache = TimestampParser.MinuteCache()
    /// The last process name built, reused while lines come from the same process.
    private var internedName = ""
    private var internedBytes: [UInt8] = []

    init(options: TimelineOptions, customDialects: [CustomDialect]) {
        parser = MessageParser(custom: customDialects)
        builder = TimelineBuilder(options: options)
    }

    /// Whether a line with this envelope would give `learn` a process (the scanner's own record of
    /// whether the context is known, when this stage runs on another thread).
    static func givesProcess(_ info: EnvelopeInfo) -> Bool {
        !info.isMetadata && (info.process != nil || info.decodedProcess != nil)
    }

    /// An enveloped line, event or not, while no context is known: `print` lines get the process of
    /// the enveloped lines around them.
    func learn(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) {
        guard contextProcess == nil, let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata else { return }
        contextProcess = processName(info, p)
        contextPID = info.pid
    }

    /// A line the candidate search let through, numbered `line`; `format` is its envelope
    /// (`EnvelopeParser.classify`) and `afterEnvelope` whether an enveloped line came before it.
    func candidate(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int, format: EnvelopeFormat?, afterEnvelope: Bool) {
        var event: Event?
        var process: String?
        var pid: Int?
        var time: LogTime?
        var message = UnsafeBufferPointer(start: p, count: n)
        var decoded: [UInt8]?
        if let format, format != .bare, let info = EnvelopeParser.parse(p, n, format: format) {
            if info.isMetadata { return }
            if let d = info.decodedMessage {
                decoded = d
                event = d.withUnsafeBufferPointer { parser.parse($0) }
            } else {
                message = UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count)
                event = parser.parse(message)
            }
            guard event != nil else { return }
            process = processName(info, p)
            pid = info.pid
            time = EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
            contextProcess = process
            contextPID = pid
        } else {
            // No envelope: a continuation of the previous message (indented, as NSLog prints a
            // dictionary) is part of that message; an unindented complete statement after enveloped
            // lines is a `print` mixed into the console and belongs to the same process.
            if afterEnvelope, n > 0, p[0] == 0x20 || p[0] == 0x09 { return }
            event = parser.parse(UnsafeBufferPointer(start: p, count: n))
            process = contextProcess
            pid = contextPID
        }
        guard var e = event else { return }
        e.line = line
        e.time = time
        events += 1
        if let tap {
            if let decoded { decoded.withUnsafeBufferPointer { tap($0, e, process, pid) } } else { tap(message, e, process, pid) }
        }
        builder.handle(e, process: process, pid: pid)
    }

    /// A line (event or noise) that tells how far in time its session went.
    func sample(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0, let format = EnvelopeParser.classify(p, n), format != .bare,
              let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata,
              let process = processName(info, p) else { return }
        builder.observe(process: process, pid: info.pid, time: EnvelopeParser.time(p, n, info: info, cache: &minuteCache))
        if contextProcess == process { contextPID = info.pid }
    }

    private func processName(_ info: EnvelopeInfo, _ p: UnsafePointer<UInt8>) -> String? {
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
