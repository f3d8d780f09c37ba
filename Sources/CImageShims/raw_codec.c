// Camera raws through LibRaw: how the camera says to show them (their turn) and the preview
// the camera embedded, which is what a rendition is made of. Nothing here decodes the raw data
// itself: a raw is filed byte for byte, and its embedded preview is the camera's own picture.
#include "dossier_common.h"
#include <libraw/libraw.h>
#include <stdlib.h>
#include <string.h>

/// Opens the raw in memory (data, size) or at `path`; on failure fills `status` and returns NULL.
static libraw_data_t *raw_open(const uint8_t *data, size_t size, const char *path, dossier_status *status) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "LibRaw could not start (out of memory)");
        return NULL;
    }
    int result = path ? libraw_open_file(raw, path) : libraw_open_buffer(raw, (void *)data, size);
    if (result != LIBRAW_SUCCESS) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "LibRaw cannot read it: %s", libraw_strerror(result));
        libraw_close(raw);
        return NULL;
    }
    return raw;
}

static void raw_facts(const libraw_data_t *raw, dossier_raw_facts *facts) {
    facts->flip = raw->sizes.flip;
}

int dossier_raw_preview(const uint8_t *data, size_t size, const char *path, dossier_raw_facts *facts,
                        dossier_raw_picture *picture, dossier_status *status) {
    dossier_status_reset(status);
    memset(facts, 0, sizeof *facts);
    memset(picture, 0, sizeof *picture);
    libraw_data_t *raw = raw_open(data, size, path, status);
    if (!raw) return status->code;
    raw_facts(raw, facts);
    int result = libraw_unpack_thumb(raw);
    if (result != LIBRAW_SUCCESS) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "it has no preview LibRaw can read: %s", libraw_strerror(result));
        libraw_close(raw);
        return status->code;
    }
    int error = 0;
    libraw_processed_image_t *thumb = libraw_dcraw_make_mem_thumb(raw, &error);
    if (!thumb) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "its preview cannot be taken out: %s", libraw_strerror(error));
        libraw_close(raw);
        return status->code;
    }
    if (thumb->type == LIBRAW_IMAGE_JPEG) {
        picture->is_jpeg = 1;
    } else if (thumb->type != LIBRAW_IMAGE_BITMAP || thumb->bits != 8 || (thumb->colors != 3 && thumb->colors != 1)) {
        dossier_status_fail(status, DOSSIER_ERR_DECODE, "its preview is in a layout Dossier does not read (%d colours of %d bits)",
                            (int)thumb->colors, (int)thumb->bits);
    } else if (thumb->width == 0 || thumb->height == 0
               || (uint64_t)thumb->width * thumb->height > DOSSIER_MAX_PIXELS) {
        dossier_status_fail(status, DOSSIER_ERR_LIMIT, "its preview is %ux%u pixels", (unsigned)thumb->width,
                            (unsigned)thumb->height);
    }
    if (status->code == 0) {
        size_t count = thumb->data_size;
        if (!picture->is_jpeg && thumb->colors == 1) count = (size_t)thumb->width * thumb->height * 3;
        picture->pixels.data = malloc(count ? count : 1);
        if (!picture->pixels.data) {
            dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for its preview");
        } else if (!picture->is_jpeg && thumb->colors == 1) {
            // Grey previews are given as RGB, the one layout the encoder takes.
            for (size_t i = 0; i < (size_t)thumb->width * thumb->height; i++) {
                memset(picture->pixels.data + i * 3, thumb->data[i], 3);
            }
        } else {
            memcpy(picture->pixels.data, thumb->data, count);
        }
        picture->pixels.size = count;
        picture->width = thumb->width;
        picture->height = thumb->height;
    }
    libraw_dcraw_clear_mem(thumb);
    libraw_close(raw);
    return status->code;
}
