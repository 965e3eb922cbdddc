import Testing
@testable import VCLintCore

/// Dormant classes (docs/performance.md#memory): a class nothing holds is kept as a row, its folded controller
/// as a record, and comes back as it was; records taken leave their chunks, which go, and a store whose
/// records were mostly taken out of order is compacted without losing one.
@Suite struct DormantClassesTests {
    static func entry(_ k: Int, folded session: Int?, times: PackedTime.Table) -> Instrumentation.ClassEntry {
        let e = Instrumentation.ClassEntry(name: "Screen\(k)ViewController", dialect: k % 2 == 0 ? .objcFunction : .swiftFunction,
                                           times: times, number: UInt32(k))
        e.restore(kinds: UInt64(k % 5 + 1) << 3, instancesMade: k % 9)
        guard let session else { return e }
        if k % 4 == 1 {
            // A controller folded with its class: its record holds its fields too.
            let i = Instance(serial: 3 * k + 1, entry: e, address: nil, generation: 0, dialect: .objcFunction, line: 10 * k + 7)
            e.folded = i.folded(session: session, lastDead: nil, hasUnbound: k % 3 == 0, evictAt: 64 + k * 1_000_000)
        } else {
            e.folded = FoldedController(session: session, lastDead: nil, hasUnbound: k % 3 == 0, evictAt: 64 + k * 1_000_000)
        }
        return e
    }

    @Test func rowsComeBackAsTheyWere() {
        let times = PackedTime.Table()
        var store = DormantClasses()
        let n = 300_000
        for k in 0..<n {
            let id = store.add(Self.entry(k, folded: k % 4 == 0 ? nil : 1 + k % 2, times: times), dialect: (k % 2 == 0 ? Dialect.objcFunction : .swiftFunction).code)
            #expect(id == k)
        }
        #expect(store.count == n)
        // Enough bytes that those taken pass the 1 MiB past which the store compacts.
        let written = store.heldBytes
        #expect(written * 6 / 7 > 1 << 20)
        // Most records taken, out of order: their bytes are compacted away; those left read as written.
        for k in stride(from: 0, to: n, by: 1) where k % 7 != 0 {
            let f = store.takeRecord(k)
            #expect((f == nil) == (k % 4 == 0))
            if let f { #expect(f.session == 1 + k % 2 && f.evictAt == 64 + k * 1_000_000 && f.hasUnbound == (k % 3 == 0) && f.hasController == (k % 4 == 1)) }
        }
        // Compacted (at least once, past 1 MiB of records taken): without it, every chunk keeps a record, and the
        // bytes of the records taken would all still be held.
        #expect(store.heldBytes <= written - (1 << 20))
        for k in stride(from: 0, to: n, by: 7) {
            #expect(store.holdsFolded(k, session: 1 + k % 2) == (k % 4 != 0))
            #expect(!store.holdsFolded(k, session: 2 - k % 2))
            let (back, leak) = store.revive(k, times: times)
            #expect(leak == nil)
            #expect(back.name == "Screen\(k)ViewController" && back.number == UInt32(k) && back.instancesMade == k % 9)
            #expect(back.kinds.rawBits == UInt64(k % 5 + 1) << 3 && back.dialect == (k % 2 == 0 ? .objcFunction : .swiftFunction))
            #expect(back.folded?.evictAt == (k % 4 == 0 ? nil : 64 + k * 1_000_000))
            if k % 4 == 1 { #expect(back.folded?.serial == 3 * k + 1 && back.folded?.lastActivity == 10 * k + 7) }
        }
        #expect(store.count == n - (n + 6) / 7)
        #expect(store.find("Screen7ViewController") == nil && store.find("Screen8ViewController") == 8)
    }

    /// An entry something else holds stays in use.
    @Test func aHeldEntryIsNotRetired() {
        let instrumentation = Instrumentation()
        var entry = instrumentation.entry("HomeViewController", dialect: .objcFunction)
        let other = entry
        #expect(instrumentation.retire(&entry) == nil)
        #expect(instrumentation.existing("HomeViewController") === other)
        var alone = instrumentation.entry("AboutViewController", dialect: .objcFunction)
        #expect(instrumentation.retire(&alone) == 0)
        #expect(instrumentation.existing("AboutViewController") == nil)
        #expect(instrumentation.entry("AboutViewController", dialect: .objcFunction).number == 1)
        #expect(instrumentation.entry("SettingsViewController", dialect: .objcFunction).number == 2)
    }
}

/// A dormant class's row in 16 bytes: what does not fit keeps the class an entry.
@Suite struct DormantClassRowTests {
    @Test func aRowHoldsWhatItSaysOrRefuses() {
        #expect(MemoryLayout<DormantClasses.Info>.stride == 16)
        var row = DormantClasses.Info(kinds: 1 << 47 | 5, instancesMade: 1_023, number: 7, dialect: Dialect.eventLog.code)!
        #expect(row.kinds == 1 << 47 | 5 && row.instancesMade == 1_023 && row.number == 7 && row.dialect == Dialect.eventLog.code)
        #expect(row.isDormant && !row.leakDeferred && row.record == 0)
        row.leakDeferred = true
        row.isDormant = false
        #expect(!row.isDormant && row.leakDeferred && row.kinds == 1 << 47 | 5 && row.instancesMade == 1_023)
        row.leakDeferred = false
        #expect(!row.leakDeferred && row.dialect == Dialect.eventLog.code)
        #expect(DormantClasses.Info(kinds: 1 << 48, instancesMade: 0, number: 0, dialect: 0) == nil)
        #expect(DormantClasses.Info(kinds: 0, instancesMade: 1_024, number: 0, dialect: 0) == nil)
        #expect(EventKind.allCases.allSatisfy { $0.bit >> 48 == 0 }, "every kind fits the row's 48 bits")
    }

    /// A class that made more instances than a row counts stays an entry, and lints the same.
    @Test func aClassOfManyInstancesStaysAnEntry() {
        let instrumentation = Instrumentation()
        var entry = instrumentation.entry("GridCellViewController", dialect: .objcFunction)
        entry.restore(kinds: EventKind.viewDidLoad.bit, instancesMade: 5_000)
        #expect(instrumentation.retire(&entry) == nil)
        #expect(instrumentation.existing("GridCellViewController") != nil)
    }
}
