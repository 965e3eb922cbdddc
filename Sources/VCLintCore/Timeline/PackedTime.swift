/// A `LogTime` in 8 bytes, for the times an instance keeps (a `LogTime` takes 22, and a live controller
/// must cost about 200 bytes: docs/performance.md#memory): its
/// date (year, month, day, offset and number of fraction digits) by index in the input's `Table`,
/// its hour, minute, second and fraction. The seconds are not stored: they are what the fields give
/// (`LogTime.fieldSeconds`), and a time whose seconds are not (or whose fields do not fit, or whose
/// input has more dates than the index holds) does not pack: its owner keeps it whole.
///
/// Layout, high to low: 1 (a time, so never 0 nor `elsewhere`), the date index (16 bits), hour (5),
/// minute (6), second (6), fraction (30).
enum PackedTime {
    /// Stands for "kept whole elsewhere" (the owner's fallback).
    static let elsewhere: UInt64 = 1

    private static let fractionBits: UInt64 = 30
    private static let dateShift: UInt64 = 47
    private static let present: UInt64 = 1 << 63

    /// An input's dates by index (one per day, offset and precision the capture uses: a handful),
    /// interned as `ObservationList` interns its own.
    final class Table {
        private var dates = DateTable()
        /// The latest date packed and its index: times come in order, mostly on one date.
        private var lastKey: DateKey?
        private var lastIndex = 0

        /// The seconds of recently packed or unpacked times (`LogTime.fieldSeconds`, about 300 instructions from the
        /// fields), by their packed word: an instance keeps a callback's time and reads it when the next callback or a
        /// finding needs it, mostly soon after. Direct-mapped; a slot answers only the word it holds, and a word stands
        /// for one set of fields, so a hit gives what computing them again would.
        private static let memoSlots = 64
        private let memoWords = UnsafeMutablePointer<UInt64>.allocate(capacity: Table.memoSlots)
        private let memoSeconds = UnsafeMutablePointer<Double>.allocate(capacity: Table.memoSlots)

        init() {
            // (0 is never a packed word: `present` is set in every one.)
            memoWords.initialize(repeating: 0, count: Self.memoSlots)
            memoSeconds.initialize(repeating: 0, count: Self.memoSlots)
        }

        deinit {
            memoWords.deallocate()
            memoSeconds.deallocate()
        }

        var count: Int { dates.dates.count }

        @inline(__always)
        private static func memoSlot(_ v: UInt64) -> Int { Int(truncatingIfNeeded: v ^ v &>> 36) & (memoSlots - 1) }

        /// The seconds of the packed word `v`, whose fields `t` has: remembered, else computed from the fields and
        /// remembered.
        @inline(__always)
        private func seconds(_ v: UInt64, _ t: LogTime) -> Double {
            let k = Self.memoSlot(v)
            if memoWords[k] == v { return memoSeconds[k] }
            let s = t.fieldSeconds
            remember(v, s)
            return s
        }

        @inline(__always)
        private func remember(_ v: UInt64, _ seconds: Double) {
            let k = Self.memoSlot(v)
            memoWords[k] = v
            memoSeconds[k] = seconds
        }

        @inline(__always)
        private static func word(_ d: Int, _ t: LogTime) -> UInt64 {
            present | UInt64(d) << dateShift | UInt64(t.hour) << 42 | UInt64(t.minute) << 36
                | UInt64(t.second) << fractionBits | UInt64(t.fraction)
        }

        func pack(_ t: LogTime) -> UInt64? {
            guard t.hour < 32, t.minute < 64, t.second < 64, UInt64(t.fraction) < 1 << fractionBits else { return nil }
            let key = DateKey(t)
            if key == lastKey {
                // The date's index is known without interning: the word first, then its seconds (a parser's time is
                // known to be exact; it is remembered for the unpack that mostly follows).
                let v = Self.word(lastIndex, t)
                if t.secondsAreFields {
                    remember(v, t.seconds)
                    return v
                }
                return seconds(v, t).bitPattern == t.seconds.bitPattern ? v : nil
            }
            // A new date is interned only for a time that packs.
            guard t.secondsAreFields || t.fieldSeconds.bitPattern == t.seconds.bitPattern,
                  let d = dates.id(key, limit: 1 << 16) else { return nil }
            lastKey = key
            lastIndex = d
            let v = Self.word(d, t)
            remember(v, t.seconds)
            return v
        }

        func unpack(_ v: UInt64) -> LogTime {
            var t = PackedTime.fields(v, dates.dates)
            t.setFieldSeconds(seconds(v, t))
            return t
        }

        /// The dates packed so far, as a value that unpacks the same times: what a recording
        /// keeps once its input is read, without the table's index.
        func frozen() -> Dates { Dates(list: dates.dates) }
    }

    /// A table's dates, fixed (`Table.frozen()`).
    struct Dates: Sendable {
        var list: [DateKey] = []

        func unpack(_ v: UInt64) -> LogTime { PackedTime.unpack(v, list) }
    }

    static func unpack(_ v: UInt64, _ dates: [DateKey]) -> LogTime {
        var t = fields(v, dates)
        t.setFieldSeconds(t.fieldSeconds)
        return t
    }

    /// The time of the packed word `v` without its seconds (0).
    @inline(__always)
    static func fields(_ v: UInt64, _ dates: [DateKey]) -> LogTime {
        let date = dates[Int(v >> dateShift & 0xFFFF)]
        return LogTime(seconds: 0, year: Int(date.year), month: Int(date.month), day: Int(date.day),
                       hour: Int(v >> 42 & 0x1F), minute: Int(v >> 36 & 0x3F), second: Int(v >> fractionBits & 0x3F),
                       fraction: UInt32(v & (1 << fractionBits - 1)), fractionDigits: Int(date.digits),
                       offsetMinutes: date.offset)
    }
}
