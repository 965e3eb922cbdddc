/// What a UTF-8 scalar is to the forgiving frame (docs/lifecycle.md#the-forgiving-frame): consoles, web
/// pages and chat put Unicode spaces, dashes, bullets and emoji where an app printed ASCII.
enum ScalarClass: UInt8 {
    /// White space, zero-width and invisible characters (U+00A0, U+2000…U+200B, U+3000, a BOM, …).
    case space
    /// A dash used as a separator (EN DASH, EM DASH, MINUS SIGN, …).
    case dash
    /// An arrow (`→`, `⇒`, `←`): decoration, with a direction.
    case arrowRight, arrowLeft
    /// Emoji, bullets, box drawing, CJK and full-width punctuation, U+FFFC: decoration.
    case symbol
    /// A letter of some script (or an invalid byte): part of a word.
    case letter
}

enum TextScalars {
    /// The scalar at `p[i]` (i < n): its value (0xFFFD for an invalid sequence) and byte length.
    @inline(__always)
    static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (scalar: UInt32, length: Int) {
        let b0 = UInt32(p[i])
        if b0 < 0x80 { return (b0, 1) }
        @inline(__always) func cont(_ k: Int) -> UInt32? {
            guard i + k < n, p[i + k] & 0xC0 == 0x80 else { return nil }
            return UInt32(p[i + k] & 0x3F)
        }
        if b0 & 0xE0 == 0xC0, b0 >= 0xC2, let c1 = cont(1) { return ((b0 & 0x1F) << 6 | c1, 2) }
        if b0 & 0xF0 == 0xE0, let c1 = cont(1), let c2 = cont(2) {
            let v = (b0 & 0x0F) << 12 | c1 << 6 | c2
            return v >= 0x800 ? (v, 3) : (0xFFFD, 1)
        }
        if b0 & 0xF8 == 0xF0, let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) {
            let v = (b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            return v >= 0x10000 && v <= 0x10FFFF ? (v, 4) : (0xFFFD, 1)
        }
        return (0xFFFD, 1)
    }

    /// The class of a scalar at or above U+0080.
    static func classify(_ v: UInt32) -> ScalarClass {
        switch v {
        case 0x85, 0xA0, 0xAD, 0x034F, 0x1680, 0x180E, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x206F, 0x3000, 0xFEFF:
            return .space
        case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D:
            return .dash
        case 0x2190, 0x21D0, 0x21E0, 0x27F5, 0x27F8, 0x2B05:
            return .arrowLeft
        case 0x2192, 0x21D2, 0x21E2, 0x279C...0x27BF, 0x27F6, 0x27F9, 0x2B95:
            return .arrowRight
        case 0xA1...0xBF, 0xD7, 0xF7,
             0x2016...0x2027, 0x2030...0x205E, 0x20A0...0x2BFF,
             0x3001...0x303F, 0x30FB, 0xE000...0xF8FF, 0xFE00...0xFE0F, 0xFE10...0xFE1F, 0xFE30...0xFE4F,
             0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFF3B...0xFF40, 0xFF5B...0xFF65, 0xFFF0...0xFFFC,
             0x1F000...0x1FAFF, 0xE0000...0xE007F:
            return .symbol
        default:
            return .letter
        }
    }

    /// Whether the bytes at `p[i]` start a space of any script (ASCII or Unicode); its length.
    @inline(__always)
    static func spaceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        let b = p[i]
        if b < 0x80 { return b == .space || b &- UInt8.tab < 5 || b == 0 ? 1 : 0 }
        let (v, k) = decode(p, i, n)
        return classify(v) == .space ? k : 0
    }

    /// The message without white space of any script at either end, nor the invisible characters
    /// a web page or chat leaves there (seed 000's capture ends a line in a space and U+00A0).
    static func trimmed(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi {
            let k = spaceLength(p, lo, hi)
            if k == 0 { break }
            lo += k
        }
        while hi > lo {
            let b = p[hi - 1]
            if b < 0x80 {
                guard b == .space || b &- UInt8.tab < 5 || b == 0 else { break }
                hi -= 1
                continue
            }
            // Back to the scalar's first byte (at most 3 continuation bytes).
            var s = hi - 1
            while s > lo, hi - s < 4, p[s] & 0xC0 == 0x80 { s -= 1 }
            let (v, k) = decode(p, s, hi)
            guard s + k == hi, classify(v) == .space else { break }
            hi = s
        }
        return lo..<hi
    }
}
