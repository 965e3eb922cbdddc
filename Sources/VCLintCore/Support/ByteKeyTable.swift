/// A small table of ASCII keys looked up by bytes, as a `[String: Value]` is by a `String`: what a per-line
/// reader needs to recognise a word without making a `String` of it (a `String` and its hash cost more than the
/// whole rest of a noise line's reading). Keys are grouped by length; a lookup compares the few keys of the
/// word's length, first byte first.
struct ByteKeyTable<Value: Sendable>: Sendable {
    private let keys: [UInt8]
    /// Per key, by length then by bytes: where its bytes are in `keys`, and its value.
    private let entries: [(start: Int, value: Value)]
    /// Per length, the entries of that length.
    private let byLength: [Range<Int>]

    init(_ table: [String: Value]) {
        let sorted = table.sorted { a, b in a.key.utf8.count != b.key.utf8.count ? a.key.utf8.count < b.key.utf8.count : a.key < b.key }
        var keys: [UInt8] = [], entries: [(start: Int, value: Value)] = []
        let longest = sorted.last?.key.utf8.count ?? 0
        var byLength = [Range<Int>](repeating: 0..<0, count: longest + 1)
        for (key, value) in sorted {
            precondition(!key.isEmpty && key.utf8.allSatisfy(\.isASCII), "ByteKeyTable keys are ASCII, never empty")
            let n = key.utf8.count
            if byLength[n].isEmpty { byLength[n] = entries.count..<entries.count }
            entries.append((keys.count, value))
            keys.append(contentsOf: key.utf8)
            byLength[n] = byLength[n].lowerBound..<entries.count
        }
        (self.keys, self.entries, self.byLength) = (keys, entries, byLength)
    }

    /// The value of the key whose bytes these are, or nil.
    @inline(__always)
    func value(_ b: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let p = b.baseAddress else { return nil }
        return value(p, b.count)
    }

    func value(_ p: UnsafePointer<UInt8>, _ n: Int) -> Value? {
        guard n > 0, n < byLength.count else { return nil }
        let range = byLength[n]
        guard !range.isEmpty else { return nil }
        return keys.withUnsafeBufferPointer { k -> Value? in
            for e in range where k[entries[e].start] == p[0] && bytesEqual(k.baseAddress! + entries[e].start, p, n) {
                return entries[e].value
            }
            return nil
        }
    }

    /// Whether the bytes are one of the keys.
    @inline(__always)
    func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool { value(b) != nil }
}
