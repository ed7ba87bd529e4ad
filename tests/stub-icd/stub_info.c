/* Writing a query's answer the way every clGet*Info does: size first, value if it fits. */
#include "stub.h"

#include <string.h>

cl_int stub_info(size_t value_size, void *value, size_t *size_ret, const void *src, size_t n)
{
  if (value && value_size < n) return CL_INVALID_VALUE;
  if (value && n) memcpy(value, src, n);
  if (size_ret) *size_ret = n;
  return CL_SUCCESS;
}

cl_int stub_info_string(size_t value_size, void *value, size_t *size_ret, const char *s)
{
  return stub_info(value_size, value, size_ret, s, strlen(s) + 1);
}
