/// Android's logcat envelopes (docs/lifecycle.md#logcat): where a line's pid, process, tag and message are, in
/// every `adb logcat -v` format and both Android Studio layouts. A pure reading of one line's bytes; the
/// message grammar is `LogcatStatement`'s.
///
/// | format | shape |
/// | --- | --- |
/// | threadtime | `[YYYY-]MM-DD HH:MM:SS.mmm [UID] PID TID L Tag: message` |
/// | time, brief | `[MM-DD HH:MM:SS.mmm] L/Tag( PID): message` |
/// | process, thread | `L( PID) message  (Tag)`, `L( PID:TID) message` |
/// | tag | `L/Tag: message` |
/// | long | `[ MM-DD HH:MM:SS.mmm PID:TID L/Tag ]` then the message (joined to its header by the scanner) |
/// | Android Studio | `[YY]YY-MM-DD HH:MM:SS.mmm PID-TID/package L/Tag: message` (`/?`, `Tag﹕ `) |
/// | Dolphin | `YYYY-MM-DD HH:MM:SS.mmm PID-TID Tag package L  message` |
enum LogcatEnvelope {
    /// Where a logcat line's fields are: a small value, read per candidate line (an `EnvelopeInfo`, which every format
    /// shares, is several times its size, and copying it as it was returned cost 2 % of a logcat lint).
    struct Fields {
        var pid: Int?
        var process: Range<Int>?
        var tag: Range<Int>? = nil
        var message: Range<Int>
    }

    /// The envelope of a logcat line, or nil when the line is not one.
    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> EnvelopeInfo? {
        guard let f = fields(p, n) else { return nil }
        var info = EnvelopeInfo(format: .logcat, time: nil, process: f.process, pid: f.pid, message: f.message)
        info.tag = f.tag
        return info
    }

    /// `parse`'s fields alone: threadtime's usual line at its fixed places (`threadtime`), any other through
    /// `anyFields`, which reads every format and gives the same for that line.
    static func fields(_ p: UnsafePointer<UInt8>, _ n: Int) -> Fields? {
        threadtime(p, n) ?? anyFields(p, n)
    }

    /// threadtime's line as `adb logcat` prints it, `MM-DD HH:MM:SS.mmm  PID  TID L Tag: message`, read column by
    /// column without trying the other formats; nil for any other shape (a year, a uid column, a zone, tabs before the
    /// pid), which `anyFields` reads. Where it answers, `anyFields` answers the same (a test mutates such lines).
    @inline(__always)
    private static func threadtime(_ p: UnsafePointer<UInt8>, _ n: Int) -> Fields? {
        guard n > 26, isThreadtimeStamp(p, n) else { return nil }
        var i = 19
        while i < n, p[i] == .space { i += 1 }
        let pidStart = i
        var pid = 0
        while i < n, i - pidStart < 9, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
            pid = pid &* 10 &+ Int(d)
            i += 1
        }
        guard i > pidStart, i < n, p[i] == .space else { return nil }
        while i < n, p[i] == .space { i += 1 }
        let tidStart = i
        while i < n, i - tidStart < 9, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i > tidStart, i < n, p[i] == .space else { return nil }
        while i < n, p[i] == .space { i += 1 }
        guard i + 1 < n, isLevel(p[i]), p[i + 1] == .space else { return nil }
        i += 2
        while i < n, p[i] == .space || p[i] == .tab { i += 1 }
        return tagged(p, n, tagStart: i, pid: pid, process: nil)
    }

    /// Whether the line begins with threadtime's `MM-DD HH:MM:SS.mmm ` (its punctuation and digits at their places).
    @inline(__always) static func isThreadtimeStamp(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        // Bytes 0–7 (`MM-DD HH`) and 8–15 (`:MM:SS.m`) as two words, each checked at once: its separators where the
        // stamp has them, and ASCII digits in every other byte (`digits`); then bytes 16–18 (`mm `) one by one.
        // (`isThreadtimeStampByteByByte` in the tests is the same check a byte at a time.)
        guard n > 18 else { return false }
        let a = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        let b = UnsafeRawPointer(p + 8).loadUnaligned(as: UInt64.self)
        // Little-endian: byte k of the line is bits 8k…8k+7 of its word.
        guard a & 0x0000_FF00_00FF_0000 == 0x0000_2000_002D_0000,  // `-` at 2, ` ` at 5
              b & 0x00FF_0000_FF00_00FF == 0x002E_0000_3A00_003A,  // `:` at 8 and 11, `.` at 14
              digits(a, 0xFFFF_00FF_FF00_FFFF), digits(b, 0xFF00_FFFF_00FF_FF00), p[18] == .space else { return false }
        return p[16] &- UInt8(ascii: "0") < 10 && p[17] &- UInt8(ascii: "0") < 10
    }

    /// Whether every byte of `w` that `mask` selects (each 0x00 or 0xFF) is an ASCII digit: its high half 3, and its
    /// low half at most 9 (6 more leaves the high half 3; added to the selected bytes only, no carry reaches the next).
    @inline(__always) static func digits(_ w: UInt64, _ mask: UInt64) -> Bool {
        let high = mask & 0xF0F0_F0F0_F0F0_F0F0, three = mask & 0x3030_3030_3030_3030
        return w & high == three && (w &+ (mask & 0x0606_0606_0606_0606)) & high == three
    }

    /// `fields` for every format.
    static func anyFields(_ p: UnsafePointer<UInt8>, _ n: Int) -> Fields? {
        guard n > 2 else { return nil }
        var i = 0
        if p[0] == .openBracket { return parseLong(p, n) }
        if ByteCursor.isDigit(p[0]), let after = timestampEnd(p, n) {
            i = after
            while i < n, p[i] == .space { i += 1 }
        }
        guard i < n else { return nil }
        if ByteCursor.isDigit(p[i]) { return parseNumbered(p, n, at: i) }
        if isLevel(p[i]), i + 1 < n {
            if p[i + 1] == .slash { return parseSlashed(p, n, at: i + 2) }
            if p[i + 1] == .openParen { return parseParenthesised(p, n, at: i + 2) }
        }
        // threadtime with a uid column that is a name (`u0_a123  1234  5678 D Tag: …`).
        var j = i
        while j < n, j - i < 16, ByteCursor.isWord(p[j]) { j += 1 }
        if j > i, j < n, p[j] == .space {
            while j < n, p[j] == .space { j += 1 }
            if j < n, ByteCursor.isDigit(p[j]) { return parseNumbered(p, n, at: j) }
        }
        return nil
    }

    /// Whether `b` is a logcat priority letter.
    @inline(__always) static func isLevel(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "V") || b == UInt8(ascii: "D") || b == UInt8(ascii: "I") || b == UInt8(ascii: "W")
            || b == UInt8(ascii: "E") || b == UInt8(ascii: "F") || b == UInt8(ascii: "A")
    }

    /// The column after a leading timestamp: `YYYY-MM-DD`, `YY-MM-DD` or `MM-DD`, then `HH:MM:SS[.fff]`, and a zone
    /// (`+0000`) if any; nil when the line does not start with one.
    static func timestampEnd(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n, i < 5, ByteCursor.isDigit(p[i]) { i += 1 }
        guard i == 2 || i == 4, i < n, p[i] == .hyphen else { return clockEnd(p, n, at: 0) }
        i += 1
        // MM-DD, or the MM-DD after a year.
        for group in 0..<2 {
            guard i + 2 <= n, ByteCursor.isDigit(p[i]), ByteCursor.isDigit(p[i + 1]) else { return nil }
            i += 2
            guard group == 0, i < n, p[i] == .hyphen else { break }
            i += 1
        }
        guard i < n, p[i] == .space || p[i] == UInt8(ascii: "T") else { return nil }
        i += 1
        while i < n, p[i] == .space { i += 1 }
        return clockEnd(p, n, at: i)
    }

    /// `HH:MM:SS[.fff][ zone]` from `i`: the column after it.
    private static func clockEnd(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) -> Int? {
        var i = start
        guard i + 8 <= n, ByteCursor.isDigit(p[i]), ByteCursor.isDigit(p[i + 1]), p[i + 2] == .colon, ByteCursor.isDigit(p[i + 3]),
              p[i + 5] == .colon, ByteCursor.isDigit(p[i + 6]), ByteCursor.isDigit(p[i + 7]) else { return nil }
        i += 8
        if i < n, p[i] == .dot || p[i] == .comma { i += 1; while i < n, ByteCursor.isDigit(p[i]) { i += 1 } }
        guard i == n || p[i] == .space else { return nil }
        var k = i
        while k < n, p[k] == .space { k += 1 }
        if k + 1 < n, p[k] == .plus || p[k] == .hyphen, ByteCursor.isDigit(p[k + 1]) {  // -v zone
            k += 1
            while k < n, ByteCursor.isDigit(p[k]) { k += 1 }
            i = k
        }
        return i
    }

    /// A body that starts with a number: threadtime's `PID TID L Tag:` (after a uid, perhaps), Android Studio's
    /// `PID-TID/package L/Tag:` and Dolphin's `PID-TID Tag package L `.
    private static func parseNumbered(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) -> Fields? {
        var c = ByteCursor(p, count: n, pos: start)
        guard let pid = c.number(max: 9) else { return nil }
        if c.peek() == .hyphen {
            c.pos += 1
            guard c.number(max: 9) != nil else { return nil }
            if c.peek() == .slash {  // Android Studio
                c.pos += 1
                let s = c.pos
                while let b = c.peek(), b != .space { c.pos += 1 }
                let process: Range<Int>? = c.pos > s && !(c.pos == s + 1 && p[s] == .question) ? s..<c.pos : nil
                guard c.skipSpaces() > 0, let level = c.peek(), isLevel(level), c.pos + 1 < n, p[c.pos + 1] == .slash else { return nil }
                return tagged(p, n, tagStart: c.pos + 2, pid: pid, process: process)
            }
            return parseDolphin(p, n, at: c.pos, pid: pid)
        }
        guard c.skipSpaces() > 0, let second = c.number(max: 9) else { return nil }
        _ = second
        guard c.skipSpaces() > 0 else { return nil }
        var pidValue = pid
        if let b = c.peek(), ByteCursor.isDigit(b) {  // a uid column before the pid
            pidValue = second
            guard c.number(max: 9) != nil, c.skipSpaces() > 0 else { return nil }
        }
        guard let level = c.peek(), isLevel(level), c.pos + 1 < n, p[c.pos + 1] == .space else { return nil }
        c.pos += 2
        _ = c.skipSpaces()
        return tagged(p, n, tagStart: c.pos, pid: pidValue, process: nil)
    }

    /// Dolphin's columns after `PID-TID`: the tag, the package (a column of its own), the level letter, the message.
    private static func parseDolphin(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int, pid: Int) -> Fields? {
        var c = ByteCursor(p, count: n, pos: start)
        guard c.skipSpaces() > 0 else { return nil }
        var words: [Range<Int>] = []
        while words.count < 3, c.pos < n {
            let s = c.pos
            while let b = c.peek(), b != .space { c.pos += 1 }
            words.append(s..<c.pos)
            if words.last!.count == 1, isLevel(p[s]), words.count >= 2 { break }
            guard c.skipSpaces() > 0 else { return nil }
        }
        guard let last = words.last, last.count == 1, isLevel(p[last.lowerBound]), words.count >= 2 else { return nil }
        _ = c.skipSpaces()
        var info = Fields(pid: pid, process: words.count == 3 ? words[1] : nil, message: c.pos..<n)
        info.tag = words[0]
        return info
    }

    /// After `L/`: brief and time's `Tag( PID): message`, or the tag format's `Tag: message`.
    private static func parseSlashed(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) -> Fields? {
        var i = start
        while i < n, i - start < 128, p[i] != .openParen, p[i] != .colon, !isWideColon(p, n, i) { i += 1 }
        if i < n, p[i] == .openParen {
            var c = ByteCursor(p, count: n, pos: i + 1)
            _ = c.skipSpaces()
            guard let pid = c.number(max: 9), c.expect(.closeParen), c.expect(.colon) else { return nil }
            var tagEnd = i
            while tagEnd > start, p[tagEnd - 1] == .space { tagEnd -= 1 }
            _ = c.skipSpaces()
            var info = Fields(pid: pid, process: nil, message: c.pos..<n)
            info.tag = start..<tagEnd
            return info
        }
        return tagged(p, n, tagStart: start, pid: nil, process: nil)
    }

    /// After `L(`: the process format's `PID) message  (Tag)` and the thread format's `PID:TID) message`.
    private static func parseParenthesised(_ p: UnsafePointer<UInt8>, _ n: Int, at start: Int) -> Fields? {
        var c = ByteCursor(p, count: n, pos: start)
        _ = c.skipSpaces()
        guard let pid = c.number(max: 9) else { return nil }
        if c.peek() == .colon {
            c.pos += 1
            _ = c.skipSpaces()
            while let b = c.peek(), ByteCursor.isHex(b) || b == UInt8(ascii: "x") { c.pos += 1 }
        }
        guard c.expect(.closeParen) else { return nil }
        _ = c.skipSpaces()
        var end = n
        while end > c.pos, p[end - 1] == .space { end -= 1 }
        var info = Fields(pid: pid, process: nil, message: c.pos..<end)
        // `message  (Tag)`: the tag closes the line.
        if end > c.pos, p[end - 1] == .closeParen, let open = (c.pos..<end).last(where: { p[$0] == .openParen }), open >= c.pos + 2,
           p[open - 1] == .space, p[open - 2] == .space {
            var m = open
            while m > c.pos, p[m - 1] == .space { m -= 1 }
            info.message = c.pos..<m
            info.tag = (open + 1)..<(end - 1)
        }
        return info
    }

    /// `[ MM-DD HH:MM:SS.mmm  PID: TID L/Tag ]`, and the message after it when the scanner joined the two lines.
    private static func parseLong(_ p: UnsafePointer<UInt8>, _ n: Int) -> Fields? {
        guard n > 2, p[1] == .space else { return nil }
        var i = 2
        while i < n, p[i] == .space { i += 1 }
        guard let after = timestampEnd(p + i, n - i) else { return nil }
        var c = ByteCursor(p, count: n, pos: i + after)
        _ = c.skipSpaces()
        guard let pid = c.number(max: 9), c.expect(.colon) else { return nil }
        _ = c.skipSpaces()
        while let b = c.peek(), ByteCursor.isHex(b) || b == UInt8(ascii: "x") { c.pos += 1 }
        guard c.skipSpaces() > 0, let level = c.peek(), isLevel(level), c.pos + 1 < n, p[c.pos + 1] == .slash else { return nil }
        let tagStart = c.pos + 2
        var close = tagStart
        while close < n, p[close] != .closeBracket { close += 1 }
        guard close < n else { return nil }
        var tagEnd = close
        while tagEnd > tagStart, p[tagEnd - 1] == .space { tagEnd -= 1 }
        var m = close + 1
        while m < n, p[m] == .space { m += 1 }
        var info = Fields(pid: pid, process: nil, message: m..<n)
        info.tag = tagStart..<tagEnd
        return info
    }

    /// `Tag: message` (or `Tag﹕ message`, older Android Studio) from `tagStart`: the tag ends at its first `: `.
    private static func tagged(_ p: UnsafePointer<UInt8>, _ n: Int, tagStart: Int, pid: Int?, process: Range<Int>?) -> Fields? {
        // Eight bytes at a time while none is a separator's first byte (`:`, or U+FE55's 0xEF), then byte by byte.
        var i = tagStart
        while i &+ 8 <= n {
            let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            if hasByte(w, .colon) || hasByte(w, 0xEF) { break }
            i &+= 8
        }
        while i < n {
            let b = p[i]
            if b == .colon || b == 0xEF {
                if b == .colon ? i &+ 1 == n || p[i &+ 1] == .space : isWideColon(p, n, i) { break }
            }
            i &+= 1
        }
        guard i < n else { return nil }
        let width = p[i] == .colon ? 1 : 3
        var tagEnd = i
        while tagEnd > tagStart, p[tagEnd - 1] == .space { tagEnd -= 1 }
        var m = i + width
        while m < n, p[m] == .space { m += 1 }
        var info = Fields(pid: pid, process: process, message: m..<n)
        info.tag = tagStart..<tagEnd
        return info
    }

    /// Whether one of the eight bytes of `w` is `b` (a zero byte of `w ^ b…b`, found without a false one).
    @inline(__always) static func hasByte(_ w: UInt64, _ b: UInt8) -> Bool {
        let x = w ^ (0x0101_0101_0101_0101 &* UInt64(b))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// U+FE55 (`﹕`), the separator older Android Studio versions print after the tag.
    @inline(__always) private static func isWideColon(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: Int) -> Bool {
        i + 2 < n && p[i] == 0xEF && p[i + 1] == 0xB9 && p[i + 2] == 0x95
    }

    /// The line's time: `YYYY-MM-DD`, a two-digit year, or `MM-DD` (no year: counted within a leap year, as
    /// syslog's). Nil for the formats without a time.
    static func time(_ p: UnsafePointer<UInt8>, _ n: Int) -> LogTime? {
        var cache = TimestampParser.MinuteCache()
        return time(p, n, cache: &cache)
    }

    /// The same through a cache of the last minute read (`TimestampParser.MinuteCache`: lines of a capture share
    /// their date and minute), the year-less stamp padded on the stack.
    static func time(_ p: UnsafePointer<UInt8>, _ n: Int, cache: inout TimestampParser.MinuteCache) -> LogTime? {
        if isThreadtimeStamp(p, n) { return threadtimeTime(p) }
        return anyTime(p, n, cache: &cache)
    }

    /// threadtime's `MM-DD HH:MM:SS.mmm ` (`isThreadtimeStamp`) read at its fixed places: what `anyTime` reads from it.
    @inline(__always)
    private static func threadtimeTime(_ p: UnsafePointer<UInt8>) -> LogTime? {
        @inline(__always) func d(_ k: Int) -> Int { Int(p[k] &- UInt8(ascii: "0")) }
        let month = d(0) * 10 + d(1), day = d(3) * 10 + d(4), hour = d(6) * 10 + d(7), minute = d(9) * 10 + d(10)
        let second = d(12) * 10 + d(13)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        // The fraction summed digit by digit, as the timestamp parser sums it (the same `Double` to the last bit).
        var fraction = 0.0
        fraction += Double(d(15)) * TimestampParser.fractionScale(0)
        fraction += Double(d(16)) * TimestampParser.fractionScale(1)
        fraction += Double(d(17)) * TimestampParser.fractionScale(2)
        let days = CivilTime.daysIn2000(month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
        return LogTime(seconds: seconds, year: 0, month: month, day: day, hour: hour, minute: minute, second: second,
                       fraction: UInt32(d(15) * 100 + d(16) * 10 + d(17)), fractionDigits: 3, offsetMinutes: nil,
                       secondsAreFields: true)
    }

    /// `time` for every format.
    static func anyTime(_ p: UnsafePointer<UInt8>, _ n: Int, cache: inout TimestampParser.MinuteCache) -> LogTime? {
        var q = p, k = n
        if k > 2, p[0] == .openBracket, p[1] == .space {  // long
            var i = 1
            while i < k, p[i] == .space { i += 1 }
            q = p + i
            k -= i
        }
        guard k >= 14, ByteCursor.isDigit(q[0]) else { return nil }
        if k > 4, q[4] == .hyphen {
            var c = ByteCursor(q, count: k)
            return TimestampParser.parseISOLike(&c, cache: &cache)?.0
        }
        if k > 5, q[2] == .hyphen, q[5] == .hyphen { return TimestampParser.parseShortYear(q, k) }
        guard q[2] == .hyphen, q[5] == .space else { return nil }
        let count = 5 + min(k, 40)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { b -> LogTime? in
            let year: StaticString = "2000-"
            year.withUTF8Buffer { y in for i in 0..<5 { b[i] = y[i] } }
            for i in 0..<(count - 5) { b[5 + i] = q[i] }
            var c = ByteCursor(UnsafePointer(b.baseAddress!), count: count)
            guard var t = TimestampParser.parseISOLike(&c, cache: &cache)?.0 else { return nil }
            t.year = 0
            return t
        }
    }
}
