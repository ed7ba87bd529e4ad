/* libskmd/support/object.h: the handles libskmd gives the application.
 *
 * Every handle starts with the ICD dispatch pointer (so libskmd can also be installed as
 * an ICD), then one common header. The structs below are the definitions of OpenCL's
 * opaque struct _cl_xxx types, so a cl_context IS a libskmd context: no casts.
 * Real (driver) handles live only inside these structs; they are swapped in and out at
 * the API boundary.
 */
#ifndef SKMD_OBJECT_H
#define SKMD_OBJECT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <CL/cl_icd.h>

#include "support/ranges.h"

struct skmd_callback;
struct skmd_program_record;
struct skmd_kernel_record;
struct skmd_source_builds;

#define SKMD_MAGIC 0x444d4b53u /* "SKMD" */
#define SKMD_MAX_MEMBERS 16
#define SKMD_MAX_PLATFORMS SKMD_MAX_MEMBERS /* context slots: one per member at most */

enum skmd_type {
    SKMD_TYPE_PLATFORM = 1,
    SKMD_TYPE_DEVICE,
    SKMD_TYPE_CONTEXT,
    SKMD_TYPE_QUEUE,
    SKMD_TYPE_MEM,
    SKMD_TYPE_PROGRAM,
    SKMD_TYPE_KERNEL,
    SKMD_TYPE_EVENT,
    SKMD_TYPE_SAMPLER,
};

struct skmd_object {
    const cl_icd_dispatch *dispatch; /* must stay first: the ICD loader reads it */
    uint32_t magic;                  /* SKMD_MAGIC while alive, 0 once freed */
    enum skmd_type type;
    atomic_uint refcount;            /* the app's references (clRetain/clRelease) */
    pthread_mutex_t lock;            /* guards the object's mutable fields; never held
                                        across a real call */
    cl_int (*release)(void *handle); /* its clReleaseXxx, set by its maker (cl/): what
                                        skmd_object_put calls */
};

/* True when `h` is a live libskmd handle of TYPE (PLATFORM, CONTEXT, ...). */
#define SKMD_VALID(h, TYPE) \
    ((h) != NULL && (h)->obj.magic == SKMD_MAGIC && (h)->obj.type == SKMD_TYPE_##TYPE)

/* The ICD dispatch table every handle starts with: libskmd's exports (api/exports.c),
 * handed here before the first handle is made (skmd_object_set_dispatch), so that this
 * layer knows the table without calling up to the entry points. */
extern const cl_icd_dispatch *skmd_object_dispatch;
void skmd_object_set_dispatch(const cl_icd_dispatch *dispatch);

void skmd_object_init(struct skmd_object *obj, enum skmd_type type);
void skmd_object_retain(struct skmd_object *obj);
/* Drops one reference; returns 1 when it was the last (the caller then frees). */
int skmd_object_release(struct skmd_object *obj);
void skmd_object_finish(struct skmd_object *obj);
/* Frees a handle once nothing holds it: its header finished, then its memory. `handle` is
 * any libskmd handle (struct _cl_xxx *), whose header comes first. */
void skmd_object_free(void *handle);
/* The end of a create call: `handle` when errcode is CL_SUCCESS; else NULL, a half-made
 * handle (its real objects already let go) freed as skmd_object_free does. The code is
 * stored in *errcode_ret where the app asked for it. */
void *skmd_object_made(void *handle, cl_int errcode, cl_int *errcode_ret);
/* Lets go of one reference as the app's clReleaseXxx does (obj->release): how a lower
 * layer releases a kernel or buffer it retained, without calling up into cl/. */
cl_int skmd_object_put(struct skmd_object *obj);

/* Adds an app callback (cast to the type of skmd_callback.fn) to the front of `list`,
 * one of obj's lists: CL_SUCCESS, or CL_OUT_OF_HOST_MEMORY. Takes obj->lock. */
cl_int skmd_object_add_callback(struct skmd_object *obj, struct skmd_callback **list,
                                void (CL_CALLBACK *fn)(void), void *user_data);

/* A real device that is part of the SKMD device. */
struct skmd_member {
    cl_platform_id real_platform;
    int platform_slot;          /* index into skmd_state.platforms */
    cl_device_id real_device;
    cl_device_type type;
    int pocl;                   /* a device of PoCL: libskmd's split programs for it are
                                   bitcode (splitprog.c), and its first runs of a kernel on
                                   two devices must not overlap (launch_shares.c) */
    char name[256];
};

/* A member whose kernels run on the host's own cores (a CPU device): they take the cores
 * the other members' transfers and drivers need. */
static inline int skmd_member_on_host_cores(const struct skmd_member *mb)
{
    return (mb->type & CL_DEVICE_TYPE_CPU) != 0;
}

struct _cl_platform_id {
    struct skmd_object obj;
};

/* The SKMD device (skmd_state.device, the root: every member) or one of its sub-devices
 * (clCreateSubDevices: a subset of its parent's members, platform.c). Immutable after
 * creation; a sub-device lives while the app or a context holds it. */
#define SKMD_PARTITION_MAX (SKMD_MAX_MEMBERS + 3)
struct _cl_device_id {
    struct skmd_object obj;
    unsigned members;           /* bit m: member m is part of this device */
    int exec;                   /* the member that runs its unsplit work */
    cl_device_id parent;        /* NULL for the root; retained by a sub-device */
    cl_device_partition_property partition[SKMD_PARTITION_MAX]; /* as the app gave it,
                                                                   0-terminated */
    size_t npartition;          /* entries incl. the final 0; 0 for the root */
};

/* Whether member m is part of device d. */
static inline int skmd_device_has(const struct _cl_device_id *d, int m)
{
    return (d->members >> m) & 1u;
}

/* Process-wide state, written once by skmd_init() and read-only afterwards. */
struct skmd_state {
    int ready;                  /* the loader opened and at least one member found */
    int told_no_device;         /* why there is no device was logged at error level */
    int passthrough;            /* SKMD_MODE=passthrough: every call goes to the loader */
    int nplatforms;             /* context slots: one per member, or per real platform */
    cl_platform_id platforms[SKMD_MAX_PLATFORMS];
    int nmembers;
    struct skmd_member members[SKMD_MAX_MEMBERS];
    int exec;                   /* the member that runs everything in single mode */
    struct _cl_platform_id platform;
    struct _cl_device_id device;
};
extern struct skmd_state skmd_state;

#define SKMD_CONTEXT_MAX_DEVICES 32
struct _cl_context {
    struct skmd_object obj;
    cl_context real[SKMD_MAX_PLATFORMS];   /* one per platform slot: made in clCreateContext
                                              for the slots its queues run on, the others'
                                              when a launch could use them (bring_up.h);
                                              read only for slots that are up */
    atomic_uint up;                        /* bit s: slot s's real context, programs and
                                              kernels are made (set once, never cleared) */
    unsigned up_failed;                    /* slots whose context could not be made; under
                                              up_lock's write side */
    pthread_rwlock_t up_lock;              /* write: a bring-up; read: making a program or
                                              kernel on the slots that are up */
    void (*bring_up)(cl_context, const char *why, int wait); /* brings every slot up
                                              (bring_up.c), now or on a thread of its own:
                                              handed down to launch/ and mem/ */
    atomic_int bring_up_started;           /* a bring-up thread was started */
    struct _cl_program *programs;          /* live programs; under up_lock (read) and
                                              obj.lock, or up_lock (write) */
    cl_device_id devices[SKMD_CONTEXT_MAX_DEVICES]; /* the app's, without repeats;
                                              retained; immutable */
    cl_uint ndevices;
    cl_context_properties props[16];       /* as the app gave them, 0-terminated */
    cl_command_queue work[SKMD_MAX_MEMBERS]; /* libskmd's own queue per member (transfers,
                                              shares); made lazily (coherence.c) */
    cl_command_queue xfer[SKMD_MAX_MEMBERS]; /* a second queue per member: transfers of a
                                              share run in pieces (pieces.c); lazily */
    size_t nprops;                         /* entries in props incl. the final 0 */
    void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
    void *notify_data;
    struct skmd_callback *destructors;     /* under obj.lock */
    pthread_t early;                       /* makes the members' staging buffers ahead */
    int early_started;                     /* (SKMD_TRANSFER_EARLY); joined at release */
};

struct _cl_command_queue {
    struct skmd_object obj;
    cl_context context;
    cl_device_id device;                   /* the app's: the SKMD device or a sub-device */
    int member;                            /* executing member */
    cl_command_queue real;                 /* on that member; replaced (with member) only
                                              when the member is lost (member_health.c) */
    struct skmd_launcher *launcher;        /* split launches' thread (worker.c); under
                                              obj.lock */
    cl_queue_properties props[8];
    size_t nprops;
    cl_command_queue_properties properties; /* the real queue's, asked once: fixed for its
                                               life (clSetCommandQueueProperty is refused) */
    atomic_int gated;                      /* commands on the launcher that may wait for an
                                              unset user event (defer.h); while any, the
                                              queue's later commands go there too */
};

/* A buffer. A root buffer (no parent) keeps the canonical host copy and, per member and
 * for the host (index SKMD_HOST), the byte ranges whose copy is current (coherence.c).
 * A sub-buffer uses its root's, shifted by `origin`. */
#define SKMD_HOST SKMD_MAX_MEMBERS
struct _cl_mem {
    struct skmd_object obj;
    cl_context context;
    cl_mem_object_type mtype;
    cl_mem_flags flags;
    size_t size;
    void *host_ptr;                        /* the app's, for USE_HOST_PTR */
    cl_mem parent;                         /* sub-buffer: its parent (retained) */
    size_t origin;
    cl_mem real[SKMD_MAX_MEMBERS];         /* each member's real buffer; under obj.lock */
    unsigned char *host_copy;              /* root: canonical copy; under skmd_buffer_lock */
    unsigned zero_copy;                    /* root: bit m set when member m's real buffer
                                              is made on host_copy (zero-copy);
                                              under skmd_buffer_lock */
    struct skmd_ranges valid[SKMD_MAX_MEMBERS + 1]; /* root; under skmd_buffer_lock */
    unsigned char spread;                  /* root: the last launch that read it was split
                                              over two or more members with copies of
                                              their own (not zero-copy); a hint,
                                              read and written atomically */
    /* root: placed writes' own state (plan/placement.c, cl/write_placed.c; nothing else
     * reads it; with SKMD_PLACE_WRITES off it stays empty) */
    struct {
        uint64_t app_wrote_ns;             /* when the app first wrote it since a launch
                                              last read it (skmd_now_ns; 0: not since);
                                              atomic */
        uint64_t app_waited_ns;            /* the app's last wait before that write;
                                              atomic */
        struct skmd_placement *at;         /* where the next launch reads it; under
                                              skmd_buffer_lock */
    } place;
    unsigned char stream_hist;             /* root: whether the app reads it back
                                              (stream_out.c); atomic */
    struct skmd_callback *destructors;     /* under obj.lock */
    unsigned refused;                      /* root: bit m set when member m failed to
                                              allocate it (member_health.c; atomic) */
    cl_mem_properties props[8];
    size_t nprops;
};

/* The buffer whose bytes mem's are: mem itself, or a sub-buffer's parent. */
static inline cl_mem skmd_mem_root(cl_mem mem)
{
    return mem->parent ? mem->parent : mem;
}

struct _cl_program {
    struct skmd_object obj;
    cl_context context;
    cl_program real[SKMD_MAX_PLATFORMS];   /* one per platform slot that is up */
    struct _cl_program *next_in_context;   /* the context's list (its programs) */
    struct _cl_kernel *kernels;            /* live kernels made from it; locked as the
                                              context's list */
    int built;                             /* the last clBuildProgram succeeded: a slot
                                              brought up later builds it with `options` */
    struct skmd_callback *release_cbs;     /* under obj.lock */
    char *source;                          /* the app's source (NULL: linked, or a binary
                                              that carries none) */
    char *options;                         /* the build options of its binaries (those a
                                              binary carries, else the last build's) */
    int options_kept;                      /* options are the program's own (a binary's
                                              or a link's): a build keeps them */
    int compiled_alone;                    /* clCompileProgram built its source with no
                                              input headers: linked alone, it is split */
    /* Split programs (splitprog.c): built on a thread of their own that clBuildProgram
     * starts and does not wait for (split_thread.c), then immutable. While split_building is set, the four
     * fields below belong to that thread; anyone else waits for it first. */
    pthread_mutex_t split_lock;
    pthread_cond_t split_built;            /* split_building went back to 0 */
    int split_building;                    /* under split_lock */
    struct skmd_program_record *record;    /* NULL: not splittable */
    cl_program split[SKMD_MAX_PLATFORMS];  /* partition-ready + merge kernels */
    unsigned char *split_bin[2];           /* the compiler's output per target (PoCL
                                              bitcode, PTX), kept for slots brought up
                                              later */
    size_t split_len[2];
    unsigned char split_ok[SKMD_MAX_MEMBERS]; /* member built its split program */
    struct skmd_source_builds *source_builds; /* shares from the app's source
                                                 (share_source.c); NULL: none */
    unsigned not_built;                    /* bit m set: member m failed to build it, its
                                              kernels run elsewhere (set by clBuildProgram) */
    int nkernels;                          /* kernels made from it and not yet destroyed:
                                              a build or compile is then refused; atomic */
};

/* One kernel argument as the app last set it. */
struct skmd_arg {
    int set;
    size_t size;
    void *value;                           /* copy of the bytes; NULL for __local */
    cl_mem mem;                            /* a libskmd buffer given as the value */
    int other_handle;                      /* a sampler or image: not placeable */
};

struct _cl_kernel {
    struct skmd_object obj;
    cl_program program;
    cl_kernel real[SKMD_MAX_MEMBERS];      /* one per member that is up and built it */
    struct _cl_kernel *next_in_program;    /* its program's list */
    size_t member_group_max[SKMD_MAX_MEMBERS]; /* CL_KERNEL_WORK_GROUP_SIZE of real[m],
                                              asked at its first need (atomic; 0: not yet) */
    char name[128];
    uint64_t profile_key;                  /* skmd_pdb_kernel_hash of source and name */
    const struct skmd_kernel_record *rec;  /* the program's; NULL: not splittable */
    cl_kernel split[SKMD_MAX_MEMBERS];     /* partition-ready kernel per member */
    cl_kernel merge[SKMD_MAX_MEMBERS];     /* its merge kernel (CPU members) */
    cl_uint nargs;
    struct skmd_arg *args;                 /* under obj.lock */
    size_t max_group_items;                /* CL_KERNEL_WORK_GROUP_SIZE over the members,
                                              asked once (atomic; 0: not yet known) */
    int told_whole;                        /* atomic: its first whole launch was looked
                                              at for a forced split not taken (launch_plan.c) */
    int split_pending;                     /* atomic: made while its program's split version
                                              was being built; rec, split and merge are
                                              taken at their first need (kernel.c) */
};

struct _cl_event {
    struct skmd_object obj;
    cl_context context;
    cl_command_queue queue;                /* NULL for a user event */
    cl_event real;                         /* immutable after creation */
    cl_command_type type;                  /* the command, where `real` is a stand-in
                                              (a marker); 0: ask `real` */
    unsigned char host_set;                /* `real` is a user event that is set by the
                                              app or by libskmd (a user event, a span
                                              event: eventspan.h), not by a device */
};

struct _cl_sampler {
    struct skmd_object obj;
    cl_context context;
    cl_sampler real[SKMD_MAX_PLATFORMS];
};

/* An app callback kept until its object dies. */
struct skmd_callback {
    struct skmd_callback *next;
    void (CL_CALLBACK *fn)(void);          /* cast back to the right type to call */
    void *user_data;
};

/* The real context of member m's platform. */
static inline cl_context skmd_member_context(cl_context ctx, int m)
{
    return ctx->real[skmd_state.members[m].platform_slot];
}

/* Whether platform slot s of ctx is up: its real context, programs and kernels made
 * (acquire: what the bring-up made before it set the bit is seen). */
static inline int skmd_slot_up(cl_context ctx, int s)
{
    return (atomic_load_explicit(&ctx->up, memory_order_acquire) >> s) & 1u;
}

static inline int skmd_member_up(cl_context ctx, int m)
{
    return skmd_slot_up(ctx, skmd_state.members[m].platform_slot);
}

/* The members of platform slots `slots` (bits), as bits. */
static inline unsigned skmd_slots_members(unsigned slots)
{
    unsigned members = 0;
    for (int m = 0; m < skmd_state.nmembers; m++)
        members |= (slots >> skmd_state.members[m].platform_slot & 1u) << m;
    return members;
}

/* The members up in ctx, as bits. */
static inline unsigned skmd_members_up(cl_context ctx)
{
    return skmd_slots_members(atomic_load_explicit(&ctx->up, memory_order_acquire));
}

#endif
