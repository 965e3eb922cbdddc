#if canImport(Glibc)
import Glibc
#endif

/// Strings interned once, each a number from 0 in the order first seen, kept as their UTF-8 bytes in one
/// buffer with an open-addressing index over it: about the string's length plus 8 bytes a string,
/// where `[String]` with a `[String: Int]` index costs a heap object per string longer than 15 bytes,
/// its hash bucket and both tables' slack (about 150 bytes for a 30-byte test name:
/// docs/performance.md#memory). For names a capture may hold hundreds of thousands of (tests,
/// classes), read back only when something is reported.
struct StringArena: Sendable {
    private var bytes: [UInt8] = []
    /// Where each string ends in `bytes` (it starts where the one before it ends).
    private var ends: [UInt32] = []
    /// Slots of string numbers + 1 (0: empty), linear probing, a power of two at most half full.
    private var slots: [UInt32] = []
    /// Strings past this many bytes in all are not interned (`intern` returns nil): 4 GiB of names.
    static let maxBytes = Int(UInt32.max)

    init() {}

    var count: Int { ends.count }
    /// What it holds, in bytes (its buffers' lengths, not their capacity).
    var byteCount: Int { bytes.count + ends.count * 4 + slots.count * 4 }
    var isEmpty: Bool { ends.isEmpty }

    /// The string numbered `id`.
    subscript(id: Int) -> String {
        let start = id == 0 ? 0 : Int(ends[id - 1]), end = Int(ends[id])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// Every string, in the order first interned.
    var all: [String] { (0..<count).map { self[$0] } }

    /// The number of `s`, if it was interned.
    func find(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { probe($0, hash: Self.hash($0)).id }
    }

    /// The number of `s`, interned if new; nil when the arena is full (`maxBytes`).
    mutating func intern(_ s: String) -> Int? {
        var s = s
        return s.withUTF8 { u -> Int? in
            let h = Self.hash(u)
            let found = probe(u, hash: h)
            if let id = found.id { return id }
            guard bytes.count + u.count <= Self.maxBytes, ends.count < Int(UInt32.max - 1) else { return nil }
            bytes.append(contentsOf: u)
            ends.append(UInt32(bytes.count))
            let id = ends.count - 1
            if ends.count * 2 > slots.count { rehash() } else { slots[found.slot] = UInt32(id + 1) }
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
        let start = id == 0 ? 0 : Int(ends[id - 1]), end = Int(ends[id])
        guard end - start == u.count else { return false }
        return bytes.withUnsafeBufferPointer { b in
            u.isEmpty || memcmp(b.baseAddress! + start, u.baseAddress!, u.count) == 0
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
        for id in 0..<ends.count {
            let start = id == 0 ? 0 : Int(ends[id - 1]), end = Int(ends[id])
            let h = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start..<end])) }
            place(id, hash: h)
        }
    }

    /// The hash the arena indexes a string's bytes by (others key by it too: a folded owner's stem).
    static func hash(_ s: String) -> UInt64 {
        var s = s
        return s.withUTF8 { hash($0) }
    }

    /// FNV-1a, then a multiply that spreads its low bits (the index takes them).
    static func hash(_ u: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in u { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return (h ^ (h >> 29)) &* 0xbf58_476d_1ce4_e5b9
    }
}
