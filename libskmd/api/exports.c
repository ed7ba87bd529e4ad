/* libskmd/api/exports.c: the exported OpenCL entry points and the ICD dispatch table,
 * both expanded from api.def.
 *
 * Each export sends a call made from inside a real call (a driver or the loader calling
 * clXxx by name, which under LD_PRELOAD resolves to libskmd) straight to the real
 * function; in passthrough mode every call goes there, and under SKMD_SHOW_REAL every
 * call on a real driver's handle (showreal.h). Otherwise it runs skmd_clXxx,
 * libskmd's implementation (impl.h).
 */
#include <pthread.h>

#include "device/api.h"
#include "cl/impl.h"
#include "launch/verify.h"
#include "mem/coherence.h"
#include "plan/plan.h"
#include "support/object.h"
#include "device/showreal.h"

extern const cl_icd_dispatch skmd_dispatch;

/* What the layers below are handed from above before the first call runs (so that none
 * of them calls up): the dispatch table every handle starts with, the partitioner's
 * observer of peer copies; then skmd_init(), and SKMD_VERIFY's set-up (its exit line
 * comes even when no launch was split). */
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void api_init_once(void)
{
    skmd_object_set_dispatch(&skmd_dispatch);
    skmd_coh_set_peer_observer(skmd_plan_observe_peer);
    skmd_init();
    if (skmd_state.ready)
        skmd_verify_enabled();
}

static inline void skmd_api_init(void)
{
    pthread_once(&api_once, api_init_once);
}

#define SKMD_API(ret, name, params, args, err, ver)                                      \
    CL_API_ENTRY ret CL_API_CALL name params                                             \
    {                                                                                    \
        if (skmd_in_real_call)                                                           \
            return skmd_real.name args;                                                  \
        skmd_api_init();                                                                 \
        if (skmd_state.passthrough && skmd_real.name)                                    \
            return real_##name args;                                                     \
        if (skmd_show_real && SKMD_FOREIGN_CALL(args))                                   \
            return real_##name args;                                                     \
        return skmd_##name args;                                                         \
    }
#include "device/api.def"
#undef SKMD_API

const cl_icd_dispatch skmd_dispatch = {
#define SKMD_API(ret, name, params, args, err, ver) .name = name,
#include "device/api.def"
#undef SKMD_API
};
