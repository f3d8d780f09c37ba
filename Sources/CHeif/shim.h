#ifndef DOSSIER_CHEIF_SHIM_H
#define DOSSIER_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
