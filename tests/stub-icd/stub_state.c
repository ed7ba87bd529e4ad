/* The stub's controls (SKMD_STUB_*), its call log and the registry of live objects. */
#include "stub.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STUB_MAGIC 0x5354ab1eu

pthread_mutex_t stub_lock = PTHREAD_MUTEX_INITIALIZER;
static struct stub_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static int log_fd = -1;
static struct stub_object *live;              /* every object created and not yet freed */
static unsigned serial[STUB_KINDS];
static const char *kind_names[STUB_KINDS] = {
  "platform", "device", "context", "queue", "mem", "program", "kernel", "event", "sampler"
};

static void die(const char *what, const char *value)
{
  fprintf(stderr, "libskmdstub: bad %s: '%s'\n", what, value);
  _exit(2);   /* not exit(): the destructor would wait on the pthread_once we are in */
}

static cl_device_type parse_type(const char *s, size_t n)
{
  if (n == 3 && !strncmp(s, "gpu", 3)) return CL_DEVICE_TYPE_GPU;
  if (n == 3 && !strncmp(s, "cpu", 3)) return CL_DEVICE_TYPE_CPU;
  if (n == 11 && !strncmp(s, "accelerator", 11)) return CL_DEVICE_TYPE_ACCELERATOR;
  return 0;
}

static unsigned parse_fail_what(const char *s)
{
  if (!s) return FAIL_BUILD | FAIL_LAUNCH | FAIL_ALLOC | FAIL_TRANSFER;
  if (!strcmp(s, "build")) return FAIL_BUILD;
  if (!strcmp(s, "launch")) return FAIL_LAUNCH;
  if (!strcmp(s, "alloc")) return FAIL_ALLOC;
  if (!strcmp(s, "transfer")) return FAIL_TRANSFER;
  if (!strcmp(s, "all")) return FAIL_BUILD | FAIL_LAUNCH | FAIL_ALLOC | FAIL_TRANSFER;
  if (!strcmp(s, "lose")) return FAIL_LOSE;
  return 0;
}

/* SKMD_STUB_DEVICES=N, SKMD_STUB_TYPES=gpu,cpu,..., SKMD_STUB_FAIL=IDX[:build|launch|alloc|
 * transfer|all|lose@N],..., SKMD_STUB_WAIT_IGNORES_ERRORS=1, SKMD_STUB_LOG=file.  Bad
 * values stop the process with a message. */
static void read_config(void)
{
  const char *s = getenv("SKMD_STUB_DEVICES");
  config.num_devices = 2;
  if (s) {
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < 1 || n > STUB_MAX_DEVICES) die("SKMD_STUB_DEVICES (1..16)", s);
    config.num_devices = (unsigned)n;
  }
  for (unsigned i = 0; i < STUB_MAX_DEVICES; i++)
    config.types[i] = i == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
  s = getenv("SKMD_STUB_TYPES");
  if (s) {
    unsigned i = 0;
    for (const char *p = s; *p && i < STUB_MAX_DEVICES; i++) {
      size_t n = strcspn(p, ",");
      if (!(config.types[i] = parse_type(p, n))) die("SKMD_STUB_TYPES (gpu,cpu,accelerator)", s);
      p += n + (p[n] == ',');
    }
  }
  s = getenv("SKMD_STUB_FAIL");
  if (s && *s) {
    char *copy = strdup(s), *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
      char *colon = strchr(item, ':'), *end;
      if (colon) *colon = 0;
      long idx = strtol(item, &end, 10);
      /* IDX:lose@N: the device disappears after N successful calls. */
      long after = 0;
      char *at = colon ? strchr(colon + 1, '@') : NULL, *at_end = NULL;
      if (at) {
        *at = 0;
        after = strtol(at + 1, &at_end, 10);
      }
      unsigned what = parse_fail_what(colon ? colon + 1 : NULL);
      int bad_at = at ? (what != FAIL_LOSE || *at_end || at_end == at + 1 || after < 0)
                      : what == FAIL_LOSE;
      if (*end || idx < 0 || idx >= STUB_MAX_DEVICES || !what || bad_at) {
        free(copy);
        die("SKMD_STUB_FAIL (IDX[:build|launch|alloc|transfer|all|lose@N],...)", s);
      }
      config.fail[idx] |= what;
      if (what == FAIL_LOSE) config.lose_after[idx] = (unsigned)after;
    }
    free(copy);
  }
  s = getenv("SKMD_STUB_WAIT_IGNORES_ERRORS");
  if (s && *s && strcmp(s, "0") && strcmp(s, "1")) die("SKMD_STUB_WAIT_IGNORES_ERRORS (0|1)", s);
  config.wait_ignores_errors = s && !strcmp(s, "1");
  s = getenv("SKMD_STUB_LOG");
  if (s && *s) {
    log_fd = open(s, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd < 0) die("SKMD_STUB_LOG (cannot open)", s);
  }
}

const struct stub_config *stub_config(void)
{
  pthread_once(&config_once, read_config);
  return &config;
}

/* One line per call, written with one write() so that lines of threads never mix. */
void stub_log(const char *fmt, ...)
{
  stub_config();
  if (log_fd < 0) return;
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n > sizeof line - 2) n = sizeof line - 2;
  line[n++] = '\n';
  ssize_t w = write(log_fd, line, (size_t)n);
  (void)w;
}

void *stub_new(size_t size, enum stub_kind kind)
{
  struct stub_object *o = calloc(1, size);
  if (!o) return NULL;
  o->dispatch = &stub_dispatch;
  o->magic = STUB_MAGIC;
  o->kind = kind;
  atomic_init(&o->refs, 1);
  pthread_mutex_lock(&stub_lock);
  o->id = ++serial[kind];
  o->next = live;
  if (live) live->prev = o;
  live = o;
  pthread_mutex_unlock(&stub_lock);
  return o;
}

/* A handle is valid when it is a live object of the right kind: looked up in the registry,
 * so that a stale or foreign pointer is never dereferenced. */
int stub_valid(const void *object, enum stub_kind kind)
{
  if (!object) return 0;
  if (kind == STUB_PLATFORM) return object == &stub_platform;
  if (kind == STUB_DEVICE) return stub_device_valid((cl_device_id)object);
  int found = 0;
  pthread_mutex_lock(&stub_lock);
  for (struct stub_object *o = live; o && !found; o = o->next)
    found = o == object && o->magic == STUB_MAGIC && o->kind == kind;
  pthread_mutex_unlock(&stub_lock);
  return found;
}

void stub_retain(void *object)
{
  atomic_fetch_add(&((struct stub_object *)object)->refs, 1);
}

int stub_release(void *object)
{
  return atomic_fetch_sub(&((struct stub_object *)object)->refs, 1) == 1;
}

void stub_forget(void *object)
{
  struct stub_object *o = object;
  pthread_mutex_lock(&stub_lock);
  if (o->prev) o->prev->next = o->next; else live = o->next;
  if (o->next) o->next->prev = o->prev;
  o->magic = 0;
  pthread_mutex_unlock(&stub_lock);
}

cl_ulong stub_now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

/* At exit, the objects still alive per kind: the tests read this line to find leaks. */
__attribute__((destructor)) static void report_live(void)
{
  unsigned count[STUB_KINDS] = {0};
  pthread_mutex_lock(&stub_lock);
  for (struct stub_object *o = live; o; o = o->next) count[o->kind]++;
  pthread_mutex_unlock(&stub_lock);
  char line[256];
  int n = snprintf(line, sizeof line, "stub-exit live");
  for (int k = STUB_CONTEXT; k < STUB_KINDS; k++)
    n += snprintf(line + n, sizeof line - (size_t)n, " %s=%u", kind_names[k], count[k]);
  stub_log("%s", line);
}

const char *stub_error_name(cl_int err)
{
  switch (err) {
#define E(x) case x: return #x;
  E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
  E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
  E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE)
  E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE)
  E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_PROGRAM) E(CL_INVALID_KERNEL) E(CL_INVALID_KERNEL_NAME)
  E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
  E(CL_INVALID_EVENT) E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_HOST_PTR)
  E(CL_INVALID_OPERATION) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_WORK_DIMENSION)
  E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_PLATFORM)
  E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
  E(CL_INVALID_SAMPLER) E(CL_INVALID_QUEUE_PROPERTIES) E(CL_PROFILING_INFO_NOT_AVAILABLE)
  E(CL_MAP_FAILURE) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_PROPERTY)
  E(CL_PLATFORM_NOT_FOUND_KHR) E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINK_PROGRAM_FAILURE)
  E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
#undef E
  default: return "CL_UNKNOWN_ERROR";
  }
}
