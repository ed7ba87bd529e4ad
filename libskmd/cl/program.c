/* libskmd/cl/program.c: programs, one real program per real platform, built for every
 * member of that platform. The SKMD device's binary format: program_binary.h; the app's
 * queries: program_info.c; the split version: splitprog.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl/bring_up.h"
#include "cl/common.h"
#include "cl/program_binary.h"
#include "cl/program_build.h"
#include "cl/slot_members.h"
#include "cl/splitprog.h"

static cl_program new_program(cl_context context)
{
    cl_program p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    skmd_object_init(&p->obj, SKMD_TYPE_PROGRAM);
    pthread_mutex_init(&p->split_lock, NULL);
    pthread_cond_init(&p->split_built, NULL);
    p->context = context;
    return p;
}

static cl_program finish_create(cl_program p, cl_int errcode, cl_int *errcode_ret)
{
    if (errcode != CL_SUCCESS && p) {
        free(p->source);
        free(p->options);
        for (int s = 0; s < skmd_state.nplatforms; s++)
            if (p->real[s])
                real_clReleaseProgram(p->real[s]);
        pthread_cond_destroy(&p->split_built);
        pthread_mutex_destroy(&p->split_lock);
        skmd_object_finish(&p->obj);
        free(p);
        p = NULL;
    }
    if (p) {
        skmd_object_retain(&p->context->obj);
        skmd_context_add_program(p);
    }
    if (errcode_ret)
        *errcode_ret = errcode;
    return p;
}

cl_program skmd_clCreateProgramWithSource(cl_context context, cl_uint count,
                                          const char **strings, const size_t *lengths,
                                          cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_program p = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_GOTO_ERROR_IF(count == 0 || strings == NULL, CL_INVALID_VALUE);
    p = new_program(context);
    SKMD_GOTO_ERROR_IF(!p, CL_OUT_OF_HOST_MEMORY);
    /* The source, kept for the kernel compiler at build time. */
    size_t total = 1;
    for (cl_uint i = 0; i < count; i++) {
        SKMD_GOTO_ERROR_IF(!strings[i], CL_INVALID_VALUE);
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    }
    p->source = malloc(total);
    SKMD_GOTO_ERROR_IF(!p->source, CL_OUT_OF_HOST_MEMORY);
    for (size_t i = 0, at = 0; i < count; i++) {
        size_t len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(p->source + at, strings[i], len);
        at += len;
        p->source[at] = '\0';
    }
    /* The slots brought up later make theirs from p->source (bring_up.c). */
    pthread_rwlock_rdlock(&context->up_lock);
    for (int s = 0; s < skmd_state.nplatforms && errcode == CL_SUCCESS; s++)
        if (skmd_slot_up(context, s))
            p->real[s] = real_clCreateProgramWithSource(context->real[s], count, strings,
                                                        lengths, &errcode);
    p = finish_create(p, errcode, errcode_ret);
    pthread_rwlock_unlock(&context->up_lock);
    return p;
ERROR:
    return finish_create(p, errcode, errcode_ret);
}

cl_program skmd_clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                          const cl_device_id *device_list,
                                          const size_t *lengths, const unsigned char **binaries,
                                          cl_int *binary_status, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_program p = NULL;
    struct skmd_binary_parts parts = {0};
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_GOTO_ERROR_IF(num_devices != 1 || !device_list, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(device_list[0], DEVICE) ||
                           !skmd_context_has_device(context, device_list[0]),
                       CL_INVALID_DEVICE);
    SKMD_GOTO_ERROR_IF(!lengths || !binaries || !binaries[0] || !lengths[0], CL_INVALID_VALUE);
    if (binary_status)
        binary_status[0] = CL_INVALID_BINARY;
    errcode = skmd_binary_parse(binaries[0], lengths[0], &parts);
    SKMD_GOTO_ERROR_IF(errcode != CL_SUCCESS, errcode);
    p = new_program(context);
    SKMD_GOTO_ERROR_IF(!p, CL_OUT_OF_HOST_MEMORY);
    p->source = parts.source;
    p->options = parts.options;
    p->options_kept = parts.has_texts;
    parts.source = parts.options = NULL;
    /* Each member's binary is the app's now: every slot gets its real program. */
    skmd_context_bring_up(context, "a program made from a binary");
    pthread_rwlock_rdlock(&context->up_lock);
    for (int s = 0; s < skmd_state.nplatforms; s++) {
        if (!skmd_slot_up(context, s)) {
            p->not_built |= skmd_slots_members(1u << s);
            continue;
        }
        cl_device_id devs[SKMD_MAX_MEMBERS];
        int idx[SKMD_MAX_MEMBERS];
        const unsigned char *bins[SKMD_MAX_MEMBERS];
        size_t lens[SKMD_MAX_MEMBERS];
        cl_int status[SKMD_MAX_MEMBERS];
        cl_uint k = skmd_slot_members(s, NULL, devs, idx);
        for (cl_uint d = 0; d < k; d++) {
            bins[d] = parts.member_bin[idx[d]];
            lens[d] = parts.member_len[idx[d]];
        }
        p->real[s] = real_clCreateProgramWithBinary(context->real[s], k, devs, lens, bins,
                                                    status, &errcode);
        if (errcode != CL_SUCCESS)
            break;
    }
    if (binary_status && errcode == CL_SUCCESS)
        binary_status[0] = CL_SUCCESS;
    free(parts.source);
    free(parts.options);
    p = finish_create(p, errcode, errcode_ret);
    pthread_rwlock_unlock(&context->up_lock);
    return p;
ERROR:
    free(parts.source);
    free(parts.options);
    return finish_create(p, errcode, errcode_ret);
}

cl_program skmd_clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                  const cl_device_id *device_list,
                                                  const char *kernel_names,
                                                  cl_int *errcode_ret)
{
    (void)num_devices, (void)device_list, (void)kernel_names;
    /* CL_DEVICE_BUILT_IN_KERNELS is empty. */
    if (errcode_ret)
        *errcode_ret = SKMD_VALID(context, CONTEXT) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
    return NULL;
}

cl_program skmd_clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                      cl_int *errcode_ret)
{
    (void)il, (void)length;
    /* CL_DEVICE_IL_VERSION is empty. */
    if (errcode_ret)
        *errcode_ret = SKMD_VALID(context, CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
    return NULL;
}

cl_int skmd_clRetainProgram(cl_program program)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    skmd_object_retain(&program->obj);
    return CL_SUCCESS;
}

cl_int skmd_clReleaseProgram(cl_program program)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    if (!skmd_object_release(&program->obj))
        return CL_SUCCESS;
    pthread_rwlock_rdlock(&program->context->up_lock); /* a bring-up reads the list */
    skmd_context_remove_program(program);
    pthread_rwlock_unlock(&program->context->up_lock);
    /* Its split build reads the program: it ends first (no kernel is left to wait). */
    skmd_split_wait(program);
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (program->real[s])
            real_clReleaseProgram(program->real[s]);
    skmd_split_release(program);
    for (struct skmd_callback *cb = program->release_cbs, *next; cb; cb = next) {
        next = cb->next;
        int saved = skmd_app_callback_begin();
        ((void (CL_CALLBACK *)(cl_program, void *))cb->fn)(program, cb->user_data);
        skmd_app_callback_end(saved);
        free(cb);
    }
    skmd_clReleaseContext(program->context);
    pthread_cond_destroy(&program->split_built);
    pthread_mutex_destroy(&program->split_lock);
    skmd_object_finish(&program->obj);
    free(program);
    return CL_SUCCESS;
}

/* A program is built for every member whichever of the context's devices the app names
 * (a sub-device's members are among them): the list is only checked. */
static cl_int check_devices(cl_context ctx, cl_uint num_devices, const cl_device_id *device_list)
{
    SKMD_RETURN_ERROR_IF((num_devices > 0) != (device_list != NULL), CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; i++)
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(device_list[i], DEVICE) ||
                                 !skmd_context_has_device(ctx, device_list[i]),
                             CL_INVALID_DEVICE);
    return CL_SUCCESS;
}

/* A program with kernels attached may not be built or compiled again (the spec's
 * CL_INVALID_OPERATION). */
static int kernels_attached(cl_program program)
{
    return __atomic_load_n(&program->nkernels, __ATOMIC_RELAXED) > 0;
}

/* The app's build notify (api.h: skmd_app_callback_begin). */
static void build_notify(void (CL_CALLBACK *fn)(cl_program, void *), cl_program program,
                         void *user_data)
{
    int saved = skmd_app_callback_begin();
    fn(program, user_data);
    skmd_app_callback_end(saved);
}

cl_int skmd_clBuildProgram(cl_program program, cl_uint num_devices,
                           const cl_device_id *device_list, const char *options,
                           void (CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_RETURN_ERROR_IF(!pfn_notify && user_data, CL_INVALID_VALUE);
    /* Before anything changes: the kernels made from it keep its split version. */
    SKMD_RETURN_ERROR_IF(kernels_attached(program), CL_INVALID_OPERATION);
    cl_int err = check_devices(program->context, num_devices, device_list);
    /* A build again starts once the split version of the last one is made. */
    skmd_split_wait(program);
    /* Every platform is built even when one fails: the build log shows every member's
     * messages. The app's build succeeds when one member built it: the program's kernels
     * then run only on the members that did. The platforms' builds run at once, and so
     * does libskmd's split version, on a thread of its own (split_thread.c) that outlives
     * this call: the first launch that needs it waits for it. */
    cl_context ctx = program->context;
    pthread_rwlock_rdlock(&ctx->up_lock); /* the slots up now: a bring-up builds the rest */
    program->built = 0; /* a bring-up meanwhile builds nothing with the old options */
    unsigned up = atomic_load_explicit(&ctx->up, memory_order_relaxed);
    /* A program made from a binary that carries its build options builds its split
     * version as its binaries were built (an app may build a cached binary without them). */
    const char *split_options = program->options_kept ? program->options : options;
    if (err == CL_SUCCESS) {
        skmd_split_start(program, split_options); /* copies them: they change below */
        err = skmd_program_build_slots(program, up, options);
        /* The members up could not build it: the others may (natively the app's build
         * succeeds when one device builds it). */
        if ((err == CL_BUILD_PROGRAM_FAILURE || err == CL_OUT_OF_RESOURCES) &&
            (skmd_all_slots() & ~up & ~ctx->up_failed)) {
            pthread_rwlock_unlock(&ctx->up_lock);
            ctx->bring_up(ctx, "the program failed to build on the members up", 1);
            pthread_rwlock_rdlock(&ctx->up_lock);
            unsigned more = atomic_load_explicit(&ctx->up, memory_order_relaxed) & ~up;
            if (more && skmd_program_build_slots(program, more, options) == CL_SUCCESS) {
                err = CL_SUCCESS;
                skmd_program_log_failures(program, up);
            }
        }
        if (err != CL_SUCCESS) { /* no member built it: no split version either */
            skmd_split_wait(program);
            skmd_split_forget(program);
        }
    }
    program->built = err == CL_SUCCESS;
    if (err == CL_SUCCESS && !program->options_kept) {
        free(program->options);
        program->options = options && options[0] ? strdup(options) : NULL;
    }
    pthread_rwlock_unlock(&ctx->up_lock);
    if (pfn_notify)
        build_notify(pfn_notify, program, user_data);
    return err;
}

/* The real programs of slot s for a list of virtual ones. */
static cl_int real_programs(cl_uint n, const cl_program *in, int s, cl_program *out)
{
    for (cl_uint i = 0; i < n; i++) {
        SKMD_RETURN_ERROR_IF(!SKMD_VALID(in[i], PROGRAM), CL_INVALID_PROGRAM);
        out[i] = in[i]->real[s];
    }
    return CL_SUCCESS;
}

cl_int skmd_clCompileProgram(cl_program program, cl_uint num_devices,
                             const cl_device_id *device_list, const char *options,
                             cl_uint num_input_headers, const cl_program *input_headers,
                             const char **header_include_names,
                             void (CL_CALLBACK *pfn_notify)(cl_program, void *),
                             void *user_data)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_RETURN_ERROR_IF(!pfn_notify && user_data, CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF((num_input_headers > 0) != (input_headers != NULL), CL_INVALID_VALUE);
    SKMD_RETURN_ERROR_IF(num_input_headers > 64, CL_OUT_OF_RESOURCES);
    SKMD_RETURN_ERROR_IF(kernels_attached(program), CL_INVALID_OPERATION);
    cl_int err = check_devices(program->context, num_devices, device_list);
    skmd_split_wait(program); /* a compile again comes after the last build's split one */
    /* A compiled program is linked into others, whose slots must match: every slot. */
    skmd_context_bring_up(program->context, "a program compiled");
    for (int s = 0; s < skmd_state.nplatforms && err == CL_SUCCESS; s++) {
        if (!skmd_slot_up(program->context, s))
            continue;
        cl_device_id devs[SKMD_MAX_MEMBERS];
        cl_program headers[64];
        cl_uint n = skmd_slot_members(s, NULL, devs, NULL);
        err = real_programs(num_input_headers, input_headers, s, headers);
        if (err == CL_SUCCESS)
            err = real_clCompileProgram(program->real[s], n, devs, options, num_input_headers,
                                        num_input_headers ? headers : NULL,
                                        header_include_names, NULL, NULL);
    }
    /* A link of this program alone gets a split version built from its source with
     * these options (headers of other programs are not followed). */
    program->compiled_alone = 0;
    if (err == CL_SUCCESS && program->source && !program->options_kept &&
        num_input_headers == 0) {
        free(program->options);
        program->options = options && options[0] ? strdup(options) : NULL;
        program->compiled_alone = program->options || !options || !options[0];
    }
    if (pfn_notify)
        build_notify(pfn_notify, program, user_data);
    return err;
}

/* The options of a split version of a link of `in` alone: its compile options and the
 * link options (the math ones; -enable-link-options is the linker's alone); NULL (no
 * split version) when the link makes a library or out of memory. */
static char *linked_alone_options(cl_program in, const char *link_options)
{
    static const char linker_only[] = "-enable-link-options";
    const char *link = link_options ? link_options : "";
    if (strstr(link, "-create-library"))
        return NULL;
    const char *compile = in->options ? in->options : "";
    size_t n = strlen(compile) + strlen(link) + 2;
    char *out = malloc(n);
    if (!out)
        return NULL;
    snprintf(out, n, "%s %s", compile, link);
    for (char *at = strstr(out, linker_only); at; at = strstr(at, linker_only))
        memset(at, ' ', sizeof linker_only - 1);
    return out;
}

/* A link of one program compiled alone from its source: its split version, built as
 * clBuildProgram would have built it. */
static void split_linked_alone(cl_program p, cl_program in, const char *link_options)
{
    if (!in->compiled_alone || !in->source)
        return;
    char *options = linked_alone_options(in, link_options);
    p->source = options ? strdup(in->source) : NULL;
    if (!p->source) {
        free(options);
        return;
    }
    p->options = options;
    p->options_kept = 1;
    skmd_split_start(p, options);
}

cl_program skmd_clLinkProgram(cl_context context, cl_uint num_devices,
                              const cl_device_id *device_list, const char *options,
                              cl_uint num_input_programs, const cl_program *input_programs,
                              void (CL_CALLBACK *pfn_notify)(cl_program, void *),
                              void *user_data, cl_int *errcode_ret)
{
    cl_int errcode = CL_SUCCESS;
    cl_program p = NULL;
    SKMD_GOTO_ERROR_IF(!SKMD_VALID(context, CONTEXT), CL_INVALID_CONTEXT);
    SKMD_GOTO_ERROR_IF(!pfn_notify && user_data, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(num_input_programs == 0 || !input_programs, CL_INVALID_VALUE);
    SKMD_GOTO_ERROR_IF(num_input_programs > 64, CL_OUT_OF_RESOURCES);
    SKMD_GOTO_IF_REAL_FAILED(check_devices(context, num_devices, device_list));
    p = new_program(context);
    SKMD_GOTO_ERROR_IF(!p, CL_OUT_OF_HOST_MEMORY);
    skmd_context_bring_up(context, "a program linked");
    for (int s = 0; s < skmd_state.nplatforms; s++) {
        if (!skmd_slot_up(context, s)) {
            p->not_built |= skmd_slots_members(1u << s);
            continue;
        }
        cl_device_id devs[SKMD_MAX_MEMBERS];
        cl_program inputs[64];
        cl_uint n = skmd_slot_members(s, NULL, devs, NULL);
        SKMD_GOTO_IF_REAL_FAILED(real_programs(num_input_programs, input_programs, s, inputs));
        p->real[s] = real_clLinkProgram(context->real[s], n, devs, options, num_input_programs,
                                        inputs, NULL, NULL, &errcode);
        SKMD_GOTO_IF_REAL_FAILED(errcode);
    }
    if (num_input_programs == 1)
        split_linked_alone(p, input_programs[0], options);
ERROR:
    p = finish_create(p, errcode, errcode_ret);
    if (p && pfn_notify)
        build_notify(pfn_notify, p, user_data);
    return p;
}

static void CL_CALLBACK release_probe(cl_program program, void *user_data)
{
    (void)program, (void)user_data;
}

cl_int skmd_clSetProgramReleaseCallback(cl_program program,
                                        void (CL_CALLBACK *pfn_notify)(cl_program, void *),
                                        void *user_data)
{
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_RETURN_ERROR_IF(!pfn_notify, CL_INVALID_VALUE);
    /* The executing member's driver says whether release callbacks are supported (with
     * no program-scope destructors, they are not: CL_INVALID_OPERATION). */
    cl_program real = program->real[skmd_state.members[skmd_state.exec].platform_slot];
    cl_int err = real ? real_clSetProgramReleaseCallback(real, release_probe, NULL)
                      : CL_SUCCESS;
    SKMD_RETURN_ERROR_IF(err != CL_SUCCESS, err);
    struct skmd_callback *cb = malloc(sizeof *cb);
    SKMD_RETURN_ERROR_IF(!cb, CL_OUT_OF_HOST_MEMORY);
    cb->fn = (void (CL_CALLBACK *)(void))pfn_notify;
    cb->user_data = user_data;
    pthread_mutex_lock(&program->obj.lock);
    cb->next = program->release_cbs;
    program->release_cbs = cb;
    pthread_mutex_unlock(&program->obj.lock);
    return CL_SUCCESS;
}

cl_int skmd_clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                               size_t spec_size, const void *spec_value)
{
    (void)spec_id, (void)spec_size, (void)spec_value;
    SKMD_RETURN_ERROR_IF(!SKMD_VALID(program, PROGRAM), CL_INVALID_PROGRAM);
    SKMD_RETURN_ERROR_IF(1, CL_INVALID_OPERATION); /* only IL programs have them */
}
