/* Keys of the profile database: kernel identity hash, launch shape class, device lists. */
#include "pdb_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= FNV_PRIME;
    }
    return h;
}

uint64_t skmd_pdb_kernel_hash(const char *source, size_t source_len, const char *options,
                              const char *kernel_name)
{
    /* A separator that cannot occur in OpenCL C text keeps the three fields apart. */
    const unsigned char sep = 0xff;
    uint64_t h = FNV_OFFSET;
    h = fnv1a(h, source ? source : "", source ? source_len : 0);
    h = fnv1a(h, &sep, 1);
    h = fnv1a(h, options ? options : "", options ? strlen(options) : 0);
    h = fnv1a(h, &sep, 1);
    h = fnv1a(h, kernel_name ? kernel_name : "", kernel_name ? strlen(kernel_name) : 0);
    return fnv1a(h, &sep, 1);
}

uint32_t skmd_pdb_shape_class(unsigned work_dim, const size_t *global, const size_t *local)
{
    uint64_t h = FNV_OFFSET;
    uint64_t groups = 1;
    unsigned dims = work_dim > 3 ? 3 : work_dim;
    h = fnv1a(h, &dims, sizeof(dims));
    for (unsigned d = 0; d < dims; d++) {
        uint64_t l = local && local[d] ? local[d] : 0; /* 0: the driver chooses */
        uint64_t g = global ? global[d] : 0;
        h = fnv1a(h, &l, sizeof(l));
        uint64_t n = l ? (g + l - 1) / l : g;
        groups = n && groups > UINT64_MAX / n ? UINT64_MAX : groups * n;
    }
    unsigned log2_groups = groups ? 63u - (unsigned)__builtin_clzll(groups) : 0;
    h = fnv1a(h, &log2_groups, sizeof(log2_groups));
    return (uint32_t)(h ^ (h >> 32));
}

int pdb_good_devices(const int64_t *device, int ndev)
{
    if (!device || ndev < 1 || ndev > SKMD_PDB_GUARD_DEVICES)
        return 0;
    for (int i = 0; i < ndev; i++)
        if (device[i] < 0)
            return 0;
    return 1;
}

int pdb_device_list(const int64_t *device, int ndev, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ndev; i++) {
        int n = snprintf(buf + used, size - used, "%s%" PRId64, i ? "," : "", device[i]);
        if (n < 0 || (size_t)n >= size - used)
            return -1;
        used += (size_t)n;
    }
    return 0;
}
