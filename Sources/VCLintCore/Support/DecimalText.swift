import Foundation

/// Decimal text of numbers the views write many times (an SVG coordinate, a ruler's seconds): the
/// bytes `String(format:)` gives, without its formatter, which costs a CFString and a boxed
/// argument per number (a quarter of `vclint report`'s time on a capture of 40k sessions).
enum DecimalText {
    /// `String(format: "%.1f", v)`: rounded to one decimal from the double's exact value, an exact
    /// tie to the even digit (as glibc's printf rounds). Negative, huge or non-finite values take
    /// the formatter itself.
    static func oneDecimal(_ v: Double) -> String {
        guard v.sign == .plus, v.isFinite, v < 1e15 else { return String(format: "%.1f", v) }
        // Below 0.05 every value rounds to 0.0 (0.05 itself is just above: its double is).
        if v < 0.01 { return "0.0" }
        // v = m · 2^-shift exactly; 10·v = q + rem / 2^shift.
        let m = v.significandBitPattern | (1 << 52)
        let shift = 52 - Int(v.exponent)  // 3…59 for 0.01 ≤ v < 1e15
        let n = m * 10
        var q = n >> UInt64(shift)
        let rem = n & ((1 << UInt64(shift)) - 1)
        let half: UInt64 = 1 << UInt64(shift - 1)
        if rem > half || (rem == half && q & 1 == 1) { q += 1 }
        return String(q / 10) + "." + String(q % 10)
    }
}
