#ifndef DOSSIER_JPEG_INTERNAL_H
#define DOSSIER_JPEG_INTERNAL_H
// Shared plumbing of jpeg_codec.c and jpeg_transform.c: one "session" owns a libjpeg
// decompressor and compressor, turns libjpeg's errors and corrupt-data warnings into a
// longjmp back to jpeg_session_run, and releases everything on every path.

#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <jpeglib.h>
#include "dossier_common.h"

typedef struct {
    /// First member, so a libjpeg cinfo->err pointer leads back to its session.
    struct jpeg_error_mgr err;
    jmp_buf escape;
    dossier_status *status;
    /// Stands in when the caller passes no status, so failures are still seen.
    dossier_status own_status;
    struct jpeg_progress_mgr progress;
    struct jpeg_decompress_struct src;
    struct jpeg_compress_struct dst;
    /// Where the compressor's bytes go (see jpeg_session_open_output).
    dossier_growable output;
} jpeg_session;

typedef void (*jpeg_session_body)(jpeg_session *session, void *task);

/// Runs `body` with libjpeg's error handling in place, then destroys both codecs and frees
/// the output buffer (unless the body handed it over). Returns the status code.
/// The session lives in the caller's frame, not in the function that calls setjmp, so the
/// body's changes to it stay well defined after a longjmp.
int jpeg_session_run(jpeg_session *session, dossier_status *status, jpeg_session_body body, void *task);

/// Records a failure and unwinds to jpeg_session_run.
_Noreturn void jpeg_session_abort(jpeg_session *session, int code, const char *format, ...);

/// Creates the decompressor over `data`, optionally saving every APPn and COM marker, and
/// reads the header (no pixel or coefficient memory yet).
void jpeg_session_read_header(jpeg_session *session, const uint8_t *data, size_t size, int keep_markers);

/// Refuses pictures above DOSSIER_MAX_PIXELS; call right after the header, before any
/// coefficient or pixel allocation.
void jpeg_session_check_limits(jpeg_session *session);

/// Header facts of the decompressor's picture (after jpeg_session_read_header).
void jpeg_describe_source(const struct jpeg_decompress_struct *src, dossier_jpeg_info *info);

/// Creates the compressor, writing into session->output.
void jpeg_session_open_output(jpeg_session *session);

/// Finishes the compressor, then the decompressor if there is one (last: its image pool
/// holds the coefficients and saved markers the compressor reads, and finishing it checks
/// the input up to EOI), and hands the encoded bytes to `out`.
void jpeg_session_finish_output(jpeg_session *session, dossier_buffer *out);

#endif
