/// Entry points for the micro-benchmarks in `Benchmarks/` (a package of its own, built with
/// ordo-one/benchmark). They expose the boundary between the front end's stages so that the
/// message parser and the timeline can be measured alone, on inputs prepared before measurement.
/// Not a supported API: benchmarks only.
public enum BenchmarkSupport {
    /// One lifecycle line as the scanner passes it on: the message that `MessageParser.parse(_:)`
    /// reads (envelope removed), the event it gives (with line number and timestamp set, as the
    /// scanner sets them), and the envelope context that `TimelineBuilder.handle(_:process:pid:)`
    /// receives with it.
    public struct LifecycleLine: Sendable {
        public var message: [UInt8]
        public var event: Event
        public var process: String?
        public var pid: Int?
    }

    /// Every lifecycle line of a capture, in order, found the way `LogScanner` finds them (same
    /// envelope handling, same rules for continuation and bare lines), but by parsing every line
    /// rather than only PCRE2 candidates: slow, for preparing benchmark inputs. The count equals
    /// the scanner's `InputStats.events` for captures that fit its buffer.
    public static func lifecycleLines(in capture: [UInt8], customDialects: [CustomDialect] = []) -> [LifecycleLine] {
        let parser = MessageParser(custom: customDialects)
        var out: [LifecycleLine] = []
        var lineNumber = 0
        var lastEnvelope: EnvelopeFormat?
        var contextProcess: String?
        var contextPID: Int?
        capture.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            var pos = 0
            while pos < all.count {
                var end = pos
                while end < all.count, base[end] != 0x0A { end += 1 }
                var n = end - pos
                if n > 0, base[pos + n - 1] == 0x0D { n -= 1 }
                let p = base + pos
                pos = end + 1
                lineNumber += 1
                let format = EnvelopeParser.classify(p, n)
                let afterEnvelope = lastEnvelope != nil
                if let format {
                    lastEnvelope = format
                    if contextProcess == nil, format != .bare, let info = EnvelopeParser.parse(p, n, format: format), !info.isMetadata {
                        contextProcess = processName(info, p)
                        contextPID = info.pid
                    }
                }
                if let format, format != .bare, let info = EnvelopeParser.parse(p, n, format: format) {
                    if info.isMetadata { continue }
                    let message = info.decodedMessage ?? Array(UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count))
                    guard var event = message.withUnsafeBufferPointer({ parser.parse($0) }) else { continue }
                    let process = processName(info, p)
                    event.line = lineNumber
                    event.time = EnvelopeParser.time(p, n, info: info)
                    contextProcess = process
                    contextPID = info.pid
                    out.append(LifecycleLine(message: message, event: event, process: process, pid: info.pid))
                } else {
                    if afterEnvelope, n > 0, p[0] == 0x20 || p[0] == 0x09 { continue }
                    let message = Array(UnsafeBufferPointer(start: p, count: n))
                    guard var event = message.withUnsafeBufferPointer({ parser.parse($0) }) else { continue }
                    event.line = lineNumber
                    out.append(LifecycleLine(message: message, event: event, process: contextProcess, pid: contextPID))
                }
            }
        }
        return out
    }

    private static func processName(_ info: EnvelopeInfo, _ p: UnsafePointer<UInt8>) -> String? {
        if let d = info.decodedProcess { return d }
        guard let r = info.process else { return nil }
        return String(decoding: UnsafeBufferPointer(start: p + r.lowerBound, count: r.count), as: UTF8.self)
    }
}
