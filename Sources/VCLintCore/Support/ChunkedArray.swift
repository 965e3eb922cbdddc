/// An append-only array kept in blocks of `blockSize` elements: it grows a block at a time, so it never holds its
/// old and new buffers at once, nor up to twice what it needs, as an `Array` does when it doubles
/// (docs/performance.md#memory). For the tables a capture may give hundreds of thousands of rows to: an arena's
/// string locations, dormant classes' rows, observations' offsets, a recording's stamps and its lanes' callbacks and
/// intervals.
struct ChunkedArray<Element>: RandomAccessCollection {
    /// The first block, then the others: a small table is one array, as an `Array` is (a recording per input of
    /// 100k small captures holds five of them each).
    private var head: [Element] = []
    private var blocks: [[Element]] = []
    private(set) var count = 0
    static var blockShift: Int { 12 }
    static var blockSize: Int { 1 << blockShift }

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        get { i < Self.blockSize ? head[i] : blocks[(i >> Self.blockShift) - 1][i & (Self.blockSize - 1)] }
        set {
            if i < Self.blockSize { head[i] = newValue } else { blocks[(i >> Self.blockShift) - 1][i & (Self.blockSize - 1)] = newValue }
        }
    }

    mutating func append(_ e: Element) {
        // A small table stays small: its first block grows as an array does, up to `blockSize`.
        if count < Self.blockSize {
            head.append(e)
        } else {
            if count & (Self.blockSize - 1) == 0 {
                var block: [Element] = []
                block.reserveCapacity(Self.blockSize)
                blocks.append(block)
            }
            blocks[blocks.count - 1].append(e)
        }
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        for e in elements { append(e) }
    }

    /// Drops the last `k` elements (and the blocks they leave empty).
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removing more elements than the array holds")
        let kept = count - k
        if kept <= Self.blockSize {
            blocks = []
            head.removeLast(head.count - kept)
        } else {
            // Blocks after the head that still hold an element.
            let needed = (kept - Self.blockSize + Self.blockSize - 1) >> Self.blockShift
            blocks.removeLast(blocks.count - needed)
            let inLast = kept & (Self.blockSize - 1)
            if inLast != 0 { blocks[blocks.count - 1].removeLast(blocks[blocks.count - 1].count - inLast) }
        }
        count = kept
    }

    /// How many blocks hold their elements (a block let go by `dropBlock` does not).
    var blocksHeld: Int { (head.isEmpty ? 0 : 1) + blocks.count(where: { !$0.isEmpty }) }

    /// Lets go of the full block that holds index `i`, none of whose elements is read again: every index keeps
    /// its place (`BlocksReadOnce`).
    mutating func dropBlock(holding i: Int) {
        precondition(i < count && (i | (Self.blockSize - 1)) < count, "only a full block is let go")
        let b = i >> Self.blockShift
        if b == 0 { head = [] } else { blocks[b - 1] = [] }
    }

    mutating func removeAll() {
        head = []
        blocks = []
        count = 0
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

/// Counts, per block of a `ChunkedArray`, the elements read for the last time, so that a block all of whose
/// elements were is let go as soon as it is (`TimelineRecorder.move` reads the records of deallocated instances
/// once each, in about the order they were written).
struct BlocksReadOnce: Sendable {
    private var read: [UInt16] = []

    /// Element `i` of `array` was read for the last time: its block goes once all of it was.
    mutating func done<Element>(_ i: Int, in array: inout ChunkedArray<Element>) {
        let b = i >> ChunkedArray<Element>.blockShift
        if b >= read.count { read.append(contentsOf: repeatElement(0, count: b + 1 - read.count)) }
        read[b] += 1
        if Int(read[b]) == ChunkedArray<Element>.blockSize { array.dropBlock(holding: i) }
    }
}
