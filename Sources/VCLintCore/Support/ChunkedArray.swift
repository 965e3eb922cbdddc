/// An append-only array kept in blocks of `blockSize` elements: it grows a block at a time, so it never holds its
/// old and new buffers at once, nor up to twice what it needs, as an `Array` does when it doubles
/// (docs/performance.md#memory). For the tables a capture may give hundreds of thousands of rows to: an arena's
/// string locations, dormant classes' rows, observations' offsets, a recording's stamps and its lanes' callbacks and
/// intervals.
struct ChunkedArray<Element>: RandomAccessCollection {
    private var blocks: [[Element]] = []
    private(set) var count = 0
    static var blockShift: Int { 12 }
    static var blockSize: Int { 1 << blockShift }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        get { blocks[i >> Self.blockShift][i & (Self.blockSize - 1)] }
        set { blocks[i >> Self.blockShift][i & (Self.blockSize - 1)] = newValue }
    }

    mutating func append(_ e: Element) {
        if count & (Self.blockSize - 1) == 0 {
            var block: [Element] = []
            // A small table stays small: its first block grows as an array does, up to `blockSize`.
            if !blocks.isEmpty { block.reserveCapacity(Self.blockSize) }
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(e)
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for e in elements { append(e) }
    }

    /// Drops the last `k` elements (and the blocks they leave empty).
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing more elements than the array holds")
        let kept = count - k
        blocks.removeLast(blocks.count - (kept + Self.blockSize - 1) >> Self.blockShift)
        let inLast = kept & (Self.blockSize - 1)
        if inLast != 0 { blocks[blocks.count - 1].removeLast(blocks[blocks.count - 1].count - inLast) }
        count = kept
    }

    mutating func removeAll() {
        blocks = []
        count = 0
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
