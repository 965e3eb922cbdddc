#if canImport(Glibc)
import Glibc
#endif

/// The classes of an input that nothing holds (docs/performance.md#memory). A class that its session folds
/// away (`SessionTimeline.foldIdleClasses`) and that no other session, instance or table refers to gives up
/// its `Instrumentation.ClassEntry` (an object of 112 bytes, its name a `String` of 64 and a dictionary's
/// slot) and its `FoldedController` (160 bytes) for a row here: its name once as bytes (without a
/// `ViewController` ending), what it logs, its number and count of instances in 16 bytes, and the folded
/// controller as varints (about 24 bytes: `FoldedController.encode`). The next line that names the class makes
/// its entry again as it was (`Instrumentation.entry`); the session's end reads the folded controllers of its
/// dormant classes as it reads the others.
struct DormantClasses {
    /// A class as its entry had it, in 16 bytes.
    struct Info {
        /// What it logs (`EventKinds`, 48 bits), its dialect's code << 48 (4 bits), `isDormant` << 52,
        /// `leakDeferred` << 53, and how many instances it made << 54 (10 bits).
        private var word: UInt64
        var number: UInt32
        /// Where its folded controller's record starts in `records`, + 1 (0: none).
        var record: UInt32 = 0

        /// A dormant class's row; nil when a field does not fit (a class that made more than 1,023
        /// instances keeps its entry).
        init?(kinds: UInt64, instancesMade: Int, number: UInt32, dialect: UInt8) {
            guard kinds >> 48 == 0, dialect < 16, instancesMade >= 0, instancesMade < 1 << 10 else { return nil }
            word = kinds | UInt64(dialect) << 48 | 1 << 52 | UInt64(instancesMade) << 54
            self.number = number
        }

        var kinds: UInt64 { word & (1 << 48 - 1) }
        var dialect: UInt8 { UInt8(truncatingIfNeeded: word >> 48 & 0xF) }
        var instancesMade: Int { Int(word >> 54) }
        /// Whether the class is dormant (else its entry is back in use and this row is stale).
        var isDormant: Bool {
            get { word & 1 << 52 != 0 }
            set { word = newValue ? word | 1 << 52 : word & ~(1 << 52) }
        }
        /// Whether its record is the leak of a controller whose session ended while nothing said whether the
        /// class logs dealloc (`deferLeak`): no session holds it any more.
        var leakDeferred: Bool {
            get { word & 1 << 53 != 0 }
            set { word = newValue ? word | 1 << 53 : word & ~(1 << 53) }
        }
    }

    /// The names, numbered by their row in `info`.
    private(set) var names = StringArena(endings: StringArena.classNameEndings)
    private var info = ChunkedArray<Info>()
    /// The folded controllers' records, each `FoldedController.encode`'s bytes, in chunks of
    /// `chunkSize` bytes at most: a chunk whose records were all taken is let go (the session's end reads
    /// them in the order they were written, so their memory goes as its leaks are written).
    private var chunks: [[UInt8]] = []
    private var liveInChunk: [Int] = []
    /// The bytes of the chunks still held that no row points at (compacted once they are most of them).
    private var deadBytes = 0
    private(set) var heldBytes = 0
    static let chunkShift: UInt32 = 16
    static let chunkSize = 1 << Int(chunkShift)
    /// How many classes are dormant.
    private(set) var count = 0
    /// How many rows hold a deferred leak.
    private(set) var deferredLeaks = 0

    /// The row of a dormant class named `name`.
    func find(_ name: String) -> Int? {
        guard count > 0, let id = names.find(name), info[id].isDormant else { return nil }
        return id
    }

    func row(_ id: Int) -> Info { info[id] }

    /// Whether `id` is dormant and holds the folded controller of session `session` (not a deferred leak).
    func holdsFolded(_ id: Int, session: Int) -> Bool {
        guard info[id].isDormant, info[id].record != 0, !info[id].leakDeferred else { return false }
        var r = reader(at: info[id].record)
        return Int(r.uint() >> 2) == session  // `FoldedController.encode`'s first number
    }

    /// Keeps the class of `entry`, and its folded controller if it has one; nil when it cannot be kept in
    /// this form (a field `Info` cannot hold, records past 4 GiB, a name the arena cannot take).
    mutating func add(_ entry: Instrumentation.ClassEntry, dialect: UInt8) -> Int? {
        guard entry.lifetimeLimits == nil,
              var row = Info(kinds: entry.kinds.rawBits, instancesMade: entry.instancesMade, number: entry.number, dialect: dialect),
              chunks.count < 1 << (32 - Int(Self.chunkShift)) - 1, let id = names.intern(entry.name) else { return nil }
        if let f = entry.folded {
            guard f.lastDead == nil else { return nil }
            var bytes: [UInt8] = []
            f.encode(into: &bytes, number: entry.number)
            row.record = append(bytes[...])
        }
        if id == info.count { info.append(row) } else { info[id] = row }
        count += 1
        return id
    }

    /// Writes a record (`bytes`, which say where they end: `FoldedController.init(decoding:number:)`): where it
    /// starts, + 1.
    private mutating func append(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        if chunks.isEmpty || chunks[chunks.count - 1].count + bytes.count > Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(max(Self.chunkSize, bytes.count))
            liveInChunk.append(0)
        }
        let c = chunks.count - 1
        let start = UInt32(c) << Self.chunkShift | UInt32(chunks[c].count)
        chunks[c].append(contentsOf: bytes)
        liveInChunk[c] += 1
        heldBytes += bytes.count
        return start + 1
    }

    /// The class of row `id` back in use: its entry as it was (its folded controller in `folded`),
    /// the row left stale; and its deferred leak, if it held one (then `folded` stays nil).
    mutating func revive(_ id: Int, times: PackedTime.Table) -> (Instrumentation.ClassEntry, deferredLeak: FoldedController?) {
        let entry = makeEntry(id, times: times)
        var leak: FoldedController?
        if info[id].leakDeferred {
            leak = takeRecord(id)
        } else if info[id].record != 0 {
            entry.folded = takeRecord(id)
        }
        info[id].isDormant = false
        count -= 1
        return (entry, leak)
    }

    /// The folded controller of row `id`, read and left in place.
    func peekRecord(_ id: Int) -> FoldedController? {
        guard info[id].record != 0 else { return nil }
        var r = reader(at: info[id].record)
        return FoldedController(decoding: &r, number: info[id].number)
    }

    /// The folded controller of row `id` (its session ended) stays as the leak it is, until the input's end or
    /// the class's next line says whether it is one (`Instrumentation.takeDeferredLeaks`).
    mutating func deferLeak(_ id: Int) {
        precondition(info[id].isDormant && info[id].record != 0 && !info[id].leakDeferred, "only a dormant row's folded controller is deferred")
        info[id].leakDeferred = true
        deferredLeaks += 1
    }

    /// How many rows there are (stale ones included).
    var rowCount: Int { info.count }

    /// An entry for row `id` that stays dormant (the session's end reads its folded controller through it
    /// and lets it go).
    func makeEntry(_ id: Int, times: PackedTime.Table) -> Instrumentation.ClassEntry {
        let row = info[id]
        let entry = Instrumentation.ClassEntry(name: names[id], dialect: Dialect(code: row.dialect), times: times, number: row.number)
        entry.restore(kinds: row.kinds, instancesMade: row.instancesMade)
        return entry
    }

    /// The folded controller of row `id`, taken out of it (the class stays dormant).
    mutating func takeRecord(_ id: Int) -> FoldedController? {
        guard info[id].record != 0 else { return nil }
        var r = reader(at: info[id].record)
        let f = FoldedController(decoding: &r, number: info[id].number)
        dropRecord(id, end: r.at)
        return f
    }

    /// Row `id` no longer points at its record, which ends at `end` in its chunk.
    private mutating func dropRecord(_ id: Int, end: Int) {
        let start = info[id].record - 1
        let c = Int(start >> Self.chunkShift)
        info[id].record = 0
        if info[id].leakDeferred {
            info[id].leakDeferred = false
            deferredLeaks -= 1
        }
        deadBytes += end - Int(start & (1 << Self.chunkShift - 1))
        liveInChunk[c] -= 1
        if liveInChunk[c] == 0 { release(chunk: c) }
        if deadBytes > 1 << 20, deadBytes * 2 > heldBytes { compact() }
    }

    /// Row `id`'s record let go unread.
    mutating func discardRecord(_ id: Int) {
        guard info[id].record != 0 else { return }
        var r = reader(at: info[id].record)
        _ = FoldedController(decoding: &r, number: info[id].number)
        dropRecord(id, end: r.at)
    }

    /// A chunk none of whose records a row points at: its memory goes (the last one is reused).
    private mutating func release(chunk c: Int) {
        let size = chunks[c].count
        deadBytes -= size
        heldBytes -= size
        if c == chunks.count - 1 {
            chunks[c].removeAll(keepingCapacity: true)
        } else {
            chunks[c] = []
        }
        if heldBytes == 0 {
            chunks = []
            liveInChunk = []
        }
    }

    /// A reader at the record that starts at `start` (+ 1).
    private func reader(at start: UInt32) -> VarintReader { Self.reader(at: start, in: chunks) }

    private static func reader(at start: UInt32, in chunks: [[UInt8]]) -> VarintReader {
        let s = start - 1
        return VarintReader(bytes: chunks[Int(s >> chunkShift)], at: Int(s & (1 << chunkShift - 1)))
    }

    /// The records again in chunks of their own, without the bytes no row points at.
    private mutating func compact() {
        let old = chunks
        chunks = []
        liveInChunk = []
        (deadBytes, heldBytes) = (0, 0)
        for id in info.indices where info[id].record != 0 {
            var r = Self.reader(at: info[id].record, in: old)
            let start = r.at
            _ = FoldedController(decoding: &r, number: info[id].number)
            info[id].record = append(r.bytes[start..<r.at])
        }
    }
}

/// Unsigned LEB128 varints, and signed ones zigzagged (`DormantClasses`' records).
struct VarintWriter {
    var bytes: [UInt8]

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func uint(_ v: UInt64) { Self.append(v, to: &bytes) }

    mutating func int(_ v: Int) { uint(Self.zigzag(v)) }

    /// `v` as an unsigned LEB128 varint at the end of `bytes` (`ObservationWriter` writes the same).
    @inline(__always)
    static func append(_ v: UInt64, to bytes: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A signed value as an unsigned one, small either side of 0.
    @inline(__always)
    static func zigzag(_ v: Int) -> UInt64 { UInt64(bitPattern: Int64((v << 1) ^ (v >> 63))) }

    /// A `PackedTime` (or 0) as two varints, split where its fraction starts: the date and clock fields
    /// (its top bit moved to the bottom) in about three bytes, and the fraction in one to five by its
    /// precision, where the time as one number takes ten.
    mutating func time(_ v: UInt64) {
        uint(((v & ~(1 << 63)) >> 30) << 1 | v >> 63)
        uint(v & (1 << 30 - 1))
    }
}

/// Reads what `VarintWriter` wrote, in the same order.
struct VarintReader {
    let bytes: [UInt8]
    var at: Int

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return bytes[at]
    }

    mutating func uint() -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = bytes[at]
            at += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    mutating func int() -> Int { Self.unzigzag(uint()) }

    /// What `VarintWriter.zigzag` made of a signed value.
    @inline(__always)
    static func unzigzag(_ u: UInt64) -> Int { Int(truncatingIfNeeded: u >> 1) ^ -Int(truncatingIfNeeded: u & 1) }

    /// What `VarintWriter.time` wrote.
    mutating func time() -> UInt64 {
        let high = uint()
        return (high & 1) << 63 | (high >> 1) << 30 | uint()
    }
}

extension Dialect {
    /// Its place in `allCases`: one byte of a dormant class's row.
    var code: UInt8 { UInt8(Self.allCases.firstIndex(of: self)!) }

    init(code: UInt8) { self = Self.allCases[Int(code)] }
}
