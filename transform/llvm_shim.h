/* transform/llvm_shim.h: the few things LLVM-C lacks, wrapped in C (llvm_shim.cpp). */
#ifndef SKMD_TRANSFORM_LLVM_SHIM_H
#define SKMD_TRANSFORM_LLVM_SHIM_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies the body of `from` into the empty function `to` (same module), whose first
 * LLVMCountParams(from) parameters stand for from's; to may have more. Uses of
 * old_globals[i] (also inside constant expressions) become uses of new_globals[i].
 * Returns 0, or -1 when the signatures do not fit. */
int skmd_shim_clone_body(LLVMValueRef from, LLVMValueRef to, const LLVMValueRef *old_globals,
                         const LLVMValueRef *new_globals, unsigned nglobals);

#ifdef __cplusplus
}
#endif

#endif
