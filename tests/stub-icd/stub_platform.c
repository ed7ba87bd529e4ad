/* The stub's one platform and its N devices, and the ICD entry points ocl-icd looks up. */
#include "stub.h"

#include <stdio.h>
#include <string.h>

#define STUB_EXPORT __attribute__((visibility("default")))

struct _cl_platform_id stub_platform;
struct _cl_device_id stub_devices[STUB_MAX_DEVICES];
void stub_fill_dispatch(void);

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init(void)
{
  const struct stub_config *c = stub_config();
  stub_fill_dispatch();
  stub_platform.obj.dispatch = &stub_dispatch;
  stub_platform.obj.kind = STUB_PLATFORM;
  for (unsigned i = 0; i < c->num_devices; i++) {
    stub_devices[i].obj.dispatch = &stub_dispatch;
    stub_devices[i].obj.kind = STUB_DEVICE;
    stub_devices[i].index = i;
    stub_devices[i].type = c->types[i];
    stub_devices[i].fail = c->fail[i];
    stub_devices[i].lose_after = c->lose_after[i];
  }
}

int stub_device_gone(cl_device_id d)
{
  if (!(d->fail & FAIL_LOSE)) return 0;
  unsigned n = atomic_fetch_add(&d->calls, 1);
  if (n == d->lose_after) stub_log("stub-lost dev=%u after %u calls", d->index, n);
  return n >= d->lose_after;
}

int stub_device_is_gone(cl_device_id d)
{
  return (d->fail & FAIL_LOSE) && atomic_load(&d->calls) > d->lose_after;
}

int stub_device_valid(cl_device_id device)
{
  const struct stub_config *c = stub_config();
  return device >= stub_devices && device < stub_devices + c->num_devices;
}

static cl_int CL_API_CALL icd_get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                                               cl_uint *num_platforms)
{
  pthread_once(&init_once, init);
  stub_log("clIcdGetPlatformIDsKHR");
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = &stub_platform;
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

static void *CL_API_CALL get_extension_function_address(const char *name)
{
  pthread_once(&init_once, init);
  if (name && !strcmp(name, "clIcdGetPlatformIDsKHR")) return (void *)icd_get_platform_ids;
  return NULL;
}

static void *CL_API_CALL get_extension_function_address_for_platform(cl_platform_id platform,
                                                                    const char *name)
{
  (void)platform;
  return get_extension_function_address(name);
}

static cl_int CL_API_CALL get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                                           cl_uint *num_platforms)
{
  return icd_get_platform_ids(num_entries, platforms, num_platforms);
}

static cl_int CL_API_CALL get_platform_info(cl_platform_id platform, cl_platform_info param,
                                            size_t size, void *value, size_t *size_ret)
{
  stub_log("clGetPlatformInfo param=0x%x", param);
  if (platform && platform != &stub_platform) return CL_INVALID_PLATFORM;
  switch (param) {
  case CL_PLATFORM_PROFILE: return stub_info_string(size, value, size_ret, "FULL_PROFILE");
  case CL_PLATFORM_VERSION: return stub_info_string(size, value, size_ret, "OpenCL 1.2 libskmdstub");
  case CL_PLATFORM_NAME: return stub_info_string(size, value, size_ret, "libskmd stub");
  case CL_PLATFORM_VENDOR: return stub_info_string(size, value, size_ret, "libskmd tests");
  case CL_PLATFORM_EXTENSIONS: return stub_info_string(size, value, size_ret, "cl_khr_icd");
  case CL_PLATFORM_ICD_SUFFIX_KHR: return stub_info_string(size, value, size_ret, "STUB");
  default: return CL_INVALID_VALUE;
  }
}

static const char *type_name(cl_device_type t)
{
  return t == CL_DEVICE_TYPE_GPU ? "gpu" : t == CL_DEVICE_TYPE_CPU ? "cpu" : "accelerator";
}

static cl_int CL_API_CALL get_device_ids(cl_platform_id platform, cl_device_type type,
                                         cl_uint num_entries, cl_device_id *devices,
                                         cl_uint *num_devices)
{
  const struct stub_config *c = stub_config();
  cl_uint n = 0;
  cl_int err = CL_SUCCESS;
  if (platform && platform != &stub_platform) err = CL_INVALID_PLATFORM;
  else if ((num_entries == 0 && devices) || (!devices && !num_devices)) err = CL_INVALID_VALUE;
  else {
    for (unsigned i = 0; i < c->num_devices; i++) {
      int match = type == CL_DEVICE_TYPE_ALL || (type & stub_devices[i].type) ||
                  (type == CL_DEVICE_TYPE_DEFAULT && i == 0);
      if (!match) continue;
      if (devices && n < num_entries) devices[n] = &stub_devices[i];
      n++;
    }
    if (!n) err = CL_DEVICE_NOT_FOUND;
    if (num_devices) *num_devices = n;
  }
  stub_log("clGetDeviceIDs type=0x%llx -> %u %s", (unsigned long long)type, n, stub_error_name(err));
  return err;
}

static cl_int CL_API_CALL get_device_info(cl_device_id d, cl_device_info param, size_t size,
                                          void *value, size_t *size_ret)
{
  if (!stub_device_valid(d)) return CL_INVALID_DEVICE;
  stub_log("clGetDeviceInfo dev=%u param=0x%x", d->index, param);
  int gpu = d->type == CL_DEVICE_TYPE_GPU;
  char name[64];
  union { cl_uint u; cl_ulong ul; size_t sz; cl_bool b; cl_device_type t; cl_platform_id p;
          cl_device_id d; cl_bitfield bits; size_t sizes[3]; } v;
  memset(&v, 0, sizeof v);
  size_t n = sizeof(cl_uint);
#define U(x) (v.u = (x), n = sizeof(cl_uint))
#define UL(x) (v.ul = (x), n = sizeof(cl_ulong))
#define SZ(x) (v.sz = (x), n = sizeof(size_t))
#define B(x) (v.b = (x), n = sizeof(cl_bool))
#define BITS(x) (v.bits = (x), n = sizeof(cl_bitfield))
  switch (param) {
  case CL_DEVICE_TYPE: BITS(d->type); break;
  case CL_DEVICE_VENDOR_ID: U(0x5354); break;
  case CL_DEVICE_MAX_COMPUTE_UNITS: U(gpu ? 16 : 4); break;
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: U(3); break;
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    v.sizes[0] = v.sizes[1] = v.sizes[2] = gpu ? 256 : 4096; n = 3 * sizeof(size_t); break;
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: SZ(gpu ? 256 : 4096); break;
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: U(1); break;
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: U(1000); break;
  case CL_DEVICE_ADDRESS_BITS: U(64); break;
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: U(0); break;
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: UL(gpu ? 256u << 20 : 512u << 20); break;
  case CL_DEVICE_GLOBAL_MEM_SIZE: UL(gpu ? 1024u << 20 : 2048u << 20); break;
  case CL_DEVICE_IMAGE2D_MAX_WIDTH: case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_WIDTH: case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH: case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: SZ(0); break;
  case CL_DEVICE_IMAGE_SUPPORT: B(CL_FALSE); break;
  case CL_DEVICE_MAX_PARAMETER_SIZE: SZ(1024); break;
  case CL_DEVICE_MAX_SAMPLERS: U(16); break;
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: U(1024); break;
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: U(128); break;
  case CL_DEVICE_SINGLE_FP_CONFIG: BITS(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN); break;
  case CL_DEVICE_DOUBLE_FP_CONFIG: BITS(0); break;
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: U(CL_READ_WRITE_CACHE); break;
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: U(64); break;
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: UL(1u << 20); break;
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: UL(64u << 10); break;
  case CL_DEVICE_MAX_CONSTANT_ARGS: U(8); break;
  case CL_DEVICE_LOCAL_MEM_TYPE: U(gpu ? CL_LOCAL : CL_GLOBAL); break;
  case CL_DEVICE_LOCAL_MEM_SIZE: UL(gpu ? 48u << 10 : 64u << 10); break;
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT: B(CL_FALSE); break;
  case CL_DEVICE_HOST_UNIFIED_MEMORY: B(!gpu); break;
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: SZ(1); break;
  case CL_DEVICE_ENDIAN_LITTLE: case CL_DEVICE_AVAILABLE: case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE: case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: B(CL_TRUE); break;
  case CL_DEVICE_EXECUTION_CAPABILITIES: BITS(CL_EXEC_KERNEL); break;
  case CL_DEVICE_QUEUE_PROPERTIES:
    BITS(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); break;
  case CL_DEVICE_PLATFORM: v.p = &stub_platform; n = sizeof v.p; break;
  case CL_DEVICE_PARENT_DEVICE: v.d = NULL; n = sizeof v.d; break;
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: U(0); break;
  case CL_DEVICE_PARTITION_PROPERTIES: case CL_DEVICE_PARTITION_TYPE:
    v.sz = 0; n = sizeof(cl_device_partition_property); break;
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: BITS(0); break;
  case CL_DEVICE_REFERENCE_COUNT: U(1); break;
  case CL_DEVICE_PRINTF_BUFFER_SIZE: SZ(1u << 20); break;
  case CL_DEVICE_NAME:
    snprintf(name, sizeof name, "stub %s %u", type_name(d->type), d->index);
    return stub_info_string(size, value, size_ret, name);
  case CL_DEVICE_VENDOR: return stub_info_string(size, value, size_ret, "libskmd tests");
  case CL_DRIVER_VERSION: return stub_info_string(size, value, size_ret, "1.0");
  case CL_DEVICE_PROFILE: return stub_info_string(size, value, size_ret, "FULL_PROFILE");
  case CL_DEVICE_VERSION: return stub_info_string(size, value, size_ret, "OpenCL 1.2 libskmdstub");
  case CL_DEVICE_OPENCL_C_VERSION: return stub_info_string(size, value, size_ret, "OpenCL C 1.2 ");
  case CL_DEVICE_EXTENSIONS:
    return stub_info_string(size, value, size_ret, gpu ? "cl_khr_global_int32_base_atomics cl_khr_fp16"
                                                       : "cl_khr_global_int32_base_atomics cl_khr_fp64");
  case CL_DEVICE_BUILT_IN_KERNELS: return stub_info_string(size, value, size_ret, "");
  default: return CL_INVALID_VALUE;
  }
#undef U
#undef UL
#undef SZ
#undef B
#undef BITS
  return stub_info(size, value, size_ret, &v, n);
}

static cl_int CL_API_CALL retain_device(cl_device_id d)
{
  return stub_device_valid(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

void stub_fill_platform(cl_icd_dispatch *t)
{
  t->clGetPlatformIDs = get_platform_ids;
  t->clGetPlatformInfo = get_platform_info;
  t->clGetDeviceIDs = get_device_ids;
  t->clGetDeviceInfo = get_device_info;
  t->clRetainDevice = retain_device;
  t->clReleaseDevice = retain_device;
  t->clGetExtensionFunctionAddress = get_extension_function_address;
  t->clGetExtensionFunctionAddressForPlatform = get_extension_function_address_for_platform;
}

/* The names ocl-icd looks up in the library itself.  Each only forwards to the stub's own
 * function: inside the stub nothing calls an exported cl* name, which libskmd, preloaded,
 * would interpose. */
STUB_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                      cl_platform_id *platforms,
                                                      cl_uint *num_platforms)
{
  return icd_get_platform_ids(num_entries, platforms, num_platforms);
}

STUB_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
  return get_extension_function_address(name);
}

STUB_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param,
                                                 size_t size, void *value, size_t *size_ret)
{
  pthread_once(&init_once, init);
  return get_platform_info(platform, param, size, value, size_ret);
}
