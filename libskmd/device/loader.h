/* libskmd/device/loader.h: the real ICD loader (see api.h for the table it fills). */
#ifndef SKMD_LOADER_H
#define SKMD_LOADER_H

#include "device/api.h"

/* dlopen()s the loader named by SKMD_OPENCL_LIBRARY and fills skmd_real. Returns 0, or
 * -1 (after logging why) with skmd_real left all NULL. Called once, by skmd_init(). */
int skmd_loader_open(void);

#endif
