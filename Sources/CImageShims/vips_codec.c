// Renditions of the images browsers cannot show (TIFF, BMP, JPEG XL) through libvips, the
// library Immich and PhotoPrism make theirs with. libvips is loaded when the first rendition is
// asked for, not linked: it brings about a hundred shared libraries (ImageMagick, poppler,
// OpenEXR...) whose loading would be paid by every `dossier` command and held by the daemon
// for months, for the few files that need it (docs/performance.md has the measurement).
#include "dossier_common.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few libvips and GLib calls used, declared here so no libvips header is needed to build.
typedef struct _VipsImage VipsImage;
enum { VIPS_SIZE_DOWN = 2 };

static struct {
    int loaded;
    char why_not[DOSSIER_MESSAGE_MAX];
    int (*init)(const char *argv0);
    void (*concurrency_set)(int concurrency);
    void (*cache_set_max)(int max);
    VipsImage *(*image_new_from_buffer)(const void *buf, size_t len, const char *option_string, ...);
    VipsImage *(*image_new_from_file)(const char *name, ...);
    int (*thumbnail_buffer)(void *buf, size_t len, VipsImage **out, int width, ...);
    int (*thumbnail)(const char *filename, VipsImage **out, int width, ...);
    int (*image_get_width)(const VipsImage *image);
    int (*image_get_height)(const VipsImage *image);
    int (*image_hasalpha)(VipsImage *image);
    int (*jpegsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*pngsave_buffer)(VipsImage *in, void **buf, size_t *len, ...);
    int (*save_buffer)(VipsImage *in, const char *suffix, void **buf, size_t *len, ...);
    VipsImage *(*image_new_from_memory_copy)(const void *data, size_t size, int width, int height, int bands, int format);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*thread_shutdown)(void);
    void (*object_unref)(void *object);
    void (*g_free)(void *memory);
    unsigned (*log_set_handler)(const char *domain, int levels, void (*handler)(const char *, int, const char *, void *),
                                void *data);
} vips;

/// libvips' warnings (GLib's log) would go to stderr, between Dossier's own lines; each one that
/// matters fails its call (fail_on) and is said there, with the file's name.
static void vips_quiet(const char *domain, int level, const char *message, void *data) {
    (void)domain, (void)level, (void)message, (void)data;
}

static pthread_once_t vips_once = PTHREAD_ONCE_INIT;

#define VIPS_SYMBOL(field, name)                                                                           \
    if (!(*(void **)&vips.field = dlsym(library, name))) {                                                 \
        snprintf(vips.why_not, sizeof vips.why_not, "libvips (libvips.so.42) lacks %s", name);            \
        return;                                                                                            \
    }

static void vips_load(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(vips.why_not, sizeof vips.why_not, "libvips is not installed (apt-get install libvips42): %s", dlerror());
        return;
    }
    VIPS_SYMBOL(init, "vips_init");
    VIPS_SYMBOL(concurrency_set, "vips_concurrency_set");
    VIPS_SYMBOL(cache_set_max, "vips_cache_set_max");
    VIPS_SYMBOL(image_new_from_buffer, "vips_image_new_from_buffer");
    VIPS_SYMBOL(image_new_from_file, "vips_image_new_from_file");
    VIPS_SYMBOL(thumbnail_buffer, "vips_thumbnail_buffer");
    VIPS_SYMBOL(thumbnail, "vips_thumbnail");
    VIPS_SYMBOL(image_get_width, "vips_image_get_width");
    VIPS_SYMBOL(image_get_height, "vips_image_get_height");
    VIPS_SYMBOL(image_hasalpha, "vips_image_hasalpha");
    VIPS_SYMBOL(jpegsave_buffer, "vips_jpegsave_buffer");
    VIPS_SYMBOL(pngsave_buffer, "vips_pngsave_buffer");
    VIPS_SYMBOL(save_buffer, "vips_image_write_to_buffer");
    VIPS_SYMBOL(image_new_from_memory_copy, "vips_image_new_from_memory_copy");
    VIPS_SYMBOL(error_buffer, "vips_error_buffer");
    VIPS_SYMBOL(error_clear, "vips_error_clear");
    VIPS_SYMBOL(thread_shutdown, "vips_thread_shutdown");
    VIPS_SYMBOL(object_unref, "g_object_unref");
    VIPS_SYMBOL(g_free, "g_free");
    VIPS_SYMBOL(log_set_handler, "g_log_set_handler");
    // G_LOG_LEVEL_WARNING, _MESSAGE, _INFO and _DEBUG.
    vips.log_set_handler("VIPS", (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7), vips_quiet, NULL);
    if (vips.init("dossier") != 0) {
        snprintf(vips.why_not, sizeof vips.why_not, "libvips would not start: %s", vips.error_buffer());
        return;
    }
    // Dossier runs one source a job already; libvips' own threads would only compete with them.
    vips.concurrency_set(1);
    // Nothing is asked twice: cached operations would only hold each source's pixels longer.
    vips.cache_set_max(0);
    vips.loaded = 1;
}

static int vips_ready(dossier_status *status) {
    pthread_once(&vips_once, vips_load);
    if (!vips.loaded) dossier_status_fail(status, DOSSIER_ERR_ENCODE, "%s", vips.why_not);
    return vips.loaded;
}

/// Fails `status` with libvips' message (its last line: the one that names the cause), and clears it.
static void vips_fail(dossier_status *status, int code, const char *what) {
    const char *text = vips.error_buffer();
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '\n') length--;
    size_t start = length;
    while (start > 0 && text[start - 1] != '\n') start--;
    dossier_status_fail(status, code, "%s: %.*s", what, (int)(length - start), text + start);
    vips.error_clear();
}

int dossier_vips_available(dossier_status *status) {
    dossier_status_reset(status);
    return vips_ready(status);
}

int dossier_vips_size(const uint8_t *data, size_t size, const char *path, int *width, int *height, dossier_status *status) {
    dossier_status_reset(status);
    *width = *height = 0;
    if (!vips_ready(status)) return status->code;
    // The header alone (libvips reads pixels only when asked).
    VipsImage *header = path ? vips.image_new_from_file(path, NULL) : vips.image_new_from_buffer(data, size, "", NULL);
    if (!header) {
        vips_fail(status, DOSSIER_ERR_DECODE, "libvips cannot read it");
    } else {
        *width = vips.image_get_width(header);
        *height = vips.image_get_height(header);
        vips.object_unref(header);
        uint64_t pixels = (uint64_t)*width * (uint64_t)*height;
        if (pixels == 0 || pixels > DOSSIER_MAX_PIXELS) {
            dossier_status_fail(status, DOSSIER_ERR_LIMIT, "it is %llu pixels; renditions are made up to %u",
                                (unsigned long long)pixels, DOSSIER_MAX_PIXELS);
        }
    }
    vips.thread_shutdown();
    return status->code;
}

int dossier_vips_render(const uint8_t *data, size_t size, const char *path, int quality, dossier_buffer *out,
                        int *is_png, int *width, int *height, dossier_status *status) {
    dossier_status_reset(status);
    memset(out, 0, sizeof *out);
    *is_png = 0;
    if (!vips_ready(status)) return status->code;
    // Full size (only ever made smaller, never larger), turned upright by its orientation tag,
    // in sRGB, 8 bits: what a browser shows. A load warning (data that ends early) fails it, so
    // damage is never baked into new pixels.
    const int unbounded = 10000000;
    VipsImage *upright = NULL;
    int failed = path ? vips.thumbnail(path, &upright, unbounded, "height", unbounded, "size", VIPS_SIZE_DOWN,
                                       "option_string", "fail_on=warning", NULL)
                      : vips.thumbnail_buffer((void *)data, size, &upright, unbounded, "height", unbounded,
                                              "size", VIPS_SIZE_DOWN, "option_string", "fail_on=warning", NULL);
    if (failed || !upright) {
        vips_fail(status, DOSSIER_ERR_DECODE, "libvips cannot decode it");
        vips.thread_shutdown();
        return status->code;
    }
    void *bytes = NULL;
    size_t length = 0;
    *is_png = vips.image_hasalpha(upright) ? 1 : 0;
    failed = *is_png ? vips.pngsave_buffer(upright, &bytes, &length, NULL)
                     : vips.jpegsave_buffer(upright, &bytes, &length, "Q", quality, NULL);
    *width = vips.image_get_width(upright);
    *height = vips.image_get_height(upright);
    vips.object_unref(upright);
    if (failed || !bytes) {
        vips_fail(status, DOSSIER_ERR_DECODE, "libvips cannot decode it");
    } else if ((out->data = malloc(length ? length : 1))) {
        memcpy(out->data, bytes, length);
        out->size = length;
    } else {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for its rendition");
    }
    if (bytes) vips.g_free(bytes);
    vips.thread_shutdown();
    return status->code;
}

int dossier_vips_encode_rgb(const uint8_t *rgb, int width, int height, const char *suffix, dossier_buffer *out,
                            dossier_status *status) {
    dossier_status_reset(status);
    memset(out, 0, sizeof *out);
    if (!vips_ready(status)) return status->code;
    // VIPS_FORMAT_UCHAR is 0.
    VipsImage *image = vips.image_new_from_memory_copy(rgb, (size_t)width * height * 3, width, height, 3, 0);
    if (!image) {
        vips_fail(status, DOSSIER_ERR_ENCODE, "libvips cannot take the pixels");
        return status->code;
    }
    void *bytes = NULL;
    size_t length = 0;
    if (vips.save_buffer(image, suffix, &bytes, &length, NULL) || !bytes) {
        vips_fail(status, DOSSIER_ERR_ENCODE, "libvips cannot save it");
    } else if ((out->data = malloc(length ? length : 1))) {
        memcpy(out->data, bytes, length);
        out->size = length;
    }
    if (bytes) vips.g_free(bytes);
    vips.object_unref(image);
    vips.thread_shutdown();
    return status->code;
}

int dossier_vips_thumbnail(const uint8_t *data, size_t size, int longest, int quality, dossier_buffer *out, int *width,
                           int *height, dossier_status *status) {
    dossier_status_reset(status);
    memset(out, 0, sizeof *out);
    *width = *height = 0;
    if (!vips_ready(status)) return status->code;
    // Shrink-on-load where the loader can (JPEG, WebP), turned upright by its orientation tag; the
    // first frame of an animation.
    VipsImage *small = NULL;
    if (vips.thumbnail_buffer((void *)data, size, &small, longest, "height", longest, "size", VIPS_SIZE_DOWN,
                              "option_string", "fail_on=warning", NULL) || !small) {
        vips_fail(status, DOSSIER_ERR_DECODE, "libvips cannot decode it");
        vips.thread_shutdown();
        return status->code;
    }
    void *bytes = NULL;
    size_t length = 0;
    int failed = vips.jpegsave_buffer(small, &bytes, &length, "Q", quality, "strip", 1, NULL);
    *width = vips.image_get_width(small);
    *height = vips.image_get_height(small);
    vips.object_unref(small);
    if (failed || !bytes) {
        vips_fail(status, DOSSIER_ERR_ENCODE, "libvips cannot encode its thumbnail");
    } else if ((out->data = malloc(length ? length : 1))) {
        memcpy(out->data, bytes, length);
        out->size = length;
    } else {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "out of memory for its thumbnail");
    }
    if (bytes) vips.g_free(bytes);
    vips.thread_shutdown();
    return status->code;
}
