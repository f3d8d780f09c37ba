// dossier_jpeg_orient: turns a JPEG upright, moving DCT coefficients when the edges the turn
// moves are whole MCUs (jpegtran's rules, never trimming), else decoding, turning the pixels
// and re-encoding with the source's own tables and sampling.
#include "jpeg_internal.h"
#include <jerror.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#define MAX_APP1_PAYLOAD 65533

/// How one EXIF orientation maps a destination position back into the source: first swap
/// the axes (transposing turns), then mirror along x and/or y. The same description moves
/// pixels, whole blocks and the coefficients inside a block.
typedef struct {
    int swap;
    int mirror_x;
    int mirror_y;
} turn;

static const turn turns[9] = {
    [1] = {0, 0, 0},  // as stored
    [2] = {0, 1, 0},  // flip left-right
    [3] = {0, 1, 1},  // rotate 180
    [4] = {0, 0, 1},  // flip top-bottom
    [5] = {1, 0, 0},  // transpose
    [6] = {1, 0, 1},  // rotate 90 clockwise
    [7] = {1, 1, 1},  // transverse
    [8] = {1, 1, 0},  // rotate 270 clockwise
};

static int is_identity(const turn *t) {
    return !t->swap && !t->mirror_x && !t->mirror_y;
}

/// Source position of destination (dx, dy), for a source of width x height (pixels or blocks).
static void source_of(const turn *t, JDIMENSION width, JDIMENSION height, JDIMENSION dx, JDIMENSION dy,
                      JDIMENSION *sx, JDIMENSION *sy) {
    JDIMENSION along = t->swap ? dy : dx, across = t->swap ? dx : dy;
    *sx = t->mirror_x ? width - 1 - along : along;
    *sy = t->mirror_y ? height - 1 - across : across;
}

typedef struct {
    jpeg_input input;
    int orientation;
    const uint8_t *exif;
    size_t exif_size;
    int mode;
    /// The encoded picture, or NULL when it goes to output_fd.
    dossier_buffer *out;
    int output_fd;
    int scratch_folder;
    int used_lossless;
} orient_task;

// ---------------------------------------------------------------------------------
// Markers
// ---------------------------------------------------------------------------------

static int is_exif(const uint8_t *data, size_t size) {
    return size >= 6 && memcmp(data, "Exif\0\0", 6) == 0;
}

static int is_exif_marker(jpeg_saved_marker_ptr marker) {
    return marker->marker == JPEG_APP0 + 1 && is_exif(marker->data, marker->data_length);
}

/// Writes every APPn and COM segment of the source (session->markers: those after its first scan
/// too) in source order, byte for byte, on either path. The source's JFIF APP0 and Adobe APP14 are
/// among them, and the compressor writes neither of its own (configure_output): libjpeg's would
/// come from its defaults (its JFIF version, a 1:1 density, no thumbnail), so the source's would
/// be changed or doubled. The source's stay true of the output: both paths keep its colour space,
/// component ids and sampling, which are what the Adobe transform flag and JFIF describe.
/// A new Exif payload replaces the first Exif APP1, or goes first after the leading APP0s
/// (JFIF and its extensions) when the source has none.
static void write_markers(jpeg_session *session, const orient_task *task) {
    jpeg_saved_marker_ptr markers = session->markers;
    int exif_done = task->exif == NULL;
    int source_has_exif = 0;
    for (jpeg_saved_marker_ptr m = markers; m != NULL; m = m->next) source_has_exif |= is_exif_marker(m);

    for (jpeg_saved_marker_ptr m = markers; m != NULL; m = m->next) {
        int replaced = !exif_done && source_has_exif && is_exif_marker(m);
        int insert_here = !exif_done && !source_has_exif && m->marker != JPEG_APP0;
        if (replaced || insert_here) {
            jpeg_write_marker(&session->dst, JPEG_APP0 + 1, task->exif, (unsigned)task->exif_size);
            exif_done = 1;
        }
        if (!replaced) jpeg_write_marker(&session->dst, m->marker, m->data, m->data_length);
    }
    if (!exif_done) jpeg_write_marker(&session->dst, JPEG_APP0 + 1, task->exif, (unsigned)task->exif_size);
}

// ---------------------------------------------------------------------------------
// Destination parameters
// ---------------------------------------------------------------------------------

/// Sampling factors of component `ci` after the turn. A lone component is forced to 1x1 as
/// jpegtran does: it is coded one block per MCU anyway, and some decoders choke on others.
static void turned_sampling(j_decompress_ptr src, const turn *t, int ci, int *h, int *v) {
    if (src->num_components == 1) {
        *h = *v = 1;
        return;
    }
    const jpeg_component_info *comp = &src->comp_info[ci];
    *h = t->swap ? comp->v_samp_factor : comp->h_samp_factor;
    *v = t->swap ? comp->h_samp_factor : comp->v_samp_factor;
}

/// Coefficient [u][v] of a transposed block belongs at [v][u], so its quantiser moves too.
static void transpose_quant_tables(j_compress_ptr dst) {
    for (int n = 0; n < NUM_QUANT_TBLS; n++) {
        JQUANT_TBL *table = dst->quant_tbl_ptrs[n];
        if (table == NULL) continue;
        for (int i = 0; i < DCTSIZE; i++) {
            for (int j = 0; j < i; j++) {
                UINT16 kept = table->quantval[i * DCTSIZE + j];
                table->quantval[i * DCTSIZE + j] = table->quantval[j * DCTSIZE + i];
                table->quantval[j * DCTSIZE + i] = kept;
            }
        }
    }
}

/// The compressor keeps the source's quantisation tables, sampling, component ids and colour
/// space (jpeg_copy_critical_parameters), turned as needed, and its coding process.
/// `optimize` asks for a second pass over the coefficients to fit the Huffman tables: the pixel
/// path takes it, the coefficient path does not (libjpeg's standard tables, as jpegtran and
/// exiftran use by default: about 7% larger files, a third less time). Progressive output is
/// always optimised by libjpeg itself. `streamed` asks for output the compressor writes as the
/// rows come, holding no whole-picture coefficient buffer: sequential, standard tables.
static void configure_output(jpeg_session *session, const turn *t, int optimize, int streamed) {
    j_decompress_ptr src = &session->src;
    j_compress_ptr dst = &session->dst;
    jpeg_session_open_output(session);
    jpeg_copy_critical_parameters(src, dst);
    if (t->swap) {
        dst->image_width = src->image_height;
        dst->image_height = src->image_width;
        transpose_quant_tables(dst);
    }
    for (int ci = 0; ci < dst->num_components; ci++) {
        turned_sampling(src, t, ci, &dst->comp_info[ci].h_samp_factor, &dst->comp_info[ci].v_samp_factor);
    }
    if (src->progressive_mode && !streamed) jpeg_simple_progression(dst);
    dst->arith_code = src->arith_code;
    dst->optimize_coding = optimize && !streamed && !src->arith_code;
    dst->dct_method = JDCT_ISLOW;
    // The source's own APP0/APP14 are copied verbatim by write_markers, and only they.
    dst->write_JFIF_header = FALSE;
    dst->write_Adobe_marker = FALSE;
}

// ---------------------------------------------------------------------------------
// Lossless path: move DCT coefficients
// ---------------------------------------------------------------------------------

/// Where each coefficient of a turned block comes from, and its sign: mirroring a block
/// negates the coefficients of odd horizontal (x) or vertical (y) frequency.
typedef struct {
    int from[DCTSIZE2];
    int sign[DCTSIZE2];
} block_turn;

static void make_block_turn(const turn *t, block_turn *bt) {
    for (int i = 0; i < DCTSIZE; i++) {
        for (int j = 0; j < DCTSIZE; j++) {
            int row = t->swap ? j : i, column = t->swap ? i : j;
            int negate = (t->mirror_y && (row & 1)) ^ (t->mirror_x && (column & 1));
            bt->from[i * DCTSIZE + j] = row * DCTSIZE + column;
            bt->sign[i * DCTSIZE + j] = negate ? -1 : 1;
        }
    }
}

static void turn_block(const JCOEF *in, JCOEF *out, const block_turn *bt) {
    for (int k = 0; k < DCTSIZE2; k++) out[k] = (JCOEF)(bt->sign[k] * in[bt->from[k]]);
}

/// Pointers to the first `rows` block rows of a virtual array. libjpeg keeps an array whole in
/// memory when no memory limit is set (max_memory_to_use is 0 here, and libjpeg-turbo has no
/// backing store), so these pointers stay valid for the array's life: fetching each row once
/// instead of once per block keeps the library call out of the inner loop.
static JBLOCKROW *block_rows(j_decompress_ptr src, jvirt_barray_ptr array, JDIMENSION rows, boolean writable) {
    JBLOCKROW *pointers = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_IMAGE, sizeof(JBLOCKROW) * rows);
    for (JDIMENSION row = 0; row < rows; row++) {
        pointers[row] = (*src->mem->access_virt_barray)((j_common_ptr)src, array, row, 1, writable)[0];
    }
    return pointers;
}

// A transposing turn is done in place, inside the source's coefficient memory, so a photo
// never holds its coefficients twice (a second set of arrays would be 36 MB more for a 12 MP
// photo, per photo under way). The compressor then reads the turned blocks through row
// pointers that the access hook below hands out instead of libjpeg's own.

/// One component turned in place: the source array whose memory now holds the turned blocks,
/// row after row, and the row pointers the compressor reads them through.
typedef struct {
    jvirt_barray_ptr array;
    JBLOCKARRAY rows;
    JDIMENSION row_count;
    /// Blocks in each turned row.
    JDIMENSION array_width;
    /// The scratch file the turned blocks are in, for a large picture; NULL in memory.
    struct scratch_region *region;
} turned_component;

typedef struct {
    JBLOCKARRAY (*library_access)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
    turned_component components[MAX_COMPONENTS];
    int count;
} turned_view;

/// The compressor's access_virt_barray while it writes a turned-in-place picture: the turned
/// components' rows come from our pointers, anything else from libjpeg.
static JBLOCKARRAY turned_access(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start_row,
                                 JDIMENSION num_rows, boolean writable) {
    turned_view *view = cinfo->client_data;
    for (int ci = 0; ci < view->count; ci++) {
        const turned_component *component = &view->components[ci];
        if (component->array != array) continue;
        if (writable || start_row + num_rows > component->row_count) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
        jpeg_scratch_touch(component->region, (size_t)num_rows * sizeof(JBLOCK) * component->array_width);
        return component->rows + start_row;
    }
    return view->library_access(cinfo, array, start_row, num_rows, writable);
}

/// Turns a component's blocks in place and records how to read them. The real blocks are
/// first packed row after row (dropping the padding at each row's end), then moved along the
/// cycles of the turn's permutation, each block exactly once, with one block of scratch.
/// `out_rows` is how many rows the compressor will ask for (whole iMCU rows of the turned
/// picture); rows past the real ones are never read for their blocks.
static void transpose_in_place(jpeg_session *session, int ci, jvirt_barray_ptr array, const turn *t,
                               const block_turn *bt, JDIMENSION out_rows, turned_component *turned) {
    j_decompress_ptr src = &session->src;
    JDIMENSION width = src->comp_info[ci].width_in_blocks, height = src->comp_info[ci].height_in_blocks;
    JBLOCKROW *rows = block_rows(src, array, height, TRUE);
    JBLOCKROW base = rows[0];
    JDIMENSION stride = height > 1 ? (JDIMENSION)(rows[1] - rows[0]) : width;
    for (JDIMENSION y = 0; y < height; y++) {
        // libjpeg allocates an array under 1 GB as one chunk, and DOSSIER_MAX_PIXELS keeps every
        // array far below that; checked all the same, since the packing below relies on it.
        if (rows[y] != base + (size_t)y * stride || stride < width) {
            jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "coefficient rows of component %d are not contiguous", ci);
        }
    }
    for (JDIMENSION y = 1; y < height; y++) memmove(base + (size_t)y * width, rows[y], sizeof(JBLOCK) * width);

    size_t count = (size_t)width * height;
    unsigned char *visited = (*src->mem->alloc_large)((j_common_ptr)src, JPOOL_IMAGE, (count + 7) / 8);
    memset(visited, 0, (count + 7) / 8);
    JBLOCK scratch;
    for (size_t start = 0; start < count; start++) {
        if (visited[start / 8] & (1u << (start % 8))) continue;
        memcpy(scratch, base[start], sizeof(JBLOCK));
        size_t slot = start;
        for (;;) {
            // The turned picture is height blocks wide: slot = dy * height + dx.
            JDIMENSION sx, sy;
            source_of(t, width, height, (JDIMENSION)(slot % height), (JDIMENSION)(slot / height), &sx, &sy);
            size_t from = (size_t)sy * width + sx;
            visited[slot / 8] |= (unsigned char)(1u << (slot % 8));
            if (from == start) {
                turn_block(scratch, base[slot], bt);
                break;
            }
            turn_block(base[from], base[slot], bt);
            slot = from;
        }
    }

    turned->array = array;
    turned->array_width = height;
    turned->row_count = out_rows > width ? out_rows : width;
    turned->rows = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_IMAGE, sizeof(JBLOCKROW) * turned->row_count);
    for (JDIMENSION row = 0; row < turned->row_count; row++) {
        turned->rows[row] = base + (size_t)(row < width ? row : 0) * height;
    }
}

/// Blocks in a 4 KiB page: how many turned rows read their source columns from the same pages.
#define BLOCKS_PER_PAGE (4096 / (int)sizeof(JBLOCK))
/// Rows of a scratch file read down a column before the mapping lets go of them. A fault maps
/// more than the page it needs (the kernel's fault-around maps up to 64 KiB of a file's cached
/// pages), so reading down a column of a large picture would otherwise map most of the file:
/// 256 rows keep that under 16 MiB.
#define COLUMN_ROWS_RESIDENT 256

/// The scratch-file counterpart of transpose_in_place, for a large picture: the turned blocks
/// go to a second scratch file. Each turned row is a column of the source, so the work goes in
/// tiles: a page's width of turned rows (the source columns one page of each source row holds)
/// by COLUMN_ROWS_RESIDENT source rows, letting go of the source after each tile. Each source
/// page is then brought in once per tile row, and little of either file is resident at a time.
/// (Moving blocks in place would touch pages all over the file for every block.)
static void transpose_to_scratch(jpeg_session *session, int ci, jvirt_barray_ptr array, const turn *t,
                                 const block_turn *bt, JDIMENSION out_rows, turned_component *turned) {
    j_decompress_ptr src = &session->src;
    struct scratch_region *source_region = jpeg_scratch_region_of(session, array);
    JDIMENSION width = src->comp_info[ci].width_in_blocks, height = src->comp_info[ci].height_in_blocks;
    JBLOCKROW *rows = jpeg_scratch_block_rows(session, (j_common_ptr)src, height, width, &turned->region);
    for (JDIMENSION first_row = 0; first_row < width; first_row += BLOCKS_PER_PAGE) {
        JDIMENSION last_row = width - first_row < BLOCKS_PER_PAGE ? width : first_row + BLOCKS_PER_PAGE;
        for (JDIMENSION first_column = 0; first_column < height; first_column += COLUMN_ROWS_RESIDENT) {
            JDIMENSION last_column = height - first_column < COLUMN_ROWS_RESIDENT ? height
                                                                                 : first_column + COLUMN_ROWS_RESIDENT;
            for (JDIMENSION dy = first_row; dy < last_row; dy++) {
                for (JDIMENSION dx = first_column; dx < last_column; dx++) {
                    JDIMENSION sx, sy;
                    source_of(t, width, height, dx, dy, &sx, &sy);
                    turn_block(jpeg_scratch_block_at(source_region, sy, sx), rows[dy][dx], bt);
                }
            }
            jpeg_scratch_let_go(source_region);
        }
        jpeg_scratch_touch(turned->region, (size_t)(last_row - first_row) * height * sizeof(JBLOCK));
    }
    turned->array = array;
    turned->array_width = height;
    turned->row_count = out_rows > width ? out_rows : width;
    turned->rows = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_IMAGE, sizeof(JBLOCKROW) * turned->row_count);
    for (JDIMENSION row = 0; row < turned->row_count; row++) turned->rows[row] = rows[row < width ? row : 0];
}

/// Rows of blocks the compressor reads for a component of the turned picture: its height in
/// blocks rounded up to whole iMCU rows.
static JDIMENSION turned_rows(j_compress_ptr dst, int ci) {
    int max_v = 1;
    for (int c = 0; c < dst->num_components; c++) {
        if (dst->comp_info[c].v_samp_factor > max_v) max_v = dst->comp_info[c].v_samp_factor;
    }
    JDIMENSION imcu = (JDIMENSION)(max_v * DCTSIZE);
    return (dst->image_height + imcu - 1) / imcu * (JDIMENSION)dst->comp_info[ci].v_samp_factor;
}

/// Mirrors a component where it lies. A mirror is its own inverse: the blocks at p and at
/// source_of(p) trade places (each turned), and a block that maps to itself is turned alone.
static void mirror_component(jpeg_session *session, int ci, jvirt_barray_ptr array, const turn *t,
                             const block_turn *bt) {
    j_decompress_ptr src = &session->src;
    struct scratch_region *region = jpeg_scratch_region_of(session, array);
    JDIMENSION width = src->comp_info[ci].width_in_blocks, height = src->comp_info[ci].height_in_blocks;
    JBLOCKROW *rows = block_rows(src, array, height, TRUE);
    JBLOCK kept;
    for (JDIMENSION dy = 0; dy < height; dy++) {
        for (JDIMENSION dx = 0; dx < width; dx++) {
            JDIMENSION sx, sy;
            source_of(t, width, height, dx, dy, &sx, &sy);
            if (sy < dy || (sy == dy && sx < dx)) continue;  // this pair was done from the other side
            if (sy == dy && sx == dx) {
                memcpy(kept, rows[dy][dx], sizeof(JBLOCK));
                turn_block(kept, rows[dy][dx], bt);
                continue;
            }
            memcpy(kept, rows[dy][dx], sizeof(JBLOCK));
            turn_block(rows[sy][sx], rows[dy][dx], bt);
            turn_block(kept, rows[sy][sx], bt);
        }
        // A row and its mirror image: two rows' worth of the file.
        jpeg_scratch_touch(region, 2 * (size_t)width * sizeof(JBLOCK));
    }
}

static void turn_coefficients(jpeg_session *session, const orient_task *task, const turn *t) {
    j_decompress_ptr src = &session->src;
    jvirt_barray_ptr *source = jpeg_read_coefficients(src);
    configure_output(session, t, FALSE, FALSE);
    // In the decoder's image pool: it must outlive jpeg_finish_compress, which reads through the
    // hook, and jpeg_session_finish_output finishes the decoder only after the compressor.
    turned_view *view = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_IMAGE, sizeof(turned_view));
    memset(view, 0, sizeof(*view));
    if (!is_identity(t)) {
        block_turn bt;
        make_block_turn(t, &bt);
        for (int ci = 0; ci < src->num_components; ci++) {
            if (t->swap && jpeg_session_uses_scratch(session)) {
                transpose_to_scratch(session, ci, source[ci], t, &bt, turned_rows(&session->dst, ci),
                                     &view->components[ci]);
            } else if (t->swap) {
                transpose_in_place(session, ci, source[ci], t, &bt, turned_rows(&session->dst, ci),
                                   &view->components[ci]);
            } else {
                mirror_component(session, ci, source[ci], t, &bt);
            }
        }
    }
    if (t->swap) {
        view->count = src->num_components;
        view->library_access = session->dst.mem->access_virt_barray;
        session->dst.client_data = view;
        session->dst.mem->access_virt_barray = turned_access;
    }
    jpeg_write_coefficients(&session->dst, source);
    write_markers(session, task);
}

// ---------------------------------------------------------------------------------
// Pixel path: decode in the stored colour space, turn while encoding
// ---------------------------------------------------------------------------------

#define ROWS_PER_BATCH 16
/// For a picture in a scratch file, whose batches each read a little of every source row: more
/// rows a batch, so each page of the picture is brought in fewer times.
#define ROWS_PER_SCRATCH_BATCH 1024

/// Fills `count` turned rows starting at destination row `first`. Column by column within
/// the batch: when the turn transposes, the batch's rows come from adjacent source columns,
/// so each source row is read once per batch in one short contiguous run.
/// Only columns [from, to) of the turned rows: a transposing turn reads source rows `from` to
/// `to` for them.
static void gather_rows(JSAMPARRAY picture, JDIMENSION width, JDIMENSION height, int components, const turn *t,
                        JDIMENSION from, JDIMENSION to, JDIMENSION first, int count, JSAMPARRAY batch) {
    for (JDIMENSION dx = from; dx < to; dx++) {
        for (int r = 0; r < count; r++) {
            JDIMENSION sx, sy;
            source_of(t, width, height, dx, first + (JDIMENSION)r, &sx, &sy);
            JSAMPLE *to_sample = batch[r] + (size_t)dx * components;
            const JSAMPLE *from_sample = picture[sy] + (size_t)sx * components;
            // One pixel: a call to memcpy for three bytes cost a fifth of a phone dump's import.
            if (components == 3) {
                to_sample[0] = from_sample[0];
                to_sample[1] = from_sample[1];
                to_sample[2] = from_sample[2];
            } else if (components == 1) {
                to_sample[0] = from_sample[0];
            } else {
                memcpy(to_sample, from_sample, (size_t)components);
            }
        }
    }
}

/// A zero quantiser is invalid but decoders accept it (the frequency just decodes as zero);
/// libjpeg's forward DCT would divide by it, so the re-encode uses 1 there instead.
static void replace_zero_quantisers(j_compress_ptr dst) {
    for (int n = 0; n < NUM_QUANT_TBLS; n++) {
        JQUANT_TBL *table = dst->quant_tbl_ptrs[n];
        if (table == NULL) continue;
        for (int k = 0; k < DCTSIZE2; k++) {
            if (table->quantval[k] == 0) table->quantval[k] = 1;
        }
    }
}

/// Above this many pixels the pixel path writes its output as the rows come (sequential, standard
/// Huffman tables) instead of progressive or optimised, which makes the compressor buffer every
/// coefficient of the picture: for a 12000x12000 4:4:4 photo that buffer alone was 864 MB.
/// Everyday photos keep the smaller optimised or progressive output.
#define STREAMED_OUTPUT_PIXELS (48u * 1000u * 1000u)

/// Decodes the whole picture into the compressor's memory (or, for a large picture, a scratch
/// file the compressor owns), so the decoder (whose coefficient buffer, for a progressive
/// source, is as large again) can be let go before encoding. Reads the source to its EOI.
static void decode_picture(jpeg_session *session, JSAMPARRAY *picture, struct scratch_region **region) {
    j_decompress_ptr src = &session->src;
    j_compress_ptr dst = &session->dst;
    src->out_color_space = src->jpeg_color_space;  // no colour conversion: YCbCr stays YCbCr
    src->dct_method = JDCT_ISLOW;
    // Replicated chroma averages back to exactly the stored samples when the encoder
    // downsamples again; interpolated chroma would blur it a little more each time.
    src->do_fancy_upsampling = FALSE;
    jpeg_start_decompress(src);
    size_t row_bytes = (size_t)src->output_width * (size_t)src->output_components;
    *region = NULL;
    if (jpeg_session_uses_scratch(session)) {
        *picture = jpeg_scratch_sample_rows(session, (j_common_ptr)dst, row_bytes, src->output_height, region);
    } else {
        *picture = (*dst->mem->alloc_sarray)((j_common_ptr)dst, JPOOL_IMAGE, (JDIMENSION)row_bytes,
                                             src->output_height);
    }
    while (src->output_scanline < src->output_height) {
        JDIMENSION read = jpeg_read_scanlines(src, *picture + src->output_scanline,
                                              src->output_height - src->output_scanline);
        jpeg_scratch_touch(*region, (size_t)read * row_bytes);
    }
    jpeg_session_finish_input(session);
}

static void turn_pixels(jpeg_session *session, const orient_task *task, const turn *t) {
    j_decompress_ptr src = &session->src;
    j_compress_ptr dst = &session->dst;
    JSAMPARRAY picture;
    // jpeg_copy_critical_parameters also sets in_color_space to the stored colour space and
    // input_components to its component count: exactly what decode_picture produces.
    int streamed = (uint64_t)src->image_width * src->image_height > STREAMED_OUTPUT_PIXELS;
    configure_output(session, t, TRUE, streamed);
    replace_zero_quantisers(dst);
    struct scratch_region *region;
    decode_picture(session, &picture, &region);
    JDIMENSION width = src->output_width, height = src->output_height;
    int components = src->output_components;
    jpeg_start_compress(dst, TRUE);
    write_markers(session, task);
    // The decoder has given all it holds (the picture is in the compressor's memory, the markers
    // are written): its buffers go before the encoding begins.
    jpeg_session_release_input(session);
    int per_batch = region != NULL ? ROWS_PER_SCRATCH_BATCH : ROWS_PER_BATCH;
    JSAMPARRAY batch = (*dst->mem->alloc_sarray)((j_common_ptr)dst, JPOOL_IMAGE,
                                                 dst->image_width * (JDIMENSION)components, (JDIMENSION)per_batch);
    while (dst->next_scanline < dst->image_height) {
        JDIMENSION first = dst->next_scanline, left = dst->image_height - first;
        int count = left < (JDIMENSION)per_batch ? (int)left : per_batch;
        if (region == NULL || !t->swap) {
            gather_rows(picture, width, height, components, t, 0, dst->image_width, first, count, batch);
            jpeg_scratch_touch(region, (size_t)count * dst->image_width * (size_t)components);
        } else {
            // A batch of a transposing turn reads a little of every row of the picture: a few
            // hundred rows at a time, letting go of them after each (see COLUMN_ROWS_RESIDENT).
            for (JDIMENSION from = 0; from < dst->image_width; from += COLUMN_ROWS_RESIDENT) {
                JDIMENSION to = dst->image_width - from < COLUMN_ROWS_RESIDENT ? dst->image_width
                                                                               : from + COLUMN_ROWS_RESIDENT;
                gather_rows(picture, width, height, components, t, from, to, first, count, batch);
                jpeg_scratch_let_go(region);
            }
        }
        jpeg_write_scanlines(dst, batch, (JDIMENSION)count);
    }
}

// ---------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------

static void check_orient_arguments(jpeg_session *session, const orient_task *task) {
    if (task->orientation < 1 || task->orientation > 8) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "orientation %d is not 1...8", task->orientation);
    }
    if (task->mode < DOSSIER_JPEG_AUTO || task->mode > DOSSIER_JPEG_PIXELS_ONLY) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "unknown JPEG orient mode %d", task->mode);
    }
    if (task->exif != NULL && task->exif_size > MAX_APP1_PAYLOAD) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "Exif payload of %zu bytes exceeds the %d an APP1 holds",
                           task->exif_size, MAX_APP1_PAYLOAD);
    }
    if (task->exif != NULL && !is_exif(task->exif, task->exif_size)) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "Exif payload does not start with \"Exif\\0\\0\"");
    }
}

/// Lossless needs whole MCUs along each edge the turn carries to the other side
/// (jpegtran's jtransform_perfect_transform); otherwise the partial MCU would land inside.
static int is_whole_mcus(const dossier_jpeg_info *info, const turn *t) {
    return (!t->mirror_x || info->width % info->mcu_width == 0) &&
           (!t->mirror_y || info->height % info->mcu_height == 0);
}

static void orient_body(jpeg_session *session, void *context) {
    orient_task *task = context;
    check_orient_arguments(session, task);
    if (task->scratch_folder >= 0) jpeg_session_use_scratch(session, task->scratch_folder);
    session->output_fd = task->output_fd;
    session->carry_trailing = 1;
    jpeg_session_read_header(session, task->input, 1);
    jpeg_session_check_limits(session);
    const turn *t = &turns[task->orientation];
    dossier_jpeg_info info;
    jpeg_describe_source(&session->src, &info);
    int whole = is_whole_mcus(&info, t);
    if (task->mode == DOSSIER_JPEG_LOSSLESS_ONLY && !whole) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT,
                           "picture is %dx%d in %dx%d MCUs: not a whole number of MCUs, so orientation %d "
                           "cannot be applied losslessly",
                           info.width, info.height, info.mcu_width, info.mcu_height, task->orientation);
    }
    task->used_lossless = whole && task->mode != DOSSIER_JPEG_PIXELS_ONLY;
    if (task->used_lossless) {
        turn_coefficients(session, task, t);
    } else {
        turn_pixels(session, task, t);
    }
    jpeg_session_finish_output(session, task->out);
}

static int run_orient(orient_task *task, int *used_lossless, dossier_status *status) {
    jpeg_session session;
    int code = jpeg_session_run(&session, status, orient_body, task);
    if (used_lossless != NULL) *used_lossless = code == DOSSIER_OK && task->used_lossless;
    return code;
}

int dossier_jpeg_orient(const uint8_t *data, size_t size, int orientation,
                        const uint8_t *exif_app1, size_t exif_app1_size,
                        int mode, dossier_buffer *out, int *used_lossless, dossier_status *status) {
    orient_task task = {{data, size, -1}, orientation, exif_app1, exif_app1_size, mode, out, -1, -1, 0};
    out->data = NULL;
    out->size = 0;
    return run_orient(&task, used_lossless, status);
}

int dossier_jpeg_orient_file(int fd, int orientation, const uint8_t *exif_app1, size_t exif_app1_size, int mode,
                             int out_fd, int scratch_folder, int *used_lossless, dossier_status *status) {
    struct stat file;
    if (fstat(fd, &file) != 0) {
        dossier_status_reset(status);
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "cannot read the file: %s", strerror(errno));
        return DOSSIER_ERR_DECODE;
    }
    orient_task task = {{NULL, (size_t)file.st_size, fd}, orientation, exif_app1, exif_app1_size, mode, NULL,
                        out_fd, scratch_folder, 0};
    return run_orient(&task, used_lossless, status);
}
