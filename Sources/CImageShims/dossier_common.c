#include "dossier_common.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dossier_buffer_free(dossier_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

void dossier_status_reset(dossier_status *status) {
    if (status == NULL) return;
    memset(status, 0, sizeof(*status));
}

void dossier_status_fail(dossier_status *status, int code, const char *format, ...) {
    if (status == NULL || status->code != DOSSIER_OK) return;
    status->code = code;
    va_list args;
    va_start(args, format);
    vsnprintf(status->message, sizeof(status->message), format, args);
    va_end(args);
}

void dossier_status_warn(dossier_status *status, const char *message) {
    if (status == NULL) return;
    if (status->warning_count == 0) {
        snprintf(status->warning, sizeof(status->warning), "%s", message);
    }
    status->warning_count += 1;
}

int dossier_growable_append(dossier_growable *buffer, const void *bytes, size_t count) {
    if (buffer->failed) return 0;
    if (count > SIZE_MAX - buffer->size) { buffer->failed = 1; return 0; }
    size_t needed = buffer->size + count;
    if (needed > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < needed) {
            if (capacity > SIZE_MAX / 2) { capacity = needed; break; }
            capacity *= 2;
        }
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) { buffer->failed = 1; return 0; }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size = needed;
    return 1;
}

void dossier_growable_finish(dossier_growable *buffer, dossier_buffer *out) {
    out->data = buffer->data;
    out->size = buffer->size;
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

void dossier_growable_free(dossier_growable *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}
