/* libskmd/support/error.h: the two error forms of libskmd's entry points.
 *
 *   SKMD_RETURN_ERROR_IF(cond, CL_INVALID_VALUE);      returns the code
 *   SKMD_GOTO_ERROR_IF(cond, CL_INVALID_VALUE);        sets `errcode`, goes to ERROR
 *
 * Both log the code's name and the failed condition (level info: apps probe with bad
 * arguments on purpose). A function uses one form only. The goto form needs a local
 * `cl_int errcode` and an `ERROR:` label.
 */
#ifndef SKMD_ERROR_H
#define SKMD_ERROR_H

#include <CL/cl.h>

#include "support/log.h"

const char *skmd_error_name(cl_int code);

#define SKMD_RETURN_ERROR_IF(cond, code)                                                 \
    do {                                                                                 \
        if (cond) {                                                                      \
            skmd_log(SKMD_LOG_INFO, "%s: %s (%s)", __func__, skmd_error_name(code), #cond); \
            return (code);                                                               \
        }                                                                                \
    } while (0)

#define SKMD_GOTO_ERROR_IF(cond, code)                                                   \
    do {                                                                                 \
        if (cond) {                                                                      \
            errcode = (code);                                                            \
            skmd_log(SKMD_LOG_INFO, "%s: %s (%s)", __func__, skmd_error_name(code), #cond); \
            goto ERROR;                                                                  \
        }                                                                                \
    } while (0)

/* A real call failed: pass its code on, logged. */
#define SKMD_GOTO_IF_REAL_FAILED(code_expr)                                              \
    do {                                                                                 \
        errcode = (code_expr);                                                           \
        if (errcode != CL_SUCCESS) {                                                     \
            skmd_log(SKMD_LOG_INFO, "%s: driver says %s", __func__, skmd_error_name(errcode)); \
            goto ERROR;                                                                  \
        }                                                                                \
    } while (0)

#endif
