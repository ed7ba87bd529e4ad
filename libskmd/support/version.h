/* libskmd/support/version.h: libskmd's version, written here only: the tools' --version,
 * the SKMD device's CL_DRIVER_VERSION and libskmd.pc (the Makefile reads it from this
 * line). */
#ifndef SKMD_VERSION_H
#define SKMD_VERSION_H

#define SKMD_VERSION "0.1"

#endif
