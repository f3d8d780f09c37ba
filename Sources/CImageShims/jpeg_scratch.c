// libjpeg's whole-picture arrays in scratch files, for pictures too large to hold in memory.
//
// libjpeg keeps a virtual array (a progressive picture's coefficients while it decodes, every
// coefficient for a lossless turn, the compressor's for optimised or progressive output) whole
// in memory: libjpeg-turbo has no backing store, and with a memory limit set it fails instead of
// spilling. Its memory manager is a table of methods, though, so for large pictures the session
// puts its own in front of request_virt_barray, realize_virt_arrays and access_virt_barray: each
// array is then a mapped scratch file (dossier_scratch) that keeps only the part in use resident.
#include "jpeg_internal.h"
#include <jerror.h>
#include <stdlib.h>
#include <string.h>

/// One scratch file and the row pointers over it: a virtual block array, a turned copy of one,
/// or the pixel path's picture.
struct scratch_region {
    /// The codec whose end ends the region.
    j_common_ptr owner;
    dossier_scratch store;
    JDIMENSION rows;
    size_t row_bytes;
    /// Largest number of rows one access may ask for (virtual arrays only).
    JDIMENSION max_access;
    /// Row pointers into the store: blocks for coefficient arrays, samples for pictures.
    JBLOCKROW *block_rows;
    JSAMPARRAY sample_rows;
    struct scratch_region *next;
};

static jpeg_session *session_of(j_common_ptr cinfo) {
    return (jpeg_session *)cinfo->err;
}

void jpeg_session_use_scratch(jpeg_session *session, int folder) {
    session->scratch_folder = folder;
}

int jpeg_session_uses_scratch(const jpeg_session *session) {
    return session->scratch_folder >= 0;
}

static struct scratch_region *new_region(jpeg_session *session, j_common_ptr owner, size_t row_bytes,
                                         JDIMENSION rows) {
    struct scratch_region *region = calloc(1, sizeof *region);
    if (region == NULL) jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "out of memory for a scratch region");
    region->owner = owner;
    region->store.fd = -1;
    region->rows = rows;
    region->row_bytes = row_bytes;
    region->next = session->scratch_regions;
    session->scratch_regions = region;
    return region;
}

/// Maps the region's file and points its rows into it.
static void map_region(jpeg_session *session, struct scratch_region *region, int blocks) {
    dossier_status failure;
    dossier_status_reset(&failure);
    if (!dossier_scratch_open(&region->store, session->scratch_folder, region->row_bytes * region->rows, &failure)) {
        jpeg_session_abort(session, failure.code, "%s", failure.message);
    }
    void **rows = malloc((region->rows > 0 ? region->rows : 1) * sizeof(void *));
    if (rows == NULL) jpeg_session_abort(session, DOSSIER_ERR_ENCODE, "out of memory for row pointers");
    for (JDIMENSION row = 0; row < region->rows; row++) rows[row] = region->store.base + (size_t)row * region->row_bytes;
    if (blocks) {
        region->block_rows = (JBLOCKROW *)rows;
    } else {
        region->sample_rows = (JSAMPARRAY)rows;
    }
}

JBLOCKROW *jpeg_scratch_block_rows(jpeg_session *session, j_common_ptr owner, JDIMENSION blocks_per_row,
                                   JDIMENSION rows, struct scratch_region **region) {
    *region = new_region(session, owner, (size_t)blocks_per_row * sizeof(JBLOCK), rows);
    map_region(session, *region, 1);
    return (*region)->block_rows;
}

JSAMPARRAY jpeg_scratch_sample_rows(jpeg_session *session, j_common_ptr owner, size_t row_bytes, JDIMENSION rows,
                                    struct scratch_region **region) {
    *region = new_region(session, owner, row_bytes, rows);
    map_region(session, *region, 0);
    return (*region)->sample_rows;
}

JCOEFPTR jpeg_scratch_block_at(struct scratch_region *region, JDIMENSION row, JDIMENSION column) {
    return region->block_rows[row][column];
}

void jpeg_scratch_touch(struct scratch_region *region, size_t bytes) {
    if (region != NULL) dossier_scratch_touch(&region->store, bytes);
}

void jpeg_scratch_let_go(struct scratch_region *region) {
    if (region != NULL) dossier_scratch_let_go(&region->store);
}

struct scratch_region *jpeg_scratch_region_of(jpeg_session *session, jvirt_barray_ptr array) {
    if (!jpeg_session_uses_scratch(session)) return NULL;
    for (struct scratch_region *region = session->scratch_regions; region != NULL; region = region->next) {
        if ((jvirt_barray_ptr)region == array) return region;
    }
    return NULL;
}

// ---------------------------------------------------------------------------------
// The memory manager's methods
// ---------------------------------------------------------------------------------

static jvirt_barray_ptr request_blocks(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocks_per_row,
                                       JDIMENSION rows, JDIMENSION max_access) {
    (void)pool_id;   // every virtual array is an image-pool one; the session ends them all
    (void)pre_zero;  // a scratch file starts zeroed
    struct scratch_region *region = new_region(session_of(cinfo), cinfo, (size_t)blocks_per_row * sizeof(JBLOCK), rows);
    region->max_access = max_access;
    // libjpeg's handle type is opaque to everything but the methods, which are ours.
    return (jvirt_barray_ptr)region;
}

static void realize_arrays(j_common_ptr cinfo) {
    jpeg_session *session = session_of(cinfo);
    session->library_realize[cinfo->is_decompressor ? 0 : 1](cinfo);
    for (struct scratch_region *region = session->scratch_regions; region != NULL; region = region->next) {
        if (region->owner == cinfo && region->max_access > 0 && region->block_rows == NULL) {
            map_region(session, region, 1);
        }
    }
}

static JBLOCKARRAY access_blocks(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start_row,
                                 JDIMENSION num_rows, boolean writable) {
    (void)writable;
    struct scratch_region *region = (struct scratch_region *)array;
    if (region->block_rows == NULL || num_rows > region->max_access || start_row > region->rows ||
        num_rows > region->rows - start_row) {
        ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    }
    dossier_scratch_touch(&region->store, (size_t)num_rows * region->row_bytes);
    return region->block_rows + start_row;
}

void jpeg_session_hook_memory(jpeg_session *session, j_common_ptr cinfo) {
    if (!jpeg_session_uses_scratch(session)) return;
    session->library_realize[cinfo->is_decompressor ? 0 : 1] = cinfo->mem->realize_virt_arrays;
    cinfo->mem->request_virt_barray = request_blocks;
    cinfo->mem->realize_virt_arrays = realize_arrays;
    cinfo->mem->access_virt_barray = access_blocks;
}

void jpeg_session_release_scratch(jpeg_session *session, j_common_ptr owner) {
    struct scratch_region **link = &session->scratch_regions;
    while (*link != NULL) {
        struct scratch_region *region = *link;
        if (owner != NULL && region->owner != owner) {
            link = &region->next;
            continue;
        }
        *link = region->next;
        dossier_scratch_close(&region->store);
        free(region->block_rows);
        free(region->sample_rows);
        free(region);
    }
}
