/* transform/inline_cleanup.c: the standard clean-up after the front end, through the new
 * pass manager (LLVMRunPasses). */
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "passes.h"

int skmd_run_pipeline(LLVMModuleRef m, const char *pipeline,
                      const struct skmd_pass_opts *opts)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, pipeline, NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e)
        return 0;
    char *msg = LLVMGetErrorMessage(e); /* consumes e */
    skmd_pass_fail(opts, "pass pipeline \"%s\": %s", pipeline, msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
}

/* SSA values instead of allocas, folded constants, merged blocks: the form the analysis
 * reads. No loop transformations: loops stay as written, so the analysis sees their
 * induction variables. */
int skmd_pass_cleanup(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    return skmd_run_pipeline(m, "function(sroa,early-cse,instcombine,simplifycfg,dce)", opts);
}
