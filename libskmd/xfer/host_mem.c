/* libskmd/xfer/host_mem.c: host memory of the transfer engine: pinned host copies (mapped
 * ALLOC_HOST_PTR buffers), and whether a device works in the host's memory itself. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "device/api.h"
#include "xfer/transfer.h"
#include "xfer/transfer_internal.h"

/* ---- Pinned host copies: a list of mapped ALLOC_HOST_PTR buffers ---- */

struct pinned {
    struct pinned *next;
    cl_context context;
    cl_command_queue q; /* to map and unmap it */
    cl_mem buf;
    unsigned char *ptr;
    size_t size;
};

static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pinned *pinned_list;

void *skmd_xfer_host_alloc(cl_context ctx, cl_device_id device, size_t size, cl_int *err)
{
    struct pinned *p = calloc(1, sizeof *p);
    if (!p) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    p->context = ctx;
    p->size = size;
    p->q = real_clCreateCommandQueue(ctx, device, 0, err);
    if (p->q)
        p->buf = real_clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL,
                                     err);
    if (p->buf)
        p->ptr = real_clEnqueueMapBuffer(p->q, p->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                         size, 0, NULL, NULL, err);
    if (!p->ptr) {
        if (p->buf)
            real_clReleaseMemObject(p->buf);
        if (p->q)
            real_clReleaseCommandQueue(p->q);
        free(p);
        return NULL;
    }
    pthread_mutex_lock(&pinned_lock);
    p->next = pinned_list;
    pinned_list = p;
    pthread_mutex_unlock(&pinned_lock);
    return p->ptr;
}

int skmd_xfer_host_free(void *ptr)
{
    pthread_mutex_lock(&pinned_lock);
    struct pinned **at = &pinned_list;
    while (*at && (*at)->ptr != ptr)
        at = &(*at)->next;
    struct pinned *p = *at;
    if (p)
        *at = p->next;
    pthread_mutex_unlock(&pinned_lock);
    if (!p)
        return -1;
    real_clEnqueueUnmapMemObject(p->q, p->buf, p->ptr, 0, NULL, NULL);
    real_clFinish(p->q);
    real_clReleaseMemObject(p->buf);
    real_clReleaseCommandQueue(p->q);
    free(p);
    return 0;
}

int skmd_xfer_host_is_pinned(const void *host, size_t size, cl_context ctx)
{
    uintptr_t h = (uintptr_t)host;
    int found = 0;
    pthread_mutex_lock(&pinned_lock);
    for (struct pinned *p = pinned_list; p && !found; p = p->next) {
        uintptr_t b = (uintptr_t)p->ptr;
        found = p->context == ctx && h >= b && h - b <= p->size && size <= p->size - (h - b);
    }
    pthread_mutex_unlock(&pinned_lock);
    return found;
}

int skmd_xfer_device_shares_host(cl_device_id device)
{
    cl_bool unified = CL_FALSE;
    cl_device_type type = 0;
    if (real_clGetDeviceInfo(device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified,
                             NULL) != CL_SUCCESS ||
        real_clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
        return 0;
    /* An integrated GPU also says unified, but may still copy a USE_HOST_PTR buffer (and
     * wants other alignments): in place is only taken for granted on a CPU device. */
    return unified == CL_TRUE && (type & CL_DEVICE_TYPE_CPU);
}
