/// Bytes that are not characters. Characters are written as themselves (`UInt8(ascii: ":")`), which a
/// release build folds to the constant.
enum ASCII {
    /// The bit that tells an ASCII letter's cases apart: `b | ASCII.caseBit` is `b` in lower case (for a
    /// letter; other bytes only for comparing against a lower-case letter).
    @inline(__always) static var caseBit: UInt8 { 0x20 }
}
