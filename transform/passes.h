/* transform/passes.h: every pass over a kernel module, one per file.
 *
 * A pass is `int skmd_pass_NAME(LLVMModuleRef, const struct skmd_pass_opts *)`: it returns 0
 * on success; on failure it returns non-zero and writes a one-line reason into opts->err
 * (skmd_pass_fail does both). A failure anywhere means "this program is not splittable",
 * never a crash.
 *
 * The order skmd-opt runs them in (tools/skmd-opt.c):
 *   front end (frontend.c: OpenCL C -> module, or .ll/.bc read)
 *   inline      every non-kernel function inlined into the kernels that call it
 *   cleanup     mem2reg/instcombine/simplifycfg through LLVMRunPasses
 *   analyze     fills opts->record (the analysis record, record.h)
 *   partition_ready   each kernel gets the 8 hidden ulong parameters (docs/transform.md)
 *   merge       adds NAME__skmd_merge for the kernels that need one
 *   lower_pocl / lower_nvptx   target-specific finishing
 */
#ifndef SKMD_TRANSFORM_PASSES_H
#define SKMD_TRANSFORM_PASSES_H

#include <stddef.h>
#include <llvm-c/Core.h>

struct skmd_program_record; /* transform/record.h */

struct skmd_pass_opts {
    const char *kernel_name;    /* only this kernel; NULL: every kernel */
    const char *build_options;  /* the app's build options, as given to clBuildProgram */
    const char *libclc_path;    /* lower_nvptx: libclc's nvptx64--nvidiacl.bc */
    /* lower_nvptx: NULL or "nvidia": floating point as NVIDIA's OpenCL compiler does it
     * (contraction across statements, div.full/sqrt.approx for float unless the options
     * ask for correct rounding); "strict": LLVM's defaults (div.rn, sqrt.rn, contraction
     * within an expression only). */
    const char *nvptx_fp;
    /* lower_nvptx: NULL, or NVIDIA's libdevice.10.bc, whose math (__nv_expf...) then
     * replaces libclc's for the functions nvptx_math.c lists. */
    const char *libdevice_path;
    int verbose;                /* explain decisions on stderr */
    /* analyze writes here; merge reads it (which kernels need a merge kernel). May be NULL
     * for merge: then every splittable-looking kernel gets one. */
    struct skmd_program_record *record;
    char *err;                  /* where a failing pass writes why; err_size bytes */
    size_t err_size;
};

/* Writes "reason" into opts->err (printf-style) and returns -1. */
int skmd_pass_fail(const struct skmd_pass_opts *opts, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Runs a new-pass-manager pipeline (LLVMRunPasses syntax, e.g. "function(sroa)") over m;
 * -1 with the reason in opts->err on failure. (inline_cleanup.c) */
int skmd_run_pipeline(LLVMModuleRef m, const char *pipeline,
                      const struct skmd_pass_opts *opts);

/* Marks every defined non-kernel function alwaysinline and inlines it into its callers;
 * kernels called from other kernels are inlined as a copy (the callee stays a kernel).
 * Fails on recursion. (inline.c) */
int skmd_pass_inline(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Standard clean-up (sroa, instcombine, simplifycfg, early-cse) through LLVMRunPasses, so
 * the analysis sees SSA values rather than allocas. (inline_cleanup.c) */
int skmd_pass_cleanup(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Fills *opts->record for every kernel of the module (analysis*.c, record.h). */
int skmd_pass_analyze(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Appends the 8 hidden ulong parameters to every kernel and rewrites the work-item
 * builtins (partition_ready.c; ABI in docs/transform.md). */
int skmd_pass_partition_ready(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* For each partition-ready kernel whose writes need merging: NAME__skmd_merge
 * (merge_kernel.c; ABI in docs/transform.md). Runs after partition_ready. */
int skmd_pass_merge(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* PoCL: spir64 bitcode as clCreateProgramWithBinary takes it (lower_pocl.c). */
int skmd_pass_lower_pocl(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Calls of builtins that take or return vectors wider than 256 bits, which PoCL's SPIR
 * path passes wrongly on x86-64, become calls on 256-bit pieces (shuffles: element by
 * element); -1 with the reason when one cannot be cut.
 * (pocl_wide_calls.c; used by lower_pocl) */
int skmd_pocl_cut_wide_calls(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Calls of OpenCL math builtins become calls of libdevice's __nv_* functions (vectors one
 * element at a time), libdevice linked in (nvptx_math.c; used by lower_nvptx). */
int skmd_nvptx_use_libdevice(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* Replaces each call of a math builtin nvptx_math.c lists (float or double, vectors one
 * element at a time) by calls of PREFIX NAME (double) or PREFIX NAME "f" (float), plus
 * "_ftz" in functions that flush denormals when ftz_names; when lib is given, only where lib
 * defines that function. Returns how many calls. (nvptx_math.c) */
unsigned skmd_nvptx_replace_math(LLVMModuleRef m, const char *prefix, int ftz_names,
                                 LLVMModuleRef lib);

/* Float square roots (llvm.sqrt) become sqrt.approx.f32 (.ftz under
 * -cl-denorms-are-zero), as NVIDIA's OpenCL compiler emits them unless correct rounding is
 * asked for (the NVPTX back end's own option does not reach them). Returns how many.
 * (nvptx_math.c; used by lower_nvptx) */
int skmd_nvptx_approx_sqrt(LLVMModuleRef m);

/* The OpenCL name of a mangled builtin ("exp" from "_Z3expDv4_f") into buf; 0 when fn's
 * name is not mangled or does not fit. (nvptx_math.c) */
int skmd_opencl_builtin_name(LLVMValueRef fn, char *buf, size_t size);

/* The OpenCL builtin that instruction i calls, when i is a call of a declared (not yet
 * linked) mangled function: its name into buf as skmd_opencl_builtin_name; else 0.
 * (nvptx_math.c) */
int skmd_opencl_builtin_call(LLVMValueRef i, char *buf, size_t size);

/* Whether function f flushes float denormals (-cl-denorms-are-zero). (nvptx_math.c) */
int skmd_nvptx_flushes_denormals(LLVMValueRef f);

/* Calls of vload_half/vstore_half and their vector, aligned and rounding-mode variants
 * become inline loads and stores with the hardware's conversions (cvt.f32.f16,
 * cvt.rn/rz/rp/rm.f16.f32), as NVIDIA's OpenCL compiler emits them, instead of libclc's
 * code. Returns how many. (nvptx_half.c; used by lower_nvptx) */
int skmd_nvptx_half_storage(LLVMModuleRef m);

/* Float exp, log and pown as the instructions NVIDIA's OpenCL compiler emits for them (an
 * IR library linked in), and sqrt as llvm.sqrt without libclc's wrapper; before libclc is
 * linked. -1 on failure. (nvptx_nvidia_math.c; used by lower_nvptx) */
int skmd_nvptx_nvidia_math(LLVMModuleRef m, const struct skmd_pass_opts *opts);

/* NVIDIA: links libclc, internalizes all but the kernels, optimizes (lower_nvptx.c).
 * skmd_emit_ptx then makes the PTX text. */
int skmd_pass_lower_nvptx(LLVMModuleRef m, const struct skmd_pass_opts *opts);
int skmd_emit_ptx(LLVMModuleRef m, const struct skmd_pass_opts *opts, char **ptx_out,
                  size_t *len_out);

#endif
