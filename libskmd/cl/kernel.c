/* libskmd/cl/kernel.c: kernels, one real kernel per member (from its platform's program),
 * so each member's arguments can later differ (split launches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/coherence.h"
#include "cl/bring_up.h"
#include "cl/common.h"
#include "mem/inflight.h"
#include "mem/member_health.h"
#include "cl/ndrange_check.h"
#include "cl/kernel_split.h"

static void destroy(cl_kernel k)
{
    for (int i = 0; i < skmd_state.nmembers; i++) {
        if (k->real[i])
            real_clReleaseKernel(k->real[i]);
        if (k->split[i])
            real_clReleaseKernel(k->split[i]);
        if (k->merge[i])
            real_clReleaseKernel(k->merge[i]);
    }
    for (cl_uint a = 0; a < k->nargs && k->args; a++)
        free(k->args[a].value);
    free(k->args);
    skmd_object_free(k);
}

/* A clone starts with its source kernel's arguments. */
static cl_int copy_args(cl_kernel k, cl_kernel from)
{
    if (!from)
        return CL_SUCCESS;
    pthread_mutex_lock(&from->obj.lock);
    for (cl_uint a = 0; a < k->nargs && a < from->nargs; a++) {
        k->args[a] = from->args[a];
        k->args[a].value = NULL;
        if (from->args[a].value && (k->args[a].value = malloc(from->args[a].size)))
            memcpy(k->args[a].value, from->args[a].value, from->args[a].size);
    }
    pthread_mutex_unlock(&from->obj.lock);
    return CL_SUCCESS;
}

static cl_int release_hook(void *handle)
{
    return skmd_clReleaseKernel(handle);
}

/* Under the context's up_lock (read): the members up now get their real kernels, those
 * brought up later theirs from the bring-up (the kernel is on its program's list). */
static cl_kernel create_locked(cl_program program, const char *name, cl_kernel from,
                               cl_int *err)
{
    cl_kernel k = calloc(1, sizeof *k);
    if (!k) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    skmd_object_init(&k->obj, SKMD_TYPE_KERNEL);
    k->obj.release = release_hook;
    k->program = program;
    int made = 0;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        /* A member that did not build the program gets no kernel: its work goes to the
         * members that did (its slot's real program may have no device built at all). */
        if (from ? !from->real[i]
                 : !skmd_program_on_member(program, i) ||
                       !skmd_member_up(program->context, i))
            continue;
        k->real[i] = from ? real_clCloneKernel(from->real[i], err)
                          : real_clCreateKernel(
                                program->real[skmd_state.members[i].platform_slot], name, err);
        if (*err != CL_SUCCESS) {
            destroy(k);
            return NULL;
        }
        made++;
    }
    if (!made) {
        *err = CL_INVALID_PROGRAM_EXECUTABLE;
        destroy(k);
        return NULL;
    }
    if (skmd_kernel_split_init(k, program, from ? from->name : name) != CL_SUCCESS ||
        copy_args(k, from) != CL_SUCCESS) {
        *err = CL_OUT_OF_HOST_MEMORY;
        destroy(k);
        return NULL;
    }
    skmd_object_retain(&program->obj);
    __atomic_add_fetch(&program->nkernels, 1, __ATOMIC_RELAXED);
    skmd_program_add_kernel(k);
    return k;
}

static cl_kernel create(cl_program program, const char *name, cl_kernel from, cl_int *err)
{
    pthread_rwlock_rdlock(&program->context->up_lock);
    cl_kernel k = create_locked(program, name, from, err);
    pthread_rwlock_unlock(&program->context->up_lock);
    return k;
}

cl_kernel skmd_clCreateKernel(cl_program program, const char *kernel_name, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_kernel k = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_GOTO_ERROR_IF(!kernel_name, CL_INVALID_VALUE);
    k = create(program, kernel_name, NULL, &errcode);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return k;
}

cl_kernel skmd_clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_kernel k = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(source_kernel, KERNEL), CL_INVALID_KERNEL);
    k = create(source_kernel->program, NULL, source_kernel, &errcode);
ERROR:
    if (errcode_ret)
        *errcode_ret = errcode;
    return k;
}

cl_int skmd_clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                     cl_kernel *kernels, cl_uint *num_kernels_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    int m = skmd_program_answering_member(program);
    cl_program first = program->real[skmd_state.members[m].platform_slot];
    size_t len = 0, count = 0;
    cl_int err = real_clGetProgramInfo(first, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL);
    if (err != CL_SUCCESS)
        return err;
    SKMD_RETURN_ERROR_IF(kernels && num_kernels < count, CL_INVALID_VALUE);
    if (num_kernels_ret)
        *num_kernels_ret = (cl_uint)count;
    if (!kernels)
        return CL_SUCCESS;
    real_clGetProgramInfo(first, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &len);
    char *names = calloc(1, len + 1);
    SKMD_RETURN_ERROR_IF(!names, CL_OUT_OF_HOST_MEMORY);
    real_clGetProgramInfo(first, CL_PROGRAM_KERNEL_NAMES, len, names, NULL);
    cl_uint made = 0;
    for (char *save = NULL, *n = strtok_r(names, ";", &save); n && err == CL_SUCCESS;
         n = strtok_r(NULL, ";", &save)) {
        kernels[made] = create(program, n, NULL, &err);
        if (err == CL_SUCCESS)
            made++;
    }
    free(names);
    if (err != CL_SUCCESS)
        while (made > 0)
            skmd_clReleaseKernel(kernels[--made]);
    return err;
}

cl_int skmd_clRetainKernel(cl_kernel kernel)
{
    SKMD_RETAIN_AND_RETURN(kernel, KERNEL, CL_INVALID_KERNEL);
}

cl_int skmd_clReleaseKernel(cl_kernel kernel)
{
    SKMD_RELEASE_OR_RETURN(kernel, KERNEL, CL_INVALID_KERNEL);
    cl_program program = kernel->program;
    pthread_rwlock_rdlock(&program->context->up_lock); /* a bring-up reads the list */
    skmd_program_remove_kernel(kernel);
    pthread_rwlock_unlock(&program->context->up_lock);
    destroy(kernel);
    __atomic_sub_fetch(&program->nkernels, 1, __ATOMIC_RELAXED);
    skmd_clReleaseProgram(program);
    return CL_SUCCESS;
}

/* A cl_mem or cl_sampler argument is swapped for each member's real one; anything else
 * (including __local sizes, arg_value NULL) goes through as given. */
cl_int skmd_clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                           const void *arg_value)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(arg_index >= kernel->nargs, CL_INVALID_ARG_INDEX);
    enum skmd_arg_class cls;
    cl_int bad = skmd_kernel_arg_check(kernel, arg_index, arg_size, arg_value, &cls);
    if (bad != CL_SUCCESS)
        return bad;
    const void *handle = NULL;
    if (arg_value && arg_size == sizeof(void *) && cls != SKMD_ARG_PLAIN) {
        memcpy(&handle, arg_value, sizeof handle);
        if (handle && !skmd_registry_has(handle))
            handle = NULL;
    }
    for (int i = 0; i < skmd_state.nmembers; i++) {
        const void *value = arg_value;
        cl_mem rmem;
        cl_sampler rsampler;
        if (handle && ((const cl_mem)handle)->obj.type == SKMD_TYPE_MEM) {
            /* The executing member's copy is made now (buffers are made lazily); the
             * others' when they run a share. */
            cl_mem mem = (cl_mem)handle;
            cl_int merr = CL_SUCCESS;
            if (i == skmd_state.exec && mem->mtype == CL_MEM_OBJECT_BUFFER) {
                rmem = skmd_mem_real(mem, i, &merr);
                /* A member that cannot hold it (member_health.h) is the launch's
                 * business, not the app's: its work goes elsewhere. */
                if (merr != CL_SUCCESS && skmd_fault_of(merr) == SKMD_FAULT_NONE)
                    return merr;
            } else {
                pthread_mutex_lock(&mem->obj.lock); /* launch threads make real[] */
                rmem = mem->real[i];
                pthread_mutex_unlock(&mem->obj.lock);
            }
            value = &rmem;
            if (!rmem)
                continue; /* this member has no copy: set when it runs a share */
        } else if (handle) {
            rsampler = ((const cl_sampler)handle)->real[skmd_state.members[i].platform_slot];
            value = &rsampler;
        }
        /* A bring-up may be making it now: launches set every argument anyway. */
        cl_kernel real = __atomic_load_n(&kernel->real[i], __ATOMIC_ACQUIRE);
        if (!real)
            continue; /* the member did not build the program, or is not up */
        skmd_key_lock(real); /* launch threads set this kernel's arguments too */
        cl_int err = real_clSetKernelArg(real, arg_index, arg_size, value);
        skmd_key_unlock(real);
        if (err != CL_SUCCESS)
            return err;
    }
    /* Kept for the split launch, which sets the arguments of each member's share. */
    void *copy = NULL;
    if (arg_value && arg_size) {
        copy = malloc(arg_size);
        SKMD_RETURN_ERROR_IF(!copy, CL_OUT_OF_HOST_MEMORY);
        memcpy(copy, arg_value, arg_size);
    }
    pthread_mutex_lock(&kernel->obj.lock);
    struct skmd_arg *arg = &kernel->args[arg_index];
    free(arg->value);
    arg->set = 1;
    arg->size = arg_size;
    arg->value = copy;
    arg->mem = handle && ((const cl_mem)handle)->obj.type == SKMD_TYPE_MEM ? (cl_mem)handle
                                                                          : NULL;
    arg->other_handle = handle && (!arg->mem || arg->mem->mtype != CL_MEM_OBJECT_BUFFER);
    pthread_mutex_unlock(&kernel->obj.lock);
    return CL_SUCCESS;
}

cl_int skmd_clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
    (void)arg_index, (void)arg_value;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION); /* no SVM */
}

cl_int skmd_clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                size_t param_value_size, const void *param_value)
{
    (void)param_name, (void)param_value_size, (void)param_value;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION); /* its parameters are all SVM ones */
}

cl_int skmd_clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                            size_t param_value_size, void *param_value,
                            size_t *param_value_size_ret)
{
    SKMD_INFO_BEGIN(kernel, KERNEL, CL_INVALID_KERNEL, CL_KERNEL_REFERENCE_COUNT);
    switch (param_name) {
    case CL_KERNEL_CONTEXT:
        return skmd_info_bytes(&out, &kernel->program->context, sizeof(cl_context));
    case CL_KERNEL_PROGRAM:
        return skmd_info_bytes(&out, &kernel->program, sizeof kernel->program);
    default:
        return real_clGetKernelInfo(kernel->real[skmd_kernel_answering_member(kernel)],
                                    param_name, param_value_size, param_value,
                                    param_value_size_ret);
    }
}

cl_int skmd_clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                               cl_kernel_arg_info param_name, size_t param_value_size,
                               void *param_value, size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    return real_clGetKernelArgInfo(kernel->real[skmd_kernel_answering_member(kernel)],
                                   arg_index, param_name, param_value_size, param_value,
                                   param_value_size_ret);
}

/* Per-device work-group info of the SKMD device: limits are the smallest over the
 * members, resource use the largest. */
cl_int skmd_clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                     cl_kernel_work_group_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(device && !SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    int use_min = param_name == CL_KERNEL_WORK_GROUP_SIZE;
    int use_max = param_name == CL_KERNEL_LOCAL_MEM_SIZE ||
                  param_name == CL_KERNEL_PRIVATE_MEM_SIZE;
    int answering = skmd_kernel_answering_member(kernel);
    if (!use_min && !use_max)
        return real_clGetKernelWorkGroupInfo(kernel->real[answering],
                                              skmd_state.members[answering].real_device,
                                              param_name, param_value_size, param_value,
                                              param_value_size_ret);
    cl_ulong acc = 0;
    size_t n = 0;
    int first = 1;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        /* A bring-up may be making it now (bring_up.c publishes it with a release). */
        cl_kernel real = __atomic_load_n(&kernel->real[i], __ATOMIC_ACQUIRE);
        if (!real)
            continue; /* the member did not build the program (or is not up): never runs it */
        unsigned char buf[8] = {0};
        cl_int err = real_clGetKernelWorkGroupInfo(real,
                                                   skmd_state.members[i].real_device,
                                                   param_name, sizeof buf, buf, &n);
        if (err != CL_SUCCESS)
            return err;
        cl_ulong v = n == 4 ? *(cl_uint *)buf : *(cl_ulong *)buf;
        if (first || (use_min && v < acc) || (use_max && v > acc))
            acc = v;
        first = 0;
    }
    struct skmd_info out = {param_value_size, param_value, param_value_size_ret};
    if (n == 4) {
        cl_uint v32 = (cl_uint)acc;
        return skmd_info_bytes(&out, &v32, 4);
    }
    return skmd_info_bytes(&out, &acc, 8);
}

cl_int skmd_clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                    cl_kernel_sub_group_info param_name,
                                    size_t input_value_size, const void *input_value,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(kernel, KERNEL), CL_INVALID_KERNEL);
    SKMD_RETURN_ERROR_IF(device && !SKMD_VALID(device, DEVICE), CL_INVALID_DEVICE);
    SKMD_RETURN_ERROR_IF(!skmd_real.clGetKernelSubGroupInfo, CL_INVALID_OPERATION);
    int m = skmd_kernel_answering_member(kernel);
    return real_clGetKernelSubGroupInfo(kernel->real[m], skmd_state.members[m].real_device,
                                        param_name, input_value_size, input_value,
                                        param_value_size, param_value, param_value_size_ret);
}

int skmd_kernel_answering_member(cl_kernel k)
{
    /* Acquire: a member brought up meanwhile has its kernel published with a release. */
    if (__atomic_load_n(&k->real[skmd_state.exec], __ATOMIC_ACQUIRE))
        return skmd_state.exec;
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (__atomic_load_n(&k->real[m], __ATOMIC_ACQUIRE))
            return m;
    return skmd_state.exec;
}
