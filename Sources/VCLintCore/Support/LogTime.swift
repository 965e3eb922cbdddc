/// A timestamp as the log gave it: seconds for arithmetic, and the ISO 8601 text for reports.
/// The fields are kept as read so that the text is only built for lines that are reported.
public struct LogTime: Sendable, Equatable {
    /// Seconds since 1970 (in the log's own offset when it has none; only differences matter).
    public var seconds: Double {
        @inline(__always) get { storedSeconds }
        set { storedSeconds = newValue; digitsAndExact &= 0x7F }
    }
    private var storedSeconds: Double
    // In this order, with no padding: an `EventRef` with its time fits in 32 bytes (a test checks). Setting a field
    // after the time is made clears `secondsAreFields`: the seconds are then no longer known to be the fields'.
    var fraction: UInt32 { didSet { digitsAndExact &= 0x7F } }  // the digits after the point, as read
    var year: Int16 { didSet { digitsAndExact &= 0x7F } }  // 0: syslog, which has no year
    /// Minutes east of UTC, nil when the log gave no offset; `Int16.min` for `Z`.
    var offsetMinutes: Int16? {
        get { offsetRaw == Int16.max ? nil : offsetRaw }
        set { offsetRaw = newValue ?? Int16.max; digitsAndExact &= 0x7F }
    }
    /// `offsetMinutes`, with `Int16.max` for none (no offset is that large): no optional's tag byte.
    private var offsetRaw: Int16
    var month: UInt8 { didSet { digitsAndExact &= 0x7F } }
    var day: UInt8 { didSet { digitsAndExact &= 0x7F } }
    var hour: UInt8 { didSet { digitsAndExact &= 0x7F } }
    var minute: UInt8 { didSet { digitsAndExact &= 0x7F } }
    var second: UInt8 { didSet { digitsAndExact &= 0x7F } }
    /// How many digits the fraction had (no parser reads more than nine).
    var fractionDigits: UInt8 {
        @inline(__always) get { digitsAndExact & 0x7F }
        set { digitsAndExact = newValue & 0x7F }
    }
    /// `fractionDigits`, and in its top bit `secondsAreFields` (one byte: the time grows by none).
    private var digitsAndExact: UInt8
    /// Whether `seconds` is known to be `fieldSeconds` to the last bit: a parser computed both from the same digits in
    /// the same order, or a packed time was unpacked. `PackedTime.Table.pack` then need not compute them again to check
    /// (about 300 instructions a time kept). Setting `seconds` or any field clears it.
    var secondsAreFields: Bool { digitsAndExact & 0x80 != 0 }

    /// The smallest difference the log's text can show: a second for whole-second times (syslog),
    /// a millisecond for three digits after the point.
    var precision: Double {
        var p = 1.0
        for _ in 0..<fractionDigits { p /= 10 }
        return p
    }

    public init(seconds: Double, iso: String) {
        // For tests and callers without a parsed line: keep the text's fields when it parses.
        // The year-less form (`--04-01T16:30:45`, syslog's and logcat's) is read within 2000, as its lines are.
        let yearless = iso.hasPrefix("--")
        var copy = yearless ? "2000" + iso.dropFirst() : iso
        let parsed: LogTime? = copy.withUTF8 { buf -> LogTime? in
            guard let b = buf.baseAddress else { return nil }
            var c = ByteCursor(b, count: buf.count)
            return TimestampParser.parseISOLike(&c)?.0
        }
        if var p = parsed {
            p.seconds = seconds
            if yearless { p.year = 0 }
            self = p
            return
        }
        storedSeconds = seconds
        year = 0; month = 1; day = 1; hour = 0; minute = 0; second = 0; fraction = 0; digitsAndExact = 0; offsetRaw = Int16.max
    }

    /// `secondsAreFields`: the caller computed `seconds` as `fieldSeconds` computes it (the timestamp parsers), or took
    /// it from a packed word (`PackedTime`). A test compares them for every parser over many stamps.
    init(seconds: Double, year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
         fraction: UInt32, fractionDigits: Int, offsetMinutes: Int16?, secondsAreFields: Bool = false) {
        storedSeconds = seconds
        self.year = Int16(clamping: year)
        self.month = UInt8(month); self.day = UInt8(day); self.hour = UInt8(hour)
        self.minute = UInt8(minute); self.second = UInt8(second)
        self.fraction = fraction
        digitsAndExact = UInt8(min(fractionDigits, 0x7F)) | (secondsAreFields ? 0x80 : 0)
        self.offsetRaw = offsetMinutes ?? Int16.max
    }

    /// The same time with seconds its fields give (`PackedTime.unpack`: exact by the table's rule).
    @inline(__always)
    mutating func setFieldSeconds(_ s: Double) {
        storedSeconds = s
        digitsAndExact |= 0x80
    }

    /// ISO 8601 text, with the offset when the log has one (`2020-04-01T16:30:45.465638+08:00`);
    /// syslog lines have no year and use the year-less form `--04-01T16:30:45`.
    public var iso: String {
        // Written as bytes: the views ask for it once per event and per session.
        var out: [UInt8] = []
        out.reserveCapacity(40)
        func pad(_ v: Int, _ width: Int) {
            if v < 0 || v >= 1_000_000_000_000 {
                // As `String(v)` writes it (the fields are far smaller).
                let s = Array(String(v).utf8)
                for _ in s.count..<max(s.count, width) { out.append(UInt8(ascii: "0")) }
                out.append(contentsOf: s)
                return
            }
            var digits = 1, p = 10
            while v >= p { digits += 1; p *= 10 }
            for _ in digits..<max(digits, width) { out.append(UInt8(ascii: "0")) }
            p /= 10
            var x = v
            for _ in 0..<digits {
                out.append(UInt8(ascii: "0") + UInt8(x / p))
                x %= p
                p /= 10
            }
        }
        if year == 0 {
            out += [UInt8.hyphen, UInt8.hyphen]  // --
        } else {
            pad(Int(year), 4)
            out.append(UInt8.hyphen)
        }
        pad(Int(month), 2); out.append(UInt8.hyphen); pad(Int(day), 2); out.append(UInt8(ascii: "T"))  // T
        pad(Int(hour), 2); out.append(UInt8.colon); pad(Int(minute), 2); out.append(UInt8.colon); pad(Int(second), 2)
        if fractionDigits > 0 { out.append(UInt8.dot); pad(Int(fraction), Int(fractionDigits)) }
        if let o = offsetMinutes {
            if o == Int16.min {
                out.append(UInt8(ascii: "Z"))  // Z
            } else {
                let a = abs(Int(o))
                out.append(o < 0 ? UInt8.hyphen : UInt8.plus)
                pad(a / 60, 2); out.append(UInt8.colon); pad(a % 60, 2)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func == (a: LogTime, b: LogTime) -> Bool { a.seconds == b.seconds && a.iso == b.iso }

    /// The seconds that the parser computes from these fields (an ISO-like stamp; syslog's, without
    /// a year, within 2000). A stored time whose seconds are these need not store them.
    var fieldSeconds: Double {
        let days = CivilTime.daysFromCivil(year: year == 0 ? 2000 : Int(year), month: Int(month), day: Int(day))
        let offsetSeconds = offsetMinutes.map { $0 == Int16.min ? 0 : Int($0) * 60 } ?? 0
        // The digits as read, most significant first: taken from the low end by a constant division
        // (packed four bits each, the most significant lowest), then summed in the parser's order.
        var f = 0.0
        let count = Int(fractionDigits)
        guard count <= 16 else { return Double(days * 86400 + Int(hour) * 3600 + Int(minute) * 60 + Int(second) - offsetSeconds) + longFraction }
        var v = fraction, packed: UInt64 = 0
        for _ in 0..<count {
            packed = packed << 4 | UInt64(v % 10)
            v /= 10
        }
        for i in 0..<count {
            f += Double(packed & 15) * TimestampParser.fractionScale(i)
            packed >>= 4
        }
        return Double(days * 86400 + Int(hour) * 3600 + Int(minute) * 60 + Int(second) - offsetSeconds) + f
    }
}

extension LogTime {
    /// `fieldSeconds`' fraction digit by digit, for more digits than fit its packed word (no parser reads so many).
    fileprivate var longFraction: Double {
        var f = 0.0
        var scale = 1
        for _ in 1..<max(1, Int(fractionDigits)) { scale *= 10 }
        for i in 0..<Int(fractionDigits) {
            let digit = Int(fraction) / scale % 10
            f += Double(digit) * TimestampParser.fractionScale(i)
            scale /= 10
        }
        return f
    }
}

enum CivilTime {
    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = month
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// `daysFromCivil(year: 2000, …)`, what a stamp without a year counts within (syslog's, logcat's): the algorithm with
    /// its year's terms worked out (its era and year of era are constants for 2000, and for 1999, where January and
    /// February count from), so that only the month's term is left: read on every such line, the divisions by 400, 100
    /// and 4 cost about 60 instructions. A test compares the two on every month and day a stamp's digits can say.
    @inline(__always)
    static func daysIn2000(month: Int, day: Int) -> Int {
        guard month >= 1, month <= 12 else { return daysFromCivil(year: 2000, month: month, day: day) }
        return month > 2 ? 11017 + (153 * (month - 3) + 2) / 5 + day - 1 : 10651 + (153 * (month + 9) + 2) / 5 + day - 1
    }
}

/// Byte-level readers used by the envelope parsers: they never trap on short or hostile input.
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    var pos: Int

    init(_ base: UnsafePointer<UInt8>, count: Int, pos: Int = 0) {
        self.base = base
        self.end = count
        self.pos = pos
    }

    @inline(__always) var atEnd: Bool { pos >= end }
    @inline(__always) func peek(_ offset: Int = 0) -> UInt8? {
        let i = pos + offset
        return i < end && i >= 0 ? base[i] : nil
    }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }
    /// PCRE2's `\w` without UCP: ASCII letters, digits and underscore.
    @inline(__always) static func isWord(_ b: UInt8) -> Bool { isDigit(b) || (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore }
    /// A Java name's byte: `isWord`, or `$`. One test of a bit of two 64-bit sets (bytes 0–63: `$` and the digits; 64–127:
    /// the letters and `_`), where four comparisons were, for the loop that walks dotted names.
    @inline(__always) static func isJavaNameByte(_ b: UInt8) -> Bool {
        let low: UInt64 = 1 << 36 | 0x03FF_0000_0000_0000, high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return b < 128 && ((b < 64 ? low : high) >> UInt64(b & 63)) & 1 != 0
    }
    @inline(__always) static func isHex(_ b: UInt8) -> Bool {
        isDigit(b) || (b | UInt8.caseBit) &- UInt8(ascii: "a") < 6
    }

    /// Reads exactly `n` digits as a number.
    mutating func digits(_ n: Int) -> Int? {
        guard pos + n <= end else { return nil }
        var v = 0
        for i in 0..<n {
            let b = base[pos + i]
            guard Self.isDigit(b) else { return nil }
            v = v * 10 + Int(b - UInt8(ascii: "0"))
        }
        pos += n
        return v
    }

    /// Reads 1...max digits.
    mutating func number(max: Int = 18) -> Int? {
        var v = 0, n = 0
        while pos < end, n < max, Self.isDigit(base[pos]) {
            v = v * 10 + Int(base[pos] - UInt8(ascii: "0"))
            pos += 1
            n += 1
        }
        return n > 0 ? v : nil
    }

    mutating func expect(_ b: UInt8) -> Bool {
        if pos < end, base[pos] == b { pos += 1; return true }
        return false
    }

    mutating func skipSpaces() -> Int {
        let start = pos
        while pos < end, base[pos] == .space || base[pos] == .tab { pos += 1 }
        return pos - start
    }

    func text(_ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
    }
}

enum TimestampParser {
    /// Parses `YYYY-MM-DD HH:MM:SS[.frac][(+|-)HHMM|Z]` at the cursor (a `T` may separate date and time).
    /// Returns nil and leaves the cursor alone when the bytes are not such a timestamp.
    static func parseISOLike(_ c: inout ByteCursor, requireOffset: Bool = false) -> (LogTime, hasOffset: Bool)? {
        var k = c
        guard let year = k.digits(4), k.expect(UInt8.hyphen), let month = k.digits(2), k.expect(UInt8.hyphen), let day = k.digits(2) else { return nil }
        guard k.expect(UInt8.space) || k.expect(UInt8(ascii: "T")) else { return nil }
        guard let hour = k.digits(2), k.expect(UInt8.colon), let minute = k.digits(2) else { return nil }
        return parseISOSeconds(&c, k, year: year, month: month, day: day, hour: hour, minute: minute, requireOffset: requireOffset)
    }

    /// A timestamp whose year was cut to one to three digits (` 020-04-28 23:36:34.728`, copied from
    /// a web page): read as if the missing leading digits were those of 2000.
    static func parseShortYear(_ p: UnsafePointer<UInt8>, _ n: Int) -> LogTime? {
        var digits = 0
        while digits < n, digits < 4, ByteCursor.isDigit(p[digits]) { digits += 1 }
        guard digits >= 1, digits <= 3, digits < n, p[digits] == .hyphen else { return nil }
        var padded = [UInt8]("2000".utf8.prefix(4 - digits))
        padded.append(contentsOf: UnsafeBufferPointer(start: p, count: min(n, 40)))
        return padded.withUnsafeBufferPointer { b in
            var c = ByteCursor(b.baseAddress!, count: b.count)
            return parseISOLike(&c)?.0
        }
    }

    /// The date and minute of the last ISO timestamp one scanner read (the first 16 bytes,
    /// `YYYY-MM-DD HH:MM`): lines of a capture share them, so the next line with the same 16 bytes
    /// only reads its seconds, fraction and offset.
    struct MinuteCache {
        fileprivate var key: (UInt64, UInt64) = (0, 0)
        fileprivate var valid = false
        fileprivate var year = 0, month = 0, day = 0, hour = 0, minute = 0
        /// `CivilTime.daysFromCivil` of the date.
        fileprivate var days = 0
        /// The last stamp's `:SS` (three bytes) and its second, when it had a fraction.
        fileprivate var secondKey: UInt32 = 0
        fileprivate var second = -1
        /// The six bytes after its fraction, which decide its offset (`+HHMM`, `+HH:MM`, `Z` or none),
        /// and what they gave: the bytes the offset took and its value.
        fileprivate var offsetKey: UInt64 = 0
        fileprivate var offsetValid = false
        fileprivate var offsetLength = 0
        fileprivate var offsetSeconds = 0
        fileprivate var offsetMinutes: Int16?
    }

    /// `parseISOLike`, through `cache`: the same result and cursor for every input.
    static func parseISOLike(_ c: inout ByteCursor, cache: inout MinuteCache) -> (LogTime, hasOffset: Bool)? {
        guard c.end - c.pos >= 16 else { return parseISOLike(&c) }
        let raw = UnsafeRawPointer(c.base + c.pos)
        let key = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if cache.valid, key == cache.key {
            if let t = sameSecondTemplate(&c, cache: cache) { return t }
            var k = c
            k.pos += 16
            let from = c.pos
            let parsed = parseISOSeconds(&c, k, year: cache.year, month: cache.month, day: cache.day, hour: cache.hour, minute: cache.minute,
                                         requireOffset: false, days: cache.days)
            if let parsed { remember(parsed.0, from: from, to: c, in: &cache) }
            return parsed
        }
        let start = c
        guard let parsed = parseISOLike(&c) else { return nil }
        // Cached only after a whole timestamp was read: its date and minute were valid.
        let t = parsed.0
        if c.pos - start.pos >= 16 {
            cache = MinuteCache(key: key, valid: true, year: Int(t.year), month: Int(t.month), day: Int(t.day), hour: Int(t.hour), minute: Int(t.minute),
                                days: CivilTime.daysFromCivil(year: Int(t.year), month: Int(t.month), day: Int(t.day)))
            remember(t, from: start.pos, to: c, in: &cache)
        }
        return parsed
    }

    /// A stamp of the cached minute whose `:SS` and offset bytes are the last stamp's (the envelope's
    /// template: `2024-03-01 22:13:35.264917+0800`, lines after lines): only its fraction is read, at
    /// its fixed place. nil when it is not such a stamp (`parseISOSeconds` reads it then).
    @inline(__always)
    private static func sameSecondTemplate(_ c: inout ByteCursor, cache: MinuteCache) -> (LogTime, hasOffset: Bool)? {
        let p = c.base, end = c.end, q = c.pos + 16
        guard cache.second >= 0, cache.offsetValid, q + 4 < end, p[q + 3] == .dot || p[q + 3] == .comma,
              UInt32(p[q]) | UInt32(p[q + 1]) << 8 | UInt32(p[q + 2]) << 16 == cache.secondKey else { return nil }
        var i = q + 4
        var fraction = 0.0
        var fracValue: UInt32 = 0
        var fracDigits = 0
        while i < end, fracDigits < 9, case let d = p[i] &- UInt8(ascii: "0"), d < 10 {
            fraction += Double(d) * fractionScale(fracDigits)
            fracValue = fracValue * 10 + UInt32(d)
            i += 1
            fracDigits += 1
        }
        guard fracDigits > 0 else { return nil }
        while i < end, p[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        guard i + 6 <= end, UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0xFFFF_FFFF_FFFF == cache.offsetKey else { return nil }
        let secs = Double(cache.days * 86400 + cache.hour * 3600 + cache.minute * 60 + cache.second - cache.offsetSeconds) + fraction
        c.pos = i + cache.offsetLength
        let t = LogTime(seconds: secs, year: cache.year, month: cache.month, day: cache.day, hour: cache.hour, minute: cache.minute,
                        second: cache.second, fraction: fracValue, fractionDigits: fracDigits, offsetMinutes: cache.offsetMinutes,
                        secondsAreFields: cache.year != 0)
        return (t, cache.offsetMinutes != nil)
    }

    /// What a stamp of the cached minute, read from `start` to `end`, says for the next one
    /// (`sameSecondTemplate`): its `:SS`, and its offset's six bytes when it had a fraction.
    private static func remember(_ t: LogTime, from start: Int, to end: ByteCursor, in cache: inout MinuteCache) {
        let p = end.base, q = start + 16
        cache.second = -1
        cache.offsetValid = false
        guard q + 4 < end.end, p[q + 3] == .dot || p[q + 3] == .comma else { return }
        var r = q + 4
        while r < end.end, p[r] &- UInt8(ascii: "0") < 10 { r += 1 }
        guard r + 6 <= end.end, end.pos >= r else { return }
        cache.secondKey = UInt32(p[q]) | UInt32(p[q + 1]) << 8 | UInt32(p[q + 2]) << 16
        cache.second = Int(t.second)
        cache.offsetKey = UnsafeRawPointer(p + r).loadUnaligned(as: UInt64.self) & 0xFFFF_FFFF_FFFF
        cache.offsetValid = true
        cache.offsetLength = end.pos - r
        cache.offsetMinutes = t.offsetMinutes
        cache.offsetSeconds = t.offsetMinutes.map { $0 == Int16.min ? 0 : Int($0) * 60 } ?? 0
    }

    /// The rest of an ISO timestamp after `HH:MM` (`k` is there; `c` moves on success).
    private static func parseISOSeconds(_ c: inout ByteCursor, _ k0: ByteCursor, year: Int, month: Int, day: Int, hour: Int, minute: Int,
                                        requireOffset: Bool, days known: Int? = nil) -> (LogTime, hasOffset: Bool)? {
        var k = k0
        guard k.expect(UInt8.colon), let second = k.digits(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        var fracValue: UInt32 = 0
        var fracDigits = 0
        if k.peek() == .dot || k.peek() == .comma {
            k.pos += 1
            while let b = k.peek(), ByteCursor.isDigit(b), fracDigits < 9 {
                fraction += Double(b - UInt8(ascii: "0")) * fractionScale(fracDigits)
                fracValue = fracValue * 10 + UInt32(b - UInt8(ascii: "0"))
                k.pos += 1
                fracDigits += 1
            }
            if fracDigits == 0 { return nil }
            while let b = k.peek(), ByteCursor.isDigit(b) { k.pos += 1 }
        }
        var offsetSeconds = 0
        var offsetMinutes: Int16?
        if let b = k.peek(), b == .plus || b == .hyphen {
            var j = k
            j.pos += 1
            if let hh = j.digits(2) {
                _ = j.expect(UInt8.colon)
                if let mm = j.digits(2), hh < 24, mm < 60 {
                    let sign = b == .plus ? 1 : -1
                    offsetSeconds = sign * (hh * 3600 + mm * 60)
                    offsetMinutes = Int16(sign * (hh * 60 + mm))
                    k = j
                }
            }
        } else if k.peek() == UInt8(ascii: "Z") {
            k.pos += 1
            offsetMinutes = Int16.min
        }
        if requireOffset && offsetMinutes == nil { return nil }
        let days = known ?? CivilTime.daysFromCivil(year: year, month: month, day: day)
        let secs = Double(days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        c = k
        let t = LogTime(seconds: secs, year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                        fraction: fracValue, fractionDigits: fracDigits, offsetMinutes: offsetMinutes,
                        secondsAreFields: year != 0)
        return (t, offsetMinutes != nil)
    }

    /// The weight of fraction digit `i` (0-based): exactly the value that dividing 0.1 by ten `i`
    /// times gives (a running `scale /= 10`, which the times were computed with; from the sixth digit
    /// on it differs from the decimal literal), without a division per digit. A test checks them.
    @inline(__always)
    static func fractionScale(_ i: Int) -> Double {
        switch i {
        case 0: return 0x1.999999999999ap-4
        case 1: return 0x1.47ae147ae147bp-7
        case 2: return 0x1.0624dd2f1a9fcp-10
        case 3: return 0x1.a36e2eb1c432dp-14
        case 4: return 0x1.4f8b588e368f1p-17
        case 5: return 0x1.0c6f7a0b5ed8ep-20
        case 6: return 0x1.ad7f29abcaf4ap-24
        case 7: return 0x1.5798ee2308c3bp-27
        default: return 0x1.12e0be826d696p-30
        }
    }

    /// Parses syslog's `Mmm dD HH:MM:SS` (no year).
    static func parseSyslog(_ c: inout ByteCursor) -> LogTime? {
        var k = c
        guard k.pos + 3 <= k.end else { return nil }
        let m0 = k.base[k.pos], m1 = k.base[k.pos + 1], m2 = k.base[k.pos + 2]
        guard let month = monthNumber(m0, m1, m2) else { return nil }
        k.pos += 3
        guard k.skipSpaces() > 0, let day = k.number(max: 2), (1...31).contains(day), k.skipSpaces() > 0 else { return nil }
        guard let hour = k.digits(2), k.expect(UInt8.colon), let minute = k.digits(2), k.expect(UInt8.colon), let second = k.digits(2) else { return nil }
        guard hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        var fracValue: UInt32 = 0
        var fracDigits = 0
        if k.peek() == .dot {
            var j = k
            j.pos += 1
            while let b = j.peek(), ByteCursor.isDigit(b), fracDigits < 9 {
                fraction += Double(b - UInt8(ascii: "0")) * fractionScale(fracDigits)
                fracValue = fracValue * 10 + UInt32(b - UInt8(ascii: "0"))
                j.pos += 1
                fracDigits += 1
            }
            if fracDigits > 0 { k = j }
        }
        // No year in syslog: count within a leap year so that every date is valid.
        let days = CivilTime.daysIn2000(month: month, day: day)
        let secs = Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
        c = k
        return LogTime(seconds: secs, year: 0, month: month, day: day, hour: hour, minute: minute, second: second,
                       fraction: fracValue, fractionDigits: fracDigits, offsetMinutes: nil, secondsAreFields: true)
    }

    @inline(__always)
    static func monthNumber(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        switch (a, b | UInt8.caseBit, c | UInt8.caseBit) {
        case (UInt8(ascii: "J"), UInt8(ascii: "a"), UInt8(ascii: "n")): return 1   // Jan
        case (UInt8(ascii: "F"), UInt8(ascii: "e"), UInt8(ascii: "b")): return 2   // Feb
        case (UInt8(ascii: "M"), UInt8(ascii: "a"), UInt8(ascii: "r")): return 3   // Mar
        case (UInt8(ascii: "A"), UInt8(ascii: "p"), UInt8(ascii: "r")): return 4   // Apr
        case (UInt8(ascii: "M"), UInt8(ascii: "a"), UInt8(ascii: "y")): return 5   // May
        case (UInt8(ascii: "J"), UInt8(ascii: "u"), UInt8(ascii: "n")): return 6   // Jun
        case (UInt8(ascii: "J"), UInt8(ascii: "u"), UInt8(ascii: "l")): return 7   // Jul
        case (UInt8(ascii: "A"), UInt8(ascii: "u"), UInt8(ascii: "g")): return 8   // Aug
        case (UInt8(ascii: "S"), UInt8(ascii: "e"), UInt8(ascii: "p")): return 9   // Sep
        case (UInt8(ascii: "O"), UInt8(ascii: "c"), UInt8(ascii: "t")): return 10  // Oct
        case (UInt8(ascii: "N"), UInt8(ascii: "o"), UInt8(ascii: "v")): return 11  // Nov
        case (UInt8(ascii: "D"), UInt8(ascii: "e"), UInt8(ascii: "c")): return 12  // Dec
        default: return nil
        }
    }

}
