#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a console line came from (docs/lifecycle.md#envelopes). Detected per line, so mixed files work.
public enum EnvelopeFormat: String, Sendable, CaseIterable, Comparable {
    case nslog, nslogTZ = "nslog-tz", oslog, compact, syslog, ndjson, bare
    /// `log show --style json`: a JSON array of the objects ndjson prints one a line. Never a line's
    /// own format: the array's objects are read as ndjson lines (`JSONArrayReader`), and the input's
    /// counts name them `json` when it ends (`InputPipeline.finish`).
    case json
    /// Android's logcat, in every `adb logcat -v` format and Android Studio's layouts (`LogcatEnvelope`): its
    /// messages are Android's statements (`LogcatStatement`), never UIKit events.
    case logcat

    public static func < (a: EnvelopeFormat, b: EnvelopeFormat) -> Bool { a.rawValue < b.rawValue }

    /// The envelopes of Apple platforms' consoles (every one but logcat): what carries UIKit events.
    public static let apple: [EnvelopeFormat] = allCases.filter { $0 != .logcat }
}

/// What the envelope of one line says. Byte ranges are relative to the line.
struct EnvelopeInfo {
    var format: EnvelopeFormat
    var time: LogTime?
    /// The process name's bytes in the line (ndjson: `decodedProcess`).
    var process: Range<Int>?
    var pid: Int?
    /// The thread the line was logged on, when the envelope says (NSLog's `[pid:tid]`, compact's,
    /// the `log show` thread column, ndjson's `threadID`); 0 when it does not.
    var thread: UInt64 = 0
    /// The message bytes, as a range of the line (all formats but ndjson).
    var message: Range<Int>
    /// Logcat's tag, where the format shows one (`LogcatEnvelope`).
    var tag: Range<Int>? = nil
    /// What an ndjson line's envelope decoded (one reference, nil for every other format: an envelope is made and
    /// dropped for each candidate line, and two optional strings and arrays cost more to drop than one).
    var decoded: Decoded? = nil
    /// True for lines that belong to a capture but carry no message (`log show` header, ndjson summary).
    var isMetadata = false

    final class Decoded {
        let process: String?
        let message: [UInt8]

        init(process: String?, message: [UInt8]) {
            self.process = process
            self.message = message
        }
    }

    /// The process name an ndjson line decoded.
    var decodedProcess: String? { decoded?.process }
    /// The decoded `eventMessage` of an ndjson line.
    var decodedMessage: [UInt8]? { decoded?.message }
}

enum EnvelopeParser {
    /// Cheap per-line classification: the envelope format when the line starts with one, else nil
    /// (a continuation of the previous message, or a bare message).
    @inline(__always)
    static func classify(_ p: UnsafePointer<UInt8>, _ n: Int) -> EnvelopeFormat? {
        guard n > 0 else { return nil }
        let b0 = p[0]
        if b0 == .openBrace { return isJSONObject(p, n) ? .ndjson : nil }  // {
        if ByteCursor.isDigit(b0) {
            if let t = classifyTimestamped(p, n) { return t.format }
            return classifyUntimed(p, n)
        }
        if n >= 15, b0 &- UInt8(ascii: "A") < 26, TimestampParser.monthNumber(p[0], p[1], p[2]) != nil, p[3] == .space {
            var c = ByteCursor(p, count: min(n, 40))
            if TimestampParser.parseSyslog(&c) != nil { return .syslog }
        }
        if b0 == UInt8(ascii: "T"), n >= 9, isPrefix("Timestamp ", p, n) {
            // `log show` header: the compact style has a `Ty` column, the default style `Thread`.
            var i = 10
            while i + 3 < n, p[i] == .space { i += 1 }
            return i + 2 < n && p[i] == UInt8(ascii: "T") && p[i + 1] == UInt8(ascii: "y") && p[i + 2] == .space ? .compact : .oslog
        }
        if b0 == UInt8(ascii: "F"), isPrefix("Filtering the log data", p, n) { return .oslog }
        // Untimed envelopes start with a letter, `[` or a name in another script (indented and
        // punctuated continuation lines cost nothing more).
        guard b0 &- UInt8(ascii: "A") < 26 || b0 &- UInt8(ascii: "a") < 26 || b0 == .openBracket || b0 >= 0x80 || b0 == .underscore else { return nil }
        return classifyUntimed(p, n)
    }

    /// Lines whose envelope has no full timestamp: logcat without a year (`11-24 10:00:00.123  1234
    /// 5678 D Tag: msg`) or in `brief` style (`D/Tag( 1234): msg`), a year cut short (` 020-04-28
    /// 23:36:34.728 App[1315:14103] …`), and the NSLog envelope with its timestamp hidden
    /// (`App Name[63209:914637] msg`, `[7397:f803] msg`). Lines of a capture that has envelopes
    /// rarely get here: most are classified by a template or by their timestamp first.
    static func classifyUntimed(_ p: UnsafePointer<UInt8>, _ n: Int) -> EnvelopeFormat? {
        let b0 = p[0]
        if ByteCursor.isDigit(b0) {
            // MM-DD HH:MM:SS(.mmm): logcat's threadtime and Android Studio's styles without a year.
            if let k = yearlessClockEnd(p, n) {
                guard k >= 0 else { return nil }
                return logcatBody(p, n, at: k) != nil || LogcatEnvelope.parse(p, n) != nil ? .logcat : nil
            }
            // Android Studio's two-digit year (`22-01-20 14:01:32.591 6937-6937/…`), and its layout with the date
            // cut off (`21933-21933/com.example.app I/Tag: …`).
            if (n >= 20 && p[2] == .hyphen && p[5] == .hyphen && p[8] == .space) || memchr(p, Int32(UInt8.slash), min(n, 24)) != nil,
               LogcatEnvelope.parse(p, n) != nil {
                return .logcat
            }
            // A year cut short (copied from a web page or a comment): its NSLog envelope still holds.
            if let column = shortYearColumn(p, n), parseNSLogBrackets(ByteCursor(p, count: n, pos: column), time: nil, format: .nslog) != nil {
                return .nslog
            }
            return nil
        }
        // brief `D/Tag( 1234): msg`, tag `D/Tag: msg`, process `D( 1234) msg  (Tag)`, thread `D( 1234:0x3e) msg`.
        if n >= 6, p[1] == .slash || p[1] == .openParen, LogcatEnvelope.isLevel(b0), LogcatEnvelope.parse(p, n) != nil {
            return .logcat
        }
        // logcat's `long` header: `[ 01-05 09:00:00.100  4242: 4242 D/Tag ]`.
        if b0 == .openBracket, n > 20, p[1] == .space, LogcatEnvelope.parse(p, n) != nil { return .logcat }
        // NSLog without its timestamp: `NAME[PID:TID] ` at the start of the line, or `[PID:TID] `.
        if b0 == .openBracket || (b0 &- UInt8(ascii: "A") < 26 || b0 &- UInt8(ascii: "a") < 26 || b0 >= 0x80 || b0 == .underscore), untimedNSLog(p, n) != nil {
            return .nslog
        }
        return nil
    }

    /// A line that starts with logcat's time without a year (`MM-DD HH:MM:SS`, `.mmm` optional): the
    /// column after the spaces that follow it, or -1 when no space follows; nil for any other line.
    @inline(__always)
    static func yearlessClockEnd(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        guard n >= 18, p[2] == .hyphen, p[5] == .space, p[8] == .colon, p[11] == .colon, ByteCursor.isDigit(p[1]),
              ByteCursor.isDigit(p[3]), ByteCursor.isDigit(p[4]) else { return nil }
        var i = 14
        if i < n, p[i] == .dot { i += 1; while i < n, ByteCursor.isDigit(p[i]) { i += 1 } }
        guard i < n, p[i] == .space else { return -1 }
        while i < n, p[i] == .space { i += 1 }
        return i
    }

    /// The shape of a logcat line's head that `classify` decides by (`EnvelopeTemplate`): the
    /// column where its `PID TID L ` or `PID-TID/` body ends (`logcatBody`), and the column of the
    /// level letter (threadtime; -1 for Android Studio's layout). Every byte before `end` that
    /// `classify` reads is a digit or a fixed byte, but for the level, which is one of seven. Nil for
    /// a line `classify` does not call logcat by that body.
    static func logcatShape(_ p: UnsafePointer<UInt8>, _ n: Int) -> (end: Int, level: Int)? {
        guard n > 0, ByteCursor.isDigit(p[0]) else { return nil }
        let body: Int
        if let t = classifyTimestamped(p, n) {
            guard t.format == .logcat, t.column >= 0 else { return nil }
            body = t.column
        } else if let k = yearlessClockEnd(p, n), k >= 0 {
            body = k
        } else {
            return nil
        }
        guard let end = logcatBody(p, n, at: body) else { return nil }
        return (end, p[end - 1] == .slash ? -1 : end - 2)
    }

    /// Where a logcat line's `PID TID L Tag:` (threadtime) or `PID-TID/package L/Tag:` (Android
    /// Studio) body ends, from `i`, the column after its timestamp; nil when it is not one. The shape alone: a line
    /// it finds stays logcat even when `LogcatEnvelope` reads no envelope in it (a mangled line).
    static func logcatBody(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) -> Int? {
        var i = start
        let s = i
        while i < n, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i > s, i < n else { return nil }
        if p[i] == .hyphen {  // 6937-6937/com.example.app
            i += 1
            let t = i
            while i < n, ByteCursor.isDigit(p[i]) { i += 1 }
            guard i > t, i < n, p[i] == .slash else { return nil }
            return i + 1
        }
        guard p[i] == .space else { return nil }
        while i < n, p[i] == .space { i += 1 }
        let t = i
        while i < n, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i > t, i < n, p[i] == .space else { return nil }
        while i < n, p[i] == .space { i += 1 }
        guard i + 1 < n, p[i] == UInt8(ascii: "V") || p[i] == UInt8(ascii: "D") || p[i] == UInt8(ascii: "I") || p[i] == UInt8(ascii: "W") || p[i] == UInt8(ascii: "E") || p[i] == UInt8(ascii: "F") || p[i] == UInt8(ascii: "A"),
              p[i + 1] == .space else { return nil }
        return i + 2
    }

    /// The column after a timestamp whose year was cut to one to three digits
    /// (`020-04-28 23:36:34.728 App[…]`).
    static func shortYearColumn(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n, i < 4, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i >= 1, i <= 3, i + 15 <= n, p[i] == .hyphen, p[i + 3] == .hyphen, p[i + 6] == .space || p[i + 6] == UInt8(ascii: "T"),
              p[i + 9] == .colon, p[i + 12] == .colon, ByteCursor.isDigit(p[i + 1]), ByteCursor.isDigit(p[i + 7]),
              ByteCursor.isDigit(p[i + 14]) else { return nil }
        var k = i + 15
        if k < n, p[k] == .dot || p[k] == .comma { k += 1; while k < n, ByteCursor.isDigit(p[k]) { k += 1 } }
        guard k < n, p[k] == .space else { return nil }
        while k < n, p[k] == .space { k += 1 }
        return k
    }

    /// `NAME[PID:TID] ` or `[PID:TID] ` at the start of a line: the envelope and the position after it.
    static func untimedNSLog(_ p: UnsafePointer<UInt8>, _ n: Int) -> (EnvelopeInfo, after: Int)? {
        let limit = min(n, 160)
        guard let hit = memchr(p, Int32(UInt8.openBracket), limit) else { return nil }
        let open = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - p
        // The name holds no bracket, and no colon: a line with a timestamp before its name (behind
        // some junk) is read by `locate`, not as a name that swallowed the time.
        for k in 0..<open where p[k] == .closeBracket || p[k] == .less || p[k] == .greater || p[k] == .colon { return nil }
        var k = ByteCursor(p, count: n, pos: open + 1)
        guard let pid = k.number(), k.expect(UInt8.colon) else { return nil }
        let tidStart = k.pos
        while let b = k.peek(), ByteCursor.isHex(b) || b == UInt8(ascii: "x") { k.pos += 1 }
        guard k.pos > tidStart, k.expect(UInt8.closeBracket), k.atEnd || k.peek() == .space else { return nil }
        let msgStart = min(k.peek() == .space ? k.pos + 1 : k.pos, n)
        let process: Range<Int>? = open > 0 ? 0..<open : nil
        var info = EnvelopeInfo(format: .nslog, time: nil, process: process, pid: pid, message: msgStart..<n)
        info.thread = threadID(p, tidStart..<(k.pos - 1))
        return (info, k.pos)
    }

    /// A line that starts a JSON object (`{"…": …}`), not an NSLog description of a set (`{(`) or a
    /// dictionary (`{` alone).
    /// (Decided by its first bytes, as `EnvelopeTemplate` needs: a line that is not a whole object
    /// after all is not parsed as one, and reads as a continuation.)
    @inline(__always)
    static func isJSONObject(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var i = 1
        while i < n, p[i] == .space || p[i] == .tab { i += 1 }
        return i < n && p[i] == .quote
    }

    /// `classify`, forgiving what a console, a web page or a chat put before the envelope: a
    /// byte-order mark, U+FFFC, an emoji or a bullet, spaces, a list marker (`d、`), quote markers
    /// (`> `, `>> `, as an issue or an e-mail quotes a capture). Returns the format and how many bytes
    /// to skip to the envelope (0 when the line starts with it, or has none).
    static func locate(_ p: UnsafePointer<UInt8>, _ n: Int) -> (format: EnvelopeFormat?, skip: Int) {
        if let f = classify(p, n) { return (f, 0) }
        guard n > 1 else { return (nil, 0) }
        let b0 = p[0]
        if b0 == .greater {
            var q = 0
            while q < n, q < 16, p[q] == .greater || p[q] == .space { q += 1 }
            guard q < n, p[q] != .greater else { return (nil, 0) }
            let (f, skip) = locate(p + q, n - q)
            return f == nil ? (nil, 0) : (f, q + skip)
        }
        var i = 0
        if b0 == .space || b0 == .tab {
            // Indented: only a timestamp right after the spaces (an indented dictionary line is not one).
            while i < n, i < 24, p[i] == .space || p[i] == .tab { i += 1 }
            guard i < n, ByteCursor.isDigit(p[i]), let f = classify(p + i, n - i), f != .ndjson else { return (nil, 0) }
            return (f, i)
        }
        // Something other than ASCII first (a BOM, U+FFFC, an emoji, a bullet), or a list marker
        // glued to it (`d、`): up to 24 bytes before the envelope.
        guard b0 >= 0x80 || p[1] >= 0x80 else { return (nil, 0) }
        while i < n, i < 24 {
            let b = p[i]
            if ByteCursor.isDigit(b) || b == .openBracket {
                if i > 0, let f = classify(p + i, n - i), f != .ndjson { return (f, i) }
                if ByteCursor.isDigit(b) { return (nil, 0) }
                i += 1
                continue
            }
            if b >= 0x80 {
                i += TextScalars.decode(p, i, n).length
                continue
            }
            if b == .openBrace || b == .less { return (nil, 0) }
            if (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26, i > 1 {
                // A word after the junk: an envelope without its timestamp (`🔥 App[1:2] …`), or none.
                if let f = classify(p + i, n - i), f == .nslog { return (f, i) }
                return (nil, 0)
            }
            i += 1
        }
        return (nil, 0)
    }

    /// The timestamped envelopes (NSLog, `log show`/`log stream`, compact): their format and the
    /// column after the timestamp where the thread or type column starts. The decision reads nothing
    /// at or past `column + 4`, and depends only on which bytes are digits, the other bytes' values and
    /// whether the byte at `column` is `0` (`EnvelopeTemplate` relies on exactly this).
    @inline(__always)
    static func classifyTimestamped(_ p: UnsafePointer<UInt8>, _ n: Int) -> (format: EnvelopeFormat, column: Int)? {
        // YYYY-MM-DD HH:MM:SS
        guard n >= 20, p[4] == .hyphen, p[7] == .hyphen, p[10] == .space || p[10] == UInt8(ascii: "T"), p[13] == .colon, p[16] == .colon,
              ByteCursor.isDigit(p[0]), ByteCursor.isDigit(p[1]), ByteCursor.isDigit(p[2]), ByteCursor.isDigit(p[3]),
              ByteCursor.isDigit(p[11]), ByteCursor.isDigit(p[17]), ByteCursor.isDigit(p[18]) else { return nil }
        var i = 19
        if i < n, p[i] == .dot || p[i] == .comma {
            i += 1
            while i < n, ByteCursor.isDigit(p[i]) { i += 1 }
        }
        var tz = false
        if i < n, p[i] == .plus || p[i] == .hyphen { tz = true; i += 1; while i < n, ByteCursor.isDigit(p[i]) || p[i] == .colon { i += 1 } }
        else if i < n, p[i] == UInt8(ascii: "Z") { tz = true; i += 1 }
        guard i < n, p[i] == .space else { return nil }
        while i < n, p[i] == .space { i += 1 }
        if i + 1 < n, p[i] == UInt8(ascii: "0"), p[i + 1] == UInt8(ascii: "x") { return (.oslog, i) }  // thread column 0x…
        // logcat with a year: `  1234  5678 D Tag:` or `6937-6937/com.example.app D/Tag:`. (A process
        // name that starts with digits, `7_1UIViewController[6679:907]`, is NSLog's.)
        // (The column is the body's, which `logcatShape` reads; -1 for a line read by its envelope alone.)
        if i < n, ByteCursor.isDigit(p[i]), logcatBody(p, n, at: i) != nil { return (.logcat, i) }
        if i < n, ByteCursor.isDigit(p[i]) || (p[i] == UInt8(ascii: "u") && i + 1 < n && ByteCursor.isDigit(p[i + 1])),
           LogcatEnvelope.parse(p, n) != nil { return (.logcat, -1) }
        // compact: a one- or two-letter type code then the process
        var j = i
        while j < n, j - i < 3, (p[j] | UInt8.caseBit) &- UInt8(ascii: "a") < 26 { j += 1 }
        if j > i, j - i <= 2, j < n, p[j] == .space { return (.compact, i) }
        return (tz ? .nslogTZ : .nslog, i)
    }

    @inline(__always)
    static func isPrefix(_ s: StaticString, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let len = s.utf8CodeUnitCount
        guard n >= len else { return false }
        let q = s.utf8Start
        for i in 0..<len where p[i] != q[i] { return false }
        return true
    }

    /// Full parse of a line whose envelope `classify` found. Returns nil when the shape does not hold
    /// after all (the line is then a continuation or bare message).
    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat) -> EnvelopeInfo? {
        switch format {
        case .ndjson, .json: return parseNDJSON(p, n)
        case .syslog: return parseSyslog(p, n)
        case .oslog, .compact, .nslog, .nslogTZ:
            if p[0] == UInt8(ascii: "T") || p[0] == UInt8(ascii: "F") {  // log show header / filter line
                return EnvelopeInfo(format: format, message: n..<n, isMetadata: true)
            }
            if !ByteCursor.isDigit(p[0]) { return untimedNSLog(p, n)?.0 }
            if n < 5 || p[4] != .hyphen {  // a year cut short (classify checked the full shape)
                guard let column = shortYearColumn(p, n) else { return nil }
                return parseNSLogBrackets(ByteCursor(p, count: n, pos: column), time: nil, format: .nslog)?.0
            }
            // `classify` checked the timestamp's shape; its value is only computed for lines that
            // carry an event (`time(_:_:format:)`).
            let time: LogTime? = nil
            var c = afterTimestamp(p, n)
            switch format {
            case .oslog: return parseOSLogColumns(&c, time: time)
            case .compact: return parseCompact(&c, time: time)
            default: return parseNSLog(&c, time: time, format: format)
            }
        case .bare:
            return EnvelopeInfo(format: .bare, message: 0..<n)
        case .logcat:
            return nil
        }
    }

    /// A timestamped line's cursor past its timestamp (whose shape `classify` checked) and the spaces
    /// after it: where the thread, type or process column starts.
    @inline(__always)
    private static func afterTimestamp(_ p: UnsafePointer<UInt8>, _ n: Int) -> ByteCursor {
        var c = ByteCursor(p, count: n)
        c.pos = 19
        while let b = c.peek(), b != .space { c.pos += 1 }
        _ = c.skipSpaces()
        return c
    }

    /// NSLog's fallbacks after its `NAME[PID:TID]` reading failed: `log show --style syslog`, else
    /// a timestamp and a message with no process (`2017-02-11 17:25:16.964 message`).
    private static func parseTimestampedOther(_ c: inout ByteCursor, time: LogTime?, format: EnvelopeFormat) -> EnvelopeInfo? {
        let start = c.pos
        if let info = parseTimestampedSyslog(&c, time: time, format: format) { return info }
        return EnvelopeInfo(format: format, time: time, process: nil, pid: nil, message: start..<c.end)
    }

    /// The timestamp of a line whose envelope was parsed (computed only for lines with events).
    static func time(_ p: UnsafePointer<UInt8>, _ n: Int, info: EnvelopeInfo) -> LogTime? {
        var cache = TimestampParser.MinuteCache()
        return time(p, n, info: info, cache: &cache)
    }

    /// `time`, remembering the date and minute for the next line (one cache per scanner).
    static func time(_ p: UnsafePointer<UInt8>, _ n: Int, info: EnvelopeInfo, cache: inout TimestampParser.MinuteCache) -> LogTime? {
        info.time ?? time(p, n, format: info.format, cache: &cache)
    }

    /// The time at the head of a line whose envelope is `format` and carries no time of its own.
    @inline(__always)
    static func time(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat, cache: inout TimestampParser.MinuteCache) -> LogTime? {
        switch format {
        case .nslog, .nslogTZ, .oslog, .compact:
            var c = ByteCursor(p, count: n)
            if let t = TimestampParser.parseISOLike(&c, cache: &cache)?.0 { return t }
            return TimestampParser.parseShortYear(p, n)
        case .syslog:
            var c = ByteCursor(p, count: n)
            return TimestampParser.parseSyslog(&c)
        case .ndjson, .json, .bare, .logcat:
            return nil
        }
    }

    /// `PROCESS NAME[PID:TID] message` (NSLog; the process name may hold spaces).
    private static func parseNSLog(_ c: inout ByteCursor, time: LogTime?, format: EnvelopeFormat) -> EnvelopeInfo? {
        if let (info, _) = parseNSLogBrackets(c, time: time, format: format) { return info }
        return parseTimestampedOther(&c, time: time, format: format)
    }

    /// The `NAME[PID:TID]` reading of `parseNSLog`, and the position after its `]`: what it decided
    /// depends on no byte past that one.
    @inline(__always)
    private static func parseNSLogBrackets(_ c: ByteCursor, time: LogTime?, format: EnvelopeFormat) -> (EnvelopeInfo, after: Int)? {
        let start = c.pos
        var i = c.pos
        while i < c.end {
            if c.base[i] == .openBracket, i > start {  // [
                var k = ByteCursor(c.base, count: c.end, pos: i + 1)
                if let pid = k.number(), k.expect(UInt8.colon) {
                    let tidStart = k.pos
                    while let b = k.peek(), ByteCursor.isHex(b) || b == UInt8(ascii: "x") { k.pos += 1 }
                    if k.pos > tidStart, k.expect(UInt8.closeBracket) {
                        let msgStart = k.peek() == .space ? k.pos + 1 : k.pos
                        guard k.atEnd || k.peek() == .space else { i += 1; continue }
                        var info = EnvelopeInfo(format: format, time: time, process: start..<i, pid: pid, message: min(msgStart, c.end)..<c.end)
                        info.thread = threadID(c.base, tidStart..<(k.pos - 1))
                        return (info, k.pos)
                    }
                }
            }
            i += 1
        }
        return nil
    }

    /// The last NSLog envelope one parser read. The lines of a process repeat `Name[pid:tid] `
    /// byte for byte after their timestamps, and `parseNSLogBrackets` decides on those bytes alone:
    /// a line that has them at the same place has the same envelope, found with one compare.
    struct NSLogCache {
        fileprivate var format: EnvelopeFormat = .nslog
        /// Where the key starts in the line (after the timestamp), -1 when nothing is cached.
        fileprivate var start = -1
        /// The bytes from `start` through the space after `]`.
        fileprivate var key: [UInt8] = []
        fileprivate var process: Range<Int> = 0..<0
        fileprivate var pid = 0
        fileprivate var thread: UInt64 = 0
    }

    /// A thread id's digits (`200`, `1a2b3c`, `0x1a2b3c`: NSLog prints them in hex), 0 when empty.
    static func threadID(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> UInt64 {
        var v: UInt64 = 0
        var k = r.lowerBound
        if r.count > 2, p[k] == UInt8(ascii: "0"), p[k + 1] == UInt8(ascii: "x") { k += 2 }
        var digits = 0
        while k < r.upperBound, digits < 16 {
            let b = p[k]
            let d: UInt8
            if ByteCursor.isDigit(b) { d = b - UInt8(ascii: "0") } else if (b | UInt8.caseBit) >= UInt8(ascii: "a"), (b | UInt8.caseBit) <= UInt8(ascii: "f") { d = (b | UInt8.caseBit) - UInt8(ascii: "a") + 10 } else { break }
            v = v << 4 | UInt64(d)
            k += 1
            digits += 1
        }
        return v
    }

    /// `parse`, through `cache` for NSLog lines: the same result for every input.
    /// `parse(_:_:format:cache:)` into the caller's envelope (`out`, changed only when the result is true): the per-line
    /// reading keeps one envelope and reads into it, where an `EnvelopeInfo?` made and dropped for every candidate line
    /// was copied twice and dropped through Optional's generic witness.
    @inline(__always)
    static func read(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat, cache: inout NSLogCache, into out: inout EnvelopeInfo) -> Bool {
        if format == .nslog || format == .nslogTZ, ByteCursor.isDigit(p[0]), n > 4, p[4] == .hyphen,
           case let start = afterTimestamp(p, n).pos, repeatsKey(p, n, at: start, format: format, cache: cache) {
            out.format = format
            out.time = nil
            out.process = cache.process
            out.pid = cache.pid
            out.thread = cache.thread
            out.message = (start + cache.key.count)..<n
            out.tag = nil
            if out.decoded != nil { out.decoded = nil }
            out.isMetadata = false
            return true
        }
        guard let info = parse(p, n, format: format, cache: &cache) else { return false }
        out = info
        return true
    }

    /// Whether an NSLog line repeats the cached `Name[pid:tid] ` key at `start` (after its timestamp).
    @inline(__always)
    private static func repeatsKey(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int, format: EnvelopeFormat, cache: NSLogCache) -> Bool {
        let keyLength = cache.key.count
        return cache.start == start && cache.format == format && start + keyLength <= n
            && cache.key.withUnsafeBufferPointer({ bytesEqual($0.baseAddress!, p + start, keyLength) })
    }

    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat, cache: inout NSLogCache) -> EnvelopeInfo? {
        // (A full timestamp has its first dash at 4: a year cut short, or no timestamp, is parsed apart.)
        guard format == .nslog || format == .nslogTZ, ByteCursor.isDigit(p[0]), n > 4, p[4] == .hyphen else { return parse(p, n, format: format) }
        var c = afterTimestamp(p, n)
        let start = c.pos
        if repeatsKey(p, n, at: start, format: format, cache: cache) {
            var info = EnvelopeInfo(format: format, time: nil, process: cache.process, pid: cache.pid, message: (start + cache.key.count)..<n)
            info.thread = cache.thread
            return info
        }
        guard let (info, after) = parseNSLogBrackets(c, time: nil, format: format) else {
            cache.start = -1
            return parseTimestampedOther(&c, time: nil, format: format)
        }
        if after < n, let process = info.process, let pid = info.pid {  // `]` then a space: the common shape
            cache.format = format
            cache.start = start
            cache.key = Array(UnsafeBufferPointer(start: p + start, count: after + 1 - start))
            cache.process = process
            cache.pid = pid
            cache.thread = info.thread
        } else {
            cache.start = -1
        }
        return info
    }

    /// `log show --style syslog`: `HOST Process(Library)[PID]: message` after an ISO timestamp.
    private static func parseTimestampedSyslog(_ c: inout ByteCursor, time: LogTime?, format: EnvelopeFormat) -> EnvelopeInfo? {
        let start = c.pos
        var i = c.pos
        while i < c.end, i - start < 256 {
            if c.base[i] == .openBracket {
                var k = ByteCursor(c.base, count: c.end, pos: i + 1)
                if let pid = k.number(), k.expect(UInt8.closeBracket), k.expect(UInt8.colon) {
                    var nameEnd = i
                    if nameEnd > start, c.base[nameEnd - 1] == .closeParen {  // Process(Library)
                        var q = nameEnd - 1
                        while q > start, c.base[q] != .openParen { q -= 1 }
                        if c.base[q] == .openParen { nameEnd = q }
                    }
                    var nameStart = nameEnd
                    while nameStart > start, c.base[nameStart - 1] != .space { nameStart -= 1 }
                    guard nameStart > start, nameEnd > nameStart else { return nil }  // a host must precede
                    let msgStart = k.peek() == .space ? k.pos + 1 : k.pos
                    let message = stripOSLogDecorations(c.base, min(msgStart, c.end)..<c.end)
                    return EnvelopeInfo(format: format, time: time, process: nameStart..<nameEnd, pid: pid, message: message)
                }
            }
            i += 1
        }
        return nil
    }

    /// `Df Process[PID:TID] [subsystem:category] message` (`log show --style compact`).
    private static func parseCompact(_ c: inout ByteCursor, time: LogTime?) -> EnvelopeInfo? {
        while let b = c.peek(), (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 { c.pos += 1 }
        _ = c.skipSpaces()
        guard var info = parseNSLog(&c, time: time, format: .compact) else { return nil }
        info.message = stripOSLogDecorations(c.base, info.message)
        return info
    }

    /// `0xTHREAD  Type  0xACTIVITY  PID  TTL  Process Name: (library) [subsystem:category] message`.
    private static func parseOSLogColumns(_ c: inout ByteCursor, time: LogTime?) -> EnvelopeInfo? {
        func hexToken(_ c: inout ByteCursor) -> Bool {
            guard c.expect(UInt8(ascii: "0")), c.expect(UInt8(ascii: "x")) else { return false }
            while let b = c.peek(), ByteCursor.isHex(b) { c.pos += 1 }
            return true
        }
        let threadStart = c.pos
        guard hexToken(&c) else { return nil }
        let thread = threadID(c.base, threadStart..<c.pos)
        guard c.skipSpaces() > 0 else { return nil }
        // Type column: Default, Info, Debug, Error, Fault, Activity (and anything word-like).
        let typeStart = c.pos
        while let b = c.peek(), (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 { c.pos += 1 }
        guard c.pos > typeStart, c.skipSpaces() > 0, hexToken(&c), c.skipSpaces() > 0 else { return nil }
        guard let pid = c.number() else { return nil }
        guard c.skipSpaces() > 0 else { return nil }
        // TTL column (absent in older `log` versions).
        var k = c
        if k.number() != nil, k.skipSpaces() > 0 { c = k }
        let nameStart = c.pos
        var i = c.pos
        while i + 1 < c.end, !(c.base[i] == .colon && c.base[i + 1] == .space) { i += 1 }
        let name: Range<Int>
        var msgStart: Int
        if i + 1 < c.end {
            name = nameStart..<i
            msgStart = i + 2
        } else if c.end > nameStart, c.base[c.end - 1] == .colon {
            name = nameStart..<(c.end - 1)
            msgStart = c.end
        } else {
            return nil
        }
        msgStart = min(msgStart, c.end)
        let message = stripOSLogDecorations(c.base, msgStart..<c.end)
        var info = EnvelopeInfo(format: .oslog, time: time, process: name, pid: pid, message: message)
        info.thread = thread
        return info
    }

    /// Drops the optional `(library) ` and `[subsystem:category] ` prefixes of an os_log message.
    static func stripOSLogDecorations(_ base: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound
        let hi = r.upperBound
        if lo < hi, base[lo] == .openParen {  // (library): no spaces inside
            var i = lo + 1
            while i < hi, i - lo < 120, base[i] != .closeParen, base[i] != .space { i += 1 }
            if i < hi, base[i] == .closeParen {
                if i + 1 == hi { lo = hi } else if base[i + 1] == .space { lo = i + 2 }
            }
        }
        if lo < hi, base[lo] == .openBracket {  // [subsystem:category]
            var i = lo + 1
            var sawColon = false
            while i < hi, base[i] != .closeBracket, base[i] != .space { if base[i] == .colon { sawColon = true }; i += 1 }
            if sawColon, i < hi, base[i] == .closeBracket {
                lo = i + 1 < hi && base[i + 1] == .space ? i + 2 : i + 1
            }
        }
        return lo..<hi
    }

    /// `Mmm dD HH:MM:SS host Process(Library)[PID] <Level>: message`.
    private static func parseSyslog(_ p: UnsafePointer<UInt8>, _ n: Int) -> EnvelopeInfo? {
        var c = ByteCursor(p, count: n)
        guard let time = TimestampParser.parseSyslog(&c) else { return nil }
        _ = c.skipSpaces()
        // Find `[PID]` followed by ` <Level>:` or `:`.
        var i = c.pos
        while i < n {
            if p[i] == .openBracket {
                var k = ByteCursor(p, count: n, pos: i + 1)
                if let pid = k.number(), k.expect(UInt8.closeBracket) {
                    var j = k
                    var ok = false
                    if j.expect(UInt8.space), j.peek() == .less {  // <Level>
                        while let b = j.peek(), b != .greater { j.pos += 1 }
                        if j.expect(UInt8.greater), j.expect(UInt8.colon) { ok = true }
                    } else {
                        j = k
                        if j.expect(UInt8.colon) { ok = true }
                    }
                    if ok {
                        // Process: the word before `[` or `(library)[`.
                        var nameEnd = i
                        if nameEnd > c.pos, p[nameEnd - 1] == .closeParen {
                            var q = nameEnd - 1
                            while q > c.pos, p[q] != .openParen { q -= 1 }
                            if p[q] == .openParen { nameEnd = q }
                        }
                        var nameStart = nameEnd
                        while nameStart > c.pos, p[nameStart - 1] != .space { nameStart -= 1 }
                        let msgStart = j.peek() == .space ? j.pos + 1 : j.pos
                        return EnvelopeInfo(format: .syslog, time: time, process: nameStart..<nameEnd, pid: pid, message: min(msgStart, n)..<n)
                    }
                }
            }
            i += 1
        }
        return nil
    }

    private static func parseNDJSON(_ p: UnsafePointer<UInt8>, _ n: Int) -> EnvelopeInfo? {
        guard let fields = NDJSONLine.parse(p, n) else { return nil }
        guard let message = fields.eventMessage else {
            // A JSON line without a message (e.g. `log stream`'s closing summary) carries no event.
            return EnvelopeInfo(format: .ndjson, message: n..<n, decoded: EnvelopeInfo.Decoded(process: nil, message: []), isMetadata: true)
        }
        var time: LogTime?
        if let ts = fields.timestamp {
            time = ts.withUnsafeBufferPointer { buf -> LogTime? in
                guard let b = buf.baseAddress else { return nil }
                var c = ByteCursor(b, count: buf.count)
                return TimestampParser.parseISOLike(&c)?.0
            }
        }
        var name: String?
        if let path = fields.processImagePath {
            let slash = path.lastIndex(of: UInt8.slash).map { $0 + 1 } ?? 0
            name = String(decoding: path[slash...], as: UTF8.self)
        } else if let proc = fields.process {
            name = String(decoding: proc, as: UTF8.self)
        }
        var info = EnvelopeInfo(format: .ndjson, time: time, process: nil, pid: fields.processID, message: 0..<0,
                                decoded: EnvelopeInfo.Decoded(process: name, message: message))
        info.thread = UInt64(clamping: fields.threadID ?? 0)
        return info
    }
}
