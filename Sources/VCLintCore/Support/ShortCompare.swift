/// Whether two short byte runs are equal, compared in place a word at a time: what `memcmp(a, b, n) == 0`
/// says, without a call into libc for the few bytes a literal, an envelope's `Name[pid:tid] ` or a class
/// name holds (the call and its set-up cost more than the compare on the per-line path).
@inline(__always)
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    if n >= 8 {
        var k = 0
        while k &+ 8 <= n {
            if ra.loadUnaligned(fromByteOffset: k, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
            k &+= 8
        }
        // The last bytes, as the word that ends with them (it overlaps the one before).
        return k == n || ra.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }
    if n >= 4 {
        return ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
            && ra.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == rb.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
    }
    var k = 0
    while k < n {
        if a[k] != b[k] { return false }
        k &+= 1
    }
    return true
}
