/* libskmd/device/icd_mode.h: libskmd as an installed ICD (see icd_mode.c). */
#ifndef SKMD_ICD_MODE_H
#define SKMD_ICD_MODE_H

/* Non-zero when libskmd was loaded by an ICD loader rather than preloaded or linked. */
int skmd_loaded_as_icd(void);

/* Fills skmd_real from the real drivers of SKMD_REAL_VENDORS, without the system's
 * loader. Returns 0, or -1 (after logging why) when no real platform was found. */
int skmd_icd_loader_open(void);

#endif
