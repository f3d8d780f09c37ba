#ifndef DOSSIER_CEXIF_SHIM_H
#define DOSSIER_CEXIF_SHIM_H
// libexif's headers use size_t and FILE without including what declares them.
#include <stddef.h>
#include <stdio.h>
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-log.h>

// exif_data_get_entry is a macro; Swift cannot call macros.
static inline ExifEntry *dossier_exif_data_get_entry(ExifData *data, ExifTag tag) {
    return exif_data_get_entry(data, tag);
}
#endif
