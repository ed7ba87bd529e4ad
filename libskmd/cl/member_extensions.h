/* libskmd/cl/member_extensions.h: what the kernel compiler must enable so that a split
 * program reads the app's source as the members' own drivers do (docs/transform.md,
 * "Extensions and OpenCL C version"). */
#ifndef SKMD_MEMBER_EXTENSIONS_H
#define SKMD_MEMBER_EXTENSIONS_H

#include <stddef.h>

/* The extensions (CL_DEVICE_EXTENSIONS) and OpenCL C features (CL_DEVICE_OPENCL_C_FEATURES
 * names) that every member i with use[i] != 0 reports, each space-separated: one split
 * program serves all of them, so it may use only what each of them has. A member that
 * answers neither query contributes nothing; with no such member the lists are empty.
 * `std` gets the -cl-std value ("CL1.2", "CL3.0") their drivers compile a program with
 * when the app names none: the specification's highest 1.x, but PoCL (`pocl` != 0)
 * compiles OpenCL C 3.0 on a device of OpenCL 3.0; the lowest among them. */
void skmd_member_extensions(const unsigned char *use, int pocl, char *std, size_t std_size,
                            char *ext, size_t ext_size, char *feat, size_t feat_size);

#endif
