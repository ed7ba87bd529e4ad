/* transform/frontend.h: OpenCL C source or LLVM IR in, a module out. */
#ifndef SKMD_TRANSFORM_FRONTEND_H
#define SKMD_TRANSFORM_FRONTEND_H

#include <stddef.h>
#include <llvm-c/Core.h>

#define SKMD_TRIPLE_SPIR64 "spir64-unknown-unknown"
#define SKMD_TRIPLE_NVPTX64 "nvptx64-nvidia-nvcl"

/* Compiles the OpenCL C file at path with clang (a child process; its diagnostics go to our
 * stderr) for the given triple, with the app's build options (those clang does not take are
 * dropped). NULL on failure, with the reason in err. */
LLVMModuleRef skmd_frontend_cl(LLVMContextRef c, const char *path, const char *options,
                               const char *clang, const char *triple, int verbose,
                               char *err, size_t err_size);

/* Reads textual (.ll) or binary (.bc) LLVM IR. NULL on failure, with the reason in err. */
LLVMModuleRef skmd_frontend_read_ir(LLVMContextRef c, const char *path, char *err,
                                    size_t err_size);

/* Splits a build-options string into the clang arguments it maps to: a NULL-terminated
 * malloc'd array of malloc'd strings (free with skmd_frontend_free_args). Sets *has_std
 * when the options name a -cl-std. NULL on malformed options (unterminated quote, -D or -I
 * without a value) with the reason in err. */
char **skmd_frontend_clang_args(const char *options, int *has_std, int verbose, char *err,
                                size_t err_size);
void skmd_frontend_free_args(char **args);

#endif
