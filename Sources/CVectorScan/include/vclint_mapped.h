// Mapped windows of a regular file for the line scanner (VCLintCore's `MappedInput.swift`), guarded
// against SIGBUS: a file truncated while it is mapped makes a read of its lost pages fault, and the
// guard's handler maps zero pages there instead and marks the window, so the scanner can stop with
// an error rather than the process dying. Faults elsewhere get the action SIGBUS had before.
#ifndef VCLINT_MAPPED_H
#define VCLINT_MAPPED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The size of a page, the unit a window's offset is a multiple of.
size_t vclint_page_size(void);

/// Maps `length` bytes of `fd` from `offset` (a multiple of the page size) read-only, advises
/// sequential reading and registers the window with the SIGBUS guard (installed on first use).
/// Returns the address and the window's guard slot in `slot`, or NULL (errno set; ENOSPC when
/// every slot is taken) when the file cannot be mapped: the caller reads it instead.
const uint8_t *vclint_map_window(int fd, int64_t offset, size_t length, int *slot);

/// How many reads of the window in `slot` have faulted (its file shrank under it): the pages from a
/// fault on read as zeros.
int vclint_window_faults(int slot);

/// Gives back the whole pages below `p + length` from the one `p` is in (read, not needed again:
/// the window is read in order) so that they stop counting in the process's resident memory; the
/// page cache keeps them.
void vclint_window_release(const uint8_t *p, size_t length);

/// Unregisters and unmaps the window.
void vclint_unmap_window(const uint8_t *p, size_t length, int slot);

#ifdef __cplusplus
}
#endif

#endif
