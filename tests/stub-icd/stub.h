/* libskmdstub: a fake OpenCL ICD with N configurable devices that logs every call it
 * receives.  It lets the tests check which real calls libskmd makes for each application
 * call, without any real driver.  Objects and controls shared by the stub's files. */
#ifndef SKMD_STUB_H
#define SKMD_STUB_H

#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define STUB_MAX_DEVICES 16
#define STUB_MAX_ARGS 32

enum stub_kind {
  STUB_PLATFORM, STUB_DEVICE, STUB_CONTEXT, STUB_QUEUE, STUB_MEM,
  STUB_PROGRAM, STUB_KERNEL, STUB_EVENT, STUB_SAMPLER, STUB_KINDS
};

/* Every object starts with the dispatch pointer, as ocl-icd requires, then this header. */
struct stub_object {
  cl_icd_dispatch *dispatch;
  unsigned magic;
  enum stub_kind kind;
  atomic_int refs;
  unsigned id;                 /* per-kind serial number, used in the log */
  struct stub_object *next, *prev;  /* the list of live objects */
};

/* What a device may be told to fail at (SKMD_STUB_FAIL). FAIL_LOSE: the device
 * disappears after `lose_after` successful calls (stub_device_gone). */
enum stub_fail { FAIL_BUILD = 1, FAIL_LAUNCH = 2, FAIL_ALLOC = 4, FAIL_TRANSFER = 8,
                 FAIL_LOSE = 16 };

struct _cl_platform_id { struct stub_object obj; };

struct _cl_device_id {
  struct stub_object obj;
  unsigned index;
  cl_device_type type;
  unsigned fail;               /* enum stub_fail bits */
  unsigned lose_after;         /* FAIL_LOSE: successful calls before it disappears */
  atomic_uint calls;           /* FAIL_LOSE: calls that reached it so far */
};

struct _cl_context {
  struct stub_object obj;
  cl_uint num_devices;
  cl_device_id devices[STUB_MAX_DEVICES];
  void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_data;
};

struct _cl_command_queue {
  struct stub_object obj;
  cl_context context;
  cl_device_id device;
  cl_command_queue_properties props;
};

struct stub_destructor {
  void (CL_CALLBACK *fn)(cl_mem, void *);
  void *data;
  struct stub_destructor *next;
};

struct _cl_mem {
  struct stub_object obj;
  cl_context context;
  cl_mem_flags flags;
  size_t size;
  char *bytes;                 /* the contents (real host memory) */
  int owns_bytes;
  void *host_ptr;              /* as given at creation */
  cl_mem parent;               /* sub-buffer: its parent, retained */
  size_t origin;
  cl_uint map_count;
  struct stub_destructor *destructors;
};

struct _cl_program {
  struct stub_object obj;
  cl_context context;
  char *source;
  cl_uint num_devices;
  cl_device_id devices[STUB_MAX_DEVICES];
  cl_build_status status[STUB_MAX_DEVICES];
  char *options;
  char *log[STUB_MAX_DEVICES]; /* per device, as of its last build */
  int from_binary;
  cl_program_binary_type binary_type;
};

struct stub_arg {
  int set;
  size_t size;
  cl_mem mem;                  /* when the value is a live stub buffer */
  unsigned char value[16];
};

struct _cl_kernel {
  struct stub_object obj;
  cl_program program;
  char *name;
  cl_uint num_args;
  struct stub_arg args[STUB_MAX_ARGS];
};

struct stub_callback {
  cl_int status;
  void (CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *data;
  struct stub_callback *next;
};

struct _cl_event {
  struct stub_object obj;
  cl_context context;
  cl_command_queue queue;      /* NULL for a user event */
  cl_command_type type;
  cl_int status;
  cl_ulong times[4];           /* queued, submit, start, end */
  struct stub_callback *callbacks;
};

/* stub_state.c: controls, the log, the registry of live objects */
struct stub_config {
  unsigned num_devices;
  cl_device_type types[STUB_MAX_DEVICES];
  unsigned fail[STUB_MAX_DEVICES];
  unsigned lose_after[STUB_MAX_DEVICES];
  int wait_ignores_errors; /* clWaitForEvents succeeds on failed events (NVIDIA's, for a
                              user event set to an error) */
};
const struct stub_config *stub_config(void);
void stub_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *stub_error_name(cl_int err);
void *stub_new(size_t size, enum stub_kind kind);
void stub_retain(void *object);
int stub_release(void *object);   /* 1 when the last reference went and the caller frees */
void stub_forget(void *object);   /* unregister an object that stub_release said to free */
int stub_valid(const void *object, enum stub_kind kind);
extern pthread_mutex_t stub_lock;
cl_ulong stub_now_ns(void);

/* stub_platform.c */
extern struct _cl_platform_id stub_platform;
extern struct _cl_device_id stub_devices[STUB_MAX_DEVICES];
extern cl_icd_dispatch stub_dispatch;
int stub_device_valid(cl_device_id device);
/* FAIL_LOSE: counts one call that reaches device d; 1 once d has disappeared (this call
 * and every later one fail). 0 for a device without FAIL_LOSE. */
int stub_device_gone(cl_device_id d);
/* Whether d has disappeared already, counting nothing. */
int stub_device_is_gone(cl_device_id d);

/* stub_info.c: writing a value the way every clGet*Info does */
cl_int stub_info(size_t value_size, void *value, size_t *size_ret, const void *src, size_t n);
cl_int stub_info_string(size_t value_size, void *value, size_t *size_ret, const char *s);

/* stub_program.c: whether p's last build for d succeeded (kernels may run there) */
int stub_program_built_for(cl_program p, cl_device_id d);

/* stub_event.c: completed events for enqueued commands */
cl_int stub_check_wait_list(cl_uint n, const cl_event *list);
void stub_complete(cl_command_queue queue, cl_command_type type, cl_event *event_ret);
/* An event for a command that was accepted but did not run: it ends with `status` (< 0). */
void stub_complete_failed(cl_command_queue queue, cl_command_type type, cl_event *event_ret,
                          cl_int status);

#define STUB_RETURN_ERROR(errcode_ret, err) \
  do { if (errcode_ret) *(errcode_ret) = (err); return NULL; } while (0)

#endif
