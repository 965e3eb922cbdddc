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
    /// Per entry, its first eight bytes as one word (`head`): most keys are told apart by one comparison.
    private let heads: [UInt64]

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
        heads = keys.withUnsafeBufferPointer { k in entries.indices.map { e in
            let end = e + 1 < entries.count ? entries[e + 1].start : k.count
            return Self.head(k.baseAddress! + entries[e].start, end - entries[e].start)
        } }
    }

    /// The first eight bytes of `n` (fewer: the rest zero), little-endian.
    @inline(__always)
    private static func head(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        if n >= 8 { return UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) }
        var h: UInt64 = 0
        for i in 0..<n { h |= UInt64(p[i]) << (8 * UInt64(i)) }
        return h
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
        let h = Self.head(p, n)
        return heads.withUnsafeBufferPointer { hs -> Value? in
            for e in range where hs[e] == h {
                if n <= 8 || keys.withUnsafeBufferPointer({ bytesEqual($0.baseAddress! + entries[e].start + 8, p + 8, n - 8) }) {
                    return entries[e].value
                }
            }
            return nil
        }
    }

    /// Whether the bytes are one of the keys.
    @inline(__always)
    func contains(_ b: UnsafeBufferPointer<UInt8>) -> Bool { value(b) != nil }
}
