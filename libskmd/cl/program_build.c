/* libskmd/cl/program_build.c: a program built on a set of platform slots (see
 * program_build.h): every slot's build at once, a failed multi-device build again for the
 * members that built it, and the members left without it marked and logged. */
#include <stdio.h>
#include <string.h>

#include "cl/bring_up.h"
#include "cl/common.h"
#include "cl/program_build.h"
#include "cl/slot_members.h"
#include "device/parallel.h"
#include "support/log.h"

/* Logs member m's failed build with the start of its build log, on one line. */
static void log_member_build_failure(cl_program program, int m, int others_built)
{
    const struct skmd_member *member = &skmd_state.members[m];
    char text[240] = "";
    real_clGetProgramBuildInfo(program->real[member->platform_slot], member->real_device,
                               CL_PROGRAM_BUILD_LOG, sizeof text, text, NULL);
    text[sizeof text - 1] = '\0';
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    skmd_log(SKMD_LOG_WARN, "member %d (%s) failed to build the program: %s%s", m,
             member->name, text[0] ? text : "(empty build log)",
             others_built ? "; its kernels run on the members that built it" : "");
}

/* Builds slot s's real program for every member of the slot; when that fails, again for
 * the members whose own build succeeded (a multi-device build fails as a whole). Marks
 * the members left without the program in *not_built. Returns the first build's
 * error when no member of the slot built it. */
static cl_int build_slot(cl_program program, int s, const char *options, unsigned *not_built)
{
    cl_device_id devs[SKMD_MAX_MEMBERS] = {0}, ok[SKMD_MAX_MEMBERS];
    int idx[SKMD_MAX_MEMBERS], failed[SKMD_MAX_MEMBERS];
    cl_uint n = skmd_slot_members(s, NULL, devs, idx), nok = 0, nfailed = 0;
    cl_int err = real_clBuildProgram(program->real[s], n, devs, options, NULL, NULL);
    if (err != CL_BUILD_PROGRAM_FAILURE && err != CL_OUT_OF_RESOURCES)
        return err;
    for (cl_uint k = 0; k < n; k++) {
        cl_build_status st = CL_BUILD_ERROR;
        real_clGetProgramBuildInfo(program->real[s], devs[k], CL_PROGRAM_BUILD_STATUS,
                                   sizeof st, &st, NULL);
        if (st == CL_BUILD_SUCCESS)
            ok[nok++] = devs[k];
        else
            failed[nfailed++] = idx[k];
    }
    if (nok > 0 && nfailed > 0 &&
        real_clBuildProgram(program->real[s], nok, ok, options, NULL, NULL) == CL_SUCCESS) {
        for (cl_uint f = 0; f < nfailed; f++)
            *not_built |= 1u << failed[f];
        return CL_SUCCESS;
    }
    for (cl_uint k = 0; k < n; k++)
        *not_built |= 1u << idx[k];
    return err;
}

/* One of a build's parts: platform slot s's real program. */
struct build_job {
    cl_program program;
    const char *options;
    int s;
    cl_int err;
    unsigned not_built; /* the slot's members left without the program */
};

static void build_job_main(void *arg)
{
    struct build_job *job = arg;
    job->err = build_slot(job->program, job->s, job->options, &job->not_built);
}

cl_int skmd_program_build_slots(cl_program p, unsigned slots, const char *options)
{
    struct build_job jobs[SKMD_MAX_PLATFORMS];
    unsigned njobs = 0, members = skmd_slots_members(slots);
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (slots >> s & 1u)
            jobs[njobs++] = (struct build_job){p, options, s, CL_SUCCESS, 0};
    skmd_run_parallel(njobs, build_job_main, jobs, sizeof jobs[0]);
    unsigned not_built = 0;
    cl_int err = CL_SUCCESS, failure = CL_SUCCESS;
    for (unsigned j = 0; j < njobs; j++) {
        not_built |= jobs[j].not_built;
        cl_int e = jobs[j].err;
        if (e == CL_BUILD_PROGRAM_FAILURE || e == CL_OUT_OF_RESOURCES)
            failure = failure != CL_SUCCESS ? failure : e;
        else if (e != CL_SUCCESS && err == CL_SUCCESS)
            err = e; /* the app's error (options, ...): no member built it */
    }
    p->not_built = (p->not_built & ~members) | not_built;
    if (err == CL_SUCCESS && failure != CL_SUCCESS && (not_built & members) == members)
        err = failure;
    if (err == CL_SUCCESS)
        skmd_program_log_failures(p, slots);
    return err;
}

void skmd_program_log_failures(cl_program p, unsigned slots)
{
    for (int s = 0; s < skmd_state.nplatforms; s++)
        if (slots >> s & 1u)
            for (int m = 0; m < skmd_state.nmembers; m++)
                if (skmd_state.members[m].platform_slot == s && (p->not_built >> m & 1u))
                    log_member_build_failure(p, m, 1);
}
