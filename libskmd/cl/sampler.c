/* libskmd/cl/sampler.c: samplers, one real sampler per real platform. */
#include <stdlib.h>

#include "cl/common.h"

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
    for (int p = 0; p < skmd_state.nplatforms; p++) {
        s->real[p] = props ? real_clCreateSamplerWithProperties(context->real[p], props,
                                                                &errcode)
                           : real_clCreateSampler(context->real[p], normalized, addressing,
                                                  filter, &errcode);
        SKMD_GOTO_IF_REAL_FAILED(errcode);
    }
    skmd_object_retain(&context->obj);
    skmd_registry_add(s);
ERROR:
    if (errcode != CL_SUCCESS && s) {
        for (int p = 0; p < skmd_state.nplatforms; p++)
            if (s->real[p])
                real_clReleaseSampler(s->real[p]);
        skmd_object_finish(&s->obj);
        free(s);
        s = NULL;
    }
    if (errcode_ret)
        *errcode_ret = errcode;
    return s;
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
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(sampler, SAMPLER), CL_INVALID_SAMPLER);
    skmd_object_retain(&sampler->obj);
    return CL_SUCCESS;
}

cl_int skmd_clReleaseSampler(cl_sampler sampler)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(sampler, SAMPLER), CL_INVALID_SAMPLER);
    if (!skmd_object_release(&sampler->obj))
        return CL_SUCCESS;
    skmd_registry_remove(sampler);
    for (int p = 0; p < skmd_state.nplatforms; p++)
        if (sampler->real[p])
            real_clReleaseSampler(sampler->real[p]);
    skmd_clReleaseContext(sampler->context);
    skmd_object_finish(&sampler->obj);
    free(sampler);
    return CL_SUCCESS;
}

cl_int skmd_clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(sampler, SAMPLER), CL_INVALID_SAMPLER);
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: {
        cl_uint n = atomic_load(&sampler->obj.refcount);
        return skmd_info_bytes(&out, &n, sizeof n);
    }
    case CL_SAMPLER_CONTEXT:
        return skmd_info_bytes(&out, &sampler->context, sizeof sampler->context);
    default:
        return real_clGetSamplerInfo(sampler->real[0], param_name, param_value_size,
                                     param_value, param_value_size_ret);
    }
}
