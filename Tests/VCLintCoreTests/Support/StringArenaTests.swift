import Testing
@testable import VCLintCore

/// `StringArena`: strings interned once, numbered in the order first seen, read back whole.
@Suite struct StringArenaTests {
    @Test func internsOnceAndReadsBack() {
        var arena = StringArena()
        let words = ["", "a", "ShopUITests/testCheckout", "é ✓ 日本", "a", "", "ShopUITests/testCheckout"]
        let ids = words.map { arena.intern($0)! }
        #expect(ids == [0, 1, 2, 3, 1, 0, 2])
        #expect(arena.count == 4)
        #expect(arena.all == ["", "a", "ShopUITests/testCheckout", "é ✓ 日本"])
        #expect(arena[3] == "é ✓ 日本")
        #expect(arena.find("a") == 1)
        #expect(arena.find("b") == nil)
        #expect(StringArena().find("a") == nil)
    }

    /// Past many rehashes every string keeps its number, and strings that share prefixes or lengths
    /// are told apart.
    @Test func manyStringsKeepTheirNumbers() {
        var arena = StringArena()
        let names = (0..<20_000).map { "-[ShopUITests.Flow\($0 % 97)Tests test\($0)]" }
        for (k, n) in names.enumerated() { #expect(arena.intern(n) == k) }
        for (k, n) in names.enumerated().reversed() where k % 7 == 0 { #expect(arena.find(n) == k) }
        #expect(arena[12_345] == names[12_345])
        #expect(arena.find("-[ShopUITests.Flow0Tests test20000]") == nil)
        #expect(arena.count == names.count)
    }
}
