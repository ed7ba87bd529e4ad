/* transform/lower_pocl.c: finishes a module for PoCL, which takes raw LLVM bitcode through
 * clCreateProgramWithBinary (spir64-unknown-unknown, from an LLVM no newer than its own) and
 * optimises and code-generates it itself. */
#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>

#include "context.h"
#include "passes.h"

int skmd_pass_lower_pocl(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    if (ctx.target != SKMD_TARGET_SPIR)
        return skmd_pass_fail(opts, "PoCL lowering needs a spir64 module, not %s",
                              LLVMGetTarget(m));
    /* Line tables served the analysis; the driver does not need them. */
    LLVMStripModuleDebugInfo(m);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        skmd_pass_fail(opts, "invalid module after transformation: %s", msg);
        LLVMDisposeMessage(msg);
        return -1;
    }
    LLVMDisposeMessage(msg);
    return 0;
}
