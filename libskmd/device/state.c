/* libskmd/device/state.c: one-time set-up: the real loader, the member devices, the virtual
 * platform and device. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "device/api.h"
#include "support/config.h"
#include "device/icd_mode.h"
#include "device/loader.h"
#include "support/log.h"
#include "support/object.h"
#include "support/report.h"
#include "device/select.h"
#include "device/showreal.h"

struct skmd_state skmd_state;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

#define MAX_CANDIDATES 64

static unsigned kinds_of(cl_device_type t)
{
    return ((t & CL_DEVICE_TYPE_CPU) ? SKMD_KIND_CPU : 0) |
           ((t & CL_DEVICE_TYPE_GPU) ? SKMD_KIND_GPU : 0) |
           ((t & CL_DEVICE_TYPE_ACCELERATOR) ? SKMD_KIND_ACCELERATOR : 0);
}

/* The slot (real context, programs) of a new member of platform p: the one of the
 * platform's earlier members, or its own (SKMD_CONTEXTS=device; auto: for a GPU). */
static int platform_slot(cl_platform_id p, cl_device_type type)
{
    enum skmd_contexts how = skmd_config()->contexts;
    int shared = how == SKMD_CONTEXTS_PLATFORM ||
                 (how == SKMD_CONTEXTS_AUTO && !(type & CL_DEVICE_TYPE_GPU));
    for (int i = 0; shared && i < skmd_state.nplatforms; i++)
        if (skmd_state.platforms[i] == p)
            return i;
    if (skmd_state.nplatforms == SKMD_MAX_PLATFORMS)
        return -1;
    skmd_state.platforms[skmd_state.nplatforms] = p;
    return skmd_state.nplatforms++;
}

/* Platforms of another libskmd that find_members() left out. */
static int skipped_self;

static void find_members(void)
{
    cl_platform_id plats[SKMD_MAX_PLATFORMS];
    cl_uint nplat = 0;
    static struct {
        cl_platform_id platform;
        cl_device_id device;
        cl_device_type type;
        char name[256], pname[256];
        int pocl;
    } found[MAX_CANDIDATES];
    struct skmd_candidate cands[MAX_CANDIDATES];
    unsigned char selected[MAX_CANDIDATES];
    int n = 0;

    if (real_clGetPlatformIDs(SKMD_MAX_PLATFORMS, plats, &nplat) != CL_SUCCESS)
        nplat = 0;
    for (cl_uint p = 0; p < nplat && p < SKMD_MAX_PLATFORMS; p++) {
        cl_device_id devs[MAX_CANDIDATES];
        cl_uint ndev = 0;
        char pname[256] = "", vendor[64] = "";
        real_clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        /* Another libskmd behind the loader (an installed skmd.icd): its device is made of
         * these same devices; as a member it would put SKMD inside SKMD. */
        real_clGetPlatformInfo(plats[p], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
        if (!strcmp(vendor, "libskmd")) {
            skmd_log(SKMD_LOG_DEBUG, "platform %u is libskmd's own (skmd.icd): left out", p);
            skipped_self++;
            continue;
        }
        if (real_clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_CANDIDATES, devs, &ndev) !=
            CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < ndev && d < MAX_CANDIDATES && n < MAX_CANDIDATES; d++, n++) {
            found[n].platform = plats[p];
            found[n].device = devs[d];
            found[n].type = 0;
            found[n].name[0] = '\0';
            real_clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof found[n].type,
                                 &found[n].type, NULL);
            real_clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof found[n].name, found[n].name,
                                 NULL);
            snprintf(found[n].pname, sizeof found[n].pname, "%s", pname);
            found[n].pocl = strstr(pname, "Portable Computing Language") != NULL ||
                            strstr(vendor, "pocl") != NULL;
            cands[n] = (struct skmd_candidate){(int)p, (int)d, kinds_of(found[n].type),
                                               found[n].name, found[n].pname};
        }
    }

    char msg[300];
    static char devices[4096]; /* static: up to MAX_CANDIDATES names */
    const char *spec = skmd_config()->devices;
    int count = skmd_select_members(spec, cands, n, selected, msg, sizeof msg);
    /* A choice that went wrong names the devices there are, as the terms reach them. */
    if (count < 0 || (count == 0 && n > 0) || msg[0])
        skmd_describe_candidates(cands, n, devices, sizeof devices);
    if (count < 0) {
        skmd_log(SKMD_LOG_ERROR, "%s; using every device (the devices: %s)", msg, devices);
        memset(selected, 1, sizeof selected);
    } else if (count == 0 && n > 0) {
        skmd_log(SKMD_LOG_ERROR, "SKMD_DEVICES=%s selects none of the devices, so there is "
                 "no SKMD device; the devices: %s", spec, devices);
        skmd_state.told_no_device = 1;
    } else if (msg[0]) {
        skmd_log(SKMD_LOG_WARN, "%s (the devices: %s)", msg, devices);
    }
    for (int i = 0; i < n && skmd_state.nmembers < SKMD_MAX_MEMBERS; i++) {
        if (!selected[i])
            continue;
        int slot = platform_slot(found[i].platform, found[i].type);
        if (slot < 0)
            continue;
        struct skmd_member *m = &skmd_state.members[skmd_state.nmembers++];
        m->real_platform = found[i].platform;
        m->platform_slot = slot;
        m->real_device = found[i].device;
        m->type = found[i].type;
        m->pocl = found[i].pocl;
        snprintf(m->name, sizeof m->name, "%s", found[i].name);
        skmd_log(SKMD_LOG_INFO, "member %d: %s (platform %s)", skmd_state.nmembers - 1,
                 m->name, found[i].pname);
    }
}

/* How fast a member looks before anything was measured: compute units x clock (MHz). */
static unsigned long long member_speed(const struct skmd_member *m)
{
    cl_uint units = 0, clock = 0;
    if (real_clGetDeviceInfo(m->real_device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                             &units, NULL) != CL_SUCCESS)
        units = 0;
    if (real_clGetDeviceInfo(m->real_device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof clock,
                             &clock, NULL) != CL_SUCCESS)
        clock = 0;
    /* A driver that reports no clock still ranks by its units. */
    return (unsigned long long)units * (clock ? clock : 1);
}

/* The member that runs unsplit work: the fastest-looking one. GPUs come first, then the
 * most compute units x clock; ties go to the first. (Not simply the first member: e.g.
 * PoCL's "basic" device deadlocks on commands that wait for a user event.) */
int skmd_fastest_member(unsigned members)
{
    int best = -1;
    unsigned long long best_speed = 0;
    for (int i = 0; i < skmd_state.nmembers; i++) {
        if (!(members >> i & 1u))
            continue;
        const struct skmd_member *m = &skmd_state.members[i];
        if (best < 0) {
            best = i;
            best_speed = member_speed(m);
            continue;
        }
        int gpu = (m->type & CL_DEVICE_TYPE_GPU) != 0;
        int best_gpu = (skmd_state.members[best].type & CL_DEVICE_TYPE_GPU) != 0;
        unsigned long long speed = member_speed(m);
        if (gpu > best_gpu || (gpu == best_gpu && speed > best_speed)) {
            best = i;
            best_speed = speed;
        }
    }
    return best;
}

static void init(void)
{
    const struct skmd_config *cfg = skmd_config();
    skmd_object_init(&skmd_state.platform.obj, SKMD_TYPE_PLATFORM);
    skmd_object_init(&skmd_state.device.obj, SKMD_TYPE_DEVICE);
    if (skmd_loader_open() != 0)
        return;
    /* As an ICD, the app's loader lists the real platforms itself: nothing to add. */
    skmd_show_real = cfg->show_real && !skmd_loaded_as_icd();
    if (cfg->mode == SKMD_MODE_PASSTHROUGH) {
        skmd_state.passthrough = 1;
        return;
    }
    find_members();
    /* The loader gave only libskmd itself (OCL_ICD_VENDORS naming skmd.icd alone): reach
     * the real drivers as the ICD route does, through SKMD_REAL_VENDORS. */
    if (skmd_state.nmembers == 0 && skipped_self && !skmd_state.told_no_device &&
        skmd_icd_loader_open() == 0)
        find_members();
    if (skmd_state.nmembers == 0) {
        if (skmd_state.told_no_device)
            return;
        skmd_state.told_no_device = 1;
        skmd_log(SKMD_LOG_ERROR, "no real OpenCL device found%s%s: the SKMD platform is "
                 "not available", cfg->devices[0] ? " matching SKMD_DEVICES=" : "",
                 cfg->devices);
        return;
    }
    skmd_state.exec = skmd_fastest_member((1u << skmd_state.nmembers) - 1);
    skmd_state.device.members = (1u << skmd_state.nmembers) - 1;
    skmd_state.device.exec = skmd_state.exec;
    skmd_log(SKMD_LOG_INFO, "executing member: %d (%s)", skmd_state.exec,
             skmd_state.members[skmd_state.exec].name);
    skmd_state.ready = 1;
    skmd_name_members();
}

void skmd_init(void)
{
    pthread_once(&init_once, init);
}
