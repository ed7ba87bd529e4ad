/* transform/cache.h: skmd-opt's on-disk cache of compiled programs. One directory per entry,
 * named by a hash of everything the output depends on; entries appear atomically (built in
 * a temporary directory, then renamed), so concurrent compilers never see half an entry. */
#ifndef SKMD_TRANSFORM_CACHE_H
#define SKMD_TRANSFORM_CACHE_H

#include <stddef.h>

#define SKMD_CACHE_KEY_LEN 32 /* hex digits */

/* The key of (source bytes, build options, target, tool identity) as 32 hex digits + NUL.
 * tool_identity names what else changes the output: the LLVM version, skmd-opt's version,
 * the clang used. Returns 0, or -1 (with err) when the source cannot be read. */
int skmd_cache_key(const char *source_path, const char *options, const char *target,
                   const char *tool_identity, char key[SKMD_CACHE_KEY_LEN + 1], char *err,
                   size_t err_size);

/* The entry's directory for key (written into dir). Returns 1 when it exists (a hit). */
int skmd_cache_entry(const char *cache_dir, const char *key, char *dir, size_t dir_size);

/* Makes cache_dir (and parents) and a fresh temporary directory in it to build an entry in.
 * Returns 0, or -1 with err. */
int skmd_cache_begin(const char *cache_dir, const char *key, char *tmp, size_t tmp_size,
                     char *err, size_t err_size);

/* Publishes tmp as the entry dir. When another process published the same entry first,
 * ours is removed and theirs kept (same inputs, same content). Returns 0, or -1 with err. */
int skmd_cache_commit(const char *tmp, const char *dir, char *err, size_t err_size);

/* Removes a temporary entry (after a failure). */
void skmd_cache_abandon(const char *tmp);

#endif
