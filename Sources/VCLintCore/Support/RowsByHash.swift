/// Rows (small dense numbers) found by a 64-bit hash of a key the caller keeps: at most one row per hash, in
/// about 14 bytes a row where a `[UInt64: UInt32]` takes about 31 and, while it grows, half again
/// (`SessionTimeline+Folding.swift` finds a dormant owner by its stem's hash, 400k of them in a capture of
/// 400k classes). A slot holds its row + 1 (0: empty), linear probing, a power of two at most half full; each
/// row's hash is kept by the row (32 bits of it), so that a lookup compares it without reading the key, and a
/// removal moves back the rows after it (no tombstones). Two keys whose hashes share those 32 bits are one
/// key here: the caller checks the key of the row it finds, and keeps the second elsewhere.
struct RowsByHash {
    private var slots: [UInt32] = []
    /// Each row's 32 bits of hash, by row (0 for a row not in the table: `count` decides).
    private var hashes = ChunkedArray<UInt32>()
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The bits of `hash` the table keeps: its high half (`StringArena.hash` spreads its input over every bit).
    @inline(__always)
    private static func fold(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) }

    /// The slot of `h`, or of the empty slot where it would go.
    private func probe(_ h: UInt32) -> (slot: Int, found: Bool) {
        let mask = slots.count - 1
        var i = Int(h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return (i, false) }
            if hashes[Int(s - 1)] == h { return (i, true) }
            i = (i + 1) & mask
        }
    }

    /// The row of `hash`, if one was added.
    subscript(hash: UInt64) -> UInt32? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(Self.fold(hash))
        return found ? slots[slot] - 1 : nil
    }

    func contains(_ hash: UInt64) -> Bool { self[hash] != nil }

    /// Adds `row` for `hash`; false (nothing changed) when the table has a row for it already.
    @discardableResult
    mutating func insert(_ row: UInt32, for hash: UInt64) -> Bool {
        precondition(row < UInt32.max, "RowsByHash: a row past 32 bits")
        if (count + 1) * 2 > slots.count { grow() }
        let h = Self.fold(hash)
        let (slot, found) = probe(h)
        if found { return false }
        while hashes.count <= Int(row) { hashes.append(0) }
        hashes[Int(row)] = h
        slots[slot] = row + 1
        count += 1
        return true
    }

    /// Removes the row of `hash`, if there is one.
    mutating func remove(_ hash: UInt64) {
        guard count > 0 else { return }
        let (found, present) = probe(Self.fold(hash))
        guard present else { return }
        let mask = slots.count - 1
        var hole = found
        var i = (hole + 1) & mask
        // The rows after the hole, up to the next empty slot, move back into it unless their own slot is
        // between the hole and where they are.
        while slots[i] != 0 {
            let home = Int(hashes[Int(slots[i] - 1)]) & mask
            if (i - home) & mask >= (i - hole) & mask {
                slots[hole] = slots[i]
                hole = i
            }
            i = (i + 1) & mask
        }
        slots[hole] = 0
        count -= 1
    }

    mutating func removeAll() {
        slots = []
        hashes = ChunkedArray()
        count = 0
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt32](repeating: 0, count: Swift.max(16, old.count * 2))
        let mask = slots.count - 1
        for s in old where s != 0 {
            var i = Int(hashes[Int(s - 1)]) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }

    /// What it holds, in bytes.
    var byteCount: Int { slots.count * 4 + hashes.count * 4 }
}
