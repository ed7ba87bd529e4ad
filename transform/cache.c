/* transform/cache.c: skmd-opt's on-disk cache (see cache.h). */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERR(...) (err && err_size ? snprintf(err, err_size, __VA_ARGS__) : 0)

/* Two FNV-1a 64-bit hashes with different seeds: 128 bits, plenty for a local cache. */
struct hash {
    uint64_t a, b;
};

static void hash_bytes(struct hash *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ p[i]) * 0x100000001b3ull;
    }
}

/* Each field ends with its length, so ("ab","c") and ("a","bc") differ. */
static void hash_field(struct hash *h, const void *data, size_t len)
{
    uint64_t n = len;
    hash_bytes(h, data, len);
    hash_bytes(h, &n, sizeof n);
}

int skmd_cache_key(const char *source_path, const char *options, const char *target,
                   const char *tool_identity, char key[SKMD_CACHE_KEY_LEN + 1], char *err,
                   size_t err_size)
{
    struct hash h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    FILE *f = fopen(source_path, "rb");
    if (!f) {
        ERR("cannot read %s: %s", source_path, strerror(errno));
        return -1;
    }
    unsigned char buf[65536];
    size_t n, total = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        hash_bytes(&h, buf, n);
        total += n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        ERR("cannot read %s", source_path);
        return -1;
    }
    hash_field(&h, "", 0);
    hash_bytes(&h, &total, sizeof total);
    const char *fields[] = {options ? options : "", target, tool_identity};
    for (size_t i = 0; i < 3; i++)
        hash_field(&h, fields[i], strlen(fields[i]));
    snprintf(key, SKMD_CACHE_KEY_LEN + 1, "%016llx%016llx", (unsigned long long)h.a,
             (unsigned long long)h.b);
    return 0;
}

int skmd_cache_entry(const char *cache_dir, const char *key, char *dir, size_t dir_size)
{
    snprintf(dir, dir_size, "%s/%s", cache_dir, key);
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

int skmd_cache_begin(const char *cache_dir, const char *key, char *tmp, size_t tmp_size,
                     char *err, size_t err_size)
{
    if (mkdir_p(cache_dir)) {
        ERR("cannot create cache directory %s: %s", cache_dir, strerror(errno));
        return -1;
    }
    snprintf(tmp, tmp_size, "%s/.tmp-%s-XXXXXX", cache_dir, key);
    if (!mkdtemp(tmp)) {
        ERR("cannot create a directory in %s: %s", cache_dir, strerror(errno));
        return -1;
    }
    return 0;
}

void skmd_cache_abandon(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (d) {
        struct dirent *e;
        char path[4352];
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(tmp);
}

int skmd_cache_commit(const char *tmp, const char *dir, char *err, size_t err_size)
{
    if (rename(tmp, dir) == 0)
        return 0;
    if (errno == EEXIST || errno == ENOTEMPTY) {
        /* Another process finished the same entry first. */
        skmd_cache_abandon(tmp);
        return 0;
    }
    ERR("cannot publish cache entry %s: %s", dir, strerror(errno));
    skmd_cache_abandon(tmp);
    return -1;
}
