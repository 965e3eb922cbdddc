// Mapped windows and their SIGBUS guard: see vclint_mapped.h.
#include "vclint_mapped.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/// One mapped window per scanning thread: more threads than slots read their files with read(2).
#define SLOTS 64

typedef struct window_slot {
    _Atomic uintptr_t start;  // 0: free
    _Atomic uintptr_t end;
    _Atomic int faults;
} window_slot;

static window_slot slots[SLOTS];
static struct sigaction previous;
static size_t page;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static bool guarded;

size_t vclint_page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/// A fault in a registered window: its pages from the fault on become zero pages, and the read is
/// retried. Any other: the action SIGBUS had before the guard, by restoring it and returning, so the
/// fault happens again under it (the default kills the process, as without the guard).
static void on_sigbus(int sig, siginfo_t *info, void *context) {
    uintptr_t addr = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t start = atomic_load_explicit(&slots[i].start, memory_order_acquire);
        uintptr_t end = atomic_load_explicit(&slots[i].end, memory_order_acquire);
        if (start == 0 || addr < start || addr >= end) continue;
        uintptr_t from = addr & ~(uintptr_t)(page - 1);
        void *zeros = mmap((void *)from, end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        atomic_fetch_add_explicit(&slots[i].faults, 1, memory_order_acq_rel);
        return;
    }
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) { previous.sa_sigaction(sig, info, context); return; }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    signal(SIGBUS, SIG_DFL);
}

static void install(void) {
    page = vclint_page_size();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    guarded = sigaction(SIGBUS, &action, &previous) == 0;
}

const uint8_t *vclint_map_window(int fd, int64_t offset, size_t length, int *slot) {
    pthread_once(&installed, install);
    if (!guarded || length == 0) { errno = ENOTSUP; return NULL; }
    int claimed = -1;
    for (int i = 0; i < SLOTS && claimed < 0; i++) {
        uintptr_t free = 0;
        // A placeholder start claims the slot until the mapping's address is known.
        if (atomic_compare_exchange_strong(&slots[i].start, &free, (uintptr_t)1)) claimed = i;
    }
    if (claimed < 0) { errno = ENOSPC; return NULL; }
    void *p = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, (off_t)offset);
    if (p == MAP_FAILED) {
        int e = errno;
        atomic_store(&slots[claimed].start, 0);
        errno = e;
        return NULL;
    }
#ifdef MADV_SEQUENTIAL
    madvise(p, length, MADV_SEQUENTIAL);
#endif
    atomic_store(&slots[claimed].faults, 0);
    atomic_store(&slots[claimed].end, (uintptr_t)p + length);
    atomic_store(&slots[claimed].start, (uintptr_t)p);
    *slot = claimed;
    return p;
}

int vclint_window_faults(int slot) {
    return atomic_load_explicit(&slots[slot].faults, memory_order_acquire);
}

void vclint_window_release(const uint8_t *p, size_t length) {
    uintptr_t from = (uintptr_t)p & ~(uintptr_t)(page - 1);
    uintptr_t to = ((uintptr_t)p + length) & ~(uintptr_t)(page - 1);
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}

void vclint_unmap_window(const uint8_t *p, size_t length, int slot) {
    atomic_store(&slots[slot].start, 0);
    atomic_store(&slots[slot].end, 0);
    munmap((void *)p, length);
}
