/* libskmd/launch/verify.c: SKMD_VERIFY (verify.h). Before a split launch runs, every root
 * buffer it passes is copied as it is current (skmd_coh_peek: no copy's state changes, so
 * the split moves what it would have moved). After the split, those copies become scratch
 * buffers on one member, the app's kernel runs whole there on them, and each written buffer
 * argument is compared with what the split left. Copying before the split is what makes
 * kernels that read and write one buffer in place come out right. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"
#include "mem/coherence.h"
#include "device/api.h"
#include "device/event_time.h"
#include "support/error.h"
#include "support/object.h"
#include "support/config.h"
#include "mem/inflight.h"
#include "support/log.h"
#include "launch/verify.h"
#include "launch/verify_compare.h"

/* One root buffer of the launch: its bytes before the split, then its scratch copy. */
struct root_copy {
    cl_mem root;
    unsigned char *bytes;
    cl_mem scratch; /* on the whole member, made from `bytes` */
};

struct skmd_verify {
    unsigned nroots;
    struct root_copy *roots;
    cl_kernel kernel;  /* a real kernel of its own on the whole member */
    cl_command_queue queue;
};

static struct {
    pthread_mutex_t lock;
    uint64_t verified, mismatched, not_verified;
    FILE *file; /* SKMD_VERIFY_FILE, NULL: none */
} tally = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t set_up_once = PTHREAD_ONCE_INIT;
static int verify_on;

static void summary_at_exit(void)
{
    pthread_mutex_lock(&tally.lock);
    fprintf(stderr, "libskmd verify: %" PRIu64 " split launches verified, %" PRIu64
            " with a mismatch, %" PRIu64 " not verified\n", tally.verified, tally.mismatched,
            tally.not_verified);
    if (tally.file) {
        fprintf(tally.file, "{\"event\":\"summary\",\"verified\":%" PRIu64 ",\"mismatches\":%"
                PRIu64 ",\"not_verified\":%" PRIu64 "}\n", tally.verified, tally.mismatched,
                tally.not_verified);
        fclose(tally.file);
        tally.file = NULL;
    }
    pthread_mutex_unlock(&tally.lock);
}

static void set_up(void)
{
    verify_on = skmd_config()->verify;
    if (!verify_on)
        return;
    const char *path = skmd_config()->verify_file;
    if (path[0] && !(tally.file = fopen(path, "a")))
        skmd_log(SKMD_LOG_WARN, "SKMD_VERIFY_FILE %s cannot be opened: verify logs only", path);
    atexit(summary_at_exit);
}

int skmd_verify_enabled(void)
{
    pthread_once(&set_up_once, set_up);
    return verify_on;
}

int skmd_verify_corrupt_member(void)
{
    const char *v = skmd_config()->fault_corrupt;
    return v[0] ? atoi(v) : -1;
}

cl_int skmd_verify_flip_byte(cl_mem mem, int m, uint64_t at)
{
    cl_int err;
    cl_command_queue q = skmd_work_queue(mem->context, m, &err);
    cl_mem real = q ? skmd_mem_real(mem, m, &err) : NULL;
    unsigned char byte = 0;
    if (real)
        err = real_clEnqueueReadBuffer(q, real, CL_TRUE, (size_t)at, 1, &byte, 0, NULL, NULL);
    byte ^= 0xff;
    if (real && err == CL_SUCCESS)
        err = real_clEnqueueWriteBuffer(q, real, CL_TRUE, (size_t)at, 1, &byte, 0, NULL, NULL);
    skmd_log(SKMD_LOG_WARN, "SKMD_FAULT_CORRUPT: byte %" PRIu64 " of a buffer flipped on "
             "member %d (%d)", at, m, err);
    return err;
}

/* ---- members that compute alike ---- */

struct ident {
    cl_device_type type;
    char vendor[128], driver[128];
};
static struct ident idents[SKMD_MAX_MEMBERS];
static pthread_once_t idents_once = PTHREAD_ONCE_INIT;

static void read_idents(void)
{
    for (int m = 0; m < skmd_state.nmembers; m++) {
        cl_device_id d = skmd_state.members[m].real_device;
        struct ident *id = &idents[m];
        real_clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof id->type, &id->type, NULL);
        real_clGetDeviceInfo(d, CL_DEVICE_VENDOR, sizeof id->vendor - 1, id->vendor, NULL);
        real_clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof id->driver - 1, id->driver, NULL);
    }
}

/* Alike: the same device type, vendor and driver version (PoCL's pthread and basic CPU
 * devices are; a CPU and a GPU, or two drivers, are not). */
static int alike(int a, int b)
{
    pthread_once(&idents_once, read_idents);
    return idents[a].type == idents[b].type && !strcmp(idents[a].vendor, idents[b].vendor) &&
           !strcmp(idents[a].driver, idents[b].driver);
}

static int all_alike(const struct skmd_verify_launch *v)
{
    for (int s = 0; s < v->nshares; s++)
        if (!alike(v->member[s], v->whole_member))
            return 0;
    return 1;
}

/* ---- what is written where ---- */

/* Appends to `out` the launch's shares as JSON ([{"member":..}...]) or as the log's
 * " m0=FIRST+COUNT" list. */
static void shares_text(const struct skmd_verify_launch *v, int json, char *out, size_t size)
{
    size_t at = strlen(out);
    if (json)
        at += (size_t)snprintf(out + at, size - at, "[");
    for (int s = 0; s < v->nshares && at < size; s++)
        at += (size_t)snprintf(out + at, size - at,
                               json ? "%s{\"member\":%d,\"first\":%" PRIu64 ",\"count\":%" PRIu64 "}"
                                    : "%s m%d=%" PRIu64 "+%" PRIu64,
                               json && s ? "," : "", v->member[s], v->first[s], v->count[s]);
    if (json && at < size)
        snprintf(out + at, size - at, "]");
}

/* The one share whose write footprint of param p holds byte `at`; -1 when none or several
 * do (then the launch's shares are named instead). */
static int share_of_byte(const struct skmd_verify_launch *v, unsigned p, uint64_t at)
{
    struct skmd_interval rd[SKMD_SHARE_INTERVALS], wr[SKMD_SHARE_INTERVALS];
    int found = -1;
    for (int s = 0; s < v->nshares; s++) {
        struct skmd_footprint fp = {rd, wr, SKMD_SHARE_INTERVALS, SKMD_SHARE_INTERVALS, 0, 0, 0};
        skmd_share_footprint(v->view, p, v->first[s], v->count[s], &fp);
        for (size_t i = 0; i < fp.nwrite; i++)
            if (at >= fp.write[i].begin && at < fp.write[i].end) {
                if (found >= 0)
                    return -1;
                found = s;
                break;
            }
    }
    return found;
}

/* The JSON line's common head: {"event":"launch","launch":N,"kernel":"K",... */
static void json_head(const struct skmd_verify_launch *v, const char *result, char *out,
                      size_t size)
{
    char name[128];
    size_t n = 0;
    for (const char *c = v->k->name; *c && n < sizeof name - 2; c++)
        if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20) /* kernel names are
                                                                     identifiers */
            name[n++] = *c;
    name[n] = 0;
    snprintf(out, size, "{\"event\":\"launch\",\"launch\":%" PRIu64 ",\"kernel\":\"%s\","
             "\"result\":\"%s\",\"whole_member\":%d,\"shares\":", v->number, name, result,
             v->whole_member);
    shares_text(v, 1, out, size);
}

static void json_line(const char *line)
{
    if (!tally.file)
        return;
    fprintf(tally.file, "%s}\n", line);
    fflush(tally.file);
}

static void not_verified(const struct skmd_verify_launch *v, const char *why)
{
    char line[2048];
    skmd_log(SKMD_LOG_WARN, "verify: launch %" PRIu64 " %s: not verified: %s", v->number,
             v->k->name, why);
    pthread_mutex_lock(&tally.lock);
    tally.not_verified++;
    json_head(v, "not verified", line, sizeof line);
    size_t at = strlen(line);
    snprintf(line + at, sizeof line - at, ",\"why\":\"%s\"", why);
    json_line(line);
    pthread_mutex_unlock(&tally.lock);
}

/* ---- before the split ---- */

static void free_verify(struct skmd_verify *s)
{
    for (unsigned r = 0; r < s->nroots; r++) {
        free(s->roots[r].bytes);
        if (s->roots[r].scratch)
            real_clReleaseMemObject(s->roots[r].scratch);
    }
    if (s->kernel)
        real_clReleaseKernel(s->kernel);
    free(s->roots);
    free(s);
}

static struct root_copy *copy_of(struct skmd_verify *s, cl_mem root)
{
    for (unsigned r = 0; r < s->nroots; r++)
        if (s->roots[r].root == root)
            return &s->roots[r];
    return NULL;
}

struct skmd_verify *skmd_verify_begin(const struct skmd_verify_launch *v)
{
    if (!skmd_verify_enabled())
        return NULL;
    const struct skmd_share_view *view = v->view;
    struct skmd_verify *s = calloc(1, sizeof *s);
    if (s)
        s->roots = calloc(view->rec->nparams ? view->rec->nparams : 1, sizeof *s->roots);
    cl_int err = s && s->roots ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    for (unsigned p = 0; p < view->rec->nparams && err == CL_SUCCESS; p++) {
        if (!skmd_share_is_buffer(view, p))
            continue;
        cl_mem root = skmd_mem_root(view->args[p].mem);
        if (copy_of(s, root))
            continue; /* one copy per root: arguments that share it stay one buffer */
        struct root_copy *rc = &s->roots[s->nroots++];
        rc->root = root;
        if (!(rc->bytes = malloc(root->size))) {
            err = CL_OUT_OF_HOST_MEMORY;
            break;
        }
        skmd_buffer_lock(root);
        err = skmd_coh_peek(root, 0, root->size, rc->bytes);
        skmd_buffer_unlock(root);
    }
    if (err == CL_SUCCESS)
        return s;
    char why[96];
    snprintf(why, sizeof why, "its buffers could not be copied before the split (%d)", err);
    not_verified(v, why);
    if (s)
        free_verify(s);
    return NULL;
}

/* ---- after the split ---- */

/* Argument mem as a scratch buffer: its root's copy, or a sub-buffer of it (*sub, released
 * by the caller). */
static cl_mem scratch_arg(struct skmd_verify *s, cl_mem mem, cl_mem *sub, cl_int *err)
{
    struct root_copy *rc = copy_of(s, skmd_mem_root(mem));
    if (!rc) {
        *err = CL_INVALID_MEM_OBJECT;
        return NULL;
    }
    if (!mem->parent)
        return rc->scratch;
    cl_buffer_region region = {mem->origin, mem->size};
    return *sub = real_clCreateSubBuffer(rc->scratch, 0, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                         err);
}

/* The app's kernel whole on the whole member, on scratch copies of the buffers as they
 * were before the split; waited for. */
static cl_int run_whole(struct skmd_verify *s, const struct skmd_verify_launch *v)
{
    int w = v->whole_member;
    const struct skmd_member *member = &skmd_state.members[w];
    cl_context ctx = skmd_member_context(v->context, w);
    cl_int err;
    s->queue = skmd_work_queue(v->context, w, &err);
    if (!s->queue)
        return err;
    for (unsigned r = 0; r < s->nroots && err == CL_SUCCESS; r++)
        s->roots[r].scratch = real_clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                  s->roots[r].root->size, s->roots[r].bytes,
                                                  &err);
    /* A kernel object of its own: the app's may be set for another launch meanwhile. */
    if (err == CL_SUCCESS)
        s->kernel = real_clCreateKernel(v->k->program->real[member->platform_slot],
                                        v->k->name, &err);
    cl_uint nargs = v->k->nargs;
    cl_mem *subs = calloc(nargs ? nargs : 1, sizeof *subs);
    if (!subs && err == CL_SUCCESS)
        err = CL_OUT_OF_HOST_MEMORY;
    for (cl_uint a = 0; a < nargs && err == CL_SUCCESS; a++) {
        const struct skmd_arg *arg = &v->view->args[a];
        if (!arg->set)
            continue;
        if (arg->mem) {
            cl_mem mem = scratch_arg(s, arg->mem, &subs[a], &err);
            if (mem)
                err = real_clSetKernelArg(s->kernel, a, sizeof mem, &mem);
        } else {
            err = real_clSetKernelArg(s->kernel, a, arg->size, arg->value);
        }
    }
    const struct skmd_launch *shape = v->view->shape;
    size_t offset[3], global[3], local[3];
    for (int d = 0; d < 3; d++) {
        offset[d] = (size_t)shape->global_offset[d];
        global[d] = (size_t)shape->global_size[d];
        local[d] = (size_t)shape->local_size[d];
    }
    cl_event ev = NULL;
    if (err == CL_SUCCESS)
        err = real_clEnqueueNDRangeKernel(s->queue, s->kernel, shape->work_dim, offset, global,
                                          local, 0, NULL, &ev);
    if (err == CL_SUCCESS)
        err = skmd_event_wait_status(ev);
    if (ev)
        real_clReleaseEvent(ev);
    for (cl_uint a = 0; subs && a < nargs; a++)
        if (subs[a])
            real_clReleaseMemObject(subs[a]);
    free(subs);
    return err;
}

/* Logs and writes the first difference, in written buffer argument p. */
static void mismatch(const struct skmd_verify_launch *v, unsigned p, enum skmd_verify_elem kind,
                     const struct skmd_verify_diff *d, unsigned char split_byte,
                     unsigned char whole_byte)
{
    static const char *const kinds[] = {"bytes", "float", "double"};
    const char *pname = v->view->rec->params[p].name ? v->view->rec->params[p].name : "";
    int s = share_of_byte(v, p, d->offset);
    char where[1024] = "", values[96] = "";
    if (s >= 0)
        snprintf(where, sizeof where, "written by member %d's share (groups %" PRIu64 "+%" PRIu64
                 ")", v->member[s], v->first[s], v->count[s]);
    else {
        snprintf(where, sizeof where, "no single share's write footprint holds it; shares");
        shares_text(v, 0, where, sizeof where);
    }
    if (d->valued)
        snprintf(values, sizeof values, "; %s %.9g, whole %.9g", kinds[kind], d->split_value,
                 d->whole_value);
    skmd_log(SKMD_LOG_ERROR, "verify: launch %" PRIu64 " %s: buffer argument %u (%s) differs "
             "from the whole run on member %d at byte %" PRIu64 " (split 0x%02x, whole 0x%02x%s"
             "), %" PRIu64 " %s differ; %s", v->number, v->k->name, p, pname, v->whole_member,
             d->offset, split_byte, whole_byte, values, d->elements,
             kind == SKMD_VERIFY_BYTES ? "bytes" : "elements", where);
    char line[2048];
    json_head(v, "mismatch", line, sizeof line);
    size_t at = strlen(line);
    at += (size_t)snprintf(line + at, sizeof line - at, ",\"arg\":%u,\"arg_name\":\"%s\","
                           "\"offset\":%" PRIu64 ",\"split_byte\":%u,\"whole_byte\":%u,"
                           "\"compare\":\"%s\",\"differing\":%" PRIu64 ",\"by_share\":",
                           p, pname, d->offset, split_byte, whole_byte, kinds[kind],
                           d->elements);
    if (s >= 0)
        snprintf(line + at, sizeof line - at, "{\"member\":%d,\"first\":%" PRIu64
                 ",\"count\":%" PRIu64 "}", v->member[s], v->first[s], v->count[s]);
    else
        snprintf(line + at, sizeof line - at, "null");
    pthread_mutex_lock(&tally.lock);
    json_line(line);
    pthread_mutex_unlock(&tally.lock);
}

/* The element kind of param p's comparison: bytes when every member is alike. The
 * analysis record knows float and double elements through typedefs (a driver's type name
 * is the typedef's, and NVIDIA gives none without -cl-kernel-arg-info). */
static enum skmd_verify_elem kind_of(const struct skmd_verify *s,
                                     const struct skmd_verify_launch *v, unsigned p)
{
    char type[128] = "";
    if (all_alike(v))
        return SKMD_VERIFY_BYTES;
    unsigned bits = p < v->view->rec->nparams ? v->view->rec->params[p].float_bits : 0;
    if (bits == 32 || bits == 64)
        return bits == 32 ? SKMD_VERIFY_FLOAT : SKMD_VERIFY_DOUBLE;
    if (real_clGetKernelArgInfo(s->kernel, p, CL_KERNEL_ARG_TYPE_NAME, sizeof type - 1, type,
                                NULL) != CL_SUCCESS)
        return SKMD_VERIFY_BYTES; /* no type known: the strict comparison */
    return skmd_verify_elem_of(type);
}

/* Compares each written buffer argument; reports the first difference. 1: one was found,
 * 0: none, < 0: an OpenCL error reading them. */
static cl_int compare_all(struct skmd_verify *s, const struct skmd_verify_launch *v, int *found)
{
    const struct skmd_share_view *view = v->view;
    cl_int err = CL_SUCCESS;
    *found = 0;
    for (unsigned p = 0; p < view->rec->nparams && !*found && err == CL_SUCCESS; p++) {
        if (!skmd_share_is_buffer(view, p) || !(view->rec->params[p].access & SKMD_ACCESS_WRITE))
            continue;
        cl_mem mem = view->args[p].mem;
        struct root_copy *rc = copy_of(s, skmd_mem_root(mem));
        unsigned char *split = malloc(mem->size), *whole = malloc(mem->size);
        err = split && whole && rc ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        if (err == CL_SUCCESS) {
            skmd_buffer_lock(mem);
            err = skmd_coh_peek(mem, 0, mem->size, split);
            skmd_buffer_unlock(mem);
        }
        if (err == CL_SUCCESS)
            err = real_clEnqueueReadBuffer(s->queue, rc->scratch, CL_TRUE,
                                           mem->parent ? mem->origin : 0, mem->size, whole, 0,
                                           NULL, NULL);
        struct skmd_verify_diff d;
        enum skmd_verify_elem kind = err == CL_SUCCESS ? kind_of(s, v, p) : SKMD_VERIFY_BYTES;
        if (err == CL_SUCCESS && skmd_verify_compare(split, whole, mem->size, kind, &d)) {
            *found = 1;
            mismatch(v, p, kind, &d, split[d.offset], whole[d.offset]);
        }
        free(split);
        free(whole);
    }
    return err;
}

void skmd_verify_end(struct skmd_verify *s, const struct skmd_verify_launch *v, int ran_split)
{
    if (!s)
        return;
    cl_int err = CL_SUCCESS;
    int found = 0;
    char why[96] = "";
    if (!ran_split)
        snprintf(why, sizeof why, "the split failed and the launch ran as one share");
    else if (v->whole_member < 0)
        snprintf(why, sizeof why, "no member can run it whole");
    else if ((err = run_whole(s, v)) != CL_SUCCESS)
        snprintf(why, sizeof why, "the whole run on member %d failed (%d)", v->whole_member, err);
    else if ((err = compare_all(s, v, &found)) != CL_SUCCESS)
        snprintf(why, sizeof why, "the results could not be read (%d)", err);
    if (why[0]) {
        not_verified(v, why);
    } else {
        pthread_mutex_lock(&tally.lock);
        tally.verified++;
        tally.mismatched += found;
        if (!found) {
            char line[2048];
            json_head(v, "ok", line, sizeof line);
            size_t at = strlen(line);
            snprintf(line + at, sizeof line - at, ",\"compare\":\"%s\"",
                     all_alike(v) ? "bytes" : "tolerance");
            json_line(line);
        }
        pthread_mutex_unlock(&tally.lock);
        if (!found)
            skmd_log(SKMD_LOG_INFO, "verify: launch %" PRIu64 " %s: the written buffers match "
                     "the whole run on member %d", v->number, v->k->name, v->whole_member);
    }
    free_verify(s);
}
