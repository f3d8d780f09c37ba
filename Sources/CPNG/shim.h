#ifndef DOSSIER_CPNG_SHIM_H
#define DOSSIER_CPNG_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <png.h>
#endif
