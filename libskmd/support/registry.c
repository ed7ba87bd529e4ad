/* libskmd/support/registry.c: the set of live cl_mem and cl_sampler handles.
 *
 * clSetKernelArg gets its argument as bytes; only membership in this set tells a
 * memory object or sampler (to be swapped for the real one) from plain data of the same
 * size, without dereferencing a value that may not be a pointer at all. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "support/registry.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const void **slots;   /* open addressing; NULL free, TOMB deleted */
static size_t capacity, used;
static const char tomb_mark;
#define TOMB ((const void *)&tomb_mark)

static size_t hash(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 7);
}

static void grow(void)
{
    size_t old_cap = capacity;
    const void **old = slots;
    capacity = capacity ? capacity * 2 : 256;
    slots = calloc(capacity, sizeof *slots);
    used = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i] && old[i] != TOMB) {
            size_t j = hash(old[i]) & (capacity - 1);
            while (slots[j])
                j = (j + 1) & (capacity - 1);
            slots[j] = old[i];
            used++;
        }
    }
    free(old);
}

void skmd_registry_add(const void *handle)
{
    pthread_mutex_lock(&lock);
    if ((used + 1) * 2 > capacity)
        grow();
    if (slots) {
        size_t j = hash(handle) & (capacity - 1);
        while (slots[j] && slots[j] != TOMB)
            j = (j + 1) & (capacity - 1);
        slots[j] = handle;
        used++;
    }
    pthread_mutex_unlock(&lock);
}

static size_t find(const void *handle)
{
    if (!slots)
        return SIZE_MAX;
    for (size_t j = hash(handle) & (capacity - 1), n = 0; slots[j] && n < capacity;
         j = (j + 1) & (capacity - 1), n++)
        if (slots[j] == handle)
            return j;
    return SIZE_MAX;
}

void skmd_registry_remove(const void *handle)
{
    pthread_mutex_lock(&lock);
    size_t j = find(handle);
    if (j != SIZE_MAX)
        slots[j] = TOMB; /* stays counted in `used` until the next grow */
    pthread_mutex_unlock(&lock);
}

int skmd_registry_has(const void *handle)
{
    pthread_mutex_lock(&lock);
    int found = find(handle) != SIZE_MAX;
    pthread_mutex_unlock(&lock);
    return found;
}

__attribute__((destructor)) static void registry_free(void)
{
    free(slots);
    slots = NULL;
}
