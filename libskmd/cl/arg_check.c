/* libskmd/cl/arg_check.c: clSetKernelArg's value checked against what the parameter takes.
 * A driver given a freed buffer, a sampler or plain bytes for a buffer parameter may
 * dereference it (PoCL 3.1 does: a crash in the app); libskmd knows every live handle,
 * so it refuses them with the specification's code. The parameter's kind and type come
 * from the real kernel's argument information, else from the analysis record. */
#include <stdlib.h>
#include <string.h>

#include "cl/common.h"
#include "cl/ndrange_check.h"
#include "cl/kernel_split.h"
#include "../../transform/record.h"

/* Bytes of an OpenCL scalar or vector type by its name ("int", "float4", "uchar3"), 0 when
 * the name is not one (a struct, a typedef, a pointer). */
static size_t type_name_size(const char *name)
{
    static const struct {
        const char *name;
        size_t size;
    } scalars[] = {
        {"char", 1},  {"uchar", 1},  {"unsigned char", 1},  {"short", 2},
        {"ushort", 2}, {"unsigned short", 2}, {"half", 2},   {"int", 4},
        {"uint", 4},  {"unsigned int", 4},  {"float", 4},   {"long", 8},
        {"ulong", 8}, {"unsigned long", 8}, {"double", 8},
    };
    size_t len = strlen(name);
    size_t digits = 0;
    while (digits < len && name[len - 1 - digits] >= '0' && name[len - 1 - digits] <= '9')
        digits++;
    size_t base_len = len - digits;
    size_t n = 1;
    if (digits) {
        n = strtoul(name + base_len, NULL, 10);
        if (n == 3)
            n = 4; /* a 3-component vector takes the room of 4 */
        else if (n != 2 && n != 4 && n != 8 && n != 16)
            return 0;
    }
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strlen(scalars[i].name) == base_len && !memcmp(scalars[i].name, name, base_len))
            return scalars[i].size * n;
    return 0;
}

/* The parameter's class and, for a scalar or vector, its size (0: unknown), from the
 * real kernel's argument information. 0 when the driver has none. */
static int from_arg_info(cl_kernel kernel, cl_uint index, enum skmd_arg_class *cls,
                         size_t *size)
{
    cl_kernel real = kernel->real[skmd_kernel_answering_member(kernel)];
    cl_kernel_arg_address_qualifier aq;
    char type[128] = "";
    if (real_clGetKernelArgInfo(real, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq,
                                NULL) != CL_SUCCESS ||
        real_clGetKernelArgInfo(real, index, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type,
                                NULL) != CL_SUCCESS)
        return 0;
    *size = 0;
    if (!strncmp(type, "image", 5)) {
        *cls = SKMD_ARG_MEM;
    } else if (!strcmp(type, "sampler_t")) {
        *cls = SKMD_ARG_SAMPLER;
    } else if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
        /* pipes and other opaque global types: not checked here */
        *cls = strchr(type, '*') ? SKMD_ARG_MEM : SKMD_ARG_UNKNOWN;
    } else {
        *cls = SKMD_ARG_PLAIN;
        if (aq == CL_KERNEL_ARG_ADDRESS_PRIVATE)
            *size = type_name_size(type);
    }
    return 1;
}

/* The same from the analysis record (integer scalars only have a known size). */
static int from_record(cl_kernel kernel, cl_uint index, enum skmd_arg_class *cls, size_t *size)
{
    skmd_kernel_split_wait(kernel);
    if (!kernel->rec || index >= kernel->rec->nparams)
        return 0;
    const struct skmd_param_record *p = &kernel->rec->params[index];
    *size = 0;
    switch (p->kind) {
    case SKMD_PARAM_GLOBAL:
    case SKMD_PARAM_CONSTANT:
    case SKMD_PARAM_IMAGE:
        *cls = SKMD_ARG_MEM;
        break;
    case SKMD_PARAM_SAMPLER:
        *cls = SKMD_ARG_SAMPLER;
        break;
    case SKMD_PARAM_SCALAR:
        *cls = SKMD_ARG_PLAIN;
        *size = p->scalar_bytes;
        break;
    case SKMD_PARAM_LOCAL:
    case SKMD_PARAM_OTHER:
        *cls = SKMD_ARG_PLAIN;
        break;
    }
    return 1;
}

cl_int skmd_kernel_arg_check(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                             const void *arg_value, enum skmd_arg_class *cls)
{
    size_t want = 0;
    *cls = SKMD_ARG_UNKNOWN;
    if (!from_arg_info(kernel, arg_index, cls, &want) &&
        !from_record(kernel, arg_index, cls, &want))
        return CL_SUCCESS; /* nothing known: the driver checks what it can */
    const void *handle = NULL;
    if (arg_value && arg_size == sizeof handle)
        memcpy(&handle, arg_value, sizeof handle);
    /* registered handles are live memory objects and samplers only */
    int live = handle && skmd_registry_has(handle);
    switch (*cls) {
    case SKMD_ARG_MEM:
        SKMD_RETURN_ERROR_IF(arg_size != sizeof(cl_mem), CL_INVALID_ARG_SIZE);
        SKMD_RETURN_ERROR_IF(handle && (!live || !SKMD_VALID((cl_mem)handle, MEM)),
                             CL_INVALID_MEM_OBJECT);
        SKMD_RETURN_ERROR_IF(handle && ((cl_mem)handle)->context != kernel->program->context,
                             CL_INVALID_MEM_OBJECT);
        break;
    case SKMD_ARG_SAMPLER:
        SKMD_RETURN_ERROR_IF(arg_size != sizeof(cl_sampler), CL_INVALID_ARG_SIZE);
        SKMD_RETURN_ERROR_IF(!live || !SKMD_VALID((cl_sampler)handle, SAMPLER),
                             CL_INVALID_SAMPLER);
        break;
    case SKMD_ARG_PLAIN:
        SKMD_RETURN_ERROR_IF(want && arg_size != want, CL_INVALID_ARG_SIZE);
        break;
    case SKMD_ARG_UNKNOWN:
        break;
    }
    return CL_SUCCESS;
}
