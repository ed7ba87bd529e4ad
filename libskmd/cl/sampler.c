/* libskmd/cl/sampler.c: samplers, one real sampler per platform slot (all brought up). */
#include <stdlib.h>

#include "cl/bring_up.h"
#include "cl/common.h"

/* Lets go of the real samplers made so far (a failed create's, or at the last release). */
static void release_reals(cl_sampler s)
{
    for (int p = 0; p < skmd_state.nplatforms; p++)
        if (s->real[p])
            real_clReleaseSampler(s->real[p]);
}

static cl_sampler create(cl_context context, const cl_sampler_properties *props,
                         cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_sampler s = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    s = calloc(1, sizeof *s);
    SKMD_GOTO_ERROR_IF(!s, CL_OUT_OF_HOST_MEMORY);
    skmd_object_init(&s->obj, SKMD_TYPE_SAMPLER);
    s->context = context;
    /* A kernel may run on any member with it: every slot gets its real sampler. */
    skmd_context_bring_up(context, "a sampler made");
    for (int p = 0; p < skmd_state.nplatforms; p++) {
        if (!skmd_slot_up(context, p))
            continue; /* its context could not be made: no member there runs kernels */
        s->real[p] = props ? real_clCreateSamplerWithProperties(context->real[p], props,
                                                                &errcode)
                           : real_clCreateSampler(context->real[p], normalized, addressing,
                                                  filter, &errcode);
        SKMD_GOTO_IF_REAL_FAILED(errcode);
    }
    skmd_object_retain(&context->obj);
    skmd_registry_add(s);
ERROR:
    if (errcode != CL_SUCCESS && s)
        release_reals(s);
    return skmd_object_made(s, errcode, errcode_ret);
}

cl_sampler skmd_clCreateSampler(cl_context context, cl_bool normalized_coords,
                                cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                cl_int *errcode_ret)
{
    return create(context, NULL, normalized_coords, addressing_mode, filter_mode, errcode_ret);
}

cl_sampler skmd_clCreateSamplerWithProperties(cl_context context,
                                              const cl_sampler_properties *sampler_properties,
                                              cl_int *errcode_ret)
{
    static const cl_sampler_properties none[] = {0};
    return create(context, sampler_properties ? sampler_properties : none, 0, 0, 0,
                  errcode_ret);
}

cl_int skmd_clRetainSampler(cl_sampler sampler)
{
    SKMD_RETAIN_AND_RETURN(sampler, SAMPLER, CL_INVALID_SAMPLER);
}

cl_int skmd_clReleaseSampler(cl_sampler sampler)
{
    SKMD_RELEASE_OR_RETURN(sampler, SAMPLER, CL_INVALID_SAMPLER);
    cl_context context = sampler->context; /* released once the sampler is gone */
    skmd_registry_remove(sampler);
    release_reals(sampler);
    skmd_object_free(sampler);
    skmd_clReleaseContext(context);
    return CL_SUCCESS;
}

cl_int skmd_clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(sampler, SAMPLER, CL_INVALID_SAMPLER, CL_SAMPLER_REFERENCE_COUNT);
    if (param_name == CL_SAMPLER_CONTEXT)
        return skmd_info_bytes(&out, &sampler->context, sizeof sampler->context);
    int slot = skmd_state.members[skmd_state.exec].platform_slot; /* always up */
    return real_clGetSamplerInfo(sampler->real[slot], param_name, param_value_size,
                                 param_value, param_value_size_ret);
}
