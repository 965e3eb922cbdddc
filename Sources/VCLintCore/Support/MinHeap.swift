/// A binary min-heap of values by a key kept beside each (comparisons read no value): the
/// session's end merges the classes' live lists with one, live mode schedules leaks with another.
struct MinHeap<Key: Comparable, Value> {
    private(set) var items: [(key: Key, value: Value)] = []

    init() {}

    /// Made from unordered items in linear time.
    init(_ items: [(key: Key, value: Value)]) {
        self.items = items
        heapify()
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var min: (key: Key, value: Value)? { items.first }

    mutating func push(_ key: Key, _ value: Value) {
        items.append((key, value))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent].key <= items[i].key { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    @discardableResult
    mutating func popMin() -> (key: Key, value: Value)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return top
    }

    /// Gives the least item a new key and value (cheaper than a pop and a push).
    mutating func replaceMin(_ key: Key, _ value: Value) {
        items[0] = (key, value)
        siftDown(0)
    }

    mutating func removeAll(where drop: ((key: Key, value: Value)) -> Bool) {
        items.removeAll(where: drop)
        heapify()
    }

    private mutating func heapify() {
        for i in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l].key < items[m].key { m = l }
            if r < items.count, items[r].key < items[m].key { m = r }
            if m == i { return }
            items.swapAt(i, m)
            i = m
        }
    }
}
