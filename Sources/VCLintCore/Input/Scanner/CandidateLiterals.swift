#if arch(x86_64)
import CVectorScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the built-in candidate literals (`CandidateSearch.patterns`) sixteen positions at a
/// time with the Teddy technique (Hyperscan's multi-literal matcher, which ripgrep also uses): each
/// literal has a three-byte fingerprint, each fingerprint belongs to one of eight buckets, and two
/// nibble lookups (`pshufb`) per fingerprint byte tell which buckets may match at each position.
/// A position whose buckets survive all three bytes is verified against the literals whose fingerprint those bytes are.
///
/// A literal's fingerprint (which three of its bytes) and bucket decide how many positions of ordinary text pass
/// and must be verified, which costs far more time than its instructions say (each is a branch the CPU cannot
/// predict). They were chosen together, by a local search that moved one literal at a time to the fingerprint and
/// bucket that made the fewest positions pass, over a corpus weighted per megabyte: generated iOS captures (sparse
/// and dense) and logcat, the published captures, these docs, Swift source, and Debian's logs and licences (English).
/// Positions to verify per MiB before and after (`Benchmarks/fingerprints.py`, which does the search): generated sparse
/// 5,583 → 3,381, dense 6,592 → 4,233, logcat 13,879 → 6,767, published captures 23,934 → 17,402 (most are real
/// lifecycle lines), docs 35,271 → 19,356, source 28,764 → 14,013, Debian's text 23,426 → 9,329.
struct CandidateLiterals {
    /// A literal as the verification reads it: plain values, no array of its own (iterating arrays of
    /// arrays retained and released each one: 555 instructions a verified position on logcat).
    struct Literal {
        /// Its fingerprint's three bytes, the first in the low byte: compared with the position's before anything else.
        let key: UInt32
        /// Where the fingerprint starts in the literal.
        let fingerprint: Int
        /// Where its bytes are in `pool`, and how many.
        let start: Int
        let count: Int
        /// `\binit`: the byte before must not be a word character.
        let wordStart: Bool
    }

    /// Exactly the literals of `CandidateSearch.patterns` (a test checks they agree), with the
    /// fingerprint's offset and bucket.
    static let table: [(String, fingerprint: Int, bucket: Int, wordStart: Bool)] = [
        ("iewWill", 2, 0, false), ("iewDid", 2, 0, false), ("iewIsAppearing", 2, 0, false), ("Attempt to ", 0, 0, false),
        ("init", 0, 1, true), ("Init", 0, 1, true),
        // `appeared`/`disappeared` by `red`: `ppe`, `pea`, `ear` are in every `Appear`.
        ("ppeared", 4, 1, false),
        ("dealloc", 0, 2, false), ("Dealloc", 0, 2, false), ("deinit", 0, 2, false), ("Deinit", 0, 2, false), ("deInit", 2, 1, false),
        ("oadView", 1, 6, false),
        ("dismiss ", 2, 3, false),
        ("idMove", 1, 4, false), ("idReceive", 1, 4, false), ("illMove", 2, 4, false),
        ("appearance transitions", 14, 2, false),
        ("wakeFromNib", 7, 2, false),
        // SwiftUI's modifiers.
        ("onAppear", 0, 6, false), ("onDisappear", 0, 6, false), ("OnAppear", 0, 6, false), ("OnDisappear", 0, 6, false),
        ("present ", 2, 7, false),
        // A test runner's lines, by their rarest bytes: `e '` before the quoted name (a quote is rare
        // in text); the symbol's three bytes (text is mostly ASCII).
        ("Test Case '", 8, 5, false), ("Test case '", 8, 5, false), ("Test Suite '", 9, 5, false),
        ("◇ Test", 0, 6, false), ("✔ Test", 0, 6, false), ("✘ Test", 0, 6, false), ("➜ Test", 0, 6, false),
        ("◇ Suite", 0, 6, false), ("✔ Suite", 0, 6, false), ("✘ Suite", 0, 6, false),
        // Android's literals (docs/lifecycle.md#android-statements). Most callbacks by `on` and a capital in bucket 6
        // (`NavigationController` passes there and fails the verification's word start).
        ("onCreate", 0, 6, true), ("onStart", 0, 6, true), ("onStop", 0, 6, true), ("onResume", 0, 6, true),
        ("onRestart", 0, 6, true), ("onRestore", 0, 6, true), ("onPause", 0, 6, true), ("onDestroy", 0, 6, true),
        ("onAttach", 0, 6, true), ("onDetach", 0, 6, true), ("onViewCreated", 0, 6, true), ("onViewStateRestored", 0, 6, true),
        ("onActivityCreated", 0, 6, true), ("onSaveInstanceState", 0, 6, true), ("onPostCreate", 0, 6, true),
        ("onPostResume", 0, 6, true), ("onNewIntent", 4, 0, true), ("onConfigurationChanged", 0, 6, true),
        ("ON_CREATE", 0, 3, false), ("ON_START", 4, 6, false), ("ON_RESUME", 3, 6, false), ("ON_PAUSE", 0, 3, false),
        ("ON_STOP", 0, 3, false), ("ON_DESTROY", 0, 3, false),
        ("am_on_", 1, 4, false), ("wm_on_", 0, 3, false), ("am_proc_died", 1, 4, false), ("am_kill", 1, 7, false),
        ("has died", 4, 4, false), ("exited due to signal", 7, 7, false),
        ("moveto ", 0, 4, false), ("movefrom ", 0, 4, false), ("LifecycleOwner", 9, 0, false),
        // Android's evidence (docs/lifecycle.md#android-evidence). (Common trigrams such as `ng ` or `d i` in a crowded
        // bucket once made the positions to verify eight times as many, and the verification half of a lint's instructions.)
        ("LeakCanary", 1, 5, false), ("Leaking: ", 1, 5, false), ("LEAKS", 2, 0, false), ("UNREACHABLE OBJECTS", 2, 6, false),
        ("Watching instance", 7, 5, false), ("garbage collected", 3, 5, false), ("HEAP ANALYSIS", 5, 6, false),
        ("├─ ", 3, 4, false), ("╰→ ", 0, 6, false), ("┬───", 3, 4, false), ("│ ", 0, 6, false),
        ("; instances=", 9, 7, false), ("Displayed ", 6, 1, false), ("TestRunner", 5, 3, false),
        ("retained objects", 5, 1, false), ("retained instances", 5, 1, false), ("objects retained", 13, 1, false),
        // Android's objects and composables (docs/lifecycle.md#android-objects-and-composables) (`created` alone is not
        // read: every fingerprint of it passed a tenth more positions).
        ("onCleared", 6, 1, true), ("onDispose", 0, 6, true), ("finalize", 4, 4, false), ("DisposableEffect", 9, 7, false),
        ("LaunchedEffect", 7, 7, false),
        // Constructors printed as calls (docs/lifecycle.md#android-identity); not `Fragment()`, whose every fingerprint
        // passed 6 % more positions (`nt(` is in every `Event(`): a Fragment's constructor is read by its `init`.
        ("Activity()", 7, 0, false), ("ViewModel()", 3, 3, false),
        // A ViewModel's constructor log in capitals.
        ("INIT", 0, 3, true),
        // LeakCanary 1.x blocks published without their tag.
        ("has leaked:", 5, 5, false), ("GC ROOT", 4, 6, false), ("* references ", 3, 5, false), ("* leaks ", 3, 5, false),
        ("* Retaining: ", 6, 1, false),
        // The system's start requests (`START u0 {…}`, Android 4's `START {…}`).
        ("START u", 1, 6, false), ("START {", 1, 6, false),
    ]

    /// Built once: the tables are immutable, and scanners copy them (arrays shared, not copied).
    static let shared = CandidateLiterals()

    /// Per fingerprint byte k: which buckets accept a byte by its low and its high nibble (six
    /// 16-byte tables: low and high for byte 0, then 1, then 2), as the vector kernels read them.
    private let tableBytes: [UInt8]
    /// Every literal, grouped by fingerprint: a fingerprint's literals are `literals[slot.first..<slot.first + slot.count]`
    /// for its slot in `slots`, an open-addressing table by the fingerprint's three bytes. (Walking a bucket's literals
    /// instead cost 220 instructions a verified position on logcat: bucket 6 holds forty of Android's callbacks.)
    private let literals: [Literal]
    private let slots: [Slot]
    struct Slot {
        /// The fingerprint's three bytes as `Literal.key`; `Slot.empty` for none.
        var key: UInt32
        var first: Int32
        var count: Int32
        static let empty = UInt32.max
    }
    static let slotCount = 512
    @inline(__always)
    static func slot(of key: UInt32) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 23) & (slotCount - 1) }
    /// The literals' bytes, one after another.
    private let pool: [UInt8]
    /// Whether the bulk pass runs with AVX2 (`VectorLevel`).
    let avx2: Bool

    init(avx2: Bool = VectorLevel.avx2) {
        self.avx2 = avx2
        var lo = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: 3)
        var hi = lo
        var all: [Literal] = []
        var pool: [UInt8] = []
        for (text, offset, bucket, wordStart) in Self.table {
            let bytes = Array(text.utf8)
            for k in 0..<3 {
                let b = bytes[offset + k]
                lo[k][Int(b & 0x0F)] |= 1 << bucket
                hi[k][Int(b >> 4)] |= 1 << bucket
            }
            let key = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            all.append(Literal(key: key, fingerprint: offset, start: pool.count, count: bytes.count, wordStart: wordStart))
            pool += bytes
        }
        // A literal whose fingerprint bytes are at a position passes its bucket's nibble tests there: looking it up by
        // its fingerprint alone finds what walking the position's buckets would.
        var grouped: [Literal] = []
        var slots = [Slot](repeating: Slot(key: Slot.empty, first: 0, count: 0), count: Self.slotCount)
        for key in Set(all.map(\.key)).sorted() {
            var h = Self.slot(of: key)
            while slots[h].key != Slot.empty { h = (h + 1) & (Self.slotCount - 1) }
            let same = all.filter { $0.key == key }
            slots[h] = Slot(key: key, first: Int32(grouped.count), count: Int32(same.count))
            grouped += same
        }
        literals = grouped
        self.slots = slots
        self.pool = pool
        tableBytes = lo[0] + hi[0] + lo[1] + hi[1] + lo[2] + hi[2]
    }

    /// The bulk pass over `blocks` 32-byte blocks from `p` (reads `p ..< p + 32 * blocks + 34`): per
    /// block, a bit per newline and a bit per position where a fingerprint starts (the C kernels of
    /// `CVectorScan`, AVX2 where the CPU has it).
    @inline(__always)
    func masks(_ p: UnsafePointer<UInt8>, blocks: Int, newlines: UnsafeMutablePointer<UInt32>, hits: UnsafeMutablePointer<UInt32>) {
        tableBytes.withUnsafeBufferPointer {
            if avx2 {
                vclint_teddy_masks_avx2(p, blocks, $0.baseAddress!, newlines, hits)
            } else {
                vclint_teddy_masks_ssse3(p, blocks, $0.baseAddress!, newlines, hits)
            }
        }
    }

    /// Whether a literal whose fingerprint may start at `position` (a hit of the bulk pass) really
    /// occurs within `buffer[0..<end]`: the literals of the position's three bytes, looked up by them (a literal's
    /// fingerprint passes its bucket's nibble tests, so this finds what the buckets would). Reads up to `position + 2`.
    func verify(_ buffer: UnsafePointer<UInt8>, at position: Int, end: Int) -> Bool {
        let b0 = buffer[position], b1 = buffer[position + 1], b2 = buffer[position + 2]
        let key = UInt32(b0) | UInt32(b1) << 8 | UInt32(b2) << 16
        return slots.withUnsafeBufferPointer { table in
            var h = Self.slot(of: key)
            while table[h].key != key {
                if table[h].key == Slot.empty { return false }
                h = (h &+ 1) & (Self.slotCount - 1)
            }
            let first = Int(table[h].first), count = Int(table[h].count)
            return literals.withUnsafeBufferPointer { lits in
                pool.withUnsafeBufferPointer { bytes in
                    for k in first..<(first + count) {
                        let literal = lits[k]
                        let start = position - literal.fingerprint
                        guard start >= 0, start + literal.count <= end else { continue }
                        if literal.wordStart, start > 0, ByteCursor.isWord(buffer[start - 1]) { continue }
                        if bytesEqual(bytes.baseAddress! + literal.start, buffer + start, literal.count) { return true }
                    }
                    return false
                }
            }
        }
    }
}

/// The candidate search of the vector path over one window of 32-byte blocks (at most `blocks`: 64 KiB
/// of input, whose masks stay in L1): the bulk pass marks each block's newlines and fingerprint
/// hits, the hits are verified, and both become lists of positions in the window, so that the
/// scanner walks the lines by their ends (no branch per block, none that depends on how many lines
/// a block holds).
struct VectorWindow {
    static var blocks: Int { 2048 }
    private let literals = CandidateLiterals.shared
    private let newlineMasks: UnsafeMutablePointer<UInt32> = .allocate(capacity: Self.blocks + 1)
    private let hitMasks: UnsafeMutablePointer<UInt32> = .allocate(capacity: Self.blocks + 1)
    /// The window's line ends and verified literals, as positions in the window (`mark`).
    let lineEnds: UnsafeMutablePointer<Int32> = .allocate(capacity: 32 * Self.blocks + 2)
    let literalHits: UnsafeMutablePointer<Int32> = .allocate(capacity: 32 * Self.blocks)
    /// The window's 64-byte pairs that have fingerprint hits.
    private let hitPairs: UnsafeMutablePointer<Int32> = .allocate(capacity: Self.blocks / 2 + 1)
    /// Whether the window's kernels are the AVX2 ones (the envelope shapes' too: `EnvelopeTemplate.run`).
    var avx2: Bool { literals.avx2 }

    func deallocate() {
        newlineMasks.deallocate()
        hitMasks.deallocate()
        lineEnds.deallocate()
        literalHits.deallocate()
        hitPairs.deallocate()
    }

    /// Marks the `blocks` blocks of `buffer[window..<end]` (the last may run past `end`): how many
    /// line ends it holds (in `lineEnds`) and how many literals (in `literalHits`).
    @inline(__always)
    func mark(_ buffer: UnsafePointer<UInt8>, window: Int, end: Int, blocks: Int) -> (lines: Int, hits: Int) {
        literals.masks(buffer + window, blocks: blocks, newlines: newlineMasks, hits: hitMasks)
        if end - window < 32 * blocks {
            // The last block runs past the data: drop what its tail marked.
            let valid = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(end - window - 32 * (blocks - 1))) &- 1)
            newlineMasks[blocks - 1] &= valid
            hitMasks[blocks - 1] &= valid
        }
        if blocks & 1 != 0 { newlineMasks[blocks] = 0; hitMasks[blocks] = 0 }
        // The masks read as 64-bit pairs: the line ends, and the pairs that have fingerprint hits.
        var withHits = 0
        let lines = vclint_line_ends(UnsafeRawPointer(newlineMasks).assumingMemoryBound(to: UInt64.self),
                                     UnsafeRawPointer(hitMasks).assumingMemoryBound(to: UInt64.self),
                                     (blocks + 1) / 2, lineEnds, hitPairs, &withHits)
        // The fingerprint hits that are literals (they are rare).
        var hits = 0
        let pairMasks = UnsafeRawPointer(hitMasks)
        for k in 0..<withHits {
            let b = Int(hitPairs[k])
            var h = pairMasks.load(fromByteOffset: 8 &* b, as: UInt64.self)
            while h != 0 {
                let at = 64 &* b &+ h.trailingZeroBitCount
                if literals.verify(buffer, at: window + at, end: end) {
                    literalHits[hits] = Int32(truncatingIfNeeded: at)
                    hits &+= 1
                }
                h &= h &- 1
            }
        }
        return (lines, hits)
    }
}

/// Which vector kernels the scanner uses, from what the CPU reports (`vclint_vector_features`, CPUID):
/// none below x86-64-v2 (SSSE3, SSE4.2, POPCNT; the portable path then), the SSSE3 bulk pass, or the
/// AVX2 one where the CPU and the OS support it. `VCLINT_NO_AVX2=1` forces SSSE3 (tests compare both).
enum VectorLevel {
    /// Whether the vector path runs at all.
    static let v2: Bool = vclint_vector_features() & VCLINT_VECTOR_V2 != 0
    static let avx2: Bool = {
        if let off = getenv("VCLINT_NO_AVX2"), off.pointee != 0, off.pointee != UInt8(ascii: "0") { return false }
        return vclint_vector_features() & VCLINT_VECTOR_AVX2 != 0
    }()
}
#endif
