/* libskmd/mem/copies.c: a root buffer's copies, made on first use: the host copy
 * (page-aligned, pinned when asked) and each member's real buffer (zero-copy on a member
 * that shares the host's memory). Which bytes of each are current: coherence.c. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "device/api.h"
#include "mem/coherence.h"
#include "mem/member_health.h"
#include "mem/queues.h"
#include "support/config.h"
#include "support/log.h"
#include "xfer/transfer.h"

/* SKMD_PINNED_HOST_COPY; auto: with two or more GPU members, whose shares of a buffer
 * the app writes come from the host copy (enqueue.c write_host). Decided at the first
 * host copy, when the members are known. */
static int pinned_wanted;
static pthread_once_t pinned_once = PTHREAD_ONCE_INIT;

static void decide_pinned(void)
{
    enum skmd_pinned_host_copy how = skmd_config()->pinned_host_copy;
    int gpus = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        gpus += (skmd_state.members[m].type & CL_DEVICE_TYPE_GPU) != 0;
    pinned_wanted = how == SKMD_PINNED_HOST_COPY_ON ||
                    (how == SKMD_PINNED_HOST_COPY_AUTO && gpus >= 2);
}

static int pinned_host_copy(void)
{
    pthread_once(&pinned_once, decide_pinned);
    return pinned_wanted;
}

/* The root's host copy, allocated on first use, zeroed (bytes nobody wrote yet read as 0).
 * Page-aligned: a CPU member may use it as its own buffer (zero-copy). Pinned, when
 * asked, for the first GPU member's DMA (other members' transfers are unchanged).
 * Its own lock: a zero-copy member's buffer is made outside the split lock. */
static unsigned char *host_copy(cl_mem root)
{
    static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&alloc_lock);
    void *copy = root->host_copy;
    for (int m = 0; m < skmd_state.nmembers && pinned_host_copy() && !copy; m++)
        if (skmd_state.members[m].type & CL_DEVICE_TYPE_GPU) {
            cl_int err;
            copy = skmd_xfer_host_alloc(skmd_member_context(root->context, m),
                                        skmd_state.members[m].real_device, root->size, &err);
            if (!copy)
                skmd_log(SKMD_LOG_INFO, "no pinned host copy of %zu bytes (%d): malloc",
                         root->size, err);
            break;
        }
    /* Whole pages, as drivers allocate: a zero-copy member's kernel works in this memory,
     * and a kernel that writes a little past its buffer (undefined, but harmless on the
     * driver's own padded buffers) must not corrupt the heap. */
    size_t zeroed = root->size;
    if (!copy) {
        size_t padded = (root->size + SKMD_XFER_HOST_ALIGN - 1) / SKMD_XFER_HOST_ALIGN *
                        SKMD_XFER_HOST_ALIGN;
        if (posix_memalign(&copy, SKMD_XFER_HOST_ALIGN, padded) != 0)
            copy = NULL;
        else
            zeroed = padded;
    }
    if (copy && !root->host_copy) {
        memset(copy, 0, zeroed);
        root->host_copy = copy;
    }
    pthread_mutex_unlock(&alloc_lock);
    return root->host_copy;
}

unsigned char *skmd_coh_host_copy(cl_mem root)
{
    return host_copy(root);
}

/* Lazy creation of real buffers: launches and app threads race to it. */
static pthread_mutex_t mem_real_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static cl_mem mem_real(cl_mem mem, int m, cl_int *err);

cl_mem skmd_mem_real(cl_mem mem, int m, cl_int *err)
{
    /* Made once, then only read: every read and write of the app's asks, so the usual
     * case takes no lock. */
    cl_mem made = __atomic_load_n(&mem->real[m], __ATOMIC_ACQUIRE);
    if (made && !skmd_member_is_lost(m) && !skmd_mem_refused(mem, m)) {
        *err = CL_SUCCESS;
        return made;
    }
    pthread_mutex_lock(&mem_real_lock);
    cl_mem real = mem_real(mem, m, err);
    pthread_mutex_unlock(&mem_real_lock);
    return real;
}

int skmd_mem_pair(cl_mem root, int a, int b, cl_command_queue *qa, cl_command_queue *qb,
                  cl_mem *bufa, cl_mem *bufb, cl_int *err)
{
    *qa = skmd_work_queue(root->context, a, err);
    *qb = *qa ? skmd_work_queue(root->context, b, err) : NULL;
    *bufa = *qb ? skmd_mem_real(root, a, err) : NULL;
    *bufb = *bufa ? skmd_mem_real(root, b, err) : NULL;
    return *bufb != NULL;
}

static cl_mem mem_real(cl_mem mem, int m, cl_int *err)
{
    *err = CL_SUCCESS;
    pthread_mutex_lock(&mem->obj.lock);
    cl_mem have = mem->real[m];
    pthread_mutex_unlock(&mem->obj.lock);
    /* A member that is lost, or could not allocate the buffer, gets no copy (again). */
    if (skmd_member_is_lost(m) || skmd_mem_refused(mem, m)) {
        *err = skmd_member_is_lost(m) ? CL_OUT_OF_RESOURCES : CL_MEM_OBJECT_ALLOCATION_FAILURE;
        return NULL;
    }
    if (have)
        return have;
    const struct skmd_member *member = &skmd_state.members[m];
    /* The executing member keeps ALLOC_HOST_PTR, as the app asked (pinned staging on
     * GPUs); the others get plain device memory. */
    cl_mem_flags host_flags = CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                              SKMD_MEM_HOST_ACCESS_FLAGS |
                              (m == skmd_state.exec && !mem->parent ? 0 : CL_MEM_ALLOC_HOST_PTR);
    cl_mem real;
    if (mem->parent) {
        cl_mem parent = mem_real(mem->parent, m, err);
        if (!parent)
            return NULL;
        cl_buffer_region region = {mem->origin, mem->size};
        real = real_clCreateSubBuffer(parent, mem->flags & ~host_flags,
                                      CL_BUFFER_CREATE_TYPE_REGION, &region, err);
    } else if (m != skmd_state.exec && skmd_config()->zero_copy &&
               skmd_xfer_device_shares_host(member->real_device)) {
        /* The member reads and writes the host copy in place (see move()). Not the
         * executing member: the app's own queues use its buffer, and their commands may
         * still run after the app releases the buffer (and libskmd frees the host copy). */
        if (!host_copy(mem)) {
            *err = CL_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        real = real_clCreateBuffer(skmd_member_context(mem->context, m),
                                   (mem->flags & ~host_flags) | CL_MEM_USE_HOST_PTR, mem->size,
                                   mem->host_copy, err);
        if (real) {
            mem->zero_copy |= 1u << m;
            skmd_log(SKMD_LOG_DEBUG, "buffer of %zu bytes on member %d: zero-copy", mem->size,
                     m);
        } else {
            skmd_log(SKMD_LOG_INFO, "member %d refused a buffer on the host copy (%d): a "
                     "private one", m, *err);
            real = real_clCreateBuffer(skmd_member_context(mem->context, m),
                                       mem->flags & ~host_flags, mem->size, NULL, err);
        }
    } else {
        real = real_clCreateBuffer(skmd_member_context(mem->context, m),
                                   mem->flags & ~host_flags, mem->size, NULL, err);
    }
    if (!real && (*err == CL_MEM_OBJECT_ALLOCATION_FAILURE || *err == CL_OUT_OF_RESOURCES))
        skmd_mem_refuse(mem, m);
    if (real) {
        /* Two threads may both have made one (clSetKernelArg needs no split lock): the
         * first one published wins. */
        pthread_mutex_lock(&mem->obj.lock);
        if (mem->real[m]) {
            real_clReleaseMemObject(real);
            real = mem->real[m];
        } else {
            __atomic_store_n(&mem->real[m], real, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&mem->obj.lock);
    }
    return real;
}
