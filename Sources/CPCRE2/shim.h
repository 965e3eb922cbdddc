#ifndef VCLINT_CPCRE2_SHIM_H
#define VCLINT_CPCRE2_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <string.h>
#include <stddef.h>
// PCRE2 needs the code unit width before its header; vclint works on raw bytes (8-bit).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

// glibc's memmem/memrchr are GNU extensions the Glibc module does not export.
static inline const void *vclint_memmem(const void *hay, size_t haylen, const void *needle, size_t needlelen) {
    return memmem(hay, haylen, needle, needlelen);
}
static inline const void *vclint_memrchr(const void *s, int c, size_t n) {
    return memrchr(s, c, n);
}
#endif
