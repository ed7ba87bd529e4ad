/* libskmd/device/icd_mode.c: reaching the real drivers when libskmd is itself loaded as an
 * ICD.
 *
 * Under LD_PRELOAD libskmd opens the system's ICD loader (libOpenCL.so.1) to reach the
 * drivers. Loaded as an ICD, it cannot: that loader is the app's own, already busy
 * loading libskmd, and it reads the same OCL_ICD_VENDORS that names libskmd. So here
 * libskmd is its own small loader: it reads the vendors files of SKMD_REAL_VENDORS (a
 * directory of .icd files, or one .icd file), opens each driver (skipping libskmd
 * itself), asks it for its platforms through clIcdGetPlatformIDsKHR, and calls each
 * entry point through the dispatch table that every real handle starts with.
 */
#include "device/icd_mode.h"

#include <CL/cl_icd.h>
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "support/config.h"
#include "device/real_dlopen.h"
#include "support/log.h"

#define MAX_VENDORS 16
#define MAX_VENDOR_PLATFORMS 16

typedef cl_int(CL_API_CALL *icd_get_platforms_fn)(cl_uint, cl_platform_id *, cl_uint *);
typedef void *(CL_API_CALL *get_extension_fn)(const char *);

static struct {
    int nvendors;
    void *libraries[MAX_VENDORS];
    int nplatforms;
    cl_platform_id platforms[MAX_VENDOR_PLATFORMS];
} vendors;

int skmd_loaded_as_icd(void)
{
    /* Preloaded (or linked directly), libskmd's clGetPlatformIDs is the one the process's
     * global scope gives first; loaded as an ICD (RTLD_LOCAL, by a loader) it is not, and
     * the global scope gives the loader's, or none when the app itself opened the loader
     * RTLD_LOCAL. The main program's handle looks in the global scope alone:
     * RTLD_DEFAULT, asked from here, would also search libskmd's own local scope. */
    void *global = skmd_real_dlopen(NULL, RTLD_LAZY);
    void *seen = global ? dlsym(global, "clGetPlatformIDs") : NULL;
    if (global)
        dlclose(global);
    Dl_info seen_info, own_info;
    if (!seen || !dladdr(seen, &seen_info) || !dladdr((void *)skmd_loaded_as_icd, &own_info))
        return seen == NULL;
    return seen_info.dli_fbase != own_info.dli_fbase;
}

/* The dispatch table a real handle starts with (cl_khr_icd); NULL for no handle. */
static const cl_icd_dispatch *dispatch_of(const void *handle)
{
    return handle ? *(const cl_icd_dispatch *const *)handle : NULL;
}

/* Calls without a handle argument go to the first vendor (clUnloadCompiler). */
static const cl_icd_dispatch *dispatch_or_first(const void *handle)
{
    const cl_icd_dispatch *d = dispatch_of(handle);
    if (!d && vendors.nplatforms)
        d = dispatch_of(vendors.platforms[0]);
    return d;
}

/* The first argument of an entry point when it is a handle, else NULL. */
static const int no_handle;
#define ICD_FIRST_(a, ...) a
#define ICD_FIRST(...) ICD_FIRST_(__VA_ARGS__ __VA_OPT__(,) no_handle)
#define ICD_HANDLE(x)                                                                    \
    ((const void *)_Generic((x), cl_platform_id: (x), cl_device_id: (x),                 \
                            cl_context: (x), cl_command_queue: (x), cl_mem: (x),         \
                            cl_program: (x), cl_kernel: (x), cl_event: (x),              \
                            cl_sampler: (x), default: NULL))

#define SKMD_API(ret, name, params, args, err, ver)                                      \
    static ret CL_API_CALL icd_##name params                                             \
    {                                                                                    \
        return dispatch_or_first(ICD_HANDLE(ICD_FIRST args))->name args;                 \
    }
#include "device/api.def"
#undef SKMD_API

/* The calls whose first argument is not the handle to dispatch on. */
static cl_int CL_API_CALL icd_get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                                               cl_uint *num_platforms)
{
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
        return CL_INVALID_VALUE;
    for (int i = 0; platforms && i < vendors.nplatforms && (cl_uint)i < num_entries; i++)
        platforms[i] = vendors.platforms[i];
    if (num_platforms)
        *num_platforms = (cl_uint)vendors.nplatforms;
    return vendors.nplatforms ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}

static cl_context CL_API_CALL icd_create_context(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret)
{
    if (!devices || num_devices == 0 || !devices[0]) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_VALUE;
        return NULL;
    }
    return dispatch_of(devices[0])->clCreateContext(properties, num_devices, devices, notify,
                                                    user_data, errcode_ret);
}

static cl_context CL_API_CALL icd_create_context_from_type(
    const cl_context_properties *properties, cl_device_type type,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret)
{
    cl_platform_id platform = vendors.nplatforms ? vendors.platforms[0] : NULL;
    for (int i = 0; properties && properties[i]; i += 2)
        if (properties[i] == CL_CONTEXT_PLATFORM)
            platform = (cl_platform_id)properties[i + 1];
    if (!platform) {
        if (errcode_ret)
            *errcode_ret = CL_INVALID_PLATFORM;
        return NULL;
    }
    return dispatch_of(platform)->clCreateContextFromType(properties, type, notify, user_data,
                                                          errcode_ret);
}

static cl_int CL_API_CALL icd_wait_for_events(cl_uint num_events, const cl_event *events)
{
    if (num_events == 0 || !events || !events[0])
        return CL_INVALID_VALUE;
    return dispatch_of(events[0])->clWaitForEvents(num_events, events);
}

static void *CL_API_CALL icd_get_extension_function_address(const char *name)
{
    for (int i = 0; i < vendors.nvendors; i++) {
        get_extension_fn get = (get_extension_fn)dlsym(vendors.libraries[i],
                                                       "clGetExtensionFunctionAddress");
        void *f = get ? get(name) : NULL;
        if (f)
            return f;
    }
    return NULL;
}

/* Opens the driver named by one vendors file and adds its platforms. */
static void open_vendor(const char *icd_file)
{
    char library[PATH_MAX] = "";
    FILE *f = fopen(icd_file, "r");
    if (!f) {
        skmd_log(SKMD_LOG_WARN, "cannot read the vendors file %s", icd_file);
        return;
    }
    if (!fgets(library, sizeof library, f))
        library[0] = '\0';
    fclose(f);
    library[strcspn(library, "\r\n")] = '\0';
    if (!library[0] || vendors.nvendors == MAX_VENDORS)
        return;
    void *lib = skmd_real_dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        skmd_log(SKMD_LOG_WARN, "the driver %s of %s cannot be opened: %s", library, icd_file,
                 dlerror());
        return;
    }
    Dl_info own, theirs;
    get_extension_fn get = (get_extension_fn)dlsym(lib, "clGetExtensionFunctionAddress");
    if (get && dladdr((void *)get, &theirs) && dladdr((void *)skmd_loaded_as_icd, &own) &&
        theirs.dli_fbase == own.dli_fbase) {
        dlclose(lib); /* libskmd itself */
        return;
    }
    icd_get_platforms_fn get_platforms =
        get ? (icd_get_platforms_fn)get("clIcdGetPlatformIDsKHR") : NULL;
    cl_uint n = 0;
    if (!get_platforms || get_platforms(0, NULL, &n) != CL_SUCCESS || n == 0) {
        skmd_log(SKMD_LOG_WARN, "the driver %s of %s offers no platform", library, icd_file);
        dlclose(lib);
        return;
    }
    if (n > (cl_uint)(MAX_VENDOR_PLATFORMS - vendors.nplatforms))
        n = (cl_uint)(MAX_VENDOR_PLATFORMS - vendors.nplatforms);
    if (n == 0 || get_platforms(n, vendors.platforms + vendors.nplatforms, NULL) != CL_SUCCESS) {
        dlclose(lib);
        return;
    }
    vendors.nplatforms += (int)n;
    vendors.libraries[vendors.nvendors++] = lib;
    skmd_log(SKMD_LOG_INFO, "ICD mode: %u platform(s) from %s", n, library);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_icd_file(const struct dirent *e)
{
    size_t len = strlen(e->d_name);
    return len > 4 && strcmp(e->d_name + len - 4, ".icd") == 0;
}

int skmd_icd_loader_open(void)
{
    const char *where = skmd_config()->real_vendors;
    struct dirent **entries = NULL;
    int n = scandir(where, &entries, is_icd_file, by_name);
    if (n < 0) {
        open_vendor(where); /* one .icd file */
    } else {
        for (int i = 0; i < n; i++) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", where, entries[i]->d_name);
            open_vendor(path);
            free(entries[i]);
        }
        free(entries);
    }
    if (vendors.nplatforms == 0) {
        skmd_log(SKMD_LOG_ERROR, "loaded as an ICD, libskmd found no real driver in "
                 "SKMD_REAL_VENDORS=%s: point it at a directory of .icd files (or one .icd "
                 "file) that names the real drivers", where);
        return -1;
    }
    /* An entry point the driver lacks stays NULL, as when the system loader lacks it. */
    const cl_icd_dispatch *first = dispatch_of(vendors.platforms[0]);
#define SKMD_API(ret, name, params, args, err, ver)                                      \
    skmd_real.name = first->name ? icd_##name : NULL;
#include "device/api.def"
#undef SKMD_API
    skmd_real.clGetPlatformIDs = icd_get_platform_ids;
    skmd_real.clCreateContext = icd_create_context;
    skmd_real.clCreateContextFromType = icd_create_context_from_type;
    skmd_real.clWaitForEvents = icd_wait_for_events;
    skmd_real.clGetExtensionFunctionAddress = icd_get_extension_function_address;
    return 0;
}
