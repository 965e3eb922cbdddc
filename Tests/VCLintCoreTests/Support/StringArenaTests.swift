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

/// An arena of class names keeps their common endings once: a name reads back whole, names that differ only
/// in their ending (or end with one without being longer than it) are told apart, and past many rehashes
/// (which hash the stored bytes and the ending as one string) every name keeps its number.
@Suite struct StringArenaEndingTests {
    @Test func namesWithEndingsReadBackWhole() {
        var arena = StringArena(endings: StringArena.classNameEndings)
        let names = ["HomeViewController", "HomeController", "HomeView", "Home", "ViewController", "Controller", "View", "",
                     "ÉcranViewController", "HomeViewModel", "com.shop.CartFragment", "MainActivity", "AppCoordinator",
                     "HomeViewControllerX", "HomeViewController "]
        let ids = names.map { arena.intern($0)! }
        #expect(ids == Array(names.indices))
        #expect(arena.all == names)
        for (k, n) in names.enumerated() { #expect(arena.find(n) == k, "\(n)") }
        #expect(arena.find("HomeViewControllerViewController") == nil && arena.find("HomeFragment") == nil && arena.find("Hom") == nil)
        // "HomeViewController" keeps 4 bytes, "ViewController" (only an ending) keeps 4 ("View" + Controller).
        var plain = StringArena()
        for n in names { _ = plain.intern(n) }
        #expect(arena.byteCount < plain.byteCount - 60)
    }

    @Test(arguments: [[String](), StringArena.classNameEndings])
    func manyNamesKeepTheirNumbers(endings: [String]) {
        var arena = StringArena(endings: endings)
        let suffixes = ["ViewController", "Controller", "View", "Screen", "Coordinator", "ViewModel", ""]
        let names = (0..<30_000).map { "Flow\($0 % 89)Step\($0)\(suffixes[$0 % suffixes.count])" }
        for (k, n) in names.enumerated() { #expect(arena.intern(n) == k) }
        for (k, n) in names.enumerated() where k % 5 == 0 {
            #expect(arena.find(n) == k)
            #expect(arena[k] == n)
        }
        #expect(arena.find("Flow0Step0Controller") == nil && arena.find("Flow1Step1ViewController") == nil)
        #expect(arena.count == names.count)
    }
}

/// The arena's chunks: strings fill a chunk and go on in the next, a string longer than a chunk has one of its
/// own, an empty string at a full chunk's end keeps its place, and one past `maxLength` is refused.
@Suite struct StringArenaChunkTests {
    @Test func stringsAcrossChunksReadBack() {
        var arena = StringArena()
        var expected: [String] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(n))
        }
        var total = 0
        while total < 5 * StringArena.chunkSize {
            // Mostly names, some empty, now and then one longer than a chunk or exactly filling one.
            let length = next(50) == 0 ? StringArena.chunkSize + next(3) - 1 : next(9) == 0 ? 0 : 1 + next(80)
            let s = "\(expected.count):" + String(repeating: Character(UnicodeScalar(UInt8(97 + next(26)))), count: length)
            expected.append(s)
            #expect(arena.intern(s) == expected.count - 1)
            total += s.utf8.count
        }
        // Exactly up to the end of the current chunk, then an empty string there.
        #expect(arena.intern("") == expected.count)
        expected.append("")
        for (k, s) in expected.enumerated() {
            #expect(arena[k] == s)
            #expect(arena.find(s) == k)
        }
        #expect(arena.count == expected.count)
        #expect(arena.intern(String(repeating: "x", count: StringArena.maxLength + 1)) == nil)
        #expect(arena.count == expected.count)
    }

    @Test func anEmptyStringAtAFullChunksEnd() {
        var arena = StringArena()
        let fill = String(repeating: "f", count: StringArena.chunkSize)
        #expect(arena.intern("a") == 0)
        #expect(arena.intern(String(fill.dropFirst())) == 1)
        #expect(arena.intern("") == 2)
        #expect(arena.intern("b") == 3)
        #expect(arena.all == ["a", String(fill.dropFirst()), "", "b"])
    }

    @Test func aChunkedArrayGrowsByBlocks() {
        var a = ChunkedArray<Int>()
        for k in 0..<(3 * ChunkedArray<Int>.blockSize + 5) { a.append(k * 3) }
        #expect(a.count == 3 * ChunkedArray<Int>.blockSize + 5)
        #expect(a.indices.allSatisfy { a[$0] == $0 * 3 })
        a[ChunkedArray<Int>.blockSize] = -1
        #expect(a[ChunkedArray<Int>.blockSize] == -1 && a[ChunkedArray<Int>.blockSize - 1] == (ChunkedArray<Int>.blockSize - 1) * 3)
        let n = ChunkedArray<Int>.blockSize
        for k in [5, n, 1, n - 1] {
            let before = a.count
            a.removeLast(k)
            #expect(a.count == before - k && a.indices.allSatisfy { $0 == n ? a[$0] == -1 : a[$0] == $0 * 3 })
        }
        a.append(7)
        #expect(a.last == 7 && a.count == n + 1)
        a.removeAll()
        #expect(a.isEmpty)
    }

    /// A list appended across a block's end lands in order, as the recorder appends a lane's callbacks.
    @Test func aChunkedArrayAppendsAListAcrossBlocks() {
        let n = ChunkedArray<Int>.blockSize
        var a = ChunkedArray<Int>()
        a.append(contentsOf: 0..<(n - 2))
        a.append(contentsOf: [Int]())
        a.append(contentsOf: (n - 2)..<(2 * n + 3))
        #expect(a.count == 2 * n + 3)
        #expect(Array(a) == Array(0..<(2 * n + 3)))
        #expect(Array(a[(n - 3)..<(n + 2)]) == Array((n - 3)..<(n + 2)))
    }

    /// Blocks read once go as soon as each of their elements was read, in any order; the others, and the last
    /// block while it is not full, stay readable at their indices.
    @Test func aChunkedArrayLetsGoOfBlocksReadOnce() {
        let n = ChunkedArray<Int>.blockSize
        var a = ChunkedArray<Int>()
        a.append(contentsOf: 0..<(3 * n + 10))
        #expect(a.blocksHeld == 4)
        var readOnce = BlocksReadOnce()
        // The second block read backwards, but for one element; the head block read whole.
        for k in stride(from: 2 * n - 1, to: n, by: -1) { readOnce.done(k, in: &a) }
        #expect(a.blocksHeld == 4)
        readOnce.done(n, in: &a)
        #expect(a.blocksHeld == 3)
        for k in 0..<n { readOnce.done(k, in: &a) }
        #expect(a.blocksHeld == 2)
        // The last block is not full: it stays, and the array still grows.
        for k in (3 * n)..<(3 * n + 10) { readOnce.done(k, in: &a) }
        #expect(a.blocksHeld == 2)
        a.append(-1)
        #expect(a.count == 3 * n + 11 && a[3 * n + 10] == -1)
        #expect(((2 * n)..<(3 * n + 10)).allSatisfy { a[$0] == $0 })
    }
}
