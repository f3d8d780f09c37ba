// JPEG session plumbing (errors, warnings, limits, in-memory output) and the plain codec
// entry points: header facts, validation, RGB decode/encode and coefficient dumps.
#include "jpeg_internal.h"
#include <jerror.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/// A hostile progressive file can make every one of thousands of scans walk the whole
/// picture; real encoders write about ten.
#define MAX_SCANS 1000
/// Bytes the compressor fills before they are appended to the session's output.
#define OUTPUT_CHUNK 65536
/// Bytes read from a source file at a time.
#define INPUT_CHUNK 65536
/// A session that keeps markers holds each APPn and COM segment in a large block of its own (see
/// keep_segment): a file of a million empty 4-byte segments would take 80 MB of blocks. A camera
/// writes a few dozen segments (some hundreds for a depth map in extended XMP) and a picture needs
/// a handful of large blocks besides, so a decoder that keeps markers and asks for more large
/// blocks than this is refused.
#define MAX_LARGE_BLOCKS 8192
/// What libjpeg reads of a JFIF APP0 and of an Adobe APP14 (jdmarker.c's APP0_DATA_LEN and
/// APP14_DATA_LEN): shorter ones say nothing to it.
#define JFIF_FACTS_LENGTH 14
#define ADOBE_FACTS_LENGTH 12

// ---------------------------------------------------------------------------------
// Errors and warnings
// ---------------------------------------------------------------------------------

static jpeg_session *session_of(j_common_ptr cinfo) {
    return (jpeg_session *)cinfo->err;
}

_Noreturn void jpeg_session_abort(jpeg_session *session, int code, const char *format, ...) {
    char message[DOSSIER_MESSAGE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    dossier_status_fail(session->status, code, "%s", message);
    longjmp(session->escape, 1);
}

/// libjpeg itself refuses a zero side and a side over 65500 while reading the header; the
/// contract calls both a limit, so they are reported with the picture's claimed size.
static int is_size_refusal(j_common_ptr cinfo) {
    int code = cinfo->err->msg_code;
    return cinfo->is_decompressor && (code == JERR_EMPTY_IMAGE || code == JERR_IMAGE_TOO_BIG);
}

static void on_error(j_common_ptr cinfo) {
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    jpeg_session *session = session_of(cinfo);
    if (is_size_refusal(cinfo)) {
        j_decompress_ptr src = (j_decompress_ptr)cinfo;
        jpeg_session_abort(session, DOSSIER_ERR_LIMIT, "picture is %ux%u: %s", (unsigned)src->image_width,
                           (unsigned)src->image_height, message);
    }
    int code = cinfo->is_decompressor ? DOSSIER_ERR_DECODE : DOSSIER_ERR_ENCODE;
    if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) code = DOSSIER_ERR_ENCODE;  // the contract's "out of memory"
    jpeg_session_abort(session, code, "%s", message);
}

/// The most bytes skipped before a marker after the header that still count as padding.
#define DOSSIER_SCAN_PADDING_MAX 16

/// Warnings that leave every coefficient intact: scanners pad between markers, and odd
/// JFIF/Adobe/ICC headers do not touch the image data.
static int is_harmless_warning(int code) {
    switch (code) {
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_JFIF_MAJOR:
    case JWRN_ADOBE_XFORM:
    case JWRN_BOGUS_ICC:
        return 1;
    default:
        return 0;
    }
}

/// libjpeg keeps going after a corrupt-data warning (it fills in zeros), so a picture that
/// warned is not whole: stop right there rather than decode garbage to the end.
static void on_message(j_common_ptr cinfo, int level) {
    if (level > cinfo->err->trace_level) return;  // marker-by-marker trace chatter
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    if (level < 0) cinfo->err->num_warnings++;
    // Padding between header markers is a scanner's habit; many bytes skipped once the scan has
    // begun are the decoder losing its place in damaged data (bytes zeroed mid-scan).
    int lost_in_scan = cinfo->err->msg_code == JWRN_EXTRANEOUS_DATA && session_of(cinfo)->header_read
        && cinfo->err->msg_parm.i[0] > DOSSIER_SCAN_PADDING_MAX;
    if (level >= 0 || (is_harmless_warning(cinfo->err->msg_code) && !lost_in_scan) || session_of(cinfo)->tolerate_damage) {
        dossier_status_warn(session_of(cinfo)->status, message);
        return;
    }
    int code = cinfo->is_decompressor ? DOSSIER_ERR_DECODE : DOSSIER_ERR_ENCODE;
    jpeg_session_abort(session_of(cinfo), code, "%s", message);
}

/// libjpeg calls this only from the default error_exit and emit_message, both replaced;
/// it is set so that nothing can ever reach stderr.
static void on_output(j_common_ptr cinfo) {
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    dossier_status_warn(session_of(cinfo)->status, message);
}

/// Installed on the decompressor only.
static void on_progress(j_common_ptr cinfo) {
    j_decompress_ptr src = (j_decompress_ptr)cinfo;
    if (src->input_scan_number > MAX_SCANS) {
        jpeg_session_abort(session_of(cinfo), DOSSIER_ERR_DECODE,
                           "more than %d scans: refusing a progressive file that would take too long to decode",
                           MAX_SCANS);
    }
}

// ---------------------------------------------------------------------------------
// Session
// ---------------------------------------------------------------------------------

int jpeg_session_run(jpeg_session *session, dossier_status *status, jpeg_session_body body, void *task) {
    memset(session, 0, sizeof(*session));
    session->status = status != NULL ? status : &session->own_status;
    dossier_status_reset(session->status);
    jpeg_std_error(&session->err);
    session->err.error_exit = on_error;
    session->err.emit_message = on_message;
    session->err.output_message = on_output;
    session->progress.progress_monitor = on_progress;
    session->output_fd = -1;
    session->input.fd = -1;
    session->scratch_folder = -1;
    if (setjmp(session->escape) == 0) body(session, task);
    // Both are no-ops on a codec never created: the session started zeroed.
    jpeg_destroy_compress(&session->dst);
    jpeg_destroy_decompress(&session->src);
    jpeg_session_release_scratch(session, NULL);
    dossier_growable_free(&session->output);
    return session->status->code;
}

// ---------------------------------------------------------------------------------
// Reading a file: pread from offset 0, a chunk at a time
// ---------------------------------------------------------------------------------

typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    /// Offset of the next chunk to read.
    uint64_t offset;
    JOCTET *chunk;
} file_source;

static void file_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean file_fill_input_buffer(j_decompress_ptr cinfo) {
    file_source *source = (file_source *)cinfo->src;
    ssize_t got = dossier_pread_fully(source->fd, source->chunk, INPUT_CHUNK, source->offset);
    if (got < 0) {
        jpeg_session_abort(session_of((j_common_ptr)cinfo), DOSSIER_ERR_DECODE, "cannot read the file: %s",
                           strerror(errno));
    }
    if (got == 0) {
        // As jpeg_mem_src does at the end of its data: warn (which fails the read), and insert a
        // fake EOI for libjpeg's sake.
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->chunk[0] = 0xFF;
        source->chunk[1] = JPEG_EOI;
        source->pub.next_input_byte = source->chunk;
        source->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    source->offset += (uint64_t)got;
    source->pub.next_input_byte = source->chunk;
    source->pub.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void file_skip_input_data(j_decompress_ptr cinfo, long count) {
    file_source *source = (file_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->pub.bytes_in_buffer) {
        source->pub.next_input_byte += count;
        source->pub.bytes_in_buffer -= (size_t)count;
        return;
    }
    source->offset += (uint64_t)count - source->pub.bytes_in_buffer;
    source->pub.bytes_in_buffer = 0;
}

static void file_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

static void use_file_source(j_decompress_ptr src, int fd) {
    file_source *source = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_PERMANENT, sizeof(*source));
    source->chunk = (*src->mem->alloc_small)((j_common_ptr)src, JPOOL_PERMANENT, INPUT_CHUNK);
    source->fd = fd;
    source->offset = 0;
    source->pub.init_source = file_init_source;
    source->pub.fill_input_buffer = file_fill_input_buffer;
    source->pub.skip_input_data = file_skip_input_data;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = file_term_source;
    source->pub.bytes_in_buffer = 0;
    source->pub.next_input_byte = NULL;
    src->src = &source->pub;
}

/// How far into the source the decoder has read.
static size_t input_position(const jpeg_session *session) {
    const struct jpeg_source_mgr *source = session->src.src;
    if (session->input.data != NULL) return (size_t)(source->next_input_byte - session->input.data);
    return (size_t)(((const file_source *)source)->offset - source->bytes_in_buffer);
}

/// The decoder's alloc_large while it keeps markers: counts the blocks (see MAX_LARGE_BLOCKS).
static void *count_large_block(j_common_ptr cinfo, int pool_id, size_t size) {
    jpeg_session *session = session_of(cinfo);
    if (++session->large_blocks > MAX_LARGE_BLOCKS) {
        jpeg_session_abort(session, DOSSIER_ERR_DECODE,
                           "more than %d marker segments to keep: refusing a file no camera writes", MAX_LARGE_BLOCKS);
    }
    return session->library_alloc_large(cinfo, pool_id, size);
}

// ---------------------------------------------------------------------------------
// Keeping APPn and COM segments
// ---------------------------------------------------------------------------------

/// Takes the next `count` bytes of the source into `into`. Neither of the session's sources
/// suspends: at their end they warn, which aborts the session, so a segment cut short never
/// comes back here.
static void read_source_bytes(j_decompress_ptr src, JOCTET *into, size_t count) {
    struct jpeg_source_mgr *source = src->src;
    while (count > 0) {
        if (source->bytes_in_buffer == 0 && !(*source->fill_input_buffer)(src)) {
            jpeg_session_abort(session_of((j_common_ptr)src), DOSSIER_ERR_DECODE, "the source stopped in a marker segment");
        }
        size_t run = source->bytes_in_buffer < count ? source->bytes_in_buffer : count;
        memcpy(into, source->next_input_byte, run);
        source->next_input_byte += run;
        source->bytes_in_buffer -= run;
        into += run;
        count -= run;
    }
}

/// libjpeg's own APP0 and APP14 processors note what a JFIF or an Adobe segment says, and its
/// guess at the stored colour space (YCbCr, RGB, CMYK or YCCK) rests on it. keep_segment takes
/// their place, so it notes the same facts as they do (libjpeg.txt, "Special markers"; jdmarker.c,
/// examine_app0 and examine_app14), warning alike of a JFIF major version other than 1.
static void note_colour_facts(j_decompress_ptr src, const JOCTET *data, unsigned length) {
    if (src->unread_marker == JPEG_APP0 && length >= JFIF_FACTS_LENGTH && memcmp(data, "JFIF", 5) == 0) {
        src->saw_JFIF_marker = TRUE;
        src->JFIF_major_version = data[5];
        src->JFIF_minor_version = data[6];
        src->density_unit = data[7];
        src->X_density = (UINT16)(data[8] << 8 | data[9]);
        src->Y_density = (UINT16)(data[10] << 8 | data[11]);
        if (src->JFIF_major_version != 1) {
            WARNMS2(src, JWRN_JFIF_MAJOR, src->JFIF_major_version, src->JFIF_minor_version);
        }
    } else if (src->unread_marker == JPEG_APP0 + 14 && length >= ADOBE_FACTS_LENGTH && memcmp(data, "Adobe", 5) == 0) {
        src->saw_Adobe_marker = TRUE;
        src->Adobe_transform = data[11];
    }
}

/// The decoder's processor for every APPn and COM segment while the session keeps markers, in
/// place of jpeg_save_markers: libjpeg frees what that saves in jpeg_finish_decompress, which the
/// pixel path calls (letting go of the decoder's coefficients) before the compressor may write a
/// single marker. So the whole segment goes to a block of the decoder's permanent pool, which only
/// destroying the decoder frees, and joins the end of session->markers.
static boolean keep_segment(j_decompress_ptr src) {
    jpeg_session *session = session_of((j_common_ptr)src);
    JOCTET length_field[2];
    read_source_bytes(src, length_field, 2);
    unsigned length = (unsigned)length_field[0] << 8 | length_field[1];
    // A length under 2 does not even cover its own field: libjpeg keeps no such segment and reads
    // on from there, and so does this.
    if (length < 2) return TRUE;
    unsigned data_length = length - 2;
    jpeg_saved_marker_ptr segment = (*src->mem->alloc_large)((j_common_ptr)src, JPOOL_PERMANENT,
                                                             sizeof(*segment) + data_length);
    segment->next = NULL;
    segment->marker = (UINT8)src->unread_marker;
    segment->original_length = data_length;
    segment->data_length = data_length;
    segment->data = (JOCTET *)(segment + 1);
    read_source_bytes(src, segment->data, data_length);
    if (session->last_marker != NULL) {
        session->last_marker->next = segment;
    } else {
        session->markers = segment;
    }
    session->last_marker = segment;
    note_colour_facts(src, segment->data, data_length);
    return TRUE;
}

void jpeg_session_read_header(jpeg_session *session, jpeg_input input, int keep_markers) {
    j_decompress_ptr src = &session->src;
    src->err = &session->err;
    jpeg_create_decompress(src);
    jpeg_session_hook_memory(session, (j_common_ptr)src);
    src->progress = &session->progress;
    session->input = input;
    if (input.data != NULL) {
        jpeg_mem_src(src, input.data, (unsigned long)input.size);
    } else {
        use_file_source(src, input.fd);
    }
    if (keep_markers) {
        session->library_alloc_large = src->mem->alloc_large;
        src->mem->alloc_large = count_large_block;
        jpeg_set_marker_processor(src, JPEG_COM, keep_segment);
        for (int n = 0; n < 16; n++) jpeg_set_marker_processor(src, JPEG_APP0 + n, keep_segment);
    }
    jpeg_read_header(src, TRUE);
    session->header_read = 1;
}

void jpeg_session_release_input(jpeg_session *session) {
    jpeg_destroy_decompress(&session->src);
    jpeg_session_release_scratch(session, (j_common_ptr)&session->src);
    // They were in the decoder's permanent pool.
    session->markers = NULL;
    session->last_marker = NULL;
}

void jpeg_session_check_limits(jpeg_session *session) {
    JDIMENSION width = session->src.image_width, height = session->src.image_height;
    if ((uint64_t)width * height > DOSSIER_MAX_PIXELS) {
        jpeg_session_abort(session, DOSSIER_ERR_LIMIT, "picture is %ux%u, larger than the %u megapixel limit",
                           (unsigned)width, (unsigned)height, DOSSIER_MAX_PIXELS / 1000000u);
    }
}

void jpeg_describe_source(const struct jpeg_decompress_struct *src, dossier_jpeg_info *info) {
    memset(info, 0, sizeof(*info));
    info->width = (int)src->image_width;
    info->height = (int)src->image_height;
    info->components = src->num_components;
    info->color_space = (int)src->jpeg_color_space;
    for (int ci = 0; ci < src->num_components && ci < 4; ci++) {
        info->h_samp[ci] = src->comp_info[ci].h_samp_factor;
        info->v_samp[ci] = src->comp_info[ci].v_samp_factor;
    }
    // A single component is coded one block per MCU whatever its sampling factors say.
    int single = src->num_components == 1;
    info->mcu_width = single ? DCTSIZE : src->max_h_samp_factor * DCTSIZE;
    info->mcu_height = single ? DCTSIZE : src->max_v_samp_factor * DCTSIZE;
    info->progressive = src->progressive_mode ? 1 : 0;
    info->arithmetic = src->arith_code ? 1 : 0;
    info->precision = src->data_precision;
}

// ---------------------------------------------------------------------------------
// In-memory output: the compressor fills a pool-allocated chunk, appended to session->output.
// ---------------------------------------------------------------------------------

typedef struct {
    struct jpeg_destination_mgr pub;
    JOCTET *chunk;
} chunk_destination;

/// Appends encoded bytes to the session's output: its buffer or its file.
static void put_output(jpeg_session *session, const void *bytes, size_t count) {
    if (session->output_fd >= 0) {
        if (dossier_write_fully(session->output_fd, bytes, count) != 0) {
            jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "cannot write the output: %s", strerror(errno));
        }
    } else if (!dossier_growable_append(&session->output, bytes, count)) {
        jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "out of memory: output past %zu bytes",
                           session->output.size);
    }
}

static void flush_chunk(j_compress_ptr cinfo, size_t count) {
    chunk_destination *dest = (chunk_destination *)cinfo->dest;
    put_output(session_of((j_common_ptr)cinfo), dest->chunk, count);
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = OUTPUT_CHUNK;
}

static void init_destination(j_compress_ptr cinfo) {
    chunk_destination *dest = (chunk_destination *)cinfo->dest;
    dest->chunk = (*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_IMAGE, OUTPUT_CHUNK);
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = OUTPUT_CHUNK;
}

static boolean empty_output_buffer(j_compress_ptr cinfo) {
    flush_chunk(cinfo, OUTPUT_CHUNK);  // libjpeg's contract: the whole chunk is full
    return TRUE;
}

static void term_destination(j_compress_ptr cinfo) {
    flush_chunk(cinfo, OUTPUT_CHUNK - cinfo->dest->free_in_buffer);
}

void jpeg_session_open_output(jpeg_session *session) {
    j_compress_ptr dst = &session->dst;
    dst->err = &session->err;
    jpeg_create_compress(dst);
    jpeg_session_hook_memory(session, (j_common_ptr)dst);
    chunk_destination *dest = (*dst->mem->alloc_small)((j_common_ptr)dst, JPOOL_PERMANENT, sizeof(*dest));
    dest->pub.init_destination = init_destination;
    dest->pub.empty_output_buffer = empty_output_buffer;
    dest->pub.term_destination = term_destination;
    dst->dest = &dest->pub;
}

void jpeg_session_finish_input(jpeg_session *session) {
    jpeg_finish_decompress(&session->src);
    session->image_end = input_position(session);
}

/// Copies the source's bytes after its EOI to the output.
static void carry_trailing_bytes(jpeg_session *session) {
    const jpeg_input *input = &session->input;
    if (input->size <= session->image_end) return;
    if (input->data != NULL) {
        put_output(session, input->data + session->image_end, input->size - session->image_end);
        return;
    }
    JOCTET chunk[INPUT_CHUNK];
    for (uint64_t offset = session->image_end; offset < input->size;) {
        ssize_t got = dossier_pread_fully(input->fd, chunk, sizeof chunk, offset);
        if (got < 0) jpeg_session_abort(session, DOSSIER_ERR_DECODE, "cannot read the file: %s", strerror(errno));
        if (got == 0) break;
        put_output(session, chunk, (size_t)got);
        offset += (uint64_t)got;
    }
}

void jpeg_session_finish_output(jpeg_session *session, dossier_buffer *out) {
    jpeg_finish_compress(&session->dst);
    if (session->src.mem != NULL) jpeg_session_finish_input(session);
    if (session->carry_trailing) carry_trailing_bytes(session);
    if (out != NULL) dossier_growable_finish(&session->output, out);
}

// ---------------------------------------------------------------------------------
// Header facts and validation
// ---------------------------------------------------------------------------------

typedef struct {
    jpeg_input input;
    dossier_jpeg_info *info;
} info_task;

static void read_info_body(jpeg_session *session, void *context) {
    info_task *task = context;
    jpeg_session_read_header(session, task->input, 0);
    // Filled even for a picture over the limit, so the caller can say how large it is.
    jpeg_describe_source(&session->src, task->info);
    jpeg_session_check_limits(session);
}

int dossier_jpeg_read_info(const uint8_t *data, size_t size, dossier_jpeg_info *info, dossier_status *status) {
    jpeg_session session;
    info_task task = {{data, size, -1}, info};
    memset(info, 0, sizeof(*info));
    return jpeg_session_run(&session, status, read_info_body, &task);
}

int dossier_jpeg_read_info_file(int fd, dossier_jpeg_info *info, dossier_status *status) {
    jpeg_session session;
    info_task task = {{NULL, 0, fd}, info};
    memset(info, 0, sizeof(*info));
    return jpeg_session_run(&session, status, read_info_body, &task);
}

typedef struct {
    jpeg_input input;
    int scratch_folder;
    int tolerate_damage;
} validate_task;

static void validate_body(jpeg_session *session, void *context) {
    validate_task *task = context;
    session->tolerate_damage = task->tolerate_damage;
    if (task->scratch_folder >= 0) jpeg_session_use_scratch(session, task->scratch_folder);
    jpeg_session_read_header(session, task->input, 0);
    jpeg_session_check_limits(session);
    jpeg_read_coefficients(&session->src);
    jpeg_finish_decompress(&session->src);
}

static int run_validate(validate_task task, dossier_status *status) {
    jpeg_session session;
    return jpeg_session_run(&session, status, validate_body, &task);
}

int dossier_jpeg_validate(const uint8_t *data, size_t size, dossier_status *status) {
    return run_validate((validate_task){{data, size, -1}, -1, 0}, status);
}

int dossier_jpeg_validate_file(int fd, int scratch_folder, dossier_status *status) {
    return run_validate((validate_task){{NULL, 0, fd}, scratch_folder, 0}, status);
}

int dossier_jpeg_decodes_damaged(const uint8_t *data, size_t size, dossier_status *status) {
    return run_validate((validate_task){{data, size, -1}, -1, 1}, status);
}

int dossier_jpeg_decodes_damaged_file(int fd, int scratch_folder, dossier_status *status) {
    return run_validate((validate_task){{NULL, 0, fd}, scratch_folder, 1}, status);
}

// ---------------------------------------------------------------------------------
// RGB decode and encode
// ---------------------------------------------------------------------------------

typedef struct {
    const uint8_t *data;
    size_t size;
    dossier_buffer *rgb;
    int *width;
    int *height;
} decode_task;

/// Naive ink arithmetic, good enough for previews. Adobe's encoders store CMYK inverted
/// (255 = no ink) and libjpeg hands the stored values through unchanged.
static void cmyk_row_to_rgb(const JSAMPLE *cmyk, uint8_t *rgb, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++, cmyk += 4, rgb += 3) {
        unsigned paper[4];
        for (int i = 0; i < 4; i++) paper[i] = inverted ? cmyk[i] : 255u - cmyk[i];
        for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)((paper[i] * paper[3] + 127u) / 255u);
    }
}

static void decode_rgb_body(jpeg_session *session, void *context) {
    decode_task *task = context;
    j_decompress_ptr src = &session->src;
    jpeg_session_read_header(session, (jpeg_input){task->data, task->size, -1}, 0);
    jpeg_session_check_limits(session);
    // libjpeg-turbo 2.1 cannot convert CMYK/YCCK to RGB itself.
    int cmyk = src->jpeg_color_space == JCS_CMYK || src->jpeg_color_space == JCS_YCCK;
    src->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    src->dct_method = JDCT_ISLOW;
    jpeg_start_decompress(src);

    size_t row_bytes = (size_t)src->output_width * 3;
    task->rgb->data = malloc(row_bytes * src->output_height);
    if (task->rgb->data == NULL) {
        jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "out of memory for %ux%u RGB pixels",
                           (unsigned)src->output_width, (unsigned)src->output_height);
    }
    task->rgb->size = row_bytes * src->output_height;
    JSAMPARRAY ink = cmyk ? (*src->mem->alloc_sarray)((j_common_ptr)src, JPOOL_IMAGE, src->output_width * 4, 1) : NULL;
    while (src->output_scanline < src->output_height) {
        JSAMPROW row = task->rgb->data + src->output_scanline * row_bytes;
        if (cmyk) {
            jpeg_read_scanlines(src, ink, 1);
            cmyk_row_to_rgb(ink[0], row, src->output_width, src->saw_Adobe_marker);
        } else {
            jpeg_read_scanlines(src, &row, 1);
        }
    }
    *task->width = (int)src->output_width;
    *task->height = (int)src->output_height;
    jpeg_finish_decompress(src);
}

int dossier_jpeg_decode_rgb(const uint8_t *data, size_t size, dossier_buffer *rgb,
                            int *width, int *height, dossier_status *status) {
    jpeg_session session;
    decode_task task = {data, size, rgb, width, height};
    rgb->data = NULL;
    rgb->size = 0;
    *width = *height = 0;
    int code = jpeg_session_run(&session, status, decode_rgb_body, &task);
    if (code != DOSSIER_OK) {
        dossier_buffer_free(rgb);
        *width = *height = 0;
    }
    return code;
}

typedef struct {
    const uint8_t *rgb;
    /// Bytes from one row's start to the next's (at least width * 3).
    size_t stride;
    int width;
    int height;
    int quality;
    int h_samp;
    int v_samp;
    const uint8_t *app1;
    size_t app1_size;
    const uint8_t *icc;
    size_t icc_size;
    dossier_buffer *out;
} encode_task;

static void check_encode_arguments(jpeg_session *session, const encode_task *task) {
    if (task->rgb == NULL || task->width <= 0 || task->height <= 0) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "no pixels to encode (%dx%d)", task->width, task->height);
    }
    if ((uint64_t)task->width * (uint64_t)task->height > DOSSIER_MAX_PIXELS || task->width > JPEG_MAX_DIMENSION ||
        task->height > JPEG_MAX_DIMENSION) {
        jpeg_session_abort(session, DOSSIER_ERR_LIMIT, "picture is %dx%d, too large to encode", task->width,
                           task->height);
    }
    if (task->quality < 1 || task->quality > 100) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "quality %d is not 1...100", task->quality);
    }
    if (task->h_samp < 1 || task->h_samp > MAX_SAMP_FACTOR || task->v_samp < 1 || task->v_samp > MAX_SAMP_FACTOR) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "sampling %dx%d is not 1...%d each", task->h_samp,
                           task->v_samp, MAX_SAMP_FACTOR);
    }
    if (task->app1 != NULL && task->app1_size > 65533) {
        jpeg_session_abort(session, DOSSIER_ERR_ARGUMENT, "APP1 payload of %zu bytes exceeds 65533",
                           task->app1_size);
    }
}

static void encode_rgb_body(jpeg_session *session, void *context) {
    encode_task *task = context;
    check_encode_arguments(session, task);
    jpeg_session_open_output(session);
    j_compress_ptr dst = &session->dst;
    dst->image_width = (JDIMENSION)task->width;
    dst->image_height = (JDIMENSION)task->height;
    dst->input_components = 3;
    dst->in_color_space = JCS_RGB;
    jpeg_set_defaults(dst);
    jpeg_set_quality(dst, task->quality, TRUE);
    dst->dct_method = JDCT_ISLOW;
    dst->comp_info[0].h_samp_factor = task->h_samp;
    dst->comp_info[0].v_samp_factor = task->v_samp;
    for (int ci = 1; ci < 3; ci++) dst->comp_info[ci].h_samp_factor = dst->comp_info[ci].v_samp_factor = 1;
    jpeg_start_compress(dst, TRUE);
    if (task->app1 != NULL) jpeg_write_marker(dst, JPEG_APP0 + 1, task->app1, (unsigned)task->app1_size);
    // libjpeg-turbo splits the profile over as many APP2 ICC_PROFILE markers as it needs.
    if (task->icc != NULL && task->icc_size > 0) jpeg_write_icc_profile(dst, task->icc, (unsigned)task->icc_size);
    while (dst->next_scanline < dst->image_height) {
        // libjpeg only reads input rows; its row type just is not const.
        JSAMPROW row = (JSAMPROW)(task->rgb + dst->next_scanline * task->stride);
        jpeg_write_scanlines(dst, &row, 1);
    }
    jpeg_session_finish_output(session, task->out);
}

int dossier_jpeg_encode_rgb(const uint8_t *rgb, int width, int height, int quality,
                            int h_samp, int v_samp, const uint8_t *app1, size_t app1_size,
                            const uint8_t *icc, size_t icc_size, dossier_buffer *out, dossier_status *status) {
    return dossier_jpeg_encode_rgb_rows(rgb, (size_t)(width > 0 ? width : 0) * 3, width, height, quality, h_samp,
                                        v_samp, app1, app1_size, icc, icc_size, out, status);
}

int dossier_jpeg_encode_rgb_rows(const uint8_t *rgb, size_t stride, int width, int height, int quality,
                                 int h_samp, int v_samp, const uint8_t *app1, size_t app1_size,
                                 const uint8_t *icc, size_t icc_size, dossier_buffer *out, dossier_status *status) {
    jpeg_session session;
    encode_task task = {rgb, stride, width, height, quality, h_samp, v_samp, app1, app1_size, icc, icc_size, out};
    out->data = NULL;
    out->size = 0;
    return jpeg_session_run(&session, status, encode_rgb_body, &task);
}

// ---------------------------------------------------------------------------------
// Coefficient dump
// ---------------------------------------------------------------------------------

typedef struct {
    const uint8_t *data;
    size_t size;
    dossier_jpeg_coefficients *out;
} coefficients_task;

static void copy_component(jpeg_session *session, jvirt_barray_ptr array, int ci, dossier_jpeg_coefficients *out) {
    j_decompress_ptr src = &session->src;
    const jpeg_component_info *comp = &src->comp_info[ci];
    size_t row_values = (size_t)comp->width_in_blocks * DCTSIZE2;
    out->width_in_blocks[ci] = (int)comp->width_in_blocks;
    out->height_in_blocks[ci] = (int)comp->height_in_blocks;
    out->blocks[ci] = malloc(row_values * comp->height_in_blocks * sizeof(int16_t));
    if (out->blocks[ci] == NULL) {
        jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "out of memory for the coefficients of component %d", ci);
    }
    for (JDIMENSION y = 0; y < comp->height_in_blocks; y++) {
        JBLOCKARRAY row = (*src->mem->access_virt_barray)((j_common_ptr)src, array, y, 1, FALSE);
        memcpy(out->blocks[ci] + y * row_values, row[0], row_values * sizeof(JCOEF));
    }
    // The table the component was actually decoded with (a DQT may be redefined between
    // scans); NULL only if no scan ever covered the component.
    if (comp->quant_table != NULL) {
        for (int k = 0; k < DCTSIZE2; k++) out->quant[ci][k] = comp->quant_table->quantval[k];
    }
}

static void read_coefficients_body(jpeg_session *session, void *context) {
    coefficients_task *task = context;
    jpeg_session_read_header(session, (jpeg_input){task->data, task->size, -1}, 0);
    jpeg_session_check_limits(session);
    if (session->src.num_components > 4) {
        jpeg_session_abort(session, DOSSIER_ERR_DECODE, "%d components; at most 4 supported",
                           session->src.num_components);
    }
    jvirt_barray_ptr *arrays = jpeg_read_coefficients(&session->src);
    task->out->components = session->src.num_components;
    for (int ci = 0; ci < session->src.num_components; ci++) copy_component(session, arrays[ci], ci, task->out);
    jpeg_finish_decompress(&session->src);
}

int dossier_jpeg_read_coefficients(const uint8_t *data, size_t size,
                                   dossier_jpeg_coefficients *out, dossier_status *status) {
    jpeg_session session;
    coefficients_task task = {data, size, out};
    memset(out, 0, sizeof(*out));
    int code = jpeg_session_run(&session, status, read_coefficients_body, &task);
    if (code != DOSSIER_OK) dossier_jpeg_coefficients_free(out);
    return code;
}

void dossier_jpeg_coefficients_free(dossier_jpeg_coefficients *coefficients) {
    if (coefficients == NULL) return;
    for (int ci = 0; ci < 4; ci++) free(coefficients->blocks[ci]);
    memset(coefficients, 0, sizeof(*coefficients));
}
