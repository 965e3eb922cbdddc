import Testing
@testable import VCLintCore
import VCLintSimulation

/// `RowsByHash` against a dictionary of its 32 bits of hash, through random inserts, lookups and removals that
/// cross its growth and its backward shifts, with hashes chosen to collide in their slots.
@Suite struct RowsByHashTests {
    @Test(arguments: UInt64(1)...6)
    func findsWhatADictionaryFinds(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        // Few distinct high halves (the kept bits) for many keys: long probe runs; the low half varies and must not count.
        func key(_ k: Int) -> UInt64 { UInt64(k % 3_000) << 32 | UInt64(next(1 << 20)) }
        var table = RowsByHash()
        var model: [UInt32: UInt32] = [:]
        var nextRow: UInt32 = 0
        for step in 0..<40_000 {
            let k = key(next(seed % 2 == 0 ? 3_000 : 600))
            let h = UInt32(truncatingIfNeeded: k >> 32)
            switch next(3) {
            case 0:
                let added = table.insert(nextRow, for: k)
                #expect(added == (model[h] == nil), "step \(step)")
                if added { model[h] = nextRow }
                nextRow += 1 + UInt32(next(3))
            case 1:
                table.remove(k)
                model[h] = nil
            default:
                #expect(table[k] == model[h], "step \(step)")
            }
            #expect(table.count == model.count)
        }
        for (h, row) in model { #expect(table[UInt64(h) << 32 | 12345] == row) }
        table.removeAll()
        #expect(table.isEmpty && table[UInt64(7) << 32] == nil)
    }
}
