#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The scanner's bulk pass with 256-bit vectors: for each 32-byte block, a bit per newline and a bit
/// per position where a candidate literal's three-byte fingerprint may start (the Teddy tables of
/// `CandidateLiterals`). This module alone is compiled for AVX2; VCLintCore calls it only on a CPU
/// that has AVX2 (`VectorLevel`), so the binary still runs on any x86-64-v2 machine.
public enum TeddyAVX2 {
    /// `tables`: six 16-byte nibble tables (low, high) for fingerprint bytes 0, 1 and 2. Reads
    /// `p ..< p + 32 * blocks + 2`; writes `blocks` masks to `newlines` and to `hits`.
    @inline(never)
    public static func masks(_ p: UnsafePointer<UInt8>, blocks: Int, tables: UnsafePointer<UInt8>,
                             newlines: UnsafeMutablePointer<UInt32>, hits: UnsafeMutablePointer<UInt32>) {
        func table(_ k: Int) -> __m256i {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(UnsafeRawPointer(tables + 16 * k).assumingMemoryBound(to: __m128i.self)))
        }
        let lo0 = table(0), hi0 = table(1), lo1 = table(2), hi1 = table(3), lo2 = table(4), hi2 = table(5)
        let nibble = _mm256_set1_epi8(0x0F)
        let newline = _mm256_set1_epi8(0x0A)
        let zero = _mm256_setzero_si256()
        @inline(__always) func load(_ q: UnsafePointer<UInt8>) -> __m256i {
            _mm256_loadu_si256(UnsafeRawPointer(q).assumingMemoryBound(to: __m256i.self))
        }
        @inline(__always) func lookup(_ v: __m256i, _ lo: __m256i, _ hi: __m256i) -> __m256i {
            _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
                             _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)))
        }
        var q = p
        for i in 0..<blocks {
            let v0 = load(q), v1 = load(q + 1), v2 = load(q + 2)
            let f = _mm256_and_si256(_mm256_and_si256(lookup(v0, lo0, hi0), lookup(v1, lo1, hi1)), lookup(v2, lo2, hi2))
            newlines[i] = UInt32(truncatingIfNeeded: _mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, newline)))
            hits[i] = ~UInt32(truncatingIfNeeded: _mm256_movemask_epi8(_mm256_cmpeq_epi8(f, zero)))
            q += 32
        }
    }
}
#endif
