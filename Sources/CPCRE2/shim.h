#ifndef VCLINT_CPCRE2_SHIM_H
#define VCLINT_CPCRE2_SHIM_H
#include <stddef.h>
#include <string.h>
// PCRE2 needs the code unit width before its header; vclint works on raw bytes (8-bit).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#if defined(__APPLE__)
// Darwin's libc has memmem (declared in <string.h>) but no memrchr.
static inline const void *vclint_memmem(const void *hay, size_t haylen, const void *needle, size_t needlelen) {
    return memmem(hay, haylen, needle, needlelen);
}
static inline const void *vclint_memrchr(const void *s, int c, size_t n) {
    const unsigned char *p = (const unsigned char *)s + n;
    while (n-- > 0) {
        if (*--p == (unsigned char)c) return p;
    }
    return NULL;
}
#else
// glibc's memmem/memrchr are GNU extensions that the Glibc module does not declare. Defining
// _GNU_SOURCE here would change system structs (fd_set) under other modules, so declare them.
void *memmem(const void *haystack, size_t haylen, const void *needle, size_t needlelen);
void *memrchr(const void *s, int c, size_t n);

static inline const void *vclint_memmem(const void *hay, size_t haylen, const void *needle, size_t needlelen) {
    return memmem(hay, haylen, needle, needlelen);
}
static inline const void *vclint_memrchr(const void *s, int c, size_t n) {
    return memrchr(s, c, n);
}
#endif
#endif
