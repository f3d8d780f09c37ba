// libexif's memory, counted while a block is read.
//
// libexif copies each entry's value out of the EXIF block, and nothing stops a block's entries
// all pointing at the same bytes: 2 730 entries sharing 32 KiB fit one 64 KiB APP1 segment and
// made libexif allocate 89 MB. A real block needs about twice its size. ExifBlock hands libexif
// these functions, and a budget while it loads a block: past it an allocation fails as if memory
// had run out, libexif skips that entry, and the block reads as what fitted.
#include "dossier_common.h"
#include <malloc.h>
#include <stdlib.h>

/// What the thread's loading block may still allocate; SIZE_MAX outside a load.
static _Thread_local size_t budget_left = SIZE_MAX;

void dossier_exif_budget_begin(size_t bytes) {
    budget_left = bytes;
}

void dossier_exif_budget_end(void) {
    budget_left = SIZE_MAX;
}

static int take_from_budget(size_t bytes) {
    if (budget_left == SIZE_MAX) return 1;
    if (bytes > budget_left) return 0;
    budget_left -= bytes;
    return 1;
}

void *dossier_exif_alloc(uint32_t size) {
    // libexif's own allocator hands out zeroed memory, and libexif relies on it.
    return take_from_budget(size) ? calloc(size, 1) : NULL;
}

void *dossier_exif_realloc(void *block, uint32_t size) {
    size_t had = block != NULL ? malloc_usable_size(block) : 0;
    if (size > had && !take_from_budget(size - had)) return NULL;
    return realloc(block, size);
}

void dossier_exif_free(void *block) {
    free(block);
}
