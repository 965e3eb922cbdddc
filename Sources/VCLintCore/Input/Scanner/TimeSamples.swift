/// The last enveloped lines of an input, each with its number (a ring of their heads).
struct EndingLines {
    let capacity: Int
    private var lines: [(line: Int, bytes: [UInt8])]
    private var newest = -1
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        lines = Array(repeating: (0, []), count: capacity)
    }

    mutating func push(_ p: UnsafePointer<UInt8>, _ n: Int, line: Int) {
        newest = (newest + 1) % capacity
        lines[newest].line = line
        lines[newest].bytes.removeAll(keepingCapacity: true)
        RecentLines.keepHead(p, n, in: &lines[newest].bytes)
        count = min(count + 1, capacity)
    }

    /// Oldest first.
    func forEach(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        for k in stride(from: count - 1, through: 0, by: -1) {
            let entry = lines[(newest - k + capacity) % capacity]
            // An empty line is never kept (it has no envelope): the pointer is not nil.
            entry.bytes.withUnsafeBufferPointer { body(entry.line, $0) }
        }
    }
}
