#if canImport(Glibc)
import Glibc
#endif

/// Strings interned once, each a number from 0 in the order first seen, kept as their UTF-8 bytes in chunks
/// with an open-addressing index over them: about the string's length plus 12 to 16 bytes a string,
/// where `[String]` with a `[String: Int]` index costs a heap object per string longer than 15 bytes,
/// its hash bucket and both tables' slack (about 150 bytes for a 30-byte test name:
/// docs/performance.md#memory). For names a capture may hold hundreds of thousands of (tests,
/// classes), read back only when something is reported. An arena made with `endings` keeps a string that
/// ends with one of them without it (its location says which): a class name in 14 bytes fewer when it ends
/// with `ViewController` (`classNameEndings`).
struct StringArena: Sendable {
    /// The strings' bytes in chunks of `chunkSize` bytes (a string longer than that has one of its own): the arena
    /// grows a chunk at a time, never holding an old and a new buffer of all its bytes at once.
    private var chunks: [[UInt8]] = []
    /// Where each string is: its chunk << 41 | its start in it << 24 | its ending (`endings`' index + 1, 0 for
    /// none) << 21 | the length of what is stored.
    private var locations = ChunkedArray<UInt64>()
    /// What strings may end with and are kept without, longest first (at most 7).
    private let endings: [[UInt8]]
    /// Slots of string numbers + 1 (0: empty), linear probing, a power of two at most half full.
    private var slots: [UInt32] = []
    private var totalBytes = 0
    /// Strings past this many bytes in all are not interned (`intern` returns nil): 4 GiB of names; nor one past
    /// 2 MiB.
    static let maxBytes = Int(UInt32.max)
    static let maxLength = 1 << 21 - 1
    static let chunkSize = 1 << 16

    /// The endings of class names, iOS and Android, that an arena of class names keeps once.
    static let classNameEndings = ["ViewController", "Controller", "ViewModel", "Coordinator", "Fragment", "Activity", "View"]

    init() { endings = [] }

    /// An arena that keeps strings ending with one of `endings` (at most 7) without it: a string is matched
    /// against them in their order, so a longer ending that ends with a shorter one goes first.
    init(endings: [String]) {
        precondition(endings.count < 8, "StringArena: at most 7 endings")
        self.endings = endings.map { Array($0.utf8) }
    }

    var count: Int { locations.count }
    /// What it holds, in bytes (its strings, their locations and index, not the chunks' free room).
    var byteCount: Int { totalBytes + locations.count * 8 + slots.count * 4 }
    var isEmpty: Bool { locations.isEmpty }

    private func location(_ id: Int) -> (chunk: Int, start: Int, ending: Int, length: Int) {
        let v = locations[id]
        return (Int(v >> 41), Int(v >> 24 & 0x1_FFFF), Int(v >> 21 & 7), Int(v & 0x1F_FFFF))
    }

    /// The bytes stored of string `id` (without its ending), and the index of its ending + 1 (0: none).
    private func withBytes<R>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>, Int) -> R) -> R {
        let (c, start, ending, length) = location(id)
        return chunks[c].withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<(start + length)]), ending) }
    }

    /// The string numbered `id`.
    subscript(id: Int) -> String {
        withBytes(id) { stored, ending in
            guard ending > 0 else { return String(decoding: stored, as: UTF8.self) }
            return String(decoding: Array(stored) + endings[ending - 1], as: UTF8.self)
        }
    }

    /// Every string, in the order first interned.
    var all: [String] { (0..<count).map { self[$0] } }

    /// The number of `s`, if it was interned.
    func find(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { probe($0, hash: Self.hash($0)).id }
    }

    /// The number of `s`, interned if new; nil when the arena is full (`maxBytes`) or `s` is longer than `maxLength`.
    mutating func intern(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { u -> Int? in
            let h = Self.hash(u)
            let found = probe(u, hash: h)
            if let id = found.id { return id }
            guard totalBytes + u.count <= Self.maxBytes, u.count <= Self.maxLength, locations.count < Int(UInt32.max - 1) else { return nil }
            let ending = endings.firstIndex { e in u.count > e.count && memcmp(u.baseAddress! + (u.count - e.count), e, e.count) == 0 }
            let u = UnsafeBufferPointer(rebasing: u[0..<(u.count - (ending.map { endings[$0].count } ?? 0))])
            if chunks.isEmpty || u.count > Self.chunkSize - chunks[chunks.count - 1].count {
                // A chunk as large as what is held already (a small arena stays small), up to `chunkSize`;
                // a longer string gets one of its own.
                var chunk: [UInt8] = []
                chunk.reserveCapacity(Swift.max(u.count, Swift.min(Self.chunkSize, Swift.max(64, totalBytes))))
                chunks.append(chunk)
            }
            let c = chunks.count - 1
            let start = u.count > Self.chunkSize ? 0 : chunks[c].count
            chunks[c].append(contentsOf: u)
            totalBytes += u.count
            locations.append(UInt64(c) << 41 | UInt64(start) << 24 | UInt64(ending.map { $0 + 1 } ?? 0) << 21 | UInt64(u.count))
            let id = locations.count - 1
            if locations.count * 2 > slots.count { rehash() } else { slots[found.slot] = UInt32(id + 1) }
            return id
        }
    }

    /// Where `u` is in the index: its number, or the empty slot where it would go (-1: no index yet).
    private func probe(_ u: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: Int?, slot: Int) {
        guard !slots.isEmpty else { return (nil, -1) }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 {
            let id = Int(slots[i] - 1)
            if equals(id, u) { return (id, i) }
            i = (i + 1) & mask
        }
        return (nil, i)
    }

    private func equals(_ id: Int, _ u: UnsafeBufferPointer<UInt8>) -> Bool {
        let (_, _, ending, length) = location(id)
        guard length + (ending > 0 ? endings[ending - 1].count : 0) == u.count else { return false }
        return withBytes(id) { b, ending in
            if length > 0, memcmp(b.baseAddress!, u.baseAddress!, length) != 0 { return false }
            guard ending > 0 else { return true }
            let e = endings[ending - 1]
            return memcmp(u.baseAddress! + length, e, e.count) == 0
        }
    }

    private mutating func place(_ id: Int, hash: UInt64) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = UInt32(id + 1)
    }

    private mutating func rehash() {
        slots = [UInt32](repeating: 0, count: max(16, slots.count * 2))
        for id in 0..<locations.count {
            place(id, hash: withBytes(id) { stored, ending in
                Self.finish(ending > 0 ? endings[ending - 1].withUnsafeBufferPointer { Self.fnv($0, Self.fnv(stored)) } : Self.fnv(stored))
            })
        }
    }

    /// The hash the arena indexes a string's bytes by (others key by it too: a folded owner's stem).
    static func hash(_ s: String) -> UInt64 {
        var s = s
        return s.withUTF8 { hash($0) }
    }

    /// FNV-1a, then a multiply that spreads its low bits (the index takes them).
    static func hash(_ u: UnsafeBufferPointer<UInt8>) -> UInt64 { finish(fnv(u)) }

    /// FNV-1a over `u`, from `h` (a string's bytes in two parts hash as the whole).
    @inline(__always)
    private static func fnv(_ u: UnsafeBufferPointer<UInt8>, _ h: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = h
        for b in u { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    @inline(__always)
    private static func finish(_ h: UInt64) -> UInt64 { (h ^ (h >> 29)) &* 0xbf58_476d_1ce4_e5b9 }
}
