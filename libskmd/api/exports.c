/* libskmd/api/exports.c: the exported OpenCL entry points and the ICD dispatch table,
 * both expanded from api.def.
 *
 * Each export sends a call made from inside a real call (a driver or the loader calling
 * clXxx by name, which under LD_PRELOAD resolves to libskmd) straight to the real
 * function; in passthrough mode every call goes there, and under SKMD_SHOW_REAL every
 * call on a real driver's handle (showreal.h). Otherwise it runs skmd_clXxx,
 * libskmd's implementation (impl.h).
 */
#include "device/api.h"
#include "cl/impl.h"
#include "support/object.h"
#include "device/showreal.h"

#define SKMD_API(ret, name, params, args, err, ver)                                      \
    CL_API_ENTRY ret CL_API_CALL name params                                             \
    {                                                                                    \
        if (skmd_in_real_call)                                                           \
            return skmd_real.name args;                                                  \
        skmd_init();                                                                     \
        if (skmd_state.passthrough && skmd_real.name)                                    \
            return real_##name args;                                                     \
        if (skmd_show_real && SKMD_FOREIGN_CALL(args))                                   \
            return real_##name args;                                                     \
        return skmd_##name args;                                                         \
    }
#include "api.def"
#undef SKMD_API

const cl_icd_dispatch skmd_dispatch = {
#define SKMD_API(ret, name, params, args, err, ver) .name = name,
#include "api.def"
#undef SKMD_API
};
