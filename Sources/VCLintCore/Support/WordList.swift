/// A list of 64-bit words kept in 32 bits each while every word fits (docs/performance.md#memory): the
/// recording's flat lists pack a stamp's index with a few bits of what it says, and an input has to hold
/// more than 16 million events before one of them needs more than 32. The first word that does not fit
/// widens the list once (a copy of what it holds), so a list never costs more than twice its words' due
/// and never has a cliff per word. In blocks (`ChunkedArray`), as the lists it replaces were.
struct WordList: RandomAccessCollection, Sendable {
    private var narrow = ChunkedArray<UInt32>()
    /// Every word, once one did not fit in 32 bits (`narrow` is then empty).
    private var wide: ChunkedArray<UInt64>?

    init() {}

    init<S: Sequence>(_ words: S) where S.Element == UInt64 {
        append(contentsOf: words)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { wide?.count ?? narrow.count }

    /// Whether its words are kept in 64 bits.
    var isWide: Bool { wide != nil }

    subscript(i: Int) -> UInt64 {
        get {
            if let wide { return wide[i] }
            return UInt64(narrow[i])
        }
        set {
            if wide == nil, let w = UInt32(exactly: newValue) {
                narrow[i] = w
                return
            }
            widen()
            wide![i] = newValue
        }
    }

    @inline(__always)
    mutating func append(_ word: UInt64) {
        if wide == nil, let w = UInt32(exactly: word) {
            narrow.append(w)
            return
        }
        widen()
        wide!.append(word)
    }

    mutating func append<S: Sequence>(contentsOf words: S) where S.Element == UInt64 {
        for w in words { append(w) }
    }

    /// Every word in 64 bits from now on.
    private mutating func widen() {
        guard wide == nil else { return }
        var all = ChunkedArray<UInt64>()
        for w in narrow { all.append(UInt64(w)) }
        narrow = ChunkedArray()
        wide = all
    }
}

/// A growing list of 64-bit words in the room of one array (8 bytes), kept in 32 bits each while every word fits:
/// a lane's lists while its session runs (`TimelineRecorder.InstanceLog`), where the root controller of a long
/// run has millions of states and most controllers a handful. It widens once, as `WordList` does.
struct SmallWords: RandomAccessCollection {
    private enum Storage {
        case narrow([UInt32])
        case wide([UInt64])
    }
    private var storage = Storage.narrow([])

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .narrow(let a): return a.count
        case .wide(let a): return a.count
        }
    }

    subscript(i: Int) -> UInt64 {
        switch storage {
        case .narrow(let a): return UInt64(a[i])
        case .wide(let a): return a[i]
        }
    }

    var isWide: Bool {
        if case .wide = storage { return true }
        return false
    }

    mutating func append(_ word: UInt64) {
        switch storage {
        case .narrow(var a):
            // The storage lets go of its array first, so that the append is done in place.
            storage = .narrow([])
            if let w = UInt32(exactly: word) {
                a.append(w)
                storage = .narrow(a)
            } else {
                var all = a.map { UInt64($0) }
                a = []
                all.append(word)
                storage = .wide(all)
            }
        case .wide(var a):
            storage = .wide([])
            a.append(word)
            storage = .wide(a)
        }
    }

    mutating func append<S: Sequence>(contentsOf words: S) where S.Element == UInt64 {
        for w in words { append(w) }
    }
}
