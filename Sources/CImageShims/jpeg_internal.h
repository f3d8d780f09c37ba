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

/// A picture to read: `size` bytes at `data`, or (data NULL) the file open as `fd`.
typedef struct {
    const uint8_t *data;
    size_t size;
    int fd;
} jpeg_input;

struct scratch_region;

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
    /// Where the compressor's bytes go (see jpeg_session_open_output), unless output_fd is a file.
    dossier_growable output;
    /// The file the compressor writes to; -1 (the default) for `output`.
    int output_fd;
    /// What the decoder reads.
    jpeg_input input;
    /// Where the decoder stopped: just past the source's EOI once jpeg_session_finish_input ran.
    size_t image_end;
    /// Whether jpeg_session_finish_output appends the source's bytes after its EOI.
    int carry_trailing;
    /// A folder for scratch files (jpeg_session_use_scratch), or -1: everything in memory.
    int scratch_folder;
    /// libjpeg's realize_virt_arrays of the decoder [0] and compressor [1], called by ours.
    void (*library_realize[2])(j_common_ptr);
    /// Every scratch region of the session, released with it (or with their codec).
    struct scratch_region *scratch_regions;
    /// libjpeg's alloc_large of the decoder, when the session counts its large blocks (it keeps
    /// markers), and how many it has handed out.
    void *(*library_alloc_large)(j_common_ptr, int, size_t);
    unsigned large_blocks;
    /// The source's APPn and COM segments in file order, when the session keeps markers (see
    /// jpeg_session_read_header), and the last of them. They live in the decoder's permanent pool,
    /// gone with the decoder: libjpeg's own saved-marker list is freed by jpeg_finish_decompress,
    /// which the pixel path calls (letting go of the decoder's coefficients) before the compressor
    /// may write a marker.
    jpeg_saved_marker_ptr markers;
    jpeg_saved_marker_ptr last_marker;
    /// Corrupt-data warnings (data that ends early, a damaged scan) are counted and kept, not
    /// fatal: set only to learn whether a damaged file still decodes, never when writing pixels.
    int tolerate_damage;
    /// Set once jpeg_read_header returned: what follows is the scan (see on_message).
    int header_read;
} jpeg_session;

typedef void (*jpeg_session_body)(jpeg_session *session, void *task);

/// Runs `body` with libjpeg's error handling in place, then destroys both codecs and frees
/// the output buffer (unless the body handed it over). Returns the status code.
/// The session lives in the caller's frame, not in the function that calls setjmp, so the
/// body's changes to it stay well defined after a longjmp.
int jpeg_session_run(jpeg_session *session, dossier_status *status, jpeg_session_body body, void *task);

/// Records a failure and unwinds to jpeg_session_run.
_Noreturn void jpeg_session_abort(jpeg_session *session, int code, const char *format, ...);

/// Creates the decompressor over `input`, optionally keeping every APPn and COM marker segment
/// (session->markers, whole, up to the source's EOI), and reads the header (no pixel or
/// coefficient memory yet).
void jpeg_session_read_header(jpeg_session *session, jpeg_input input, int keep_markers);

/// Destroys the decompressor once it has given all it holds (its picture, its markers), so its
/// memory and scratch files go before the encoding begins.
void jpeg_session_release_input(jpeg_session *session);

/// Reads the rest of the source up to its EOI (jpeg_finish_decompress) and notes where it ends.
void jpeg_session_finish_input(jpeg_session *session);

/// Refuses pictures above DOSSIER_MAX_PIXELS; call right after the header, before any
/// coefficient or pixel allocation.
void jpeg_session_check_limits(jpeg_session *session);

/// Header facts of the decompressor's picture (after jpeg_session_read_header).
void jpeg_describe_source(const struct jpeg_decompress_struct *src, dossier_jpeg_info *info);

/// Creates the compressor, writing into session->output.
void jpeg_session_open_output(jpeg_session *session);

/// Finishes the compressor, then the decompressor if there is one (last: its image pool
/// holds the coefficients and saved markers the compressor reads, and finishing it checks
/// the input up to EOI), appends the source's trailing bytes when asked, and hands the encoded
/// bytes to `out` (when they are not written to output_fd).
void jpeg_session_finish_output(jpeg_session *session, dossier_buffer *out);

// Scratch files (jpeg_scratch.c): for pictures too large to hold, libjpeg's whole-picture
// coefficient arrays and the pixel path's picture live in scratch files (see dossier_scratch).

/// Keeps the session's large arrays in scratch files in `folder` from now on; call before the
/// codecs are created.
void jpeg_session_use_scratch(jpeg_session *session, int folder);
/// Called right after a codec is created: puts the scratch hooks on its memory manager.
void jpeg_session_hook_memory(jpeg_session *session, j_common_ptr cinfo);
/// Whether the session keeps its large arrays in scratch files.
int jpeg_session_uses_scratch(const jpeg_session *session);
/// Rows of blocks (JBLOCKROW, one per row) over a new scratch file, released with `owner`.
JBLOCKROW *jpeg_scratch_block_rows(jpeg_session *session, j_common_ptr owner, JDIMENSION blocks_per_row,
                                   JDIMENSION rows, struct scratch_region **region);
/// Rows of samples over a new scratch file, released with `owner`.
JSAMPARRAY jpeg_scratch_sample_rows(jpeg_session *session, j_common_ptr owner, size_t row_bytes, JDIMENSION rows,
                                    struct scratch_region **region);
/// The block at (row, column) of a mapped block region.
JCOEFPTR jpeg_scratch_block_at(struct scratch_region *region, JDIMENSION row, JDIMENSION column);
/// Counts bytes used through a region (see dossier_scratch_touch); `region` may be NULL (memory).
void jpeg_scratch_touch(struct scratch_region *region, size_t bytes);
/// Lets go of every resident page of a region (its contents stay in the file).
void jpeg_scratch_let_go(struct scratch_region *region);
/// The region a virtual block array lives in, or NULL when libjpeg holds it.
struct scratch_region *jpeg_scratch_region_of(jpeg_session *session, jvirt_barray_ptr array);
/// Lets go of the regions of `owner` (every region when NULL).
void jpeg_session_release_scratch(jpeg_session *session, j_common_ptr owner);

#endif
