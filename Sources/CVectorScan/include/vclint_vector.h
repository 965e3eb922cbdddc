// The line scanner's vector kernels (VCLintCore's `LogScanner`, `CandidateLiterals`, `EnvelopeTemplate`).
//
// Each x86-64 kernel carries its own instruction set (`__attribute__((target(...)))`), so the package
// needs no compiler flag: the rest of vclint is built for the baseline x86-64, and the scanner picks a
// kernel at run time from what the CPU reports (`vclint_vector_features`), as ripgrep and Hyperscan
// dispatch. On other architectures only `vclint_vector_features` exists (it returns 0) and the scanner
// takes its portable path.
#ifndef VCLINT_VECTOR_H
#define VCLINT_VECTOR_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// SSSE3, SSE4.1, SSE4.2 and POPCNT: the x86-64-v2 level every vector kernel needs.
#define VCLINT_VECTOR_V2 1
/// AVX2 with the OS saving the YMM registers: the 32-byte bulk pass.
#define VCLINT_VECTOR_AVX2 2
/// What the CPU (and, for AVX2, the operating system) supports, as `VCLINT_VECTOR_*` bits.
int vclint_vector_features(void);

/// The bytes of one envelope shape (`EnvelopeTemplate`): a line has the shape when, for each of its
/// first `extent` bytes, `(byte - base[i])` saturating-minus `limit[i]` is zero (unsigned, per byte).
/// Bytes past `extent` have limit 0xFF. `chunks` is `(extent + 15) / 16`, 1...8. When `level` is not
/// negative, the byte there must also be a logcat level letter (`V D I W E F A`).
#define VCLINT_SHAPE_WIDTH 128
typedef struct vclint_shape {
    uint8_t base[VCLINT_SHAPE_WIDTH];
    uint8_t limit[VCLINT_SHAPE_WIDTH];
    intptr_t extent;
    intptr_t chunks;
    intptr_t level;
} vclint_shape;

#if defined(__x86_64__)
/// The bulk pass over `blocks` 32-byte blocks from `p` (reads `p ..< p + 32 * blocks + 2`): per block,
/// a bit per newline (`newlines`) and a bit per position where one of the Teddy fingerprints may start
/// (`hits`). `tables` holds six 16-byte nibble tables: low and high nibble for fingerprint bytes 0, 1, 2.
/// Needs `VCLINT_VECTOR_V2`.
void vclint_teddy_masks_ssse3(const uint8_t *p, intptr_t blocks, const uint8_t *tables,
                              uint32_t *newlines, uint32_t *hits);
/// The same with 256-bit vectors. Needs `VCLINT_VECTOR_AVX2`.
void vclint_teddy_masks_avx2(const uint8_t *p, intptr_t blocks, const uint8_t *tables,
                             uint32_t *newlines, uint32_t *hits);

/// A window's line ends from the bulk pass's newline masks read as `pairs` 64-bit words: writes the
/// position of every newline (relative to the window) to `ends` (two entries of slack past the last),
/// and to `hit_pairs` the numbers of the words whose `hits` word is nonzero. Returns the number of
/// ends; `*with_hits` receives the number of such words. Needs `VCLINT_VECTOR_V2`.
intptr_t vclint_line_ends(const uint64_t *newlines, const uint64_t *hits, intptr_t pairs,
                          int32_t *ends, int32_t *hit_pairs, intptr_t *with_hits);

/// Whether the line at `p` (length `n`, with `VCLINT_SHAPE_WIDTH` bytes readable) has `shape`.
/// Needs `VCLINT_VECTOR_V2`.
bool vclint_shape_matches(const vclint_shape *shape, const uint8_t *p, intptr_t n);

/// The scanner's hot loop: from line `from` (it starts at `*line_start`; `ends` are window-relative
/// positions of the line breaks, `window` the window's start), the lines that have `shape`, start
/// before `sample_at` and end at or before `hit`. Returns the first line that does not, with
/// `*line_start` moved to it. A carriage return before the newline is dropped from a line exactly as
/// long as the shape. Needs `VCLINT_VECTOR_V2`.
intptr_t vclint_shape_run(const vclint_shape *shape, const uint8_t *buffer, const int32_t *ends,
                          intptr_t from, intptr_t to, intptr_t window, intptr_t *line_start,
                          intptr_t hit, intptr_t sample_at);
/// The same with 256-bit vectors (the shape read 32 bytes at a time). Needs `VCLINT_VECTOR_AVX2`.
intptr_t vclint_shape_run_avx2(const vclint_shape *shape, const uint8_t *buffer, const int32_t *ends,
                               intptr_t from, intptr_t to, intptr_t window, intptr_t *line_start,
                               intptr_t hit, intptr_t sample_at);
#endif

#ifdef __cplusplus
}
#endif

#endif
