/* libskmd/cl/program_info.c: the app's queries of a program (clGetProgramInfo,
 * clGetProgramBuildInfo): what the SKMD device's program is made of, its binary
 * (program_binary.h), and its build as the worst of the members' builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/common.h"
#include "cl/program_binary.h"

int skmd_program_answering_member(cl_program program)
{
    if (!(program->not_built & (1u << skmd_state.exec)))
        return skmd_state.exec;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (!(program->not_built & (1u << m)) && skmd_member_up(program->context, m))
            return m;
    return skmd_state.exec;
}

/* The real program that answers the app's queries. */
static cl_program answering_real(cl_program program)
{
    int m = skmd_program_answering_member(program);
    return program->real[skmd_state.members[m].platform_slot];
}

cl_int skmd_clGetProgramInfo(cl_program program, cl_program_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(program, PROGRAM, CL_INVALID_PROGRAM, CL_PROGRAM_REFERENCE_COUNT);
    const cl_context ctx = program->context;
    switch (param_name) {
    case CL_PROGRAM_CONTEXT:
        return skmd_info_bytes(&out, &program->context, sizeof program->context);
    case CL_PROGRAM_NUM_DEVICES:
        return skmd_info_bytes(&out, &ctx->ndevices, sizeof ctx->ndevices);
    case CL_PROGRAM_DEVICES:
        return skmd_info_bytes(&out, ctx->devices, ctx->ndevices * sizeof ctx->devices[0]);
    /* The program is built for every member: each of the context's devices (the SKMD
     * device, sub-devices) gets the same SKMD binary. */
    case CL_PROGRAM_BINARY_SIZES: {
        size_t sizes[SKMD_CONTEXT_MAX_DEVICES];
        sizes[0] = skmd_binary_write(program, NULL);
        for (cl_uint d = 1; d < ctx->ndevices; d++)
            sizes[d] = sizes[0];
        return skmd_info_bytes(&out, sizes, ctx->ndevices * sizeof sizes[0]);
    }
    case CL_PROGRAM_BINARIES: {
        size_t need = ctx->ndevices * sizeof(unsigned char *);
        SKMD_RETURN_ERROR_IF(param_value && param_value_size < need, CL_INVALID_VALUE);
        for (cl_uint d = 0; param_value && d < ctx->ndevices; d++)
            if (((unsigned char **)param_value)[d])
                skmd_binary_write(program, ((unsigned char **)param_value)[d]);
        if (param_value_size_ret)
            *param_value_size_ret = need;
        return CL_SUCCESS;
    }
    default:
        return real_clGetProgramInfo(answering_real(program), param_name, param_value_size,
                                     param_value, param_value_size_ret);
    }
}

/* Build status of the SKMD device: the worst of the members'. */
static cl_build_status build_status(cl_program program)
{
    cl_build_status worst = CL_BUILD_SUCCESS;
    int skip_failed = 0; /* members that failed do not count once another built it */
    for (int i = 0; i < skmd_state.nmembers; i++)
        skip_failed |= !(program->not_built & (1u << i)) && skmd_member_up(program->context, i);
    for (int i = 0; i < skmd_state.nmembers; i++) {
        if ((skip_failed && (program->not_built & (1u << i))) ||
            !skmd_member_up(program->context, i))
            continue;
        cl_build_status st = CL_BUILD_NONE;
        const struct skmd_member *m = &skmd_state.members[i];
        real_clGetProgramBuildInfo(program->real[m->platform_slot], m->real_device,
                                   CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL);
        if (st == CL_BUILD_ERROR || (st == CL_BUILD_NONE && worst == CL_BUILD_SUCCESS) ||
            (st == CL_BUILD_IN_PROGRESS && worst != CL_BUILD_ERROR))
            worst = st;
    }
    return worst;
}

/* Every member's log, each under a line naming the member. */
static cl_int build_log(cl_program program, const struct skmd_info *out)
{
    size_t total = 1;
    char *text = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t at = 0;
        for (int i = 0; i < skmd_state.nmembers; i++) {
            const struct skmd_member *m = &skmd_state.members[i];
            size_t len = 0;
            if (!skmd_member_up(program->context, i))
                continue; /* not brought up: it has not built the program */
            char head[300];
            int hl = snprintf(head, sizeof head, "=== %s ===\n", m->name);
            real_clGetProgramBuildInfo(program->real[m->platform_slot], m->real_device,
                                       CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
            if (pass == 1) {
                memcpy(text + at, head, (size_t)hl);
                real_clGetProgramBuildInfo(program->real[m->platform_slot], m->real_device,
                                           CL_PROGRAM_BUILD_LOG, len, text + at + hl, NULL);
                size_t got = strnlen(text + at + hl, len);
                at += (size_t)hl + got;
                text[at++] = '\n';
            } else {
                total += (size_t)hl + len + 1;
            }
        }
        if (pass == 0) {
            text = calloc(1, total);
            SKMD_RETURN_ERROR_IF(!text, CL_OUT_OF_HOST_MEMORY);
        } else {
            text[at] = '\0';
        }
    }
    cl_int err = skmd_info_string(out, text);
    free(text);
    return err;
}

cl_int skmd_clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                  cl_program_build_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    const struct skmd_member *m = &skmd_state.members[skmd_program_answering_member(program)];
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS: {
        cl_build_status st = build_status(program);
        return skmd_info_bytes(&out, &st, sizeof st);
    }
    case CL_PROGRAM_BUILD_LOG:
        return build_log(program, &out);
    default:
        return real_clGetProgramBuildInfo(program->real[m->platform_slot], m->real_device,
                                          param_name, param_value_size, param_value,
                                          param_value_size_ret);
    }
}
