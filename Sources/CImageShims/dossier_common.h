#ifndef DOSSIER_COMMON_H
#define DOSSIER_COMMON_H
// Helpers shared by the JPEG and PNG shims; not part of the public header.
#include "dossier_image.h"
#include <stdarg.h>

/// Clears a status before a call fills it.
void dossier_status_reset(dossier_status *status);
/// Records a failure (the first one wins) with a printf-style message.
void dossier_status_fail(dossier_status *status, int code, const char *format, ...);
/// Records a tolerated warning: counts it and keeps the first message.
void dossier_status_warn(dossier_status *status, const char *message);

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
#endif
