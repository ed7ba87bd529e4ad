/* libskmd/cl/impl.h: libskmd's implementation of every entry point, skmd_clXxx, with the
 * prototype of clXxx. Each lives in the file of its object (context.c, mem.c, ...). */
#ifndef SKMD_IMPL_H
#define SKMD_IMPL_H

#include <CL/cl.h>

#define SKMD_API(ret, name, params, args, err, ver) ret skmd_##name params;
#include "device/api.def"
#undef SKMD_API

#endif
