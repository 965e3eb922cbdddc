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

        init() {}

        var count: Int { dates.dates.count }

        func pack(_ t: LogTime) -> UInt64? {
            guard t.hour < 32, t.minute < 64, t.second < 64, UInt64(t.fraction) < 1 << fractionBits,
                  t.fieldSeconds.bitPattern == t.seconds.bitPattern else { return nil }
            let key = DateKey(t)
            let d: Int
            if key == lastKey {
                d = lastIndex
            } else {
                guard let known = dates.id(key, limit: 1 << 16) else { return nil }
                d = known
            }
            lastKey = key
            lastIndex = d
            return present | UInt64(d) << dateShift | UInt64(t.hour) << 42 | UInt64(t.minute) << 36
                | UInt64(t.second) << fractionBits | UInt64(t.fraction)
        }

        func unpack(_ v: UInt64) -> LogTime { PackedTime.unpack(v, dates.dates) }

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
        let date = dates[Int(v >> dateShift & 0xFFFF)]
        var t = LogTime(seconds: 0, year: Int(date.year), month: Int(date.month), day: Int(date.day),
                        hour: Int(v >> 42 & 0x1F), minute: Int(v >> 36 & 0x3F), second: Int(v >> fractionBits & 0x3F),
                        fraction: UInt32(v & (1 << fractionBits - 1)), fractionDigits: Int(date.digits),
                        offsetMinutes: date.offset)
        t.seconds = t.fieldSeconds
        return t
    }
}
