/* libskmd/cl/device_text.c: the SKMD device's text answers (name, profile, versions,
 * extensions) and the platform's extensions, made from the members' (docs/interposer.md
 * lists the rules). */
#include <stdio.h>
#include <string.h>
#include <CL/cl_ext.h>

#include "device/api.h"
#include "cl/member_set.h"
#include "support/object.h"

cl_int skmd_member_query(int i, cl_device_info param, void *buf, size_t size, size_t *ret)
{
    return real_clGetDeviceInfo(skmd_state.members[i].real_device, param, size, buf, ret);
}

/* Guards the static buffers of the text answers (extension lists are large). */
static pthread_mutex_t text_lock = PTHREAD_MUTEX_INITIALIZER;

struct skmd_member_set skmd_member_set_of(cl_device_id dev)
{
    struct skmd_member_set s = {0, {0}};
    for (int m = 0; m < skmd_state.nmembers; m++)
        if (skmd_device_has(dev, m))
            s.at[s.n++] = m;
    return s;
}

/* "OpenCL 3.0 ..." / "OpenCL C 1.2 ..." -> major*10+minor of the weakest member. */
static int min_version(const struct skmd_member_set *set, cl_device_info param, const char *prefix)
{
    int best = 99;
    for (int i = 0; i < set->n; i++) {
        char text[256] = "";
        int major = 1, minor = 0;
        skmd_member_query(set->at[i], param, text, sizeof text, NULL);
        if (strncmp(text, prefix, strlen(prefix)) == 0)
            sscanf(text + strlen(prefix), "%d.%d", &major, &minor);
        if (major * 10 + minor < best)
            best = major * 10 + minor;
    }
    return best;
}

/* The SKMD device offers no SVM, pipes or on-device queues, which OpenCL 2.x requires:
 * a 2.x weakest member makes it a 1.2 device; 3.0 makes them optional. */
void skmd_set_version(const struct skmd_member_set *set, int *major, int *minor)
{
    int v = min_version(set, CL_DEVICE_VERSION, "OpenCL ");
    if (v >= 20 && v < 30)
        v = 12;
    *major = v / 10;
    *minor = v % 10;
}

void skmd_device_version(int *major, int *minor)
{
    struct skmd_member_set all = skmd_member_set_of(&skmd_state.device);
    skmd_set_version(&all, major, minor);
}

static int c_version(const struct skmd_member_set *set)
{
    int major, minor;
    skmd_set_version(set, &major, &minor);
    int c = min_version(set, CL_DEVICE_OPENCL_C_VERSION, "OpenCL C ");
    return c > major * 10 + minor ? major * 10 + minor : c;
}

/* Extensions with host entry points that libskmd does not provide, or promises it cannot
 * keep for a device made of several. */
static int extension_offered(const char *name, size_t len)
{
    static const char *const refused[] = {
        "cl_khr_icd", "cl_khr_il_program", "cl_khr_subgroups", "cl_khr_command_buffer",
        "cl_khr_create_command_queue", "cl_khr_suggested_local_work_size",
        "cl_khr_gl_sharing", "cl_khr_gl_event", "cl_khr_egl_image", "cl_khr_egl_event",
        "cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing", "cl_khr_dx9_media_sharing",
        "cl_khr_terminate_context", "cl_khr_semaphore", "cl_khr_external_memory",
        "cl_khr_external_semaphore", "cl_khr_priority_hints", "cl_khr_throttle_hints",
        "cl_khr_spir", "cl_khr_device_uuid", "cl_khr_pci_bus_info", "cl_khr_image2d_from_buffer",
    };
    if (len < 7 || strncmp(name, "cl_khr_", 7) != 0)
        return 0;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strlen(refused[i]) == len && strncmp(refused[i], name, len) == 0)
            return 0;
    return 1;
}

static int has_word(const char *list, const char *word, size_t len)
{
    for (const char *p = list; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == len && strncmp(p, word, len) == 0)
            return 1;
        p += n;
    }
    return 0;
}

/* The words of `lists[0]` found in every other list and offered, space-separated. */
static void intersect_words(char lists[][4096], int n, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = lists[0]; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        int keep = len > 0 && extension_offered(p, len);
        for (int i = 1; keep && i < n; i++)
            keep = has_word(lists[i], p, len);
        if (keep && used + len + 2 < size) {
            used += (size_t)snprintf(out + used, size - used, "%s%.*s", used ? " " : "",
                                     (int)len, p);
        }
        p += len;
    }
}

/* Under the caller's text_lock (the lists are static: 64 KiB). */
static void device_extensions(const struct skmd_member_set *set, char *out, size_t size)
{
    static char lists[SKMD_MAX_MEMBERS][4096];
    for (int i = 0; i < set->n; i++) {
        lists[i][0] = '\0';
        skmd_member_query(set->at[i], CL_DEVICE_EXTENSIONS, lists[i], sizeof lists[i], NULL);
    }
    intersect_words(lists, set->n, out, size);
}

void skmd_platform_extensions(char *out, size_t size)
{
    static char lists[SKMD_MAX_PLATFORMS][4096];
    for (int i = 0; i < skmd_state.nplatforms; i++) {
        lists[i][0] = '\0';
        real_clGetPlatformInfo(skmd_state.platforms[i], CL_PLATFORM_EXTENSIONS,
                               sizeof lists[i], lists[i], NULL);
    }
    size_t n = (size_t)snprintf(out, size, "cl_khr_icd");
    if (skmd_state.nplatforms > 0 && n + 1 < size) {
        out[n] = ' ';
        intersect_words(lists, skmd_state.nplatforms, out + n + 1, size - n - 1);
        if (!out[n + 1])
            out[n] = '\0';
    }
}

/* name/version pairs of a space-separated list, in its order: the version is the oldest
 * any member of the set lists (1.0.0 when none lists it). */
static size_t versioned(const struct skmd_member_set *set, const char *names, cl_device_info param,
                        cl_name_version *list, size_t max)
{
    size_t n = 0;
    for (const char *p = names; *p && n < max;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        memset(&list[n], 0, sizeof list[n]);
        snprintf(list[n].name, sizeof list[n].name, "%.*s", (int)len, p);
        list[n].version = 0;
        n++;
        p += len;
    }
    for (int i = 0; i < set->n; i++) {
        static cl_name_version known[256]; /* under the callers' text_lock */
        size_t known_bytes = 0;
        if (skmd_member_query(set->at[i], param, known, sizeof known, &known_bytes) != CL_SUCCESS)
            known_bytes = 0;
        for (size_t e = 0; e < n; e++)
            for (size_t k = 0; k < known_bytes / sizeof known[0]; k++)
                if (strcmp(known[k].name, list[e].name) == 0 &&
                    (!list[e].version || known[k].version < list[e].version))
                    list[e].version = known[k].version;
    }
    for (size_t e = 0; e < n; e++)
        if (!list[e].version)
            list[e].version = CL_MAKE_VERSION(1, 0, 0);
    return n;
}

size_t skmd_platform_extensions_versioned(cl_name_version *list, size_t max)
{
    char names[4096];
    skmd_platform_extensions(names, sizeof names);
    /* Platform extension versions are asked of the member devices: close enough for
     * cl_khr_icd, the only one commonly listed. */
    struct skmd_member_set all = skmd_member_set_of(&skmd_state.device);
    pthread_mutex_lock(&text_lock);
    size_t n = versioned(&all, names, CL_DEVICE_EXTENSIONS_WITH_VERSION, list, max);
    pthread_mutex_unlock(&text_lock);
    return n;
}

/* The longest name: apps read CL_DEVICE_NAME into fixed buffers of 64, 100 or 128 bytes
 * and stop at CL_INVALID_VALUE, as natively names fit them. */
#define NAME_MAX_BYTES 63

/* "SKMD (member + member ...)" when it fits NAME_MAX_BYTES, else the members counted by
 * kind: "SKMD (1 CPU + 2 GPUs)" (skmd-info lists them by name). */
static void device_name(const struct skmd_member_set *set, char *buf, size_t size)
{
    char name[256];
    size_t used = (size_t)snprintf(name, sizeof name, "SKMD (");
    for (int i = 0; i < set->n && used < sizeof name; i++)
        used += (size_t)snprintf(name + used, sizeof name - used, "%s%s", i ? " + " : "",
                                 skmd_state.members[set->at[i]].name);
    if (used + 1 <= NAME_MAX_BYTES) {
        snprintf(buf, size, "%s)", name);
        return;
    }
    static const struct {
        cl_device_type type;
        const char *one, *many;
    } kinds[] = {{CL_DEVICE_TYPE_CPU, "CPU", "CPUs"},
                 {CL_DEVICE_TYPE_GPU, "GPU", "GPUs"},
                 {CL_DEVICE_TYPE_ACCELERATOR, "accelerator", "accelerators"},
                 {0, "other device", "other devices"}};
    used = (size_t)snprintf(buf, size, "SKMD (");
    int shown = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds && used < size; k++) {
        int count = 0;
        for (int i = 0; i < set->n; i++) {
            cl_device_type t = skmd_state.members[set->at[i]].type;
            int known = t & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR);
            count += kinds[k].type ? (t & kinds[k].type) != 0 : !known;
        }
        if (count)
            used += (size_t)snprintf(buf + used, size - used, "%s%d %s", shown++ ? " + " : "",
                                     count, count == 1 ? kinds[k].one : kinds[k].many);
    }
    if (used + 2 <= size)
        strcat(buf, ")");
}

static void device_string(const struct skmd_member_set *set, cl_device_info param, char *buf,
                          size_t size)
{
    int major, minor;
    switch (param) {
    case CL_DEVICE_PROFILE:
        snprintf(buf, size, "FULL_PROFILE");
        for (int i = 0; i < set->n; i++) {
            char p[64] = "";
            skmd_member_query(set->at[i], CL_DEVICE_PROFILE, p, sizeof p, NULL);
            if (strcmp(p, "EMBEDDED_PROFILE") == 0)
                snprintf(buf, size, "EMBEDDED_PROFILE");
        }
        break;
    case CL_DEVICE_VERSION:
        skmd_set_version(set, &major, &minor);
        snprintf(buf, size, "OpenCL %d.%d libskmd", major, minor);
        break;
    case CL_DEVICE_OPENCL_C_VERSION: {
        int c = c_version(set);
        snprintf(buf, size, "OpenCL C %d.%d libskmd", c / 10, c % 10);
        break;
    }
    case CL_DEVICE_NAME:
        device_name(set, buf, size);
        break;
    case CL_DEVICE_EXTENSIONS:
        device_extensions(set, buf, size);
        break;
    default:
        buf[0] = '\0';
    }
}

void skmd_device_string(cl_device_info param, char *buf, size_t size)
{
    struct skmd_member_set all = skmd_member_set_of(&skmd_state.device);
    pthread_mutex_lock(&text_lock);
    device_string(&all, param, buf, size);
    pthread_mutex_unlock(&text_lock);
}

cl_int skmd_set_text_info(const struct skmd_member_set *set, cl_device_info param,
                          const struct skmd_info *out)
{
    static char text[8192]; /* under text_lock */
    pthread_mutex_lock(&text_lock);
    device_string(set, param, text, sizeof text);
    cl_int err = skmd_info_string(out, text);
    pthread_mutex_unlock(&text_lock);
    return err;
}

cl_int skmd_set_extensions_info(const struct skmd_member_set *set, const struct skmd_info *out)
{
    static char text[8192];
    static cl_name_version list[128]; /* both under text_lock */
    pthread_mutex_lock(&text_lock);
    device_extensions(set, text, sizeof text);
    size_t n = versioned(set, text, CL_DEVICE_EXTENSIONS_WITH_VERSION, list, 128);
    cl_int err = skmd_info_bytes(out, list, n * sizeof list[0]);
    pthread_mutex_unlock(&text_lock);
    return err;
}
