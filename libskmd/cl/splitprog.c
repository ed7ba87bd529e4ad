/* libskmd/cl/splitprog.c: asks the kernel compiler (compiler_run.h) for a program's split
 * version and loads its output (see splitprog.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../transform/record.h"
#include "cl/common.h"
#include "cl/compiler_run.h"
#include "support/clock.h"
#include "support/error.h"
#include "support/hash.h"
#include "support/config.h"
#include "plan/launch_memo.h"
#include "support/log.h"
#include "cl/member_extensions.h"
#include "plan/share_source.h"
#include "cl/slot_members.h"
#include "cl/splitprog.h"

enum target { TARGET_NONE, TARGET_POCL, TARGET_NVPTX };
static const char *const target_name[] = {"none", "pocl", "nvptx"};

static enum target member_target(const struct skmd_member *m)
{
    if (m->pocl)
        return TARGET_POCL;
    char vendor[256] = "";
    real_clGetPlatformInfo(m->real_platform, CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    if (strstr(vendor, "NVIDIA"))
        return TARGET_NVPTX;
    return TARGET_NONE;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
            if (fread(data, 1, (size_t)n, f) == (size_t)n) {
                data[n] = '\0';
                *len = (size_t)n;
            } else {
                free(data);
                data = NULL;
            }
        }
    }
    fclose(f);
    return data;
}

/* Runs the compiler on the source for `t`; fills `dir` with the cache entry. Returns 0,
 * or -1 with the reason in `why`. */
static int run_compiler(const char *source, const char *options, enum target t, char *dir,
                        size_t dir_size, char *why, size_t why_size)
{
    /* The front end enables exactly what the target's members have (member_extensions.h). */
    unsigned char use[SKMD_MAX_MEMBERS] = {0};
    char std[16], ext[8192], feat[4096];
    for (int i = 0; i < skmd_state.nmembers; i++)
        use[i] = member_target(&skmd_state.members[i]) == t;
    skmd_member_extensions(use, t == TARGET_POCL, std, sizeof std, ext, sizeof ext, feat,
                           sizeof feat);
    struct skmd_compile_request req = {source, options, target_name[t], std, ext, feat};
    int ran = 0;
    uint64_t start = skmd_now_ns();
    int rc = skmd_compiler_run(&req, dir, dir_size, &ran, why, why_size);
    if (ran)
        skmd_log(SKMD_LOG_DEBUG, "kernel compiler for %s: ran in %.1f ms", target_name[t],
                 (double)(skmd_now_ns() - start) * 1e-6);
    else if (rc == 0)
        skmd_log(SKMD_LOG_DEBUG, "kernel compiler for %s: answered from its memo (%s)",
                 target_name[t], dir);
    return rc;
}

/* A program as messages name it: its first kernels (from the analysis record) and a short
 * hash of its source. */
static void program_label(cl_program p, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "program %08llx",
                                (unsigned long long)(skmd_fnv(SKMD_FNV_BASIS, p->source,
                                                              strlen(p->source)) >> 32));
    const struct skmd_program_record *r = p->record;
    if (!r || !r->nkernels || n >= size)
        return;
    unsigned shown = r->nkernels < 3 ? r->nkernels : 3;
    for (unsigned i = 0; i < shown && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : " (kernels ",
                              r->kernels[i].name);
    if (n < size)
        snprintf(out + n, size - n, "%s)", r->nkernels > shown ? ", ..." : "");
}

/* The first two non-empty lines of a member's build log, joined, into `out` ("" when the
 * driver gives none). */
static void build_log_head(cl_program real, cl_device_id dev, char *out, size_t size)
{
    out[0] = '\0';
    size_t len = 0;
    if (real_clGetProgramBuildInfo(real, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) !=
            CL_SUCCESS || len < 2)
        return;
    char *log = malloc(len + 1);
    if (!log)
        return;
    if (real_clGetProgramBuildInfo(real, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) ==
        CL_SUCCESS) {
        log[len] = '\0';
        size_t n = 0;
        int lines = 0;
        char *save = NULL;
        for (char *line = strtok_r(log, "\r\n", &save); line && lines < 2 && n + 1 < size;
             line = strtok_r(NULL, "\r\n", &save)) {
            while (*line == ' ' || *line == '\t')
                line++;
            if (!*line)
                continue;
            n += (size_t)snprintf(out + n, size - n, "%s%s", lines++ ? " | " : "", line);
        }
    }
    free(log);
}

/* Members that could not build the split program, gathered over the platforms so that
 * the warning is printed once per program. */
struct build_failures {
    int n;
    cl_int err;
    char members[512];
    char log[512]; /* the first failing member's build log, first lines */
};

/* The real split program of slot s from the compiler's output; marks split_ok. */
static void load_slot(cl_program p, int s, enum target t, const unsigned char *bin,
                      size_t len, struct build_failures *fail)
{
    cl_device_id devs[SKMD_MAX_MEMBERS];
    int idx[SKMD_MAX_MEMBERS];
    const unsigned char *bins[SKMD_MAX_MEMBERS];
    size_t lens[SKMD_MAX_MEMBERS];
    cl_int status[SKMD_MAX_MEMBERS];
    unsigned char use[SKMD_MAX_MEMBERS];
    for (int i = 0; i < skmd_state.nmembers; i++)
        use[i] = member_target(&skmd_state.members[i]) == t;
    cl_uint k = skmd_slot_members(s, use, devs, idx);
    for (cl_uint d = 0; d < k; d++) {
        bins[d] = bin;
        lens[d] = len;
    }
    if (k == 0)
        return;
    cl_int err;
    cl_program real = real_clCreateProgramWithBinary(p->context->real[s], k, devs, lens, bins,
                                                     status, &err);
    if (!real) {
        char label[512];
        program_label(p, label, sizeof label);
        skmd_log(SKMD_LOG_WARN, "%s: the driver of platform %d refused libskmd's split "
                 "program (clCreateProgramWithBinary gave %s): its kernels run whole "
                 "there", label, s, skmd_error_name(err));
        return;
    }
    err = real_clBuildProgram(real, k, devs, "", NULL, NULL);
    for (cl_uint d = 0; d < k; d++) {
        cl_build_status st = CL_BUILD_ERROR;
        real_clGetProgramBuildInfo(real, devs[d], CL_PROGRAM_BUILD_STATUS, sizeof st, &st,
                                   NULL);
        p->split_ok[idx[d]] = st == CL_BUILD_SUCCESS;
        if (st == CL_BUILD_SUCCESS)
            continue;
        size_t used = strlen(fail->members);
        snprintf(fail->members + used, sizeof fail->members - used, "%s%d (%s)",
                 fail->n ? ", " : "", idx[d], skmd_state.members[idx[d]].name);
        if (!fail->n++) {
            fail->err = err;
            build_log_head(real, devs[d], fail->log, sizeof fail->log);
        }
    }
    p->split[s] = real;
}

/* The split program of target t (kept in p->split_bin) on the members of `slots`. */
static void load_target(cl_program p, enum target t, unsigned slots)
{
    struct build_failures fail = {0};
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (slots >> s & 1u)
            load_slot(p, s, t, p->split_bin[t - TARGET_POCL], p->split_len[t - TARGET_POCL],
                      &fail);
    if (fail.n) {
        char label[512];
        program_label(p, label, sizeof label);
        skmd_log(SKMD_LOG_WARN, "%s: member%s %s could not build libskmd's split version "
                 "of it (%s target: clBuildProgram gave %s): all its kernels run whole "
                 "there, none gets shares; build log: %s", label, fail.n > 1 ? "s" : "",
                 fail.members, target_name[t], skmd_error_name(fail.err),
                 fail.log[0] ? fail.log : "(empty)");
    }
}

int skmd_split_wanted(cl_program p)
{
    /* Single mode builds them too: plan.c may run a launch whole on another member. */
    enum skmd_mode mode = skmd_config()->mode;
    return p->source && (mode == SKMD_MODE_SPLIT || mode == SKMD_MODE_SINGLE) && !p->record;
}

void skmd_split_build(cl_program p, const char *options)
{
    if (!skmd_split_wanted(p))
        return;
    /* Members on the source route build the app's source per launch shape
     * (share_source.c); the analysis record (and the merge kernels of CPU members) still
     * come from the PoCL target. */
    unsigned char route[SKMD_MAX_MEMBERS] = {0};
    int nsource = 0;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        route[i] = (unsigned char)skmd_source_route(member_target(&skmd_state.members[i]) ==
                                                    TARGET_POCL);
        nsource += route[i];
    }
    if (nsource)
        skmd_source_setup(p, options, route);
    for (enum target t = TARGET_POCL; t <= TARGET_NVPTX; t++) {
        int used = t == TARGET_POCL && nsource;
        for (int i = 0; i < skmd_state.nmembers; i++)
            used |= member_target(&skmd_state.members[i]) == t &&
                    (t == TARGET_POCL || !route[i]);
        if (!used)
            continue;
        char dir[4096], why[9000], path[4200];
        if (run_compiler(p->source, options, t, dir, sizeof dir, why, sizeof why) != 0) {
            char label[512];
            program_label(p, label, sizeof label);
            skmd_log(SKMD_LOG_INFO, "%s: kernels not splittable on %s members: %s", label,
                     target_name[t], why);
            continue;
        }
        if (!p->record) {
            snprintf(path, sizeof path, "%s/record.txt", dir);
            FILE *f = fopen(path, "r");
            struct skmd_program_record *rec = calloc(1, sizeof *rec);
            char err[256] = "";
            if (f && rec) {
                skmd_record_init(rec);
                if (skmd_record_read(f, rec, err, sizeof err) == 0) {
                    p->record = rec;
                    rec = NULL;
                } else {
                    skmd_log(SKMD_LOG_WARN, "bad analysis record %s: %s", path, err);
                    skmd_record_free(rec);
                }
            }
            free(rec);
            if (f)
                fclose(f);
        }
        snprintf(path, sizeof path, "%s/kernels.%s", dir, t == TARGET_POCL ? "bc" : "ptx");
        size_t len = 0;
        unsigned char *bin = (unsigned char *)read_file(path, &len);
        if (!bin) {
            skmd_log(SKMD_LOG_WARN, "cannot read %s: kernels run whole", path);
            continue;
        }
        /* PTX is text: the driver wants its final NUL counted. */
        if (t == TARGET_NVPTX)
            len++;
        /* Kept for the slots brought up later (bring_up.c). */
        free(p->split_bin[t - TARGET_POCL]);
        p->split_bin[t - TARGET_POCL] = bin;
        p->split_len[t - TARGET_POCL] = len;
        load_target(p, t, atomic_load_explicit(&p->context->up, memory_order_acquire));
    }
}

void skmd_split_load(cl_program p, unsigned slots)
{
    for (enum target t = TARGET_POCL; t <= TARGET_NVPTX; t++)
        if (p->split_bin[t - TARGET_POCL])
            load_target(p, t, slots);
}

void skmd_split_forget(cl_program p)
{
    for (int t = 0; t < 2; t++) {
        free(p->split_bin[t]);
        p->split_bin[t] = NULL;
    }
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (p->split[s]) {
            real_clReleaseProgram(p->split[s]);
            p->split[s] = NULL;
        }
    skmd_source_release(p);
    if (p->record) {
        skmd_launch_memo_forget_all(); /* answers keyed by this record's address */
        skmd_record_free(p->record);
        free(p->record);
        p->record = NULL;
    }
}

void skmd_split_release(cl_program p)
{
    skmd_split_forget(p);
    free(p->source);
    free(p->options);
}
