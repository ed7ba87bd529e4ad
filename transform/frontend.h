/* transform/frontend.h: OpenCL C source or LLVM IR in, a module out. */
#ifndef SKMD_TRANSFORM_FRONTEND_H
#define SKMD_TRANSFORM_FRONTEND_H

#include <stddef.h>
#include <llvm-c/Core.h>

#define SKMD_TRIPLE_SPIR64 "spir64-unknown-unknown"
#define SKMD_TRIPLE_NVPTX64 "nvptx64-nvidia-nvcl"

/* Compiles the OpenCL C file at path with clang (a child process; its diagnostics go to our
 * stderr) for the given triple, with the app's build options (those clang does not take are
 * dropped). `extra` (NULL-terminated, may be NULL) comes before the app's options: the
 * target member's extensions (skmd_frontend_extension_args). NULL on failure, with the
 * reason in err. */
LLVMModuleRef skmd_frontend_cl(LLVMContextRef c, const char *path, const char *options,
                               const char *clang, const char *triple,
                               char *const *extra, int verbose, char *err, size_t err_size);

/* The clang arguments that make the front end see exactly the extensions a device reports
 * (CL_DEVICE_EXTENSIONS, space-separated) and, under OpenCL C 3.0, its optional features
 * (CL_DEVICE_OPENCL_C_FEATURES names): `-Xclang -cl-ext=-all,+each,...` (clang's spir64
 * default enables every extension it knows; clang 15's driver does not pass -cl-ext on)
 * and `-Deach=1` (a macro for each, as drivers define them, also for names clang does not
 * know). `options` (the app's) tells whether -cl-std=CL3.0 is asked for; when they name no
 * -cl-std, `-cl-std=default_std` (if not NULL) is added: what the driver itself would use.
 * NULL-terminated array, free with skmd_frontend_free_args; NULL when out of memory. */
char **skmd_frontend_extension_args(const char *extensions, const char *features,
                                    const char *options, const char *default_std);

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
