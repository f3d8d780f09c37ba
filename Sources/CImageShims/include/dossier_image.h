#ifndef DOSSIER_IMAGE_H
#define DOSSIER_IMAGE_H
// The one place where libjpeg's and libpng's setjmp/longjmp error handling lives.
// Swift cannot call setjmp, and a longjmp through Swift frames is undefined behaviour,
// so every call into those libraries that can fail goes through a function here.
// Each returns 0 on success, non-zero on failure, and fills a dossier_status with the
// library's own message.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DOSSIER_MESSAGE_MAX 256

typedef struct {
    /// 0 on success; otherwise one of DOSSIER_ERR_*.
    int code;
    /// The failing library's own message (or ours, for limits), NUL-terminated.
    char message[DOSSIER_MESSAGE_MAX];
    /// Number of warnings the library gave and we tolerated.
    int warning_count;
    /// The first tolerated warning's message, NUL-terminated ("" if none).
    char warning[DOSSIER_MESSAGE_MAX];
} dossier_status;

enum {
    DOSSIER_OK = 0,
    /// The library refused the data (corrupt, truncated, unsupported); message says why.
    DOSSIER_ERR_DECODE = 1,
    /// The picture is larger than DOSSIER_MAX_PIXELS or a dimension is zero.
    DOSSIER_ERR_LIMIT = 2,
    /// Out of memory or an encoder failure.
    DOSSIER_ERR_ENCODE = 3,
    /// A caller mistake (bad orientation, lossless requested on an unaligned picture...).
    DOSSIER_ERR_ARGUMENT = 4,
};

/// Pictures above this many pixels are refused before any pixel memory is allocated
/// (a hostile header may claim 65535x65535).
#define DOSSIER_MAX_PIXELS (150u * 1000u * 1000u)

/// The most bytes of metadata taken from a photo: one EXIF block, one ICC profile, or a HEIF's
/// metadata items together. Their sizes come from the file (a HEIF's iloc lengths, its colr box),
/// so a hostile file can claim gigabytes. A real iPhone's EXIF block is tens of KiB and ICC
/// profiles run from a few KiB to a few MiB: 16 MiB leaves room for any real one.
#define DOSSIER_MAX_METADATA_SIZE (16u << 20)

/// A malloc'd byte buffer owned by the caller; release with dossier_buffer_free.
typedef struct {
    uint8_t *data;
    size_t size;
} dossier_buffer;

void dossier_buffer_free(dossier_buffer *buffer);

// ---------------------------------------------------------------------------------
// JPEG (libjpeg-turbo)
// ---------------------------------------------------------------------------------

typedef struct {
    int width;
    int height;
    int components;
    /// J_COLOR_SPACE of the stored data (JCS_GRAYSCALE=1, JCS_YCbCr=3, JCS_CMYK=4, JCS_YCCK=5, JCS_RGB=2).
    int color_space;
    int h_samp[4];
    int v_samp[4];
    /// Size of one MCU in pixels (max_h_samp * 8, max_v_samp * 8; 8x8 for one component).
    int mcu_width;
    int mcu_height;
    int progressive;
    int arithmetic;
    int precision;
} dossier_jpeg_info;

/// Reads the header only (no entropy decoding).
int dossier_jpeg_read_info(const uint8_t *data, size_t size, dossier_jpeg_info *info, dossier_status *status);

/// Entropy-decodes every coefficient (no IDCT): proves the file is whole without the cost of a full decode.
/// Premature end of data and corrupt-data warnings fail; extraneous bytes between markers are tolerated
/// (counted as a warning), as real scanners write them.
int dossier_jpeg_validate(const uint8_t *data, size_t size, dossier_status *status);
/// Whether a file dossier_jpeg_validate refused still decodes, as viewers show it: corrupt-data
/// warnings (data that ends early, a damaged scan) are counted, the first kept in `status->warning`;
/// only a hard error (no picture at all) fails. Never used to write pixels.
int dossier_jpeg_decodes_damaged(const uint8_t *data, size_t size, dossier_status *status);

enum {
    /// Lossless whenever the edges the transform moves are whole MCUs, else pixel path.
    DOSSIER_JPEG_AUTO = 0,
    /// Fail with DOSSIER_ERR_ARGUMENT unless lossless is possible.
    DOSSIER_JPEG_LOSSLESS_ONLY = 1,
    /// Always decode, turn and re-encode.
    DOSSIER_JPEG_PIXELS_ONLY = 2,
};

/// Turns a JPEG upright for an EXIF orientation (1..8; 1 copies the coefficients unchanged).
///   1 none, 2 flip left-right, 3 rotate 180, 4 flip top-bottom, 5 transpose,
///   6 rotate 90 clockwise, 7 transverse, 8 rotate 270 clockwise.
/// Lossless path: DCT coefficients are moved (jpegtran's rules), never trimmed.
/// Pixel path: decode in the stored colour space (no colour conversion), turn, re-encode with
/// the source's quantisation tables (transposed when the transform transposes) and chroma
/// sampling (h/v swapped when it transposes), same precision, baseline/progressive kept.
/// All APPn and COM markers are kept whole and in order on both paths (JFIF and Adobe ones
/// included, never doubled by the encoder's own; any after the first scan join the others before
/// the frame), except that when `exif_app1` is non-NULL the first APP1 that starts with
/// "Exif\0\0" is replaced by it (payload including "Exif\0\0"; at most 65533 bytes). What
/// follows the source's end-of-image marker (a motion photo's video, whose offsets count from the
/// end of the file) follows the new one unchanged. `used_lossless` (may be NULL) receives 1 for
/// the coefficient path.
int dossier_jpeg_orient(const uint8_t *data, size_t size, int orientation,
                        const uint8_t *exif_app1, size_t exif_app1_size,
                        int mode, dossier_buffer *out, int *used_lossless, dossier_status *status);

// Pictures too large to hold in memory (their file, their coefficients or their pixels) are
// read from a file descriptor (with pread, from offset 0, never moving its offset), written to
// another, and keep what they need whole in unlinked scratch files in `scratch_folder` (an open
// folder descriptor: the library's staging folder), mapped a part at a time. Same results,
// byte for byte, as the in-memory calls; failures to read, write or make room name the reason.

/// dossier_jpeg_read_info of the file open as `fd`.
int dossier_jpeg_read_info_file(int fd, dossier_jpeg_info *info, dossier_status *status);
/// dossier_jpeg_validate of the file open as `fd`.
int dossier_jpeg_validate_file(int fd, int scratch_folder, dossier_status *status);
/// dossier_jpeg_decodes_damaged of the file open as `fd`.
int dossier_jpeg_decodes_damaged_file(int fd, int scratch_folder, dossier_status *status);
/// dossier_jpeg_orient of the file open as `fd`, written to `out_fd` (bytes after the source's
/// end-of-image marker included, as dossier_jpeg_orient does).
int dossier_jpeg_orient_file(int fd, int orientation, const uint8_t *exif_app1, size_t exif_app1_size, int mode,
                             int out_fd, int scratch_folder, int *used_lossless, dossier_status *status);

/// Full decode to interleaved 8-bit RGB (grayscale and CMYK converted), for tests and previews.
int dossier_jpeg_decode_rgb(const uint8_t *data, size_t size, dossier_buffer *rgb,
                            int *width, int *height, dossier_status *status);

/// Encodes interleaved 8-bit RGB as baseline YCbCr with the given quality and luma sampling
/// (h_samp x v_samp: 2x2 = 4:2:0, 2x1 = 4:2:2, 1x1 = 4:4:4; chroma is 1x1).
/// `app1` (may be NULL) is written as an APP1 marker payload right after SOI/JFIF, and `icc`
/// (may be NULL) as APP2 ICC_PROFILE markers after it.
int dossier_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                            int h_samp, int v_samp, const uint8_t *app1, size_t app1_size,
                            const uint8_t *icc, size_t icc_size, dossier_buffer *out, dossier_status *status);

/// DCT coefficients of one JPEG, for tests that prove a lossless transform.
typedef struct {
    int components;
    int width_in_blocks[4];
    int height_in_blocks[4];
    /// Per component: width_in_blocks*height_in_blocks blocks in raster order, 64 coefficients
    /// each in natural (row-major) order. malloc'd; freed by dossier_jpeg_coefficients_free.
    int16_t *blocks[4];
    /// Quantisation table of each component, natural order.
    uint16_t quant[4][64];
} dossier_jpeg_coefficients;

int dossier_jpeg_read_coefficients(const uint8_t *data, size_t size,
                                   dossier_jpeg_coefficients *out, dossier_status *status);
void dossier_jpeg_coefficients_free(dossier_jpeg_coefficients *coefficients);

// ---------------------------------------------------------------------------------
// PNG (libpng)
// ---------------------------------------------------------------------------------

typedef struct {
    int width;
    int height;
    int bit_depth;
    /// PNG_COLOR_TYPE_*: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
    int color_type;
    int interlaced;
    /// tIME chunk (UTC), has_time = 0 when absent.
    int has_time;
    int year, month, day, hour, minute, second;
} dossier_png_info;

/// Inflates zlib data (a compressed PNG text chunk) to at most `max_size` bytes; more fails.
int dossier_inflate(const uint8_t *data, size_t size, size_t max_size, dossier_buffer *out, dossier_status *status);
/// Whether a PNG dossier_png_inspect refused because its data ends early still decodes, as
/// viewers show it: 0 when at least one row decodes before the data ends, with what is missing in
/// `status->warning`; any other fault (a bad CRC, a missing IHDR) fails. Never used to write pixels.
int dossier_png_decodes_damaged(const uint8_t *data, size_t size, dossier_status *status);
// The same, of a large photo's file.
int dossier_png_decodes_damaged_file(int fd, dossier_status *status);
/// Decodes the whole file (every row, every chunk CRC) to prove it is valid, and returns its
/// header facts, its tIME, and the raw TIFF payload of its eXIf chunk in `exif` (size 0 when
/// absent; the caller frees it). Hostile chunk lengths fail without large allocations.
int dossier_png_inspect(const uint8_t *data, size_t size, dossier_png_info *info,
                        dossier_buffer *exif, dossier_status *status);

/// Turns a PNG upright for an EXIF orientation (2..8; see dossier_jpeg_orient). Keeps bit depth,
/// colour type, interlacing, palette, tRNS, and every ancillary chunk (iCCP, sRGB, gAMA, cHRM,
/// sBIT, bKGD, pHYs, tEXt/zTXt/iTXt, tIME, sPLT, hIST, unknown chunks...). When `exif` is non-NULL
/// the eXIf chunk's payload (raw TIFF, no "Exif\0\0") is replaced by it.
int dossier_png_orient(const uint8_t *data, size_t size, int orientation,
                       const uint8_t *exif, size_t exif_size,
                       dossier_buffer *out, dossier_status *status);

/// dossier_png_inspect of the file open as `fd`.
int dossier_png_inspect_file(int fd, dossier_png_info *info, dossier_buffer *exif, dossier_status *status);
/// dossier_png_orient of the file open as `fd`, written to `out_fd`.
int dossier_png_orient_file(int fd, int orientation, const uint8_t *exif, size_t exif_size,
                            int out_fd, int scratch_folder, dossier_status *status);

/// Decodes to unpacked samples for tests: 1, 2 and 4 bit samples are expanded to one byte
/// each (values unchanged, not scaled); 16-bit samples stay two bytes, big-endian; palette
/// images give indices. `pixel_bytes` receives bytes per pixel; rows are width*pixel_bytes.
int dossier_png_decode_raw(const uint8_t *data, size_t size, dossier_buffer *pixels,
                           dossier_png_info *info, int *pixel_bytes, dossier_status *status);

/// Encodes unpacked samples (layout as dossier_png_decode_raw gives) for tests. `palette`
/// (RGB triples, may be NULL) for colour type 3; `exif` (raw TIFF, may be NULL) as an eXIf chunk;
/// `text_key`/`text_value` (may be NULL) as a tEXt chunk.
int dossier_png_encode_raw(const uint8_t *pixels, int width, int height, int bit_depth,
                           int color_type, int interlaced,
                           const uint8_t *palette, int palette_entries,
                           const uint8_t *exif, size_t exif_size,
                           const char *text_key, const char *text_value,
                           dossier_buffer *out, dossier_status *status);

// ---------------------------------------------------------------------------------
// HEIF / HEIC (libheif)
// ---------------------------------------------------------------------------------
// Each call reads the bytes in memory (`data`, `size`; not copied) or, when `path` is not NULL,
// the file at `path`. The primary image is the one read: its width and height are as
// displayed, after the container's transforms (clap, irot, imir, in the file's order).
// libheif's own message names what it refused.

typedef struct {
    int width;
    int height;
    int has_alpha;
    /// Bits per luma sample (8, 10, 12).
    int bit_depth;
    int top_level_images;
    /// The size of an EXIF item too large to take (over DOSSIER_MAX_METADATA_SIZE), left out;
    /// 0 when there is none or it was taken.
    size_t exif_left_out;
} dossier_heif_info;

/// Opens the file and reads the primary image's facts, its EXIF item (as stored: usually a
/// 4-byte offset to the TIFF header, then the TIFF structure) and its raw ICC profile; either
/// buffer is empty when there is none, or when it is larger than DOSSIER_MAX_METADATA_SIZE
/// (left out, with a warning in `status`). Decodes nothing.
int dossier_heif_inspect(const uint8_t *data, size_t size, const char *path, dossier_heif_info *info,
                         dossier_buffer *exif, dossier_buffer *icc, dossier_status *status);

/// Decodes the primary image to interleaved 8-bit RGB, or RGBA when it has alpha (`channels`
/// says which), with the container's transforms applied unless `apply_transformations` is 0.
/// `decoding_threads`: threads libheif may use for a grid's tiles (0: the calling thread).
int dossier_heif_decode(const uint8_t *data, size_t size, const char *path, int apply_transformations,
                        int decoding_threads, dossier_buffer *pixels, int *width, int *height, int *channels,
                        dossier_status *status);

/// Decodes the primary image with its transforms applied and encodes it as a baseline 4:4:4 JPEG
/// of the given quality, with `exif_app1` (may be NULL: payload including "Exif\0\0") and the
/// image's ICC profile (left out past DOSSIER_MAX_METADATA_SIZE). Fails with DOSSIER_ERR_ARGUMENT for a picture with alpha.
int dossier_heif_render_jpeg(const uint8_t *data, size_t size, const char *path, int decoding_threads, int quality,
                             const uint8_t *exif_app1, size_t exif_app1_size, dossier_buffer *out, int *width,
                             int *height, dossier_status *status);

// ---------------------------------------------------------------------------------
// EXIF (libexif's memory)
// ---------------------------------------------------------------------------------

/// An allocator for libexif (exif_mem_new): calloc, realloc and free, counted against the
/// calling thread's budget between dossier_exif_budget_begin and _end; unlimited outside.
void *dossier_exif_alloc(uint32_t size);
void *dossier_exif_realloc(void *block, uint32_t size);
void dossier_exif_free(void *block);
/// From now until dossier_exif_budget_end, this thread's dossier_exif_alloc and _realloc fail
/// (return NULL) once they would hand out more than `bytes` in all.
void dossier_exif_budget_begin(size_t bytes);
void dossier_exif_budget_end(void);

// ---------------------------------------------------------------------------------
// Camera raws (LibRaw)
// ---------------------------------------------------------------------------------

/// What LibRaw reads of a raw without decoding it.
typedef struct {
    /// LibRaw's turn (sizes.flip): bit 1 flips left-right, bit 2 top-bottom, bit 4 transposes;
    /// 0 upright, 3 half a turn, 5 a quarter counter-clockwise, 6 a quarter clockwise.
    int flip;
} dossier_raw_facts;

/// A raw's embedded preview: a JPEG as the camera wrote it, or 8-bit RGB.
typedef struct {
    int is_jpeg;
    /// The preview's size (0 for some JPEGs: read it from the JPEG).
    int width;
    int height;
    dossier_buffer pixels;
} dossier_raw_picture;

/// Reads a raw (in memory, data and size, or when `path` is not NULL that file), its facts, and
/// takes out its largest embedded preview, as it is stored (not turned).
int dossier_raw_preview(const uint8_t *data, size_t size, const char *path, dossier_raw_facts *facts,
                        dossier_raw_picture *picture, dossier_status *status);

// ---------------------------------------------------------------------------------
// Renditions of TIFF, BMP and JPEG XL (libvips, loaded when first asked for)
// ---------------------------------------------------------------------------------

/// Whether libvips can be used; if not, `status` says why (not installed, too old).
int dossier_vips_available(dossier_status *status);
/// The picture's width and height, from its header alone; one past DOSSIER_MAX_PIXELS fails
/// (DOSSIER_ERR_LIMIT), before any of its pixels are read. Asked before dossier_vips_render.
int dossier_vips_size(const uint8_t *data, size_t size, const char *path, int *width, int *height, dossier_status *status);
/// The picture in memory (data, size) or at `path`, upright by its orientation tag, in sRGB, at
/// full size: a JPEG of `quality`, or a PNG (`is_png`) when it has alpha. A load warning (data
/// that ends early) fails it. `width` and `height` are the rendition's.
int dossier_vips_render(const uint8_t *data, size_t size, const char *path, int quality, dossier_buffer *out,
                        int *is_png, int *width, int *height, dossier_status *status);
/// Encodes 8-bit RGB in the format libvips saves for a file name suffix (".jxl", ".tif"): for
/// tests that need pictures in formats no other library here writes.
int dossier_vips_encode_rgb(const uint8_t *rgb, int width, int height, const char *suffix, dossier_buffer *out,
                            dossier_status *status);

// ---------------------------------------------------------------------------------
// Thumbnails (thumbnail.c; libvips' in vips_codec.c)
// ---------------------------------------------------------------------------------
// Each makes a baseline JPEG of `quality` (4:4:4 where Dossier encodes it), its longest side `longest` (never larger than the
// picture), upright, with no metadata; `width` and `height` are the thumbnail's. A picture that
// does not decode cleanly (data that ends early) fails, with the decoder's message.

/// From the JPEG open as `fd` (read with pread), decoded at the smallest of libjpeg's 1/8, 1/4
/// and 1/2 scales that keeps the longest side at least `longest`, then averaged down to it, and
/// turned by its EXIF Orientation. A progressive picture's coefficients go to scratch files in
/// `scratch_folder` when it is not -1.
int dossier_jpeg_thumbnail_file(int fd, int scratch_folder, int longest, int quality, dossier_buffer *out, int *width,
                                int *height, dossier_status *status);
/// From a PNG of any bit depth and colour type, transparency shown against white.
int dossier_png_thumbnail(const uint8_t *data, size_t size, int longest, int quality, dossier_buffer *out, int *width,
                          int *height, dossier_status *status);
/// Through libvips' vips_thumbnail (shrink-on-load, Lanczos), from any picture it reads: the
/// first frame of a GIF or an animated WebP.
int dossier_vips_thumbnail(const uint8_t *data, size_t size, int longest, int quality, dossier_buffer *out, int *width,
                           int *height, dossier_status *status);

#ifdef __cplusplus
}
#endif
#endif
