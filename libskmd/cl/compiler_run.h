/* libskmd/cl/compiler_run.h: the kernel compiler helper (tools/skmd-opt) run on a
 * program's source for one target, its output a directory of its on-disk cache
 * (record.txt, kernels.bc or kernels.ptx).
 *
 * A process that finds the answer in its memo does not start the helper: the memo
 * (`$SKMD_CACHE_DIR/kernels/memo/KEY`, one line, the entry's directory) is keyed by
 * everything the helper is given (source, options, target, language version, extensions,
 * features) and by the helper's own file (path, inode, size, modification time), so a
 * rebuilt helper is run again. A memo whose entry is gone is ignored. */
#ifndef SKMD_COMPILER_RUN_H
#define SKMD_COMPILER_RUN_H

#include <stddef.h>

struct skmd_compile_request {
    const char *source, *options;
    const char *target; /* "pocl" or "nvptx" */
    const char *std, *extensions, *features;
};

/* Fills `dir` with the cache entry of the request. Returns 0, or -1 with the reason in
 * `why`. *ran says whether the helper was started (0: the memo answered). */
int skmd_compiler_run(const struct skmd_compile_request *req, char *dir, size_t dir_size,
                      int *ran, char *why, size_t why_size);

#endif
