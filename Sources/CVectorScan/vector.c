// The line scanner's vector kernels: see include/vclint_vector.h.
#include "vclint_vector.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define V2 __attribute__((target("ssse3,sse4.1,sse4.2,popcnt")))
#define AVX2 __attribute__((target("avx2,ssse3,sse4.1,sse4.2,popcnt")))

int vclint_vector_features(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned v2 = bit_SSSE3 | bit_SSE4_1 | bit_SSE4_2 | bit_POPCNT;
    if ((c & v2) != v2) return 0;
    int features = VCLINT_VECTOR_V2;
    // AVX2: the CPU has it (leaf 7) and the OS saves the XMM and YMM state (XCR0 bits 1 and 2).
    if ((c & bit_OSXSAVE) && (c & bit_AVX) && __get_cpuid_max(0, 0) >= 7) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        (void)hi;
        unsigned a7, b7, c7, d7;
        __cpuid_count(7, 0, a7, b7, c7, d7);
        if ((lo & 6) == 6 && (b7 & bit_AVX2)) features |= VCLINT_VECTOR_AVX2;
    }
    return features;
}

static inline V2 __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }

/// The buckets that may match at each of the 16 positions from `p` (reads `p ..< p + 18`).
static inline V2 __m128i fingerprints16(const uint8_t *p, const __m128i t[6]) {
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i m = _mm_set1_epi8((char)0xFF);
    for (int k = 0; k < 3; k++) {
        __m128i v = load16(p + k);
        __m128i lo = _mm_shuffle_epi8(t[2 * k], _mm_and_si128(v, nibble));
        __m128i hi = _mm_shuffle_epi8(t[2 * k + 1], _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
        m = _mm_and_si128(m, _mm_and_si128(lo, hi));
    }
    return m;
}

static inline V2 uint32_t equal16(__m128i v, __m128i byte) {
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, byte));
}

static inline V2 uint32_t nonzero16(__m128i v) {
    return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xFFFF;
}

V2 void vclint_teddy_masks_ssse3(const uint8_t *p, intptr_t blocks, const uint8_t *tables,
                                 uint32_t *newlines, uint32_t *hits) {
    __m128i t[6];
    for (int k = 0; k < 6; k++) t[k] = load16(tables + 16 * k);
    const __m128i newline = _mm_set1_epi8('\n');
    for (intptr_t i = 0; i < blocks; i++, p += 32) {
        __m128i v0 = load16(p), v1 = load16(p + 16);
        newlines[i] = equal16(v0, newline) | equal16(v1, newline) << 16;
        hits[i] = nonzero16(fingerprints16(p, t)) | nonzero16(fingerprints16(p + 16, t)) << 16;
    }
}

AVX2 void vclint_teddy_masks_avx2(const uint8_t *p, intptr_t blocks, const uint8_t *tables,
                                  uint32_t *newlines, uint32_t *hits) {
    __m256i t[6];
    for (int k = 0; k < 6; k++) t[k] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(tables + 16 * k)));
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i newline = _mm256_set1_epi8('\n');
    const __m256i zero = _mm256_setzero_si256();
    for (intptr_t i = 0; i < blocks; i++, p += 32) {
        __m256i f = _mm256_set1_epi8((char)0xFF), v0 = zero;
        for (int k = 0; k < 3; k++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(p + k));
            if (k == 0) v0 = v;
            __m256i lo = _mm256_shuffle_epi8(t[2 * k], _mm256_and_si256(v, nibble));
            __m256i hi = _mm256_shuffle_epi8(t[2 * k + 1], _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            f = _mm256_and_si256(f, _mm256_and_si256(lo, hi));
        }
        newlines[i] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, newline));
        hits[i] = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(f, zero));
    }
}

V2 intptr_t vclint_line_ends(const uint64_t *newlines, const uint64_t *hits, intptr_t pairs,
                             int32_t *ends, int32_t *hit_pairs, intptr_t *with_hits) {
    // Two ends are written per word whether it has them or not (the next word overwrites what it
    // lacked), and a word's number whether it has hits or not, so most words cost no branch.
    intptr_t lines = 0, hitCount = 0;
    for (intptr_t b = 0; b < pairs; b++) {
        uint64_t nl = newlines[b];
        const int32_t at = (int32_t)(64 * b);
        const int count = __builtin_popcountll(nl);
        ends[lines] = at | (nl ? __builtin_ctzll(nl) : 64);
        nl &= nl - 1;
        ends[lines + 1] = at | (nl ? __builtin_ctzll(nl) : 64);
        if (count > 2) {
            nl &= nl - 1;
            intptr_t k = lines + 2;
            while (nl) {
                ends[k++] = at | __builtin_ctzll(nl);
                nl &= nl - 1;
            }
        }
        lines += count;
        hit_pairs[hitCount] = (int32_t)b;
        hitCount += hits[b] != 0;
    }
    *with_hits = hitCount;
    return lines;
}

/// The bytes of 16-byte chunk `k` of the line that go over the shape's limit (zero where none does).
static inline V2 __m128i over16(const uint8_t *p, const vclint_shape *s, intptr_t k) {
    return _mm_subs_epu8(_mm_sub_epi8(load16(p + 16 * k), load16(s->base + 16 * k)), load16(s->limit + 16 * k));
}

/// Whether the byte at the shape's level (if it has one) is a logcat level letter.
static inline bool level_letter(const vclint_shape *s, const uint8_t *p) {
    if (s->level < 0) return true;
    switch (p[s->level]) {
    case 'V': case 'D': case 'I': case 'W': case 'E': case 'F': case 'A': return true;
    default: return false;
    }
}

/// The first chunk alone first (a line of another shape mostly differs there), then the others together: one test of
/// all their bytes over the limit, not one per chunk.
static inline V2 bool matches(const vclint_shape *s, const uint8_t *p, intptr_t n) {
    if (n < s->extent) return false;
    __m128i over = over16(p, s, 0);
    if (!_mm_testz_si128(over, over)) return false;
    for (intptr_t k = 1; k < s->chunks; k++) over = _mm_or_si128(over, over16(p, s, k));
    return _mm_testz_si128(over, over) && level_letter(s, p);
}

V2 bool vclint_shape_matches(const vclint_shape *shape, const uint8_t *p, intptr_t n) {
    return matches(shape, p, n);
}

/// `vclint_shape_run`'s loop, one shape test (`test`) per line.
#define SHAPE_RUN(test)                                                                 \
    intptr_t s = *line_start, i = from;                                                 \
    const intptr_t extent = shape->extent;                                              \
    for (; i < to; i++) {                                                               \
        const intptr_t e = window + ends[i];                                            \
        if (e > hit || s >= sample_at) break;                                           \
        intptr_t n = e - s;                                                             \
        /* A carriage return only matters to a line exactly as long as the shape. */    \
        if (n == extent && n > 0 && buffer[s + n - 1] == '\r') n -= 1;                  \
        if (!test(shape, buffer + s, n)) break;                                         \
        s = e + 1;                                                                      \
    }                                                                                   \
    *line_start = s;                                                                    \
    return i;

V2 intptr_t vclint_shape_run(const vclint_shape *shape, const uint8_t *buffer, const int32_t *ends,
                             intptr_t from, intptr_t to, intptr_t window, intptr_t *line_start,
                             intptr_t hit, intptr_t sample_at) {
    SHAPE_RUN(matches)
}

/// `matches` with 32-byte chunks: an NSLog or `log show` envelope (50 to 60 bytes) in two, not four.
static inline AVX2 bool matches32(const vclint_shape *s, const uint8_t *p, intptr_t n) {
    if (n < s->extent) return false;
    __m256i over = _mm256_setzero_si256();
    for (intptr_t k = 0; k < (s->extent + 31) / 32; k++) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
        const __m256i base = _mm256_loadu_si256((const __m256i *)(s->base + 32 * k));
        const __m256i limit = _mm256_loadu_si256((const __m256i *)(s->limit + 32 * k));
        over = _mm256_or_si256(over, _mm256_subs_epu8(_mm256_sub_epi8(v, base), limit));
    }
    return _mm256_testz_si256(over, over) && level_letter(s, p);
}

AVX2 intptr_t vclint_shape_run_avx2(const vclint_shape *shape, const uint8_t *buffer, const int32_t *ends,
                                    intptr_t from, intptr_t to, intptr_t window, intptr_t *line_start,
                                    intptr_t hit, intptr_t sample_at) {
    SHAPE_RUN(matches32)
}

#else

int vclint_vector_features(void) { return 0; }

#endif
