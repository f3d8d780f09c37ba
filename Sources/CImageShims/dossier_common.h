#ifndef DOSSIER_COMMON_H
#define DOSSIER_COMMON_H
// Helpers shared by the JPEG and PNG shims; not part of the public header.
#include "dossier_image.h"
#include <stdarg.h>
#include <sys/types.h>

/// Clears a status before a call fills it.
void dossier_status_reset(dossier_status *status);
/// Records a failure (the first one wins) with a printf-style message.
void dossier_status_fail(dossier_status *status, int code, const char *format, ...);
/// Records a tolerated warning: counts it and keeps the first message.
void dossier_status_warn(dossier_status *status, const char *message);

/// dossier_jpeg_encode_rgb of rows `stride` bytes apart (a decoder's plane, encoded where it lies).
int dossier_jpeg_encode_rgb_rows(const uint8_t *rgb, size_t stride, int width, int height, int quality,
                                 int h_samp, int v_samp, const uint8_t *app1, size_t app1_size,
                                 const uint8_t *icc, size_t icc_size, dossier_buffer *out, dossier_status *status);

/// A growable malloc'd byte buffer for encoders that write in pieces.
typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
} dossier_growable;

/// Appends bytes; on allocation failure sets `failed` and returns 0.
int dossier_growable_append(dossier_growable *buffer, const void *bytes, size_t count);
/// Hands the bytes to a dossier_buffer (which then owns them).
void dossier_growable_finish(dossier_growable *buffer, dossier_buffer *out);
void dossier_growable_free(dossier_growable *buffer);

/// Room for what a picture too large to hold in memory needs whole: its DCT coefficients or
/// its pixels. A file in the scratch folder (the library's staging folder), unlinked from the
/// start so that nothing is left behind whatever happens, its blocks reserved up front (a full
/// disk fails here, cleanly, not as a SIGBUS on a page later), mapped into memory. Its pages
/// are the kernel's page cache: the mapping lets go of those it holds each time
/// DOSSIER_SCRATCH_RESIDENT more bytes were touched, so the process keeps at most about that
/// much of it resident, and the kernel writes the rest back to the file when memory is short.
typedef struct {
    int fd;
    uint8_t *base;
    size_t size;
    /// Bytes touched since the mapping last let go of its pages.
    size_t touched;
} dossier_scratch;

#define DOSSIER_SCRATCH_RESIDENT ((size_t)32 << 20)

/// Creates a zero-filled scratch file of `size` bytes in the folder open as `folder`; on
/// failure fills `status` (DOSSIER_ERR_ENCODE, with the system's reason) and returns 0.
int dossier_scratch_open(dossier_scratch *scratch, int folder, size_t size, dossier_status *status);
/// Counts bytes read or written through the mapping; lets go of its pages past the limit.
/// Addresses stay valid: a page let go is mapped again, from the page cache, when next used.
void dossier_scratch_touch(dossier_scratch *scratch, size_t bytes);
/// Lets go of every resident page now (after reading across the file, where bytes touched say
/// little about the pages mapped).
void dossier_scratch_let_go(dossier_scratch *scratch);
void dossier_scratch_close(dossier_scratch *scratch);

/// Reads `count` bytes at `offset` of the file open as `fd`, retrying short reads; returns the
/// bytes read (fewer only at the end of the file) or -1 with errno set.
ssize_t dossier_pread_fully(int fd, void *buffer, size_t count, uint64_t offset);
/// Writes all `count` bytes to `fd`; returns 0, or -1 with errno set.
int dossier_write_fully(int fd, const void *buffer, size_t count);
#endif
