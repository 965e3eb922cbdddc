#if VCLINT_SSSE3
import _Builtin_intrinsics.intel
import VCLintAVX2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the built-in candidate literals (`LogScanner.candidatePatterns`) sixteen positions at a
/// time with the Teddy technique (Hyperscan's multi-literal matcher, which ripgrep also uses): each
/// literal has a three-byte fingerprint, each fingerprint belongs to one of eight buckets, and two
/// nibble lookups (`pshufb`) per fingerprint byte tell which buckets may match at each position.
/// A position whose buckets survive all three bytes is verified against the bucket's literals.
///
/// The fingerprints and buckets were chosen so that ordinary text rarely passes: measured on app
/// console noise and on English technical text, fewer than one false position per thousand lines.
struct CandidateLiterals {
    struct Literal {
        let bytes: [UInt8]
        /// Where the fingerprint starts in `bytes`.
        let fingerprint: Int
        /// `\binit`: the byte before must not be a word character.
        let wordStart: Bool
    }

    /// Exactly the literals of `LogScanner.candidatePatterns` (a test checks they agree), with the
    /// fingerprint's offset and bucket.
    static let table: [(String, fingerprint: Int, bucket: Int, wordStart: Bool)] = [
        ("iewWill", 2, 0, false), ("iewDid", 2, 0, false), ("iewIsAppearing", 2, 0, false), ("Attempt to ", 0, 0, false),
        ("init", 0, 1, true), ("Init", 0, 1, true),
        // `appeared`/`disappeared` by `red`: `ppe`, `pea`, `ear` are in every `Appear`, and `red` passes
        // the fewest other positions in bucket 1 (measured on the 64 MiB capture).
        ("ppeared", 4, 1, false),
        ("dealloc", 0, 2, false), ("Dealloc", 0, 2, false), ("deinit", 0, 2, false), ("Deinit", 0, 2, false), ("deInit", 0, 2, false),
        ("oadView", 2, 2, false),
        ("dismiss ", 2, 3, false),
        ("idMove", 1, 4, false), ("idReceive", 1, 4, false), ("illMove", 2, 4, false),
        ("appearance transitions", 14, 5, false),
        ("wakeFromNib", 2, 6, false),
        // SwiftUI's modifiers: `onA`/`onD` (and capitalised) add no position to bucket 6's.
        ("onAppear", 0, 6, false), ("onDisappear", 0, 6, false), ("OnAppear", 0, 6, false), ("OnDisappear", 0, 6, false),
        ("present ", 2, 7, false),
        // A test runner's lines, by their rarest bytes: `e '` before the quoted name (a quote is rare
        // in text); the symbol's three bytes (text is mostly ASCII).
        ("Test Case '", 8, 5, false), ("Test case '", 8, 5, false), ("Test Suite '", 9, 5, false),
        ("◇ Test", 0, 6, false), ("✔ Test", 0, 6, false), ("✘ Test", 0, 6, false), ("➜ Test", 0, 6, false),
        ("◇ Suite", 0, 6, false), ("✔ Suite", 0, 6, false), ("✘ Suite", 0, 6, false),
    ]

    /// Built once: the tables are immutable, and scanners copy them (arrays shared, not copied).
    static let shared = CandidateLiterals()

    /// Per fingerprint byte k: which buckets accept a byte by its low and its high nibble.
    private let lo0, hi0, lo1, hi1, lo2, hi2: __m128i
    /// The same six tables as bytes, for the AVX2 pass.
    private let tableBytes: [UInt8]
    private let buckets: [[Literal]]
    private let nibble = _mm_set1_epi8(0x0F)
    /// Whether the bulk pass runs with AVX2 (`VectorLevel`).
    let avx2: Bool

    init(avx2: Bool = VectorLevel.avx2) {
        self.avx2 = avx2
        var lo = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 3)
        var hi = lo
        var buckets = [[Literal]](repeating: [], count: 8)
        for (text, offset, bucket, wordStart) in Self.table {
            let bytes = Array(text.utf8)
            for k in 0..<3 {
                let b = bytes[offset + k]
                lo[k][Int(b & 0x0F)] |= 1 << bucket
                hi[k][Int(b >> 4)] |= 1 << bucket
            }
            buckets[bucket].append(Literal(bytes: bytes, fingerprint: offset, wordStart: wordStart))
        }
        func vector(_ bytes: [UInt8]) -> __m128i {
            bytes.withUnsafeBytes { _mm_loadu_si128($0.baseAddress!.assumingMemoryBound(to: __m128i.self)) }
        }
        lo0 = vector(lo[0]); hi0 = vector(hi[0])
        lo1 = vector(lo[1]); hi1 = vector(hi[1])
        lo2 = vector(lo[2]); hi2 = vector(hi[2])
        self.buckets = buckets
        tableBytes = lo[0] + hi[0] + lo[1] + hi[1] + lo[2] + hi[2]
    }

    /// The bulk pass over `blocks` 32-byte blocks from `p` (reads `p ..< p + 32 * blocks + 34`): per
    /// block, a bit per newline and a bit per position where a fingerprint starts.
    @inline(__always)
    func masks(_ p: UnsafePointer<UInt8>, blocks: Int, newlines: UnsafeMutablePointer<UInt32>, hits: UnsafeMutablePointer<UInt32>) {
        if avx2 {
            tableBytes.withUnsafeBufferPointer {
                TeddyAVX2.masks(p, blocks: blocks, tables: $0.baseAddress!, newlines: newlines, hits: hits)
            }
            return
        }
        let newline = _mm_set1_epi8(0x0A)
        var q = p
        for i in 0..<blocks {
            let v0 = load(q), v1 = load(q + 16)
            newlines[i] = positions(of: newline, in: v0) | positions(of: newline, in: v1) << 16
            hits[i] = nonzeroPositions(fingerprints(v0, q)) | nonzeroPositions(fingerprints(v1, q + 16)) << 16
            q += 32
        }
    }

    /// The buckets that may match at each of the 16 positions starting at `p` (reads `p..<p+18`).
    @inline(__always)
    private func fingerprints(_ v0: __m128i, _ p: UnsafePointer<UInt8>) -> __m128i {
        let v1 = load(p + 1), v2 = load(p + 2)
        let m0 = _mm_and_si128(_mm_shuffle_epi8(lo0, _mm_and_si128(v0, nibble)),
                               _mm_shuffle_epi8(hi0, _mm_and_si128(_mm_srli_epi16(v0, 4), nibble)))
        let m1 = _mm_and_si128(_mm_shuffle_epi8(lo1, _mm_and_si128(v1, nibble)),
                               _mm_shuffle_epi8(hi1, _mm_and_si128(_mm_srli_epi16(v1, 4), nibble)))
        let m2 = _mm_and_si128(_mm_shuffle_epi8(lo2, _mm_and_si128(v2, nibble)),
                               _mm_shuffle_epi8(hi2, _mm_and_si128(_mm_srli_epi16(v2, 4), nibble)))
        return _mm_and_si128(_mm_and_si128(m0, m1), m2)
    }

    /// Whether a literal whose fingerprint may start at `position` (a hit of the bulk pass) really
    /// occurs within `buffer[0..<end]`: the position's buckets from the same nibble tables, read
    /// one byte at a time (reads up to `position + 2`).
    func verify(_ buffer: UnsafePointer<UInt8>, at position: Int, end: Int) -> Bool {
        let b0 = Int(buffer[position]), b1 = Int(buffer[position + 1]), b2 = Int(buffer[position + 2])
        var set = tableBytes.withUnsafeBufferPointer { t in
            t[b0 & 15] & t[16 + b0 >> 4] & t[32 + b1 & 15] & t[48 + b1 >> 4] & t[64 + b2 & 15] & t[80 + b2 >> 4]
        }
        while set != 0 {
            let b = set.trailingZeroBitCount
            set &= set - 1
            for literal in buckets[b] where matches(literal, buffer, at: position - literal.fingerprint, end: end) {
                return true
            }
        }
        return false
    }

    @inline(__always)
    private func matches(_ literal: Literal, _ buffer: UnsafePointer<UInt8>, at start: Int, end: Int) -> Bool {
        let n = literal.bytes.count
        guard start >= 0, start + n <= end else { return false }
        if literal.wordStart, start > 0, ByteCursor.isWord(buffer[start - 1]) { return false }
        return literal.bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, buffer + start, n) == 0 }
    }
}

@inline(__always)
func load(_ p: UnsafePointer<UInt8>) -> __m128i {
    _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
}

/// One bit per byte of `v` that is `byte`.
@inline(__always)
func positions(of byte: __m128i, in v: __m128i) -> UInt32 {
    UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(v, byte)))
}

/// One bit per nonzero byte of `v`.
@inline(__always)
func nonzeroPositions(_ v: __m128i) -> UInt32 {
    ~UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()))) & 0xFFFF
}

/// The shape of a line's first bytes that decides its envelope (`EnvelopeParser.classifyTimestamped`):
/// the line that taught it had format `format`; a line whose first `extent` bytes have digits where
/// it had digits and the same bytes elsewhere (and the same byte at `zeroColumn`, where a `0` means
/// a thread id) has the same format without being classified again. Lines of one capture share a
/// shape, so most lines cost a few vector compares.
struct EnvelopeTemplate {
    static let width = 128
    let format: EnvelopeFormat
    let extent: Int
    /// Per 16-byte chunk of the line's head: how far above `base` each byte may be (`limit`, an
    /// unsigned saturating difference): 0 where the byte must be the template's (or, at the thread
    /// column, its exact digit), 9 where any digit will do (base `0`), 0xDE where any byte but a space
    /// or a control byte will do (base `!`), 255 past the extent. A chunk matches when no byte goes
    /// over its limit: two vector operations and a compare per chunk.
    private let base0, base1, base2, base3, base4, base5, base6, base7: __m128i
    private let limit0, limit1, limit2, limit3, limit4, limit5, limit6, limit7: __m128i
    /// How many chunks the extent covers (1...8).
    private let chunks: Int
    /// Whether the extent covers the line's process and pid (`RunKey`) byte for byte: a line of
    /// this shape is then of the same run of one process as the line that taught it.
    let keyed: Bool

    /// The template of a line, if its format is decided by a short shape (not syslog, whose day and
    /// hour values matter).
    init?(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0 else { return nil }
        var extent = 1
        var column = -1
        var keyed = false
        /// `oslog`: where the key starts; before it, from the thread column's `0x` on, the columns
        /// that vary from line to line match any word of the same length.
        var words = -1
        let format: EnvelopeFormat
        if p[0] == 0x7B {
            // `{"`: the shape of a JSON object's line (an NSLog `{(` description is not one).
            guard n > 1, p[1] == 0x22 else { return nil }
            format = .ndjson
            extent = 2
        } else if let t = EnvelopeParser.classifyTimestamped(p, n), t.format != .logcat {
            // A process name that starts with a digit (or a time-only line whose message does) has
            // no shape of its own: `6937-6937/com.app D/Tag:` after the same timestamp is logcat.
            // Such lines are classified one by one.
            if t.format != .oslog, t.column < n, ByteCursor.isDigit(p[t.column]) { return nil }
            format = t.format
            column = t.column
            extent = t.column + 4
            // The process and pid too, exactly: the scanner then knows without parsing that a line
            // of this shape continues the run of the line before (`RunKey`). A line whose key does
            // not fit gets no shape; nor does a line without one (garbage where the pid is, a time
            // without a process): a shorter shape would take in the next lines of any process.
            guard let key = RunKey.span(p, n, format: t.format), key.upperBound <= Self.width else { return nil }
            extent = max(extent, key.upperBound)
            keyed = true
            if t.format == .oslog { words = key.lowerBound }
        } else {
            return nil
        }
        guard extent <= min(n, Self.width) else { return nil }
        self.format = format
        self.extent = extent
        var base = [UInt8](repeating: 0, count: Self.width)
        var limit = [UInt8](repeating: 0xFF, count: Self.width)
        self.keyed = keyed
        for i in 0..<extent {
            if i > column + 1, i < words, p[i] != 0x20 {
                // The thread, type and activity columns (`RunKey` reads only where their spaces are).
                base[i] = 0x21
                limit[i] = 0xDE
                continue
            }
            // Digits of the time vary; from the column on (the thread column's first byte, the
            // process and its pid) the bytes are the template's own.
            let anyDigit = ByteCursor.isDigit(p[i]) && (column < 0 || i < column || (!keyed && i != column))
            base[i] = anyDigit ? 0x30 : p[i]
            limit[i] = anyDigit ? 9 : 0
        }
        func chunk(_ a: [UInt8], _ k: Int) -> __m128i { a.withUnsafeBufferPointer { load($0.baseAddress! + 16 * k) } }
        base0 = chunk(base, 0); base1 = chunk(base, 1); base2 = chunk(base, 2); base3 = chunk(base, 3)
        base4 = chunk(base, 4); base5 = chunk(base, 5); base6 = chunk(base, 6); base7 = chunk(base, 7)
        limit0 = chunk(limit, 0); limit1 = chunk(limit, 1); limit2 = chunk(limit, 2); limit3 = chunk(limit, 3)
        limit4 = chunk(limit, 4); limit5 = chunk(limit, 5); limit6 = chunk(limit, 6); limit7 = chunk(limit, 7)
        chunks = (extent + 15) / 16
    }

    /// Whether the line at `p` (length `n`; `width` bytes readable) has this template's shape.
    @inline(__always)
    func matches(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard n >= extent, Self.fits(load(p), base0, limit0) else { return false }
        if chunks > 1, !Self.fits(load(p + 16), base1, limit1) { return false }
        if chunks > 2, !Self.fits(load(p + 32), base2, limit2) { return false }
        if chunks > 3, !Self.fits(load(p + 48), base3, limit3) { return false }
        if chunks > 4, !Self.fits(load(p + 64), base4, limit4) { return false }
        if chunks > 5, !Self.fits(load(p + 80), base5, limit5) { return false }
        if chunks > 6, !Self.fits(load(p + 96), base6, limit6) { return false }
        if chunks > 7, !Self.fits(load(p + 112), base7, limit7) { return false }
        return true
    }

    @inline(__always)
    private static func fits(_ v: __m128i, _ base: __m128i, _ limit: __m128i) -> Bool {
        let over = _mm_subs_epu8(_mm_sub_epi8(v, base), limit)
        return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) == 0xFFFF
    }

    /// The scanner's hot loop: from line `from` (its start `lineStart`; `ends` are window-relative
    /// positions of the line breaks), the lines that have this shape, start before `sampleAt` and end
    /// at or before `hit` (the next literal's position). Returns the first line that does not, with
    /// `lineStart` moved to it. (Not inlined: the loop keeps its registers.)
    @inline(never)
    func run(_ buffer: UnsafePointer<UInt8>, ends: UnsafePointer<Int32>, from: Int, to: Int, window: Int,
             lineStart: inout Int, hit: Int, sampleAt: Int) -> Int {
        var s = lineStart
        var i = from
        while i < to {
            let e = window &+ Int(ends[i])
            if e > hit || s >= sampleAt { break }
            var n = e &- s
            // A carriage return only matters to a line exactly as long as the shape.
            if n == extent, n > 0, buffer[s &+ n &- 1] == 0x0D { n &-= 1 }
            if !matches(buffer + s, n) { break }
            s = e &+ 1
            i &+= 1
        }
        lineStart = s
        return i
    }

}
/// Which vector instructions the scanner's bulk pass uses: AVX2 where the CPU has it (Linux tells in
/// /proc/cpuinfo, macOS in sysctl), else SSSE3. `VCLINT_NO_AVX2=1` forces SSSE3 (tests compare both).
enum VectorLevel {
    static let avx2: Bool = {
        if let off = getenv("VCLINT_NO_AVX2"), off.pointee != 0, off.pointee != 0x30 { return false }
#if canImport(Darwin)
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        return sysctlbyname("hw.optional.avx2_0", &value, &size, nil, 0) == 0 && value != 0
#else
        guard let f = fopen("/proc/cpuinfo", "r") else { return false }
        defer { fclose(f) }
        var line: UnsafeMutablePointer<CChar>?
        var cap = 0
        defer { free(line) }
        while getline(&line, &cap, f) > 0, let l = line {
            let text = String(cString: l)
            if text.hasPrefix("flags") { return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("avx2") }
        }
        return false
#endif
    }()
}
#endif
