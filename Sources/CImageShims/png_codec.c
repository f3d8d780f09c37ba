// The libpng half of the shim: inspect, orient, and the raw decode/encode used by tests.
//
// Every libpng call that can fail runs inside a function that called setjmp(png_jmpbuf(...))
// first. Such a function keeps all of its mutable state in a struct owned by its caller
// (reached through a pointer it never reassigns), so nothing it changes after setjmp is a
// local of its own and no `volatile` is needed; the caller frees everything afterwards,
// whichever way the function returned.
#include "dossier_common.h"
#include <errno.h>
#include <png.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
    // Per-side ceiling, refused before libpng sees the header (libpng gets it too, as a backstop).
    MAX_DIMENSION = 1000000,
    // Largest chunk, and largest decompressed zTXt/iTXt/iCCP, libpng should allocate. Beyond
    // it, inspect fails; the tolerant readers warn and drop a compressed or stored chunk (see
    // chunks_fit for what keeps the other chunks in bounds there).
    CHUNK_MALLOC_MAX = 16 * 1024 * 1024,
    // How many text, sPLT and unknown chunks libpng stores before dropping further ones.
    CHUNK_CACHE_MAX = 1000,
    COMPRESSION_LEVEL = 6,
    // Bytes read from, or gathered before a write to, a file at a time.
    IO_CHUNK = 65536,
    // Rows turned at a time in memory: a few rows of scratch, whatever the picture's size.
    BAND_ROWS = 16,
    // Bytes of rows turned at a time into a scratch file: each band writes a little of every
    // turned row, so larger bands bring each page of the file in fewer times.
    SCRATCH_BAND_BYTES = 32 * 1024 * 1024,
};

// ---------------------------------------------------------------------------------------
// Input: bytes in memory, or a file read with pread
// ---------------------------------------------------------------------------------------

typedef struct {
    const uint8_t *data; // NULL for a file
    size_t size;
    int fd;
} png_input;

// Reads up to `count` bytes at `offset`; returns how many (fewer at the end), or -1.
static ssize_t input_read_at(const png_input *input, size_t offset, void *out, size_t count) {
    if (input->data == NULL) return dossier_pread_fully(input->fd, out, count, offset);
    if (offset >= input->size) return 0;
    size_t available = input->size - offset < count ? input->size - offset : count;
    memcpy(out, input->data + offset, available);
    return (ssize_t)available;
}

// Ancillary chunks orient copies byte for byte instead of through libpng's parsers: none of
// them depends on the pixel geometry, and a raw copy keeps exactly what the file had (text
// compression, an ICC profile libpng's checks would drop, no gAMA/cHRM synthesised from
// sRGB). Whatever orient must change or libpng must understand (PLTE, tRNS, pHYs, sCAL,
// eXIf) is read the ordinary way.
static const png_byte RAW_CHUNKS[] =
    "bKGD\0cHRM\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0sBIT\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";
#define RAW_CHUNK_COUNT ((int)(sizeof RAW_CHUNKS / 5))

// Text chunks, which nothing but orient's raw copy uses. Parsed, each zTXt or iTXt inflates to
// as much as CHUNK_MALLOC_MAX and libpng keeps up to CHUNK_CACHE_MAX of them: 16 GB of text from
// a 16 MB file. The other readers skip them unparsed (their CRCs still checked).
static const png_byte TEXT_CHUNKS[] = "iTXt\0tEXt\0zTXt";
#define TEXT_CHUNK_COUNT ((int)(sizeof TEXT_CHUNKS / 5))

// ---------------------------------------------------------------------------------------
// Status and I/O callbacks
// ---------------------------------------------------------------------------------------

// Where a png struct's error and warning callbacks report.
typedef struct {
    dossier_status *status;
    // What a libpng error means here: DOSSIER_ERR_DECODE on a reader, _ENCODE on a writer.
    int error_code;
} shim_report;

static void PNGCBAPI report_error(png_structp png, png_const_charp message) {
    shim_report *report = png_get_error_ptr(png);
    dossier_status_fail(report->status, report->error_code, "%s", message);
    png_longjmp(png, 1);
}

static void PNGCBAPI report_warning(png_structp png, png_const_charp message) {
    shim_report *report = png_get_error_ptr(png);
    dossier_status_warn(report->status, message);
}

static int fail_out_of_memory(dossier_status *status) {
    dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory");
    return 0;
}

// ---------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------

static int dimensions_allowed(uint64_t width, uint64_t height, dossier_status *status) {
    if (width == 0 || height == 0 || width > MAX_DIMENSION || height > MAX_DIMENSION
        || width * height > DOSSIER_MAX_PIXELS) {
        dossier_status_fail(status, DOSSIER_ERR_LIMIT,
                            "picture is %llux%llu; at most %u pixels and %u per side are allowed",
                            (unsigned long long)width, (unsigned long long)height,
                            DOSSIER_MAX_PIXELS, (unsigned)MAX_DIMENSION);
        return 0;
    }
    return 1;
}

// Checks IHDR's dimensions straight from the bytes so that an empty or oversized picture is
// DOSSIER_ERR_LIMIT (libpng would report it as a generic "Invalid IHDR data"). libpng insists
// that IHDR comes first, so these are the dimensions it will use.
static int header_dimensions_allowed(const png_byte *head, size_t size, dossier_status *status) {
    if (size < 24 || memcmp(head + 12, "IHDR", 4) != 0) return 1;
    return dimensions_allowed(png_get_uint_32(head + 16), png_get_uint_32(head + 20), status);
}

// libpng 1.6.39 only raises a benign error (a warning, when benign errors are tolerated) for a
// chunk longer than CHUNK_MALLOC_MAX, then allocates and clears the length the chunk claims
// before reading it. The input's size is known, so a chunk claiming more bytes than remain
// is refused here instead: no chunk libpng allocates can then exceed the input's own size.
static int chunks_fit(const png_input *input, dossier_status *status) {
    size_t size = input->size, offset = 8;
    png_byte header[8];
    if (size < offset) return 1;
    while (size - offset >= 8) {
        if (input_read_at(input, offset, header, 8) != 8) {
            dossier_status_fail(status, DOSSIER_ERR_DECODE, "cannot read the file: %s",
                                errno != 0 ? strerror(errno) : "it became shorter");
            return 0;
        }
        size_t length = png_get_uint_32(header);
        if (length > size - offset - 8 || size - offset - 8 - length < 4) {
            dossier_status_fail(status, DOSSIER_ERR_DECODE,
                                "%.4s: chunk of %zu bytes runs past the end of the data",
                                (const char *)header + 4, length);
            return 0;
        }
        if (memcmp(header + 4, "IEND", 4) == 0) break;
        offset += 12 + length;
    }
    return 1;
}

// Refuses what must not reach libpng; anything else malformed is left for libpng to report.
static int screen(const png_input *input, dossier_status *status) {
    png_byte head[24];
    errno = 0;
    ssize_t got = input_read_at(input, 0, head, sizeof head);
    if (got < 0) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "cannot read the file: %s", strerror(errno));
        return 0;
    }
    if (got < 8 || png_sig_cmp(head, 0, 8) != 0) return 1;
    return header_dimensions_allowed(head, (size_t)got, status) && chunks_fit(input, status);
}

// ---------------------------------------------------------------------------------------
// Pixel planes
// ---------------------------------------------------------------------------------------

// A whole picture of unpacked samples: rows of width * pixel_bytes, contiguous; in memory, or
// for a large picture in a scratch file (`store`).
typedef struct {
    png_uint_32 width;
    png_uint_32 height;
    size_t pixel_bytes;
    png_bytep pixels;
    png_bytepp rows;
    int in_scratch;
    dossier_scratch store;
} pixel_plane;

// Counts bytes used through a plane in a scratch file (see dossier_scratch_touch).
static void plane_touch(pixel_plane *plane, size_t bytes) {
    if (plane->in_scratch) dossier_scratch_touch(&plane->store, bytes);
}

// Row pointers into `pixels`, as libpng's whole-image calls want them; NULL when out of memory.
static png_bytepp rows_over(png_bytep pixels, png_uint_32 height, size_t row_bytes) {
    png_bytepp rows = malloc((size_t)height * sizeof *rows);
    if (rows == NULL) return NULL;
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * row_bytes;
    return rows;
}

// In memory, or in a scratch file in `scratch_folder` when it is not -1.
static int plane_alloc(pixel_plane *plane, png_uint_32 width, png_uint_32 height,
                       size_t pixel_bytes, int scratch_folder, dossier_status *status) {
    // width * height is at most DOSSIER_MAX_PIXELS and pixel_bytes at most 8.
    size_t row_bytes = (size_t)width * pixel_bytes;
    plane->width = width;
    plane->height = height;
    plane->pixel_bytes = pixel_bytes;
    if (scratch_folder >= 0) {
        if (!dossier_scratch_open(&plane->store, scratch_folder, row_bytes * height, status)) return 0;
        plane->in_scratch = 1;
        plane->pixels = plane->store.base;
    } else {
        plane->pixels = malloc(row_bytes * height);
    }
    if (plane->pixels == NULL) return fail_out_of_memory(status);
    plane->rows = rows_over(plane->pixels, height, row_bytes);
    if (plane->rows == NULL) return fail_out_of_memory(status);
    return 1;
}

static void plane_free(pixel_plane *plane) {
    free(plane->rows);
    if (plane->in_scratch) {
        dossier_scratch_close(&plane->store);
    } else {
        free(plane->pixels);
    }
    plane->rows = NULL;
    plane->pixels = NULL;
    plane->in_scratch = 0;
}

// Where source pixel (x, y) lands for an EXIF orientation:
// output row = row0 + row_dx * x + row_dy * y, output column = col0 + col_dx * x + col_dy * y.
typedef struct {
    int64_t row0, row_dx, row_dy;
    int64_t col0, col_dx, col_dy;
} turn_map;

static turn_map turn_map_for(int orientation, png_uint_32 width, png_uint_32 height) {
    int64_t right = (int64_t)width - 1, bottom = (int64_t)height - 1;
    switch (orientation) {
    case 2: return (turn_map){0, 0, 1, right, -1, 0};       // flip left-right
    case 3: return (turn_map){bottom, 0, -1, right, -1, 0}; // rotate 180
    case 4: return (turn_map){bottom, 0, -1, 0, 1, 0};      // flip top-bottom
    case 5: return (turn_map){0, 1, 0, 0, 0, 1};            // transpose
    case 6: return (turn_map){0, 1, 0, bottom, 0, -1};      // rotate 90 clockwise
    case 7: return (turn_map){right, -1, 0, bottom, 0, -1}; // transverse
    case 8: return (turn_map){right, -1, 0, 0, 0, 1};       // rotate 270 clockwise
    default: return (turn_map){0, 0, 1, 0, 1, 0};           // 1: as stored
    }
}

static int orientation_transposes(int orientation) { return orientation >= 5; }

// Moves source row y's pixels to where the turn puts them. Whole pixels move (all samples of
// a pixel together, so 16-bit big-endian samples and unpacked 1/2/4-bit samples need no care).
static void scatter_row(const png_byte *from, png_uint_32 y, png_uint_32 width, const turn_map *map,
                        pixel_plane *turned) {
    size_t n = turned->pixel_bytes;
    int64_t row = map->row0 + map->row_dy * y, col = map->col0 + map->col_dy * y;
    for (png_uint_32 x = 0; x < width; x++, from += n) {
        memcpy(turned->rows[row] + (size_t)col * n, from, n);
        row += map->row_dx;
        col += map->col_dx;
    }
}

// Moves a band of `count` source rows, from row `first`, to where the turn puts them. A turn
// that transposes makes each source column a turned row: the band is taken column by column,
// so that each turned row is written in one short run per band rather than a pixel per source
// row (which, for a picture in a scratch file, would bring a page in for every pixel).
static void scatter_band(const png_bytep *band, png_uint_32 first, png_uint_32 count, png_uint_32 width,
                         const turn_map *map, pixel_plane *turned) {
    size_t n = turned->pixel_bytes;
    if (map->row_dx == 0) {
        for (png_uint_32 r = 0; r < count; r++) scatter_row(band[r], first + r, width, map, turned);
    } else {
        for (png_uint_32 x = 0; x < width; x++) {
            png_bytep row = turned->rows[map->row0 + map->row_dx * x];
            for (png_uint_32 r = 0; r < count; r++) {
                memcpy(row + (size_t)(map->col0 + map->col_dy * (first + r)) * n, band[r] + (size_t)x * n, n);
            }
        }
    }
    if (map->row_dx == 0) {
        plane_touch(turned, (size_t)count * width * n);
    } else if (turned->in_scratch) {
        // The band wrote a little of every turned row, mapping a page (or a larger folio) of
        // each: let go of them now, whatever the bytes count says.
        dossier_scratch_let_go(&turned->store);
    }
}

// How many rows a band holds: a few in memory; some megabytes' worth for a scratch file.
static png_uint_32 band_rows(png_uint_32 height, size_t row_bytes, int in_scratch) {
    size_t rows = in_scratch ? SCRATCH_BAND_BYTES / (row_bytes > 0 ? row_bytes : 1) : BAND_ROWS;
    if (rows < 1) rows = 1;
    return rows < height ? (png_uint_32)rows : height;
}

static int turned_plane_alloc(pixel_plane *turned, png_uint_32 width, png_uint_32 height, size_t pixel_bytes,
                              int orientation, int scratch_folder, dossier_status *status) {
    int transposes = orientation_transposes(orientation);
    return plane_alloc(turned, transposes ? height : width, transposes ? width : height, pixel_bytes,
                       scratch_folder, status);
}

static int turn_plane(pixel_plane *source, int orientation, pixel_plane *turned, int scratch_folder,
                      dossier_status *status) {
    if (!turned_plane_alloc(turned, source->width, source->height, source->pixel_bytes, orientation,
                            scratch_folder, status))
        return 0;
    turn_map map = turn_map_for(orientation, source->width, source->height);
    png_uint_32 per_band = band_rows(source->height, (size_t)source->width * source->pixel_bytes, turned->in_scratch);
    for (png_uint_32 y = 0; y < source->height; y += per_band) {
        png_uint_32 count = source->height - y < per_band ? source->height - y : per_band;
        scatter_band((const png_bytep *)source->rows + y, y, count, source->width, &map, turned);
        plane_touch(source, (size_t)count * source->width * source->pixel_bytes);
    }
    return 1;
}

// ---------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------

typedef struct {
    shim_report report;
    png_structp png;
    png_infop info; // IHDR and the chunks before IDAT
    png_infop end;  // the chunks after IDAT
    png_input input;
    size_t offset;
    // A file's bytes are read a chunk at a time into `chunk`: [chunk_used, chunk_size) are unread.
    png_bytep chunk;
    size_t chunk_used, chunk_size;
    // Where large planes go (a folder descriptor), or -1 for memory.
    int scratch_folder;
    // IHDR as stored (png_read_update_info reports unpacked depths as 8).
    png_uint_32 width, height;
    int bit_depth, color_type, interlace_type;
    pixel_plane image;
    png_bytep row;   // inspect's single row; read_turned's band of rows
    png_bytepp band; // read_turned's pointers into `row`
} shim_reader;

static void PNGCBAPI read_from_memory(png_structp png, png_bytep out, size_t length) {
    shim_reader *reader = png_get_io_ptr(png);
    if (length > reader->input.size - reader->offset) png_error(png, "unexpected end of data");
    memcpy(out, reader->input.data + reader->offset, length);
    reader->offset += length;
}

static void PNGCBAPI read_from_file(png_structp png, png_bytep out, size_t length) {
    shim_reader *reader = png_get_io_ptr(png);
    while (length > 0) {
        if (reader->chunk_used == reader->chunk_size) {
            ssize_t got = dossier_pread_fully(reader->input.fd, reader->chunk, IO_CHUNK, reader->offset);
            if (got < 0) {
                char message[DOSSIER_MESSAGE_MAX];
                snprintf(message, sizeof message, "cannot read the file: %s", strerror(errno));
                png_error(png, message);
            }
            if (got == 0) png_error(png, "unexpected end of data");
            reader->offset += (size_t)got;
            reader->chunk_used = 0;
            reader->chunk_size = (size_t)got;
        }
        size_t taken = reader->chunk_size - reader->chunk_used < length ? reader->chunk_size - reader->chunk_used
                                                                         : length;
        memcpy(out, reader->chunk + reader->chunk_used, taken);
        reader->chunk_used += taken;
        out += taken;
        length -= taken;
    }
}

static int reader_open(shim_reader *reader, png_input input, dossier_status *status) {
    memset(reader, 0, sizeof *reader);
    reader->report = (shim_report){status, DOSSIER_ERR_DECODE};
    reader->input = input;
    reader->scratch_folder = -1;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->report, report_error,
                                         report_warning);
    if (reader->png == NULL) return fail_out_of_memory(status);
    reader->info = png_create_info_struct(reader->png);
    reader->end = png_create_info_struct(reader->png);
    if (reader->info == NULL || reader->end == NULL) return fail_out_of_memory(status);
    if (input.data != NULL) {
        png_set_read_fn(reader->png, reader, read_from_memory);
    } else {
        reader->chunk = malloc(IO_CHUNK);
        if (reader->chunk == NULL) return fail_out_of_memory(status);
        png_set_read_fn(reader->png, reader, read_from_file);
    }
    return 1;
}

static void reader_close(shim_reader *reader) {
    png_destroy_read_struct(&reader->png, &reader->info, &reader->end);
    plane_free(&reader->image);
    free(reader->row);
    free(reader->band);
    free(reader->chunk);
    reader->row = NULL;
    reader->band = NULL;
    reader->chunk = NULL;
}

typedef enum {
    // inspect proves the file valid: libpng's benign errors (a misplaced, duplicated or
    // malformed ancillary chunk, an ICC profile it distrusts...) fail the read.
    READ_TO_VALIDATE,
    // Benign errors are warnings, as in most readers: such files are common and their pixels
    // are fine.
    READ_PIXELS,
    // As READ_PIXELS, and ancillary chunks are stored for copying (see RAW_CHUNKS).
    READ_TO_TURN,
} read_purpose;

// Call under the reader's setjmp: these may raise libpng errors.
static void reader_configure(shim_reader *reader, read_purpose purpose) {
    png_structp png = reader->png;
    png_set_user_limits(png, MAX_DIMENSION, MAX_DIMENSION);
    png_set_chunk_malloc_max(png, CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(png, CHUNK_CACHE_MAX);
    // A bad CRC fails the read whatever the chunk: by default libpng only warns about, and
    // drops, a damaged ancillary chunk, which would let corruption pass and lose data.
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(png, purpose != READ_TO_VALIDATE);
    // libpng would also raise a benign error for the "known incorrect" early sRGB profiles many
    // real files carry: the PNG is fine, and the profile is never used here.
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
    if (purpose == READ_TO_TURN) {
        // Unknown ancillary chunks are kept; an unknown critical chunk fails the read, since
        // the pixels may not mean what we think.
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_IF_SAFE, NULL, 0);
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, RAW_CHUNKS, RAW_CHUNK_COUNT);
    } else {
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, TEXT_CHUNKS, TEXT_CHUNK_COUNT);
    }
}

// Reads up to the first IDAT and asks for whole rows of unpacked samples; returns the number
// of interlace passes.
static int read_header(shim_reader *reader, read_purpose purpose) {
    reader_configure(reader, purpose);
    png_read_info(reader->png, reader->info);
    png_get_IHDR(reader->png, reader->info, &reader->width, &reader->height, &reader->bit_depth,
                 &reader->color_type, &reader->interlace_type, NULL, NULL);
    png_set_packing(reader->png);
    int passes = png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    return passes;
}

static size_t reader_pixel_bytes(const shim_reader *reader) {
    size_t channels = png_get_channels(reader->png, reader->info);
    return channels * (reader->bit_depth == 16 ? 2 : 1);
}

// png_read_image, a row at a time, so that a plane in a scratch file is counted as it fills.
static void read_image(shim_reader *reader, int passes) {
    size_t row_bytes = (size_t)reader->image.width * reader->image.pixel_bytes;
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < reader->height; y++) {
            png_read_row(reader->png, reader->image.rows[y], NULL);
            plane_touch(&reader->image, row_bytes);
        }
    }
}

// Decodes every row into reader->image and reads every chunk up to IEND.
static int read_whole(shim_reader *reader, read_purpose purpose) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    int passes = read_header(reader, purpose);
    if (!plane_alloc(&reader->image, reader->width, reader->height, reader_pixel_bytes(reader),
                     reader->scratch_folder, reader->report.status))
        return 0;
    read_image(reader, passes);
    png_read_end(reader->png, reader->end);
    return 1;
}

// Decodes a PNG straight into its turned plane, a band of rows at a time, so the picture is
// held once, not twice (a 12000x12000 16-bit RGBA PNG is 1.15 GB a copy). An interlaced PNG's
// rows come in seven passes that each fill in part of every row: it is read whole, then turned.
static int read_turned(shim_reader *reader, int orientation, pixel_plane *turned) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    int passes = read_header(reader, READ_TO_TURN);
    size_t pixel_bytes = reader_pixel_bytes(reader);
    if (passes > 1) {
        if (!plane_alloc(&reader->image, reader->width, reader->height, pixel_bytes, reader->scratch_folder,
                         reader->report.status))
            return 0;
        read_image(reader, passes);
        png_read_end(reader->png, reader->end);
        int turned_ok = turn_plane(&reader->image, orientation, turned, reader->scratch_folder,
                                   reader->report.status);
        plane_free(&reader->image);
        return turned_ok;
    }
    if (!turned_plane_alloc(turned, reader->width, reader->height, pixel_bytes, orientation, reader->scratch_folder,
                            reader->report.status))
        return 0;
    size_t row_bytes = png_get_rowbytes(reader->png, reader->info);
    png_uint_32 per_band = band_rows(reader->height, row_bytes, turned->in_scratch);
    reader->row = malloc(row_bytes * per_band);
    reader->band = malloc(sizeof(png_bytep) * per_band);
    if (reader->row == NULL || reader->band == NULL) return fail_out_of_memory(reader->report.status);
    png_bytepp band = reader->band;
    for (png_uint_32 r = 0; r < per_band; r++) band[r] = reader->row + (size_t)r * row_bytes;
    turn_map map = turn_map_for(orientation, reader->width, reader->height);
    for (png_uint_32 y = 0; y < reader->height; y += per_band) {
        png_uint_32 count = reader->height - y < per_band ? reader->height - y : per_band;
        for (png_uint_32 r = 0; r < count; r++) png_read_row(reader->png, band[r], NULL);
        scatter_band((const png_bytep *)band, y, count, reader->width, &map, turned);
    }
    png_read_end(reader->png, reader->end);
    return 1;
}

// Like read_whole, but decodes into one reused row: inspect only needs the proof.
static int read_through(shim_reader *reader) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    int passes = read_header(reader, READ_TO_VALIDATE);
    reader->row = malloc(png_get_rowbytes(reader->png, reader->info));
    if (reader->row == NULL) return fail_out_of_memory(reader->report.status);
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < reader->height; y++)
            png_read_row(reader->png, reader->row, NULL);
    }
    png_read_end(reader->png, reader->end);
    return 1;
}

static void describe(const shim_reader *reader, dossier_png_info *info) {
    info->width = (int)reader->width;
    info->height = (int)reader->height;
    info->bit_depth = reader->bit_depth;
    info->color_type = reader->color_type;
    info->interlaced = reader->interlace_type != PNG_INTERLACE_NONE;
    png_timep time = NULL;
    if (png_get_tIME(reader->png, reader->info, &time) == 0)
        png_get_tIME(reader->png, reader->end, &time);
    if (time != NULL) {
        info->has_time = 1;
        info->year = time->year;
        info->month = time->month;
        info->day = time->day;
        info->hour = time->hour;
        info->minute = time->minute;
        info->second = time->second;
    }
}

// The eXIf payload, wherever it was (libpng accepts it before or after IDAT); 0 when absent.
static png_uint_32 reader_exif(const shim_reader *reader, png_bytep *exif) {
    png_uint_32 size = 0;
    *exif = NULL;
    if (png_get_eXIf_1(reader->png, reader->info, &size, exif) == 0)
        png_get_eXIf_1(reader->png, reader->end, &size, exif);
    return *exif != NULL ? size : 0;
}

static int copy_to_buffer(const png_byte *bytes, size_t size, dossier_buffer *out,
                          dossier_status *status) {
    if (size == 0) return 1;
    out->data = malloc(size);
    if (out->data == NULL) return fail_out_of_memory(status);
    memcpy(out->data, bytes, size);
    out->size = size;
    return 1;
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

typedef struct {
    shim_report report;
    png_structp png;
    png_infop info; // IHDR and the chunks before IDAT
    // The chunks after IDAT. Kept apart because libpng 1.6.39's png_write_end writes the
    // eXIf chunk of the info struct it is given again, after IDAT.
    png_infop end;
    // The encoded bytes: kept in `sink`, or gathered there up to IO_CHUNK and written to `fd`.
    dossier_growable sink;
    int fd;
} shim_writer;

// Writes what `sink` gathered to the writer's file; 0 (errno set) when that fails.
static int writer_drain(shim_writer *writer) {
    if (dossier_write_fully(writer->fd, writer->sink.data, writer->sink.size) != 0) return 0;
    writer->sink.size = 0;
    return 1;
}

static void PNGCBAPI write_to_memory(png_structp png, png_bytep bytes, size_t length) {
    shim_writer *writer = png_get_io_ptr(png);
    if (!dossier_growable_append(&writer->sink, bytes, length)) png_error(png, "out of memory");
    if (writer->fd >= 0 && writer->sink.size >= IO_CHUNK && !writer_drain(writer)) {
        char message[DOSSIER_MESSAGE_MAX];
        snprintf(message, sizeof message, "cannot write the output: %s", strerror(errno));
        png_error(png, message);
    }
}

// Memory needs no flushing; libpng's default would fflush() the io pointer as a FILE *.
static void PNGCBAPI flush_nothing(png_structp png) { (void)png; }

// Writes into memory, or (fd not -1) to the file open as `fd`.
static int writer_open(shim_writer *writer, int fd, dossier_status *status) {
    memset(writer, 0, sizeof *writer);
    writer->fd = fd;
    writer->report = (shim_report){status, DOSSIER_ERR_ENCODE};
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->report, report_error,
                                          report_warning);
    if (writer->png == NULL) return fail_out_of_memory(status);
    writer->info = png_create_info_struct(writer->png);
    writer->end = png_create_info_struct(writer->png);
    if (writer->info == NULL || writer->end == NULL) return fail_out_of_memory(status);
    png_set_write_fn(writer->png, writer, write_to_memory, flush_nothing);
    return 1;
}

static void writer_close(shim_writer *writer) {
    png_destroy_info_struct(writer->png, &writer->end);
    png_destroy_write_struct(&writer->png, &writer->info);
    dossier_growable_free(&writer->sink);
}

// Call under the writer's setjmp, after every chunk is set: writes the chunks before IDAT,
// the rows (packed back to 1/2/4 bits, Adam7 if IHDR says so), and the chunks after IDAT.
// Rows one at a time, as png_write_image does, so that a plane in a scratch file (`plane`, may
// be NULL) is counted as it is read.
static void write_rows(shim_writer *writer, png_bytepp rows, png_uint_32 height, pixel_plane *plane) {
    png_set_compression_level(writer->png, COMPRESSION_LEVEL);
    png_write_info(writer->png, writer->info);
    png_set_packing(writer->png);
    int passes = png_set_interlace_handling(writer->png);
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) {
            png_write_row(writer->png, rows[y]);
            if (plane != NULL) plane_touch(plane, (size_t)plane->width * plane->pixel_bytes);
        }
    }
    png_write_end(writer->png, writer->end);
}

// An eXIf payload handed to us must be raw TIFF: readers (libpng among them) reject any other
// start.
static int exif_argument_valid(const uint8_t *exif, size_t size, dossier_status *status) {
    if (exif == NULL
        || (size >= 2 && size <= CHUNK_MALLOC_MAX
            && (memcmp(exif, "MM", 2) == 0 || memcmp(exif, "II", 2) == 0)))
        return 1;
    dossier_status_fail(status, DOSSIER_ERR_ARGUMENT,
                        "exif must be raw TIFF (starting \"MM\" or \"II\") of at most %d bytes",
                        CHUNK_MALLOC_MAX);
    return 0;
}

static void set_exif(shim_writer *writer, const uint8_t *exif, size_t size) {
    // libpng copies the bytes; its prototype just lacks the const.
    png_set_eXIf_1(writer->png, writer->info, (png_uint_32)size, (png_bytep)exif);
}

// ---------------------------------------------------------------------------------------
// Orient: copying chunks from the reader to the writer
// ---------------------------------------------------------------------------------------

static void copy_palette(const shim_reader *reader, shim_writer *writer) {
    png_colorp palette;
    int entries;
    if (png_get_PLTE(reader->png, reader->info, &palette, &entries) != 0)
        png_set_PLTE(writer->png, writer->info, palette, entries);
    png_bytep alpha;
    int count;
    png_color_16p color;
    if (png_get_tRNS(reader->png, reader->info, &alpha, &count, &color) != 0)
        png_set_tRNS(writer->png, writer->info, alpha, count, color);
}

// pHYs and sCAL describe x and y separately, so they swap when the picture transposes.
static void copy_physical_size(const shim_reader *reader, shim_writer *writer, int transposes) {
    png_uint_32 x, y;
    int unit;
    if (png_get_pHYs(reader->png, reader->info, &x, &y, &unit) != 0)
        png_set_pHYs(writer->png, writer->info, transposes ? y : x, transposes ? x : y, unit);
    png_charp width, height;
    if (png_get_sCAL_s(reader->png, reader->info, &unit, &width, &height) != 0)
        png_set_sCAL_s(writer->png, writer->info, unit, transposes ? height : width,
                       transposes ? width : height);
}

static int is_raw_chunk(const png_byte *name) {
    for (int i = 0; i < RAW_CHUNK_COUNT; i++) {
        if (memcmp(name, RAW_CHUNKS + 5 * i, 4) == 0) return 1;
    }
    return 0;
}

// The PNG rule for editors: a chunk we do not understand whose safe-to-copy bit (lowercase
// fourth letter) is clear depends on the image data, and must not be copied once the pixels
// changed; an APNG's acTL/fcTL/fdAT, for one, would describe frames that no longer fit.
// cICP (coding-independent code points) is unsafe-to-copy but only describes colour.
static int survives_turning(const png_byte *name) {
    return (name[3] & 0x20) != 0 || is_raw_chunk(name) || memcmp(name, "cICP", 4) == 0;
}

// Copies stored chunks (the raw ones and unknown ones) of one info struct; libpng 1.6 keeps
// each chunk's location (before PLTE, after PLTE, after IDAT), so they land where they were.
static void copy_stored_chunks(const shim_reader *reader, png_infop from, shim_writer *writer,
                               png_infop to) {
    png_unknown_chunkp chunks;
    int count = png_get_unknown_chunks(reader->png, from, &chunks);
    for (int i = 0; i < count; i++) {
        if (survives_turning(chunks[i].name)) {
            png_set_unknown_chunks(writer->png, to, &chunks[i], 1);
        } else {
            char message[64];
            snprintf(message, sizeof message, "dropped unsafe-to-copy chunk %.4s",
                     chunks[i].name);
            dossier_status_warn(writer->report.status, message);
        }
    }
}

static void copy_exif(const shim_reader *reader, shim_writer *writer, const uint8_t *replacement,
                      size_t replacement_size) {
    png_bytep exif;
    png_uint_32 size = reader_exif(reader, &exif);
    if (replacement != NULL) set_exif(writer, replacement, replacement_size);
    else if (size != 0) set_exif(writer, exif, size);
}

static int write_turned(shim_writer *writer, const shim_reader *reader, pixel_plane *turned,
                        int orientation, const uint8_t *exif, size_t exif_size) {
    if (setjmp(png_jmpbuf(writer->png))) return 0;
    png_set_IHDR(writer->png, writer->info, turned->width, turned->height, reader->bit_depth,
                 reader->color_type, reader->interlace_type, PNG_COMPRESSION_TYPE_BASE,
                 PNG_FILTER_TYPE_BASE);
    copy_palette(reader, writer);
    copy_physical_size(reader, writer, orientation_transposes(orientation));
    copy_exif(reader, writer, exif, exif_size);
    // The writer writes every stored chunk it is handed: copy_stored_chunks already filtered.
    png_set_keep_unknown_chunks(writer->png, PNG_HANDLE_CHUNK_ALWAYS, NULL, 0);
    copy_stored_chunks(reader, reader->info, writer, writer->info);
    copy_stored_chunks(reader, reader->end, writer, writer->end);
    write_rows(writer, turned->rows, turned->height, turned);
    return 1;
}

// ---------------------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------------------

static int inspect(png_input input, dossier_png_info *info, dossier_buffer *exif, dossier_status *status) {
    dossier_status scratch;
    if (status == NULL) status = &scratch;
    dossier_status_reset(status);
    memset(info, 0, sizeof *info);
    *exif = (dossier_buffer){NULL, 0};
    if (!screen(&input, status)) return status->code;

    shim_reader reader;
    if (reader_open(&reader, input, status) && read_through(&reader)) {
        describe(&reader, info);
        png_bytep bytes;
        png_uint_32 exif_size = reader_exif(&reader, &bytes);
        copy_to_buffer(bytes, exif_size, exif, status);
    }
    reader_close(&reader);
    if (status->code != DOSSIER_OK) memset(info, 0, sizeof *info);
    return status->code;
}

// Reads as far as the data goes, counting the rows decoded (over every interlace pass): a PNG
// cut short still shows its first rows in every viewer. Returns 1 only when it is whole.
static int read_until_it_ends(shim_reader *reader, png_uint_32 *rows, int *passes) {
    if (setjmp(png_jmpbuf(reader->png))) return 0;
    // libpng asks for image data 8 KiB at a time (on a reader, this sets that size): a byte at a
    // time, every row whose data is there decodes before the end is met. Only damaged files are
    // read so, and only once.
    png_set_compression_buffer_size(reader->png, 1);
    *passes = read_header(reader, READ_TO_VALIDATE);
    reader->row = malloc(png_get_rowbytes(reader->png, reader->info));
    if (reader->row == NULL) return fail_out_of_memory(reader->report.status);
    for (int pass = 0; pass < *passes; pass++) {
        for (png_uint_32 y = 0; y < reader->height; y++) {
            png_read_row(reader->png, reader->row, NULL);
            (*rows)++;
        }
    }
    png_read_end(reader->png, reader->end);
    return 1;
}

static int decodes_damaged(png_input input, dossier_status *status) {
    dossier_status_reset(status);
    png_byte head[24];
    if (input.size < sizeof head || input_read_at(&input, 0, head, sizeof head) != (ssize_t)sizeof head
        || png_sig_cmp(head, 0, 8) != 0) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "no PNG signature and header");
        return status->code;
    }
    if (!header_dimensions_allowed(head, sizeof head, status)) return status->code;
    shim_reader reader;
    png_uint_32 rows = 0;
    int passes = 1, whole = 0;
    if (reader_open(&reader, input, status)) whole = read_until_it_ends(&reader, &rows, &passes);
    png_uint_32 height = reader.height;
    reader_close(&reader);
    if (status->code != 0 && (rows == 0 || strstr(status->message, "unexpected end of data") == NULL)) return status->code;
    if (whole) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "it reads to its end: its fault is not that it ends early");
        return status->code;
    }
    char what[DOSSIER_MESSAGE_MAX];
    if (rows >= height * (png_uint_32)passes) {
        snprintf(what, sizeof what, "its data ends early, after its last row: all %u of its rows decode", height);
    } else if (passes > 1) {
        // Each of the seven passes fills in part of every row: the picture shows, coarse, from the first.
        snprintf(what, sizeof what, "its data ends early, in interlace pass %u of %d: %u of its %u rows decode in that pass",
                 rows / height + 1, passes, rows % height, height);
    } else {
        snprintf(what, sizeof what, "its data ends early: %u of its %u rows decode", rows, height);
    }
    dossier_status_reset(status);
    dossier_status_warn(status, what);
    return 0;
}

int dossier_png_decodes_damaged(const uint8_t *data, size_t size, dossier_status *status) {
    return decodes_damaged((png_input){data, size, -1}, status);
}

int dossier_png_decodes_damaged_file(int fd, dossier_status *status) {
    struct stat file;
    if (fstat(fd, &file) != 0) file.st_size = 0;
    return decodes_damaged((png_input){NULL, (size_t)file.st_size, fd}, status);
}

int dossier_png_inspect(const uint8_t *data, size_t size, dossier_png_info *info,
                        dossier_buffer *exif, dossier_status *status) {
    return inspect((png_input){data, size, -1}, info, exif, status);
}

int dossier_png_inspect_file(int fd, dossier_png_info *info, dossier_buffer *exif, dossier_status *status) {
    struct stat file;
    if (fstat(fd, &file) != 0) file.st_size = 0;
    return inspect((png_input){NULL, (size_t)file.st_size, fd}, info, exif, status);
}

// Turns `input` into `out` (memory) or `out_fd`, planes in `scratch_folder` unless it is -1.
static int orient(png_input input, int orientation, const uint8_t *exif, size_t exif_size,
                  dossier_buffer *out, int out_fd, int scratch_folder, dossier_status *status) {
    dossier_status scratch;
    if (status == NULL) status = &scratch;
    dossier_status_reset(status);
    if (out != NULL) *out = (dossier_buffer){NULL, 0};
    if (orientation < 1 || orientation > 8) {
        dossier_status_fail(status, DOSSIER_ERR_ARGUMENT, "orientation %d is not 1..8",
                            orientation);
        return status->code;
    }
    if (!exif_argument_valid(exif, exif_size, status) || !screen(&input, status))
        return status->code;

    shim_reader reader;
    shim_writer writer = {0};
    pixel_plane turned = {0};
    if (reader_open(&reader, input, status)) {
        reader.scratch_folder = scratch_folder;
        if (read_turned(&reader, orientation, &turned) && writer_open(&writer, out_fd, status)
            && write_turned(&writer, &reader, &turned, orientation, exif, exif_size)) {
            if (out_fd < 0) {
                dossier_growable_finish(&writer.sink, out);
            } else if (!writer_drain(&writer)) {
                dossier_status_fail(status, DOSSIER_ERR_ENCODE, "cannot write the output: %s", strerror(errno));
            }
        }
    }
    writer_close(&writer);
    plane_free(&turned);
    reader_close(&reader);
    return status->code;
}

int dossier_png_orient(const uint8_t *data, size_t size, int orientation,
                       const uint8_t *exif, size_t exif_size,
                       dossier_buffer *out, dossier_status *status) {
    return orient((png_input){data, size, -1}, orientation, exif, exif_size, out, -1, -1, status);
}

int dossier_png_orient_file(int fd, int orientation, const uint8_t *exif, size_t exif_size,
                            int out_fd, int scratch_folder, dossier_status *status) {
    struct stat file;
    if (fstat(fd, &file) != 0) file.st_size = 0;
    return orient((png_input){NULL, (size_t)file.st_size, fd}, orientation, exif, exif_size, NULL, out_fd,
                  scratch_folder, status);
}

int dossier_png_decode_raw(const uint8_t *data, size_t size, dossier_buffer *pixels,
                           dossier_png_info *info, int *pixel_bytes, dossier_status *status) {
    dossier_status scratch;
    if (status == NULL) status = &scratch;
    dossier_status_reset(status);
    *pixels = (dossier_buffer){NULL, 0};
    memset(info, 0, sizeof *info);
    *pixel_bytes = 0;
    png_input input = {data, size, -1};
    if (!screen(&input, status)) return status->code;

    shim_reader reader;
    if (reader_open(&reader, input, status) && read_whole(&reader, READ_PIXELS)) {
        describe(&reader, info);
        *pixel_bytes = (int)reader.image.pixel_bytes;
        pixels->data = reader.image.pixels;
        pixels->size = (size_t)reader.width * reader.height * reader.image.pixel_bytes;
        reader.image.pixels = NULL;
    }
    reader_close(&reader);
    return status->code;
}

// ---------------------------------------------------------------------------------------
// encode_raw
// ---------------------------------------------------------------------------------------

typedef struct {
    const uint8_t *pixels;
    png_uint_32 width, height;
    int bit_depth, color_type, interlaced;
    const uint8_t *palette;
    int palette_entries;
    const uint8_t *exif;
    size_t exif_size;
    const char *text_key, *text_value;
} raw_picture;

static int channels_of(int color_type) {
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY: case PNG_COLOR_TYPE_PALETTE: return 1;
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB: return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    default: return 0;
    }
}

static int depth_allowed(int color_type, int bit_depth) {
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY:
        return bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8
            || bit_depth == 16;
    case PNG_COLOR_TYPE_PALETTE:
        return bit_depth == 1 || bit_depth == 2 || bit_depth == 4 || bit_depth == 8;
    default:
        return channels_of(color_type) != 0 && (bit_depth == 8 || bit_depth == 16);
    }
}

// Largest sample value the layout can hold without corrupting its neighbours when packed
// (or, for palette indices, without pointing past the palette); -1 when any byte is fine.
static int largest_sample(const raw_picture *picture) {
    if (picture->color_type == PNG_COLOR_TYPE_PALETTE) return picture->palette_entries - 1;
    return picture->bit_depth < 8 ? (1 << picture->bit_depth) - 1 : -1;
}

static int raw_picture_valid(const raw_picture *picture, dossier_status *status) {
    if (picture->pixels == NULL || !depth_allowed(picture->color_type, picture->bit_depth)) {
        dossier_status_fail(status, DOSSIER_ERR_ARGUMENT,
                            "no pixels, or bit depth %d is not allowed for colour type %d",
                            picture->bit_depth, picture->color_type);
        return 0;
    }
    if (picture->color_type == PNG_COLOR_TYPE_PALETTE) {
        if (picture->palette == NULL || picture->palette_entries < 1
            || picture->palette_entries > 1 << picture->bit_depth) {
            dossier_status_fail(status, DOSSIER_ERR_ARGUMENT,
                                "a palette picture of depth %d needs 1..%d palette entries, not %d",
                                picture->bit_depth, 1 << picture->bit_depth,
                                picture->palette_entries);
            return 0;
        }
    } else if (picture->palette_entries != 0) {
        dossier_status_fail(status, DOSSIER_ERR_ARGUMENT,
                            "colour type %d takes no palette", picture->color_type);
        return 0;
    }
    if (!exif_argument_valid(picture->exif, picture->exif_size, status)) return 0;
    // Only one-sample-per-pixel layouts have a limit, so there is one sample per pixel here.
    int largest = largest_sample(picture);
    size_t samples = (size_t)picture->width * picture->height;
    for (size_t i = 0; largest >= 0 && i < samples; i++) {
        if (picture->pixels[i] > largest) {
            dossier_status_fail(status, DOSSIER_ERR_ARGUMENT,
                                "sample %zu has value %d; at most %d is allowed", i,
                                picture->pixels[i], largest);
            return 0;
        }
    }
    return 1;
}

static int write_raw(shim_writer *writer, const raw_picture *picture, png_bytepp rows) {
    if (setjmp(png_jmpbuf(writer->png))) return 0;
    png_set_IHDR(writer->png, writer->info, picture->width, picture->height, picture->bit_depth,
                 picture->color_type,
                 picture->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (picture->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < picture->palette_entries; i++) {
            palette[i] = (png_color){picture->palette[3 * i], picture->palette[3 * i + 1],
                                     picture->palette[3 * i + 2]};
        }
        png_set_PLTE(writer->png, writer->info, palette, picture->palette_entries);
    }
    if (picture->exif != NULL) set_exif(writer, picture->exif, picture->exif_size);
    if (picture->text_key != NULL) {
        // libpng copies the strings; png_text just lacks the consts.
        const char *value = picture->text_value != NULL ? picture->text_value : "";
        png_text text = {.compression = PNG_TEXT_COMPRESSION_NONE,
                         .key = (png_charp)picture->text_key,
                         .text = (png_charp)value};
        png_set_text(writer->png, writer->info, &text, 1);
    }
    write_rows(writer, rows, picture->height, NULL);
    return 1;
}

int dossier_png_encode_raw(const uint8_t *pixels, int width, int height, int bit_depth,
                           int color_type, int interlaced,
                           const uint8_t *palette, int palette_entries,
                           const uint8_t *exif, size_t exif_size,
                           const char *text_key, const char *text_value,
                           dossier_buffer *out, dossier_status *status) {
    dossier_status scratch;
    if (status == NULL) status = &scratch;
    dossier_status_reset(status);
    *out = (dossier_buffer){NULL, 0};
    if (width < 0 || height < 0) {
        dossier_status_fail(status, DOSSIER_ERR_ARGUMENT, "negative size %dx%d", width, height);
        return status->code;
    }
    if (!dimensions_allowed((uint64_t)width, (uint64_t)height, status)) return status->code;
    raw_picture picture = {pixels, (png_uint_32)width, (png_uint_32)height, bit_depth, color_type,
                           interlaced, palette, palette_entries, exif, exif_size,
                           text_key, text_value};
    if (!raw_picture_valid(&picture, status)) return status->code;

    size_t pixel_bytes = (size_t)channels_of(color_type) * (bit_depth == 16 ? 2 : 1);
    // libpng copies each row before packing or interlacing it, so the caller's pixels are
    // only read; the row pointer type just lacks the const.
    png_bytepp rows = rows_over((png_bytep)pixels, picture.height, picture.width * pixel_bytes);
    shim_writer writer = {0};
    if (rows == NULL) fail_out_of_memory(status);
    else if (writer_open(&writer, -1, status) && write_raw(&writer, &picture, rows))
        dossier_growable_finish(&writer.sink, out);
    writer_close(&writer);
    free(rows);
    return status->code;
}

int dossier_inflate(const uint8_t *data, size_t size, size_t max_size, dossier_buffer *out, dossier_status *status) {
    dossier_status_reset(status);
    *out = (dossier_buffer){NULL, 0};
    z_stream stream = {0};
    if (inflateInit(&stream) != Z_OK) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "zlib would not start");
        return status->code;
    }
    size_t capacity = size * 4 < 4096 ? 4096 : size * 4;
    if (capacity > max_size) capacity = max_size;
    out->data = malloc(capacity);
    if (out->data == NULL) {
        inflateEnd(&stream);
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory");
        return status->code;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    int result = Z_OK;
    while (result == Z_OK) {
        if (out->size == capacity) {
            // Grown as needed, never past max_size: a small chunk may claim to inflate to gigabytes.
            if (capacity == max_size) {
                dossier_status_fail(status, DOSSIER_ERR_LIMIT, "it inflates to more than %zu bytes", max_size);
                break;
            }
            size_t larger = capacity * 2 > max_size ? max_size : capacity * 2;
            uint8_t *grown = realloc(out->data, larger);
            if (grown == NULL) {
                dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory");
                break;
            }
            out->data = grown;
            capacity = larger;
        }
        stream.next_out = out->data + out->size;
        stream.avail_out = (uInt)(capacity - out->size);
        result = inflate(&stream, Z_NO_FLUSH);
        out->size = capacity - stream.avail_out;
    }
    if (status->code == 0 && result != Z_STREAM_END) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "%s", stream.msg ? stream.msg : "the data ends early");
    }
    inflateEnd(&stream);
    if (status->code != 0) dossier_buffer_free(out);
    return status->code;
}
