/* transform/inline.c: inlines every helper function into the kernels, so that the work-item
 * builtins all sit in kernel bodies where partition_ready can rewrite them. */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "passes.h"

static unsigned attr_kind(const char *name)
{
    return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

/* Depth-first search for a call cycle through defined functions. state: 0 unseen,
 * 1 on the current path, 2 done. Functions are numbered by their position in the module. */
static LLVMValueRef find_cycle(LLVMValueRef f, LLVMValueRef *fns, unsigned char *state,
                               size_t n)
{
    size_t self = 0;
    while (self < n && fns[self] != f)
        self++;
    if (self == n || state[self] == 2)
        return NULL;
    if (state[self] == 1)
        return f;
    state[self] = 1;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(i);
            if (!LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                continue;
            LLVMValueRef c = find_cycle(callee, fns, state, n);
            if (c)
                return c;
        }
    state[self] = 2;
    return NULL;
}

int skmd_pass_inline(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    unsigned k_always = attr_kind("alwaysinline"), k_never = attr_kind("noinline"),
             k_optnone = attr_kind("optnone");
    LLVMAttributeRef always = LLVMCreateEnumAttribute(ctx.llvm, k_always, 0);

    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n++;
    LLVMValueRef *fns = calloc(n ? n : 1, sizeof *fns);
    unsigned char *state = calloc(n ? n : 1, 1);
    if (!fns || !state) {
        free(fns);
        free(state);
        return skmd_pass_fail(opts, "out of memory");
    }
    n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        fns[n++] = f;
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef c = find_cycle(fns[i], fns, state, n);
        if (c) {
            size_t len = 0;
            const char *name = LLVMGetValueName2(c, &len);
            free(fns);
            free(state);
            return skmd_pass_fail(opts, "recursive call through %.*s (not legal OpenCL C)",
                                  (int)len, name);
        }
    }
    free(state);

    for (size_t i = 0; i < n; i++) {
        LLVMValueRef f = fns[i];
        if (LLVMIsDeclaration(f))
            continue;
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k_never);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k_optnone);
        if (skmd_ctx_is_kernel(&ctx, f)) {
            /* A kernel called by another kernel: inline that call only; the callee stays a
             * kernel of its own. */
            for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef call = LLVMGetUser(u);
                if (LLVMIsACallInst(call) && LLVMGetCalledValue(call) == f)
                    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, always);
            }
            continue;
        }
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, always);
        /* Internal: the always-inliner then deletes it once every call is inlined. */
        LLVMSetLinkage(f, LLVMInternalLinkage);
        LLVMSetVisibility(f, LLVMDefaultVisibility);
    }
    free(fns);

    if (skmd_run_pipeline(m, "always-inline", opts))
        return -1;

    /* A call to a function the program declares but never defines: no driver can link
     * it (the app's own build would have failed the same way, unless its driver resolved
     * the name from another program). The driver's builtins are overloadable, hence
     * mangled (_Z...); the few that are not (printf, clang's __translate_sampler_
     * initializer) are the implementation's. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) || !LLVMGetFirstUse(f) || LLVMGetIntrinsicID(f) ||
            !strncmp(name, "_Z", 2) || !strncmp(name, "__", 2) || !strcmp(name, "printf"))
            continue;
        return skmd_pass_fail(opts, "%.*s is called but never defined in the program",
                              (int)len, name);
    }

    /* Whatever call to a defined function is left could not be inlined. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || !skmd_ctx_is_kernel(&ctx, f))
            continue;
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
                 i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee)) {
                    size_t len = 0;
                    const char *name = LLVMGetValueName2(callee, &len);
                    return skmd_pass_fail(opts, "call to %.*s could not be inlined",
                                          (int)len, name);
                }
            }
    }
    return 0;
}
