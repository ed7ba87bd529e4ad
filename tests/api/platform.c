/* Platform and device queries: every standard query answers, with values an app relies on
 * (sizes, consistency, error codes); names and counts are not printed. */
#include "api_common.h"

#include <stdio.h>
#include <string.h>

static void string_query(cl_device_id d, cl_device_info param, const char *label, const char *prefix)
{
  char value[4096];
  size_t size = 0;
  cl_int err = clGetDeviceInfo(d, param, 0, NULL, &size);
  api_show(label, err);
  API_OK(clGetDeviceInfo(d, param, sizeof value, value, NULL));
  api_expect("  size includes the terminator", size == strlen(value) + 1);
  if (prefix) api_expect("  has the expected prefix", !strncmp(value, prefix, strlen(prefix)));
}

int main(void)
{
  cl_uint num_platforms = 0;
  API_OK(clGetPlatformIDs(0, NULL, &num_platforms));
  api_expect("at least one platform", num_platforms >= 1);
  api_show("clGetPlatformIDs(0, NULL, NULL)", clGetPlatformIDs(0, NULL, NULL));
  cl_platform_id platform;
  API_OK(clGetPlatformIDs(1, &platform, NULL));
  const cl_platform_info pinfo[] = { CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME,
                                     CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS };
  for (size_t i = 0; i < sizeof pinfo / sizeof *pinfo; i++) {
    char value[2048];
    size_t size;
    API_OK(clGetPlatformInfo(platform, pinfo[i], sizeof value, value, &size));
    printf("platform info 0x%x: answers, size matches: %s\n", pinfo[i],
           size == strlen(value) + 1 ? "yes" : "no");
  }
  char text[256];
  API_OK(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof text, text, NULL));
  api_expect("platform version starts with 'OpenCL '", !strncmp(text, "OpenCL ", 7));
  api_show("platform info, bad param", clGetPlatformInfo(platform, 0x7777, sizeof text, text, NULL));
  api_show("platform info, value too small", clGetPlatformInfo(platform, CL_PLATFORM_VERSION, 2, text, NULL));

  cl_uint num_devices = 0;
  API_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &num_devices));
  api_expect("at least one device", num_devices >= 1);
  api_show("clGetDeviceIDs(num_entries 0, devices given)",
           clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, (cl_device_id *)text, NULL));
  api_show("clGetDeviceIDs(CUSTOM: none)", clGetDeviceIDs(platform, CL_DEVICE_TYPE_CUSTOM, 0, NULL, &num_devices));
  cl_device_id d;
  API_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  cl_device_id dflt;
  api_show("clGetDeviceIDs(DEFAULT)", clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &dflt, NULL));

  string_query(d, CL_DEVICE_NAME, "CL_DEVICE_NAME", NULL);
  /* Apps read the name into small fixed buffers; whatever the members, it fits one. */
  char short_name[64];
  api_expect("CL_DEVICE_NAME fits 64 bytes",
             clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof short_name, short_name, NULL) == CL_SUCCESS);
  string_query(d, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", NULL);
  string_query(d, CL_DEVICE_VERSION, "CL_DEVICE_VERSION", "OpenCL ");
  string_query(d, CL_DRIVER_VERSION, "CL_DRIVER_VERSION", NULL);
  string_query(d, CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION", "OpenCL C ");
  string_query(d, CL_DEVICE_PROFILE, "CL_DEVICE_PROFILE", "FULL_PROFILE");
  string_query(d, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", NULL);

  cl_platform_id dp;
  API_OK(clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof dp, &dp, NULL));
  api_expect("CL_DEVICE_PLATFORM is the platform", dp == platform);
  cl_device_type type;
  API_OK(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL));
  api_expect("CL_DEVICE_TYPE is one known type", type == CL_DEVICE_TYPE_CPU ||
             type == CL_DEVICE_TYPE_GPU || type == CL_DEVICE_TYPE_ACCELERATOR);
  cl_uint dims, units, align;
  size_t wg, items[3] = {0, 0, 0};
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL));
  api_expect("3 or more work-item dimensions", dims >= 3);
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  api_expect("max work-group size >= 1", wg >= 1);
  api_expect("max work-item size[0] <= max work-group size", items[0] >= 1 && items[0] <= wg);
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
  api_expect("compute units >= 1", units >= 1);
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL));
  api_expect("base address alignment >= 1024 bits", align >= 1024);
  cl_ulong alloc, global, local;
  API_OK(clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL));
  API_OK(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
  API_OK(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL));
  api_expect("max alloc >= max(global/4, 128 MiB) and <= global",
             alloc <= global && (alloc >= global / 4 || alloc >= (128u << 20)));
  api_expect("local memory >= 16 KiB", local >= 16u << 10);
  cl_bool yes;
  API_OK(clGetDeviceInfo(d, CL_DEVICE_AVAILABLE, sizeof yes, &yes, NULL));
  api_expect("device available", yes == CL_TRUE);
  API_OK(clGetDeviceInfo(d, CL_DEVICE_COMPILER_AVAILABLE, sizeof yes, &yes, NULL));
  api_expect("compiler available", yes == CL_TRUE);
  cl_command_queue_properties qp;
  API_OK(clGetDeviceInfo(d, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
  api_expect("queue properties include profiling", (qp & CL_QUEUE_PROFILING_ENABLE) != 0);
  const cl_device_info numeric[] = {
    CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_CLOCK_FREQUENCY, CL_DEVICE_ADDRESS_BITS,
    CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_PARAMETER_SIZE, CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_LOCAL_MEM_TYPE, CL_DEVICE_ERROR_CORRECTION_SUPPORT, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
    CL_DEVICE_ENDIAN_LITTLE, CL_DEVICE_EXECUTION_CAPABILITIES, CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, CL_DEVICE_LINKER_AVAILABLE, CL_DEVICE_PRINTF_BUFFER_SIZE,
    CL_DEVICE_REFERENCE_COUNT, CL_DEVICE_PARENT_DEVICE, CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
  };
  for (size_t i = 0; i < sizeof numeric / sizeof *numeric; i++) {
    unsigned char value[64];
    size_t size = 0;
    cl_int err = clGetDeviceInfo(d, numeric[i], sizeof value, value, &size);
    printf("device info 0x%x: %s size=%zu\n", numeric[i], api_error_name(err), size);
  }
  api_show("device info, bad param", clGetDeviceInfo(d, 0x7777, sizeof text, text, NULL));
  api_show("device info, value too small", clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, 1, text, NULL));
  api_show("device info, NULL device", clGetDeviceInfo(NULL, CL_DEVICE_TYPE, sizeof type, &type, NULL));

  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  API_OK(err);
  cl_uint n;
  API_OK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL));
  cl_device_id cd;
  API_OK(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof cd, &cd, NULL));
  api_expect("context has the one device", n == 1 && cd == d);
  API_OK(clRetainContext(c));
  API_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL));
  api_expect("context reference count after retain is 2", n == 2);
  API_OK(clReleaseContext(c));
  API_OK(clReleaseContext(c));
  cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
  c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL, &err);
  api_show("clCreateContextFromType(ALL)", err);
  if (c) API_OK(clReleaseContext(c));
  cl_context_properties bad[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)text, 0 };
  c = clCreateContext(bad, 1, &d, NULL, NULL, &err);
  api_show("clCreateContext(bad platform property)", err);
  c = clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
  api_show("clCreateContext(no devices)", err);
  return api_finish();
}
