/* libskmd/device/api.h: the private table of the real loader's entry points, and the calls
 * through it.
 *
 * libskmd reaches drivers only through skmd_real (filled by dlsym from the real ICD
 * loader, loaded RTLD_LOCAL): every layer reaches a member device through it, with the
 * member's real handles; there is no other interface to a member. Each real_clXxx()
 * marks the thread as "inside a real call" for its duration, so that a driver calling
 * clXxx by its dynamic name lands in libskmd's export and is sent straight back to the
 * real function (exports.c).
 */
#ifndef SKMD_API_H
#define SKMD_API_H

#include <CL/cl.h>

/* One pointer per entry point of api.def, in its order. */
struct skmd_real_table {
#define SKMD_API(ret, name, params, args, err, ver) ret (CL_API_CALL *name) params;
#include "device/api.def"
#undef SKMD_API
};

extern struct skmd_real_table skmd_real;

/* Non-zero while this thread is inside a call to the real loader. */
extern _Thread_local int skmd_in_real_call;

static inline void skmd_real_call_end(int *depth)
{
    skmd_in_real_call = *depth;
}

/* Around every app callback libskmd runs or hands to a driver: a driver may run it inside
 * one of libskmd's real calls (a callback set on a complete event runs at once, on the
 * calling thread), and the app's OpenCL calls from it must reach libskmd, not go straight
 * back to the real loader with libskmd's handles. */
static inline int skmd_app_callback_begin(void)
{
    int saved = skmd_in_real_call;
    skmd_in_real_call = 0;
    return saved;
}

static inline void skmd_app_callback_end(int saved)
{
    skmd_in_real_call = saved;
}

/* real_clXxx(args): skmd_real.clXxx(args) with the re-entry guard set around it. */
#define SKMD_API(ret, name, params, args, err, ver)                                      \
    static inline ret real_##name params                                                 \
    {                                                                                    \
        int saved __attribute__((cleanup(skmd_real_call_end), unused)) = skmd_in_real_call; \
        skmd_in_real_call = 1;                                                           \
        return skmd_real.name args;                                                      \
    }
#include "device/api.def"
#undef SKMD_API

/* Indices of the entry points, and their names for logs. */
enum skmd_api_id {
#define SKMD_API(ret, name, params, args, err, ver) SKMD_API_ID_##name,
#include "device/api.def"
#undef SKMD_API
    SKMD_API_COUNT
};
extern const char *const skmd_api_names[SKMD_API_COUNT];

/* Loads the real loader and discovers the member devices, once (pthread_once);
 * cheap after the first call. */
void skmd_init(void);

#endif
