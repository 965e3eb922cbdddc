import Testing
@testable import VCLintCore

/// `AddressTable` against a dictionary, through inserts, overwrites and removals in random order:
/// every lookup agrees, and removed instances are released (no slot keeps one alive).
@Suite struct AddressTableTests {
    static func instance(_ address: UInt64, serial: Int = 0) -> Instance {
        Instance(serial: serial, entry: Instrumentation.ClassEntry(name: "T", dialect: .objcFunction), address: address == 0 ? nil : address, generation: 1, dialect: .objcFunction, line: 1)
    }

    @Test(arguments: [1, 2, 3])
    func agreesWithADictionary(seed: UInt64) {
        let table = AddressTable()
        var reference: [UInt64: Instance] = [:]
        var rng = SplitMix(seed: seed)
        // Few distinct addresses (16-byte aligned, as the heap's are), so that keys come back often
        // and removals leave holes in the middle of probe runs.
        let universe = 3000
        for step in 0..<60_000 {
            let a = (rng.next() % UInt64(universe)) * 16 + 0x6000_0000_0000
            switch rng.next() % 10 {
            case 0..<5:
                let inst = Self.instance(a, serial: step)
                table[a] = inst
                reference[a] = inst
            case 5..<8:
                table[a] = nil
                reference[a] = nil
            default:
                #expect(table[a] === reference[a], "step \(step): lookup of \(a)")
            }
            if step % 5000 == 0 {
                #expect(table.count == reference.count)
                for (k, v) in reference { #expect(table[k] === v) }
            }
        }
        #expect(table.count == reference.count)
        for (k, v) in reference { #expect(table[k] === v, "\(k)") }
        for k in 0..<UInt64(universe) where reference[k * 16 + 0x6000_0000_0000] == nil {
            #expect(table[k * 16 + 0x6000_0000_0000] == nil)
        }
    }

    @Test func releasesWhatItForgets() {
        let table = AddressTable()
        weak var removed: Instance?
        weak var replaced: Instance?
        weak var cleared: Instance?
        do {
            let a = Self.instance(0x10), b = Self.instance(0x20), c = Self.instance(0x30)
            removed = a; replaced = b; cleared = c
            table[0x10] = a
            table[0x20] = b
            table[0x30] = c
        }
        #expect(removed != nil && replaced != nil && cleared != nil)
        table[0x10] = nil
        #expect(removed == nil)
        table[0x20] = Self.instance(0x20)
        #expect(replaced == nil)
        table.removeAll()
        #expect(cleared == nil)
        #expect(table.count == 0 && table[0x20] == nil)
    }

    @Test func addressZeroIsAKeyLikeAnother() {
        let table = AddressTable()
        let z = Self.instance(0)
        table[0] = z
        #expect(table[0] === z)
        #expect(table.count == 0)  // held apart from the slots
        table[0] = nil
        #expect(table[0] == nil)
    }

    @Test func growsByHalvesAndStaysSmall() {
        let table = AddressTable()
        var kept: [Instance] = []
        for k in 1...100_000 {
            let inst = Self.instance(UInt64(k) * 16)
            kept.append(inst)
            table[UInt64(k) * 16] = inst
        }
        // 100k entries in 177,513 slots of 8 bytes (16 · 1.5ⁿ; a [UInt64: Instance] would have 2^18
        // slots of 16 bytes): at most 15 bytes an entry.
        #expect(table.byteCount == 177_513 * 8)
        #expect(table.byteCount <= 100_000 * 15)
        for (k, inst) in kept.enumerated() { #expect(table[UInt64(k + 1) * 16] === inst) }
    }
}
