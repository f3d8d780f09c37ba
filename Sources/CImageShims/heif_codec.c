// HEIF and HEIC through libheif. libheif reports errors as values (no setjmp), but its calls
// live here like the other image libraries': one place that sets its limits, applies the
// container's transforms and turns its errors into a dossier_status.
#include "dossier_common.h"
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// libheif's own message, kept whole: it is what the user is shown.
static int fail_with(dossier_status *status, struct heif_error error) {
    int code = error.code == heif_error_Memory_allocation_error ? DOSSIER_ERR_LIMIT : DOSSIER_ERR_DECODE;
    dossier_status_fail(status, code, "%s", error.message != NULL && error.message[0] != 0 ? error.message : "libheif failed");
    return status->code;
}

/// A context over the bytes (not copied: the caller keeps them alive) or the file at `path`,
/// with the primary image's handle.
typedef struct {
    struct heif_context *context;
    struct heif_image_handle *primary;
} heif_session;

static void heif_session_close(heif_session *session) {
    if (session->primary != NULL) heif_image_handle_release(session->primary);
    if (session->context != NULL) heif_context_free(session->context);
    session->primary = NULL;
    session->context = NULL;
}

/// A primary image whose size libheif could not tell at opening (a grid or overlay whose own data
/// is broken) is one libheif refuses when it decodes: it is asked to, so the user reads its
/// reason, with a side limit that keeps the worst case within DOSSIER_MAX_PIXELS (the size is
/// unknown, so no other check can bound what it would allocate).
static void explain_missing_size(heif_session *session, dossier_status *status) {
    heif_context_set_maximum_image_size_limit(session->context, 12247);
    struct heif_image *image = NULL;
    struct heif_error error = heif_decode_image(session->primary, &image, heif_colorspace_RGB,
                                                heif_chroma_interleaved_RGB, NULL);
    if (error.code != heif_error_Ok) {
        fail_with(status, error);
    } else {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "the primary image has no size");
    }
    if (image != NULL) heif_image_release(image);
}

/// The primary image's handle; when `pitm` names an item that is only another image's thumbnail
/// (Nokia C005), the image it is the thumbnail of: what every viewer shows.
static struct heif_error primary_image_handle(struct heif_context *context, struct heif_image_handle **handle) {
    heif_item_id primary = 0;
    struct heif_error error = heif_context_get_primary_image_ID(context, &primary);
    if (error.code != heif_error_Ok || heif_context_is_top_level_image_ID(context, primary)) {
        return heif_context_get_primary_image_handle(context, handle);
    }
    heif_item_id first = 0;
    if (heif_context_get_list_of_top_level_image_IDs(context, &first, 1) != 1) {
        return heif_context_get_primary_image_handle(context, handle);
    }
    return heif_context_get_image_handle(context, first, handle);
}

static int heif_session_open(heif_session *session, const uint8_t *data, size_t size, const char *path,
                             int decoding_threads, dossier_status *status) {
    memset(session, 0, sizeof(*session));
    session->context = heif_context_alloc();
    if (session->context == NULL) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for a HEIF context");
        return status->code;
    }
    // libheif refuses pictures wider or taller than this before allocating anything; the pixel
    // count is checked against DOSSIER_MAX_PIXELS below.
    heif_context_set_maximum_image_size_limit(session->context, 65535);
    heif_context_set_max_decoding_threads(session->context, decoding_threads);
    struct heif_error error = path != NULL
        ? heif_context_read_from_file(session->context, path, NULL)
        : heif_context_read_from_memory_without_copy(session->context, data, size, NULL);
    if (error.code == heif_error_Ok) error = primary_image_handle(session->context, &session->primary);
    if (error.code != heif_error_Ok) {
        // The message may live in the context: copied before it goes.
        fail_with(status, error);
        heif_session_close(session);
        return status->code;
    }
    int width = heif_image_handle_get_width(session->primary);
    int height = heif_image_handle_get_height(session->primary);
    if (width <= 0 || height <= 0) {
        explain_missing_size(session, status);
        heif_session_close(session);
        return status->code;
    }
    if ((uint64_t)width * (uint64_t)height > DOSSIER_MAX_PIXELS) {
        dossier_status_fail(status, DOSSIER_ERR_LIMIT, "the primary image is %dx%d, too large to decode", width, height);
        heif_session_close(session);
        return status->code;
    }
    return DOSSIER_OK;
}

/// Copies one metadata block or the raw colour profile into a malloc'd buffer.
static int copy_block(dossier_buffer *out, size_t size, dossier_status *status) {
    out->data = size > 0 ? malloc(size) : NULL;
    out->size = out->data != NULL ? size : 0;
    if (size > 0 && out->data == NULL) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for %zu bytes of metadata", size);
        return 0;
    }
    return 1;
}

/// Whether a metadata block of `size` bytes, a size the file gave, is one to take: past
/// DOSSIER_MAX_METADATA_SIZE it is left out, with a warning, and the photo goes on without it.
static int within_metadata_limit(const char *what, size_t size, dossier_status *status) {
    if (size <= DOSSIER_MAX_METADATA_SIZE) return 1;
    char warning[DOSSIER_MESSAGE_MAX];
    snprintf(warning, sizeof warning, "the %s is %zu bytes, more than the %u Dossier takes: left out", what, size,
             DOSSIER_MAX_METADATA_SIZE);
    dossier_status_warn(status, warning);
    return 0;
}

static int inspect_session(heif_session *session, dossier_heif_info *info, dossier_buffer *exif, dossier_buffer *icc,
                           dossier_status *status) {
    struct heif_image_handle *primary = session->primary;
    info->width = heif_image_handle_get_width(primary);
    info->height = heif_image_handle_get_height(primary);
    info->has_alpha = heif_image_handle_has_alpha_channel(primary);
    info->bit_depth = heif_image_handle_get_luma_bits_per_pixel(primary);
    info->top_level_images = heif_context_get_number_of_top_level_images(session->context);
    heif_item_id exif_id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &exif_id, 1) == 1) {
        size_t size = heif_image_handle_get_metadata_size(primary, exif_id);
        if (!within_metadata_limit("EXIF item", size, status)) {
            info->exif_left_out = size;
        } else {
            if (!copy_block(exif, size, status)) return status->code;
            if (size > 0) {
                struct heif_error error = heif_image_handle_get_metadata(primary, exif_id, exif->data);
                if (error.code != heif_error_Ok) return fail_with(status, error);
            }
        }
    }
    size_t icc_size = heif_image_handle_get_raw_color_profile_size(primary);
    if (icc_size > 0 && within_metadata_limit("ICC profile", icc_size, status)) {
        if (!copy_block(icc, icc_size, status)) return status->code;
        struct heif_error error = heif_image_handle_get_raw_color_profile(primary, icc->data);
        if (error.code != heif_error_Ok) {
            dossier_buffer_free(icc);
            return fail_with(status, error);
        }
    }
    return DOSSIER_OK;
}

int dossier_heif_inspect(const uint8_t *data, size_t size, const char *path, dossier_heif_info *info,
                         dossier_buffer *exif, dossier_buffer *icc, dossier_status *status) {
    dossier_status_reset(status);
    memset(info, 0, sizeof(*info));
    *exif = (dossier_buffer){NULL, 0};
    *icc = (dossier_buffer){NULL, 0};
    heif_session session;
    if (heif_session_open(&session, data, size, path, 0, status) != DOSSIER_OK) return status->code;
    int code = inspect_session(&session, info, exif, icc, status);
    heif_session_close(&session);
    if (code != DOSSIER_OK) {
        dossier_buffer_free(exif);
        dossier_buffer_free(icc);
    }
    return code;
}

/// Decodes the primary image to interleaved 8-bit RGB (RGBA when it has alpha), its transforms
/// applied or not.
static int decode_primary(heif_session *session, int apply_transformations, struct heif_image **image, int *alpha,
                          dossier_status *status) {
    *alpha = heif_image_handle_has_alpha_channel(session->primary);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for decoding options");
        return status->code;
    }
    options->ignore_transformations = apply_transformations ? 0 : 1;
    // 10- and 12-bit pictures come out as 8 bits a sample, the depth of a JPEG or an 8-bit PNG.
    options->convert_hdr_to_8bit = 1;
    struct heif_error error = heif_decode_image(session->primary, image, heif_colorspace_RGB,
                                                *alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) return fail_with(status, error);
    return DOSSIER_OK;
}

/// The decoded picture's interleaved plane, checked.
static const uint8_t *interleaved_plane(struct heif_image *image, int channels, int *width, int *height, int *stride,
                                        dossier_status *status) {
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, stride);
    *width = heif_image_get_width(image, heif_channel_interleaved);
    *height = heif_image_get_height(image, heif_channel_interleaved);
    if (plane == NULL || *width <= 0 || *height <= 0 || *stride < *width * channels) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "libheif gave no %s pixels", channels == 4 ? "RGBA" : "RGB");
        return NULL;
    }
    return plane;
}

int dossier_heif_decode(const uint8_t *data, size_t size, const char *path, int apply_transformations,
                        int decoding_threads, dossier_buffer *pixels, int *width, int *height, int *channels,
                        dossier_status *status) {
    dossier_status_reset(status);
    *pixels = (dossier_buffer){NULL, 0};
    *width = *height = *channels = 0;
    heif_session session;
    if (heif_session_open(&session, data, size, path, decoding_threads, status) != DOSSIER_OK) return status->code;
    struct heif_image *image = NULL;
    int alpha = 0, w = 0, h = 0, stride = 0;
    if (decode_primary(&session, apply_transformations, &image, &alpha, status) == DOSSIER_OK) {
        int count = alpha ? 4 : 3;
        const uint8_t *plane = interleaved_plane(image, count, &w, &h, &stride, status);
        size_t row = (size_t)w * (size_t)count;
        if (plane != NULL && copy_block(pixels, row * (size_t)h, status)) {
            for (int y = 0; y < h; y++) memcpy(pixels->data + (size_t)y * row, plane + (size_t)y * (size_t)stride, row);
            *width = w;
            *height = h;
            *channels = count;
        }
    }
    if (image != NULL) heif_image_release(image);
    heif_session_close(&session);
    return status->code;
}

int dossier_heif_render_jpeg(const uint8_t *data, size_t size, const char *path, int decoding_threads, int quality,
                             const uint8_t *exif_app1, size_t exif_app1_size, dossier_buffer *out, int *width,
                             int *height, dossier_status *status) {
    dossier_status_reset(status);
    *out = (dossier_buffer){NULL, 0};
    *width = *height = 0;
    heif_session session;
    if (heif_session_open(&session, data, size, path, decoding_threads, status) != DOSSIER_OK) return status->code;
    dossier_buffer icc = {NULL, 0};
    size_t icc_size = heif_image_handle_get_raw_color_profile_size(session.primary);
    if (icc_size > 0 && within_metadata_limit("ICC profile", icc_size, status) && copy_block(&icc, icc_size, status) &&
        heif_image_handle_get_raw_color_profile(session.primary, icc.data).code != heif_error_Ok) {
        // A profile libheif lists but cannot hand over: the rendition goes without it.
        dossier_buffer_free(&icc);
    }
    struct heif_image *image = NULL;
    int alpha = 0, w = 0, h = 0, stride = 0;
    if (status->code == DOSSIER_OK && decode_primary(&session, 1, &image, &alpha, status) == DOSSIER_OK) {
        if (alpha) {
            dossier_status_fail(status, DOSSIER_ERR_ARGUMENT, "the picture has alpha: its rendition is a PNG");
        } else {
            const uint8_t *plane = interleaved_plane(image, 3, &w, &h, &stride, status);
            if (plane != NULL &&
                dossier_jpeg_encode_rgb_rows(plane, (size_t)stride, w, h, quality, 1, 1, exif_app1, exif_app1_size,
                                             icc.data, icc.size, out, status) == DOSSIER_OK) {
                *width = w;
                *height = h;
            }
        }
    }
    dossier_buffer_free(&icc);
    if (image != NULL) heif_image_release(image);
    heif_session_close(&session);
    return status->code;
}
