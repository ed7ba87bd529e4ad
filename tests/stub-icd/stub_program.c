/* Programs: any source builds (unless it holds "#error" or its device was told to fail
 * or has disappeared);
 * the "binary" is the source behind a marker line.  Kernel names and argument counts come
 * from the source's "kernel void NAME(...)" declarations. */
#include "stub.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINARY_MARK "SKMDSTUB-BINARY\n"

/* Calls fn(name, name_len, num_args, data) for each kernel declared in src. */
static void each_kernel(const char *src, void (*fn)(const char *, size_t, cl_uint, void *), void *data)
{
  for (const char *p = src; (p = strstr(p, "kernel")); p += 6) {
    const char *q = p + 6;
    if (p > src && (isalnum((unsigned char)p[-1]) || (p[-1] == '_' && (p - src < 2 || p[-2] != '_'))))
      continue;
    while (isspace((unsigned char)*q)) q++;
    if (strncmp(q, "void", 4) || !isspace((unsigned char)q[4])) continue;
    q += 4;
    while (isspace((unsigned char)*q)) q++;
    const char *name = q;
    while (isalnum((unsigned char)*q) || *q == '_') q++;
    size_t len = (size_t)(q - name);
    while (isspace((unsigned char)*q)) q++;
    if (!len || *q != '(') continue;
    cl_uint args = 0;
    int depth = 0, any = 0;
    for (q++; *q && (depth || *q != ')'); q++) {
      if (*q == '(') depth++;
      else if (*q == ')') depth--;
      else if (*q == ',' && !depth) args++;
      else if (!isspace((unsigned char)*q)) any = 1;
    }
    const char *inner = strchr(p, '(') + 1;
    while (isspace((unsigned char)*inner)) inner++;
    if (any && !(strncmp(inner, "void", 4) == 0 && inner[4 + strspn(inner + 4, " \t\n")] == ')')) args++;
    fn(name, len, args, data);
  }
}

struct name_search { const char *name; int found; cl_uint args; };

static void match_name(const char *name, size_t len, cl_uint args, void *data)
{
  struct name_search *s = data;
  if (strlen(s->name) == len && !strncmp(s->name, name, len)) s->found = 1, s->args = args;
}

struct name_list { char *buf; size_t used, cap; cl_uint count; };

static void append_name(const char *name, size_t len, cl_uint args, void *data)
{
  (void)args;
  struct name_list *l = data;
  if (l->used + len + 2 > l->cap) return;
  if (l->count++) l->buf[l->used++] = ';';
  memcpy(l->buf + l->used, name, len);
  l->used += len;
  l->buf[l->used] = 0;
}

static cl_program new_program(cl_context c, const char *source, size_t len, cl_int *err)
{
  cl_program p = stub_new(sizeof *p, STUB_PROGRAM);
  if (!p || !(p->source = malloc(len + 1))) {
    if (p) { stub_forget(p); free(p); }
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  memcpy(p->source, source, len);
  p->source[len] = 0;
  p->context = c;
  p->num_devices = c->num_devices;
  memcpy(p->devices, c->devices, c->num_devices * sizeof *c->devices);
  for (cl_uint i = 0; i < STUB_MAX_DEVICES; i++) p->status[i] = CL_BUILD_NONE;
  stub_retain(c);
  *err = CL_SUCCESS;
  return p;
}

static cl_program CL_API_CALL create_with_source(cl_context c, cl_uint count,
    const char **strings, const size_t *lengths, cl_int *errcode_ret)
{
  if (!stub_valid(c, STUB_CONTEXT)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_CONTEXT);
  if (!count || !strings) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  char *src = malloc(total + 1);
  if (!src) STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  size_t used = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(src + used, strings[i], n);
    used += n;
  }
  cl_int err;
  cl_program p = new_program(c, src, used, &err);
  free(src);
  if (p) stub_log("clCreateProgramWithSource context%u bytes=%zu -> program%u", c->obj.id, used, p->obj.id);
  if (errcode_ret) *errcode_ret = err;
  return p;
}

static cl_program CL_API_CALL create_with_binary(cl_context c, cl_uint num,
    const cl_device_id *devices, const size_t *lengths, const unsigned char **binaries,
    cl_int *status, cl_int *errcode_ret)
{
  if (!stub_valid(c, STUB_CONTEXT)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_CONTEXT);
  if (!num || !devices || !lengths || !binaries || num > STUB_MAX_DEVICES)
    STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  size_t mark = strlen(BINARY_MARK);
  for (cl_uint i = 0; i < num; i++) {
    if (!stub_device_valid(devices[i])) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_DEVICE);
    int ok = binaries[i] && lengths[i] >= mark && !memcmp(binaries[i], BINARY_MARK, mark);
    if (status) status[i] = ok ? CL_SUCCESS : CL_INVALID_BINARY;
    if (!ok) STUB_RETURN_ERROR(errcode_ret, binaries[i] && lengths[i] ? CL_INVALID_BINARY : CL_INVALID_VALUE);
  }
  cl_int err;
  cl_program p = new_program(c, (const char *)binaries[0] + mark, lengths[0] - mark, &err);
  if (p) {
    p->num_devices = num;
    memcpy(p->devices, devices, num * sizeof *devices);
    p->from_binary = 1;
    stub_log("clCreateProgramWithBinary context%u devices=%u -> program%u", c->obj.id, num, p->obj.id);
  }
  if (errcode_ret) *errcode_ret = err;
  return p;
}

static cl_int CL_API_CALL retain_program(cl_program p)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  stub_retain(p);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_program(cl_program p)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  if (stub_release(p)) {
    stub_log("clReleaseProgram program%u freed", p->obj.id);
    stub_forget(p);
    stub_dispatch.clReleaseContext(p->context);
    free(p->source);
    free(p->options);
    for (cl_uint i = 0; i < STUB_MAX_DEVICES; i++) free(p->log[i]);
    free(p);
  }
  return CL_SUCCESS;
}

static int program_has_device(cl_program p, cl_device_id d, cl_uint *slot)
{
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->devices[i] == d) { *slot = i; return 1; }
  return 0;
}

/* Builds (or compiles) p for the listed devices, one log line per device. */
static cl_int build(const char *call, cl_program p, cl_uint num, const cl_device_id *devices,
                    const char *options, cl_program_binary_type type)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  if ((num == 0) != (devices == NULL)) return CL_INVALID_VALUE;
  cl_uint slot;
  for (cl_uint i = 0; i < num; i++)
    if (!stub_device_valid(devices[i]) || !program_has_device(p, devices[i], &slot))
      return CL_INVALID_DEVICE;
  if (options && strstr(options, "-invalid-option")) return CL_INVALID_BUILD_OPTIONS;
  free(p->options);
  p->options = strdup(options ? options : "");
  const char *error = strstr(p->source, "#error");
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < p->num_devices; i++) {
    cl_device_id d = p->devices[i];
    int listed = !num;
    for (cl_uint j = 0; j < num; j++) listed |= devices[j] == d;
    if (!listed) continue;
    int gone = stub_device_gone(d);
    int fails = error || (d->fail & FAIL_BUILD) || gone;
    p->status[i] = fails ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
    stub_log("%s program%u dev=%u options='%s' -> %s", call, p->obj.id, d->index, p->options,
             fails ? "failed" : "ok");
    free(p->log[i]);
    p->log[i] = NULL;
    if (!fails) continue;
    result = type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ? CL_COMPILE_PROGRAM_FAILURE
                                                            : CL_BUILD_PROGRAM_FAILURE;
    char msg[256];
    snprintf(msg, sizeof msg, "stub: %.*s\n", error ? (int)strcspn(error, "\n") : 40,
             error ? error : gone ? "device has disappeared (SKMD_STUB_FAIL lose)"
                                  : "device was told to fail (SKMD_STUB_FAIL)");
    p->log[i] = strdup(msg);
  }
  p->binary_type = result ? CL_PROGRAM_BINARY_TYPE_NONE : type;
  return result;
}

static cl_int CL_API_CALL build_program(cl_program p, cl_uint num, const cl_device_id *devices,
    const char *options, void (CL_CALLBACK *notify)(cl_program, void *), void *data)
{
  if (!notify && data) return CL_INVALID_VALUE;
  cl_int err = build("clBuildProgram", p, num, devices, options, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  if (notify && (err == CL_SUCCESS || err == CL_BUILD_PROGRAM_FAILURE)) notify(p, data);
  return err;
}

static cl_int CL_API_CALL compile_program(cl_program p, cl_uint num, const cl_device_id *devices,
    const char *options, cl_uint num_headers, const cl_program *headers, const char **names,
    void (CL_CALLBACK *notify)(cl_program, void *), void *data)
{
  (void)headers, (void)names;
  if (!notify && data) return CL_INVALID_VALUE;
  if ((num_headers == 0) != (headers == NULL)) return CL_INVALID_VALUE;
  cl_int err = build("clCompileProgram", p, num, devices, options, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  if (notify && (err == CL_SUCCESS || err == CL_COMPILE_PROGRAM_FAILURE)) notify(p, data);
  return err;
}

static cl_program CL_API_CALL link_program(cl_context c, cl_uint num, const cl_device_id *devices,
    const char *options, cl_uint num_inputs, const cl_program *inputs,
    void (CL_CALLBACK *notify)(cl_program, void *), void *data, cl_int *errcode_ret)
{
  if (!stub_valid(c, STUB_CONTEXT)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_CONTEXT);
  if (!num_inputs || !inputs || (!notify && data)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  size_t total = 0;
  for (cl_uint i = 0; i < num_inputs; i++) {
    if (!stub_valid(inputs[i], STUB_PROGRAM)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_PROGRAM);
    if (inputs[i]->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
      STUB_RETURN_ERROR(errcode_ret, CL_INVALID_OPERATION);
    total += strlen(inputs[i]->source) + 1;
  }
  char *src = malloc(total + 1);
  if (!src) STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  src[0] = 0;
  for (cl_uint i = 0; i < num_inputs; i++) strcat(strcat(src, inputs[i]->source), "\n");
  cl_int err;
  cl_program p = new_program(c, src, strlen(src), &err);
  free(src);
  if (!p) STUB_RETURN_ERROR(errcode_ret, err);
  stub_log("clLinkProgram context%u inputs=%u -> program%u", c->obj.id, num_inputs, p->obj.id);
  err = build("clLinkProgram", p, num, devices, options, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  if (err == CL_BUILD_PROGRAM_FAILURE) err = CL_LINK_PROGRAM_FAILURE;
  if (notify) notify(p, data);
  if (errcode_ret) *errcode_ret = err;
  return p;
}

static cl_int CL_API_CALL get_program_info(cl_program p, cl_program_info param, size_t size,
                                           void *value, size_t *size_ret)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  size_t bin_len = strlen(BINARY_MARK) + strlen(p->source);
  size_t sizes[STUB_MAX_DEVICES];
  char names[1024];
  struct name_list list = { names, 0, sizeof names, 0 };
  names[0] = 0;
  cl_uint u;
  size_t count;
  switch (param) {
  case CL_PROGRAM_REFERENCE_COUNT: u = (cl_uint)atomic_load(&p->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  case CL_PROGRAM_CONTEXT: return stub_info(size, value, size_ret, &p->context, sizeof p->context);
  case CL_PROGRAM_NUM_DEVICES: return stub_info(size, value, size_ret, &p->num_devices, sizeof(cl_uint));
  case CL_PROGRAM_DEVICES: return stub_info(size, value, size_ret, p->devices, p->num_devices * sizeof(cl_device_id));
  case CL_PROGRAM_SOURCE: return stub_info_string(size, value, size_ret, p->from_binary ? "" : p->source);
  case CL_PROGRAM_BINARY_SIZES:
    for (cl_uint i = 0; i < p->num_devices; i++) sizes[i] = p->status[i] == CL_BUILD_SUCCESS ? bin_len : 0;
    return stub_info(size, value, size_ret, sizes, p->num_devices * sizeof(size_t));
  case CL_PROGRAM_BINARIES:
    if (value && size < p->num_devices * sizeof(char *)) return CL_INVALID_VALUE;
    for (cl_uint i = 0; value && i < p->num_devices; i++) {
      unsigned char *dst = ((unsigned char **)value)[i];
      if (dst && p->status[i] == CL_BUILD_SUCCESS) {
        memcpy(dst, BINARY_MARK, strlen(BINARY_MARK));
        memcpy(dst + strlen(BINARY_MARK), p->source, strlen(p->source));
      }
    }
    if (size_ret) *size_ret = p->num_devices * sizeof(char *);
    return CL_SUCCESS;
  case CL_PROGRAM_NUM_KERNELS:
    each_kernel(p->source, append_name, &list);
    count = list.count;
    return stub_info(size, value, size_ret, &count, sizeof count);
  case CL_PROGRAM_KERNEL_NAMES:
    each_kernel(p->source, append_name, &list);
    return stub_info_string(size, value, size_ret, names);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL get_build_info(cl_program p, cl_device_id d, cl_program_build_info param,
                                         size_t size, void *value, size_t *size_ret)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  cl_uint slot;
  if (!stub_device_valid(d) || !program_has_device(p, d, &slot)) return CL_INVALID_DEVICE;
  switch (param) {
  case CL_PROGRAM_BUILD_STATUS: return stub_info(size, value, size_ret, &p->status[slot], sizeof(cl_build_status));
  case CL_PROGRAM_BUILD_OPTIONS: return stub_info_string(size, value, size_ret, p->options ? p->options : "");
  case CL_PROGRAM_BUILD_LOG: return stub_info_string(size, value, size_ret, p->log[slot] ? p->log[slot] : "");
  case CL_PROGRAM_BINARY_TYPE: return stub_info(size, value, size_ret, &p->binary_type, sizeof p->binary_type);
  default: return CL_INVALID_VALUE;
  }
}

int stub_program_built_for(cl_program p, cl_device_id d)
{
  cl_uint slot;
  return program_has_device(p, d, &slot) && p->status[slot] == CL_BUILD_SUCCESS &&
         p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

static int is_built(cl_program p)
{
  for (cl_uint i = 0; i < p->num_devices; i++)
    if (p->status[i] == CL_BUILD_SUCCESS && p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) return 1;
  return 0;
}

static cl_kernel CL_API_CALL create_kernel(cl_program p, const char *name, cl_int *errcode_ret)
{
  if (!stub_valid(p, STUB_PROGRAM)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_PROGRAM);
  if (!is_built(p)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE);
  if (!name) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_VALUE);
  struct name_search s = { name, 0, 0 };
  each_kernel(p->source, match_name, &s);
  if (!s.found) {
    stub_log("clCreateKernel program%u name=%s -> CL_INVALID_KERNEL_NAME", p->obj.id, name);
    STUB_RETURN_ERROR(errcode_ret, CL_INVALID_KERNEL_NAME);
  }
  if (s.args > STUB_MAX_ARGS) STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_RESOURCES);
  cl_kernel k = stub_new(sizeof *k, STUB_KERNEL);
  if (!k || !(k->name = strdup(name))) {
    if (k) { stub_forget(k); free(k); }
    STUB_RETURN_ERROR(errcode_ret, CL_OUT_OF_HOST_MEMORY);
  }
  k->program = p;
  k->num_args = s.args;
  stub_retain(p);
  stub_log("clCreateKernel program%u name=%s args=%u -> kernel%u", p->obj.id, name, s.args, k->obj.id);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return k;
}

struct kernel_batch { cl_program program; cl_uint num, made; cl_kernel *out; cl_int err; };

static void make_one(const char *name, size_t len, cl_uint args, void *data)
{
  (void)args;
  struct kernel_batch *b = data;
  char buf[256];
  if (b->err || len >= sizeof buf) return;
  memcpy(buf, name, len);
  buf[len] = 0;
  if (b->out && b->made < b->num) {
    b->out[b->made] = create_kernel(b->program, buf, &b->err);
    if (b->err) return;
  }
  b->made++;
}

static cl_int CL_API_CALL create_kernels_in_program(cl_program p, cl_uint num, cl_kernel *kernels,
                                                    cl_uint *num_ret)
{
  if (!stub_valid(p, STUB_PROGRAM)) return CL_INVALID_PROGRAM;
  if (!is_built(p)) return CL_INVALID_PROGRAM_EXECUTABLE;
  struct kernel_batch b = { p, num, 0, kernels, CL_SUCCESS };
  each_kernel(p->source, make_one, &b);
  if (kernels && num < b.made) return CL_INVALID_VALUE;
  if (num_ret) *num_ret = b.made;
  return b.err;
}

static cl_int CL_API_CALL retain_kernel(cl_kernel k)
{
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  stub_retain(k);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL release_kernel(cl_kernel k)
{
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  if (stub_release(k)) {
    stub_log("clReleaseKernel kernel%u freed", k->obj.id);
    stub_forget(k);
    release_program(k->program);
    free(k->name);
    free(k);
  }
  return CL_SUCCESS;
}

static cl_int CL_API_CALL set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  if (index >= k->num_args) return CL_INVALID_ARG_INDEX;
  if (!size) return CL_INVALID_ARG_SIZE;
  struct stub_arg *a = &k->args[index];
  a->set = 1;
  a->size = size;
  a->mem = NULL;
  memset(a->value, 0, sizeof a->value);
  if (value) memcpy(a->value, value, size < sizeof a->value ? size : sizeof a->value);
  if (value && size == sizeof(cl_mem) && stub_valid(*(const cl_mem *)value, STUB_MEM))
    a->mem = *(const cl_mem *)value;
  if (a->mem) stub_log("clSetKernelArg kernel%u index=%u mem%u", k->obj.id, index, a->mem->obj.id);
  else stub_log("clSetKernelArg kernel%u index=%u size=%zu%s", k->obj.id, index, size, value ? "" : " local");
  return CL_SUCCESS;
}

static cl_int CL_API_CALL get_kernel_info(cl_kernel k, cl_kernel_info param, size_t size,
                                          void *value, size_t *size_ret)
{
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  cl_uint u;
  switch (param) {
  case CL_KERNEL_FUNCTION_NAME: return stub_info_string(size, value, size_ret, k->name);
  case CL_KERNEL_NUM_ARGS: return stub_info(size, value, size_ret, &k->num_args, sizeof(cl_uint));
  case CL_KERNEL_REFERENCE_COUNT: u = (cl_uint)atomic_load(&k->obj.refs); return stub_info(size, value, size_ret, &u, sizeof u);
  case CL_KERNEL_CONTEXT: return stub_info(size, value, size_ret, &k->program->context, sizeof(cl_context));
  case CL_KERNEL_PROGRAM: return stub_info(size, value, size_ret, &k->program, sizeof k->program);
  case CL_KERNEL_ATTRIBUTES: return stub_info_string(size, value, size_ret, "");
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL get_work_group_info(cl_kernel k, cl_device_id d,
    cl_kernel_work_group_info param, size_t size, void *value, size_t *size_ret)
{
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  if (d && !stub_device_valid(d)) return CL_INVALID_DEVICE;
  if (!d) d = k->program->devices[0];
  size_t s3[3] = {0, 0, 0}, s;
  cl_ulong ul = 0;
  switch (param) {
  case CL_KERNEL_WORK_GROUP_SIZE: s = d->type == CL_DEVICE_TYPE_GPU ? 256 : 4096; return stub_info(size, value, size_ret, &s, sizeof s);
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: return stub_info(size, value, size_ret, s3, sizeof s3);
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: s = d->type == CL_DEVICE_TYPE_GPU ? 32 : 8; return stub_info(size, value, size_ret, &s, sizeof s);
  case CL_KERNEL_LOCAL_MEM_SIZE: case CL_KERNEL_PRIVATE_MEM_SIZE: return stub_info(size, value, size_ret, &ul, sizeof ul);
  default: return CL_INVALID_VALUE;
  }
}

static cl_int CL_API_CALL get_kernel_arg_info(cl_kernel k, cl_uint index, cl_kernel_arg_info param,
                                              size_t size, void *value, size_t *size_ret)
{
  (void)param, (void)size, (void)value, (void)size_ret;
  if (!stub_valid(k, STUB_KERNEL)) return CL_INVALID_KERNEL;
  if (index >= k->num_args) return CL_INVALID_ARG_INDEX;
  return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
}

static cl_sampler CL_API_CALL create_sampler(cl_context c, cl_bool normalized,
    cl_addressing_mode addressing, cl_filter_mode filter, cl_int *errcode_ret)
{
  (void)normalized, (void)addressing, (void)filter;
  if (!stub_valid(c, STUB_CONTEXT)) STUB_RETURN_ERROR(errcode_ret, CL_INVALID_CONTEXT);
  STUB_RETURN_ERROR(errcode_ret, CL_INVALID_OPERATION);   /* no stub device has images */
}

void stub_fill_program(cl_icd_dispatch *t)
{
  t->clCreateProgramWithSource = create_with_source;
  t->clCreateProgramWithBinary = create_with_binary;
  t->clRetainProgram = retain_program;
  t->clReleaseProgram = release_program;
  t->clBuildProgram = build_program;
  t->clCompileProgram = compile_program;
  t->clLinkProgram = link_program;
  t->clGetProgramInfo = get_program_info;
  t->clGetProgramBuildInfo = get_build_info;
  t->clCreateKernel = create_kernel;
  t->clCreateKernelsInProgram = create_kernels_in_program;
  t->clRetainKernel = retain_kernel;
  t->clReleaseKernel = release_kernel;
  t->clSetKernelArg = set_kernel_arg;
  t->clGetKernelInfo = get_kernel_info;
  t->clGetKernelWorkGroupInfo = get_work_group_info;
  t->clGetKernelArgInfo = get_kernel_arg_info;
  t->clCreateSampler = create_sampler;
}
