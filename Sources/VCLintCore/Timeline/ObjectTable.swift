/// What an `ObjectTable` keeps: an object that holds its own key.
protocol TableKeyed: AnyObject {
    /// Its key in the table, which must not change while it is there.
    var tableKey: UInt64 { get }
}

/// A session's instances by address (`SessionTimeline.byAddress`).
typealias AddressTable = ObjectTable<Instance>

extension Instance: TableKeyed {
    @inline(__always) var tableKey: UInt64 { addressKey }
}

/// Objects by a key they hold, in 8 bytes a slot, where a dictionary of key → object takes 16: a session's
/// instances by address (`AddressTable`; a live controller costs about 200 bytes, 10 to 15 of them here:
/// docs/performance.md#memory), the recorder's instance logs by serial.
///
/// Open addressing with linear probing over the objects themselves: an object's own key is
/// its key, so the table stores no key. The low 4 bits of a slot (Swift objects are 16-byte aligned)
/// hold 4 more bits of the key's hash, so a probe rarely reads an object it does not want. The
/// hash is Swift's seeded `Hasher`: keys crafted to collide cannot make lookups quadratic.
/// Removal shifts the entries after the hole back (no tombstones), so the table never fills up
/// with dead slots whatever the order of inserts and removals. It grows by half when four fifths
/// are full (a slot's home is the hash scaled to the capacity, which need not be a power of two):
/// 10 to 15 bytes per object, where doubling at three quarters gives 11 to 21.
final class ObjectTable<Value: TableKeyed> {
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<UInt>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0
    /// Key 0 (an instance whose log said `0x0`, the log of serial 0): the key an empty slot cannot tell apart.
    @exclusivity(unchecked) private var zero: Value?

    private static var tagBits: UInt { 0xF }
    private static var initialCapacity: Int { 16 }

    init() {
        slots = .allocate(capacity: Self.initialCapacity)
        slots.initialize(repeating: 0, count: Self.initialCapacity)
        capacity = Self.initialCapacity
    }

    deinit {
        releaseAll()
        slots.deallocate()
    }

    subscript(address: UInt64) -> Value? {
        get {
            if address == 0 { return zero }
            let h = address.hashValue
            let tag = Self.tag(h)
            var i = home(h)
            while true {
                let s = slots[i]
                if s == 0 { return nil }
                if s & Self.tagBits == tag, let inst = Self.instance(s), inst.tableKey == address { return inst }
                i = next(i)
            }
        }
        set {
            if address == 0 { zero = newValue; return }
            let h = address.hashValue
            let tag = Self.tag(h)
            var i = home(h)
            while true {
                let s = slots[i]
                if s == 0 { break }
                if s & Self.tagBits == tag, let old = Self.instance(s), old.tableKey == address {
                    if let newValue {
                        assert(newValue.tableKey == address, "ObjectTable: an object goes under its own key")
                        if newValue !== old {
                            slots[i] = Self.slot(newValue, tag)
                            Unmanaged.passUnretained(old).release()
                        }
                    } else {
                        slots[i] = 0
                        Unmanaged.passUnretained(old).release()
                        count -= 1
                        closeHole(at: i)
                    }
                    return
                }
                i = next(i)
            }
            guard let newValue else { return }
            assert(newValue.tableKey == address, "ObjectTable: an object goes under its own key")
            if (count + 1) * 5 > capacity * 4 {
                grow()
                i = home(h)
                while slots[i] != 0 { i = next(i) }
            }
            slots[i] = Self.slot(newValue, tag)
            count += 1
        }
    }

    /// Forgets every object (the session is over).
    func removeAll() {
        releaseAll()
        slots.deallocate()
        slots = .allocate(capacity: Self.initialCapacity)
        slots.initialize(repeating: 0, count: Self.initialCapacity)
        capacity = Self.initialCapacity
        count = 0
        zero = nil
    }

    /// Bytes held, for tests and benchmarks.
    var byteCount: Int { capacity * MemoryLayout<UInt>.stride }

    // MARK: - Slots

    /// The low 4 bits of the hash (its high bits pick the home slot).
    @inline(__always) private static func tag(_ h: Int) -> UInt { UInt(bitPattern: h) & tagBits }

    /// The hash scaled to the capacity: the high word of hash × capacity.
    @inline(__always) private func home(_ h: Int) -> Int {
        Int(UInt(bitPattern: h).multipliedFullWidth(by: UInt(capacity)).high)
    }

    @inline(__always) private func next(_ i: Int) -> Int { i + 1 == capacity ? 0 : i + 1 }

    /// How far `to` is after `from`, going round.
    @inline(__always) private func distance(_ from: Int, _ to: Int) -> Int { to >= from ? to - from : to + capacity - from }

    @inline(__always) private static func slot(_ inst: Value, _ tag: UInt) -> UInt {
        let p = UInt(bitPattern: Unmanaged.passRetained(inst).toOpaque())
        assert(p & tagBits == 0, "ObjectTable: objects are 16-byte aligned")
        return p | tag
    }

    @inline(__always) private static func instance(_ s: UInt) -> Value? {
        guard let p = UnsafeRawPointer(bitPattern: s & ~tagBits) else { return nil }
        return Unmanaged<Value>.fromOpaque(p).takeUnretainedValue()
    }

    /// Moves back the entries after an emptied slot that their probe from home passes through it.
    private func closeHole(at hole: Int) {
        var i = hole
        var j = hole
        while true {
            j = next(j)
            let s = slots[j]
            if s == 0 { return }
            guard let inst = Self.instance(s) else { return }
            // The entry at j may fill the hole when the hole lies on its way from home to j.
            if distance(home(inst.tableKey.hashValue), j) >= distance(i, j) {
                slots[i] = s
                slots[j] = 0
                i = j
            }
        }
    }

    private func grow() {
        let old = slots, oldCapacity = capacity
        capacity = oldCapacity + oldCapacity / 2
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        for k in 0..<oldCapacity {
            let s = old[k]
            guard s != 0, let inst = Self.instance(s) else { continue }
            var i = home(inst.tableKey.hashValue)
            while slots[i] != 0 { i = next(i) }
            slots[i] = s
        }
        old.deallocate()
    }

    private func releaseAll() {
        for k in 0..<capacity where slots[k] != 0 {
            if let inst = Self.instance(slots[k]) { Unmanaged.passUnretained(inst).release() }
            slots[k] = 0
        }
    }
}
