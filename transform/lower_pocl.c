/* transform/lower_pocl.c: finishes a module for PoCL, which takes raw LLVM bitcode through
 * clCreateProgramWithBinary (spir64-unknown-unknown, from an LLVM no newer than its own) and
 * optimises and code-generates it itself. */
#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "passes.h"

/* Builtins that clang's header declares but PoCL's kernel library defines under another
 * name only: PoCL's own front end renames them with macros (_builtin_renames.h), so a
 * program from source links, while the same call in SPIR bitcode is an undefined symbol
 * and the whole split program fails to build (CL_BUILD_PROGRAM_FAILURE). */
static const struct {
    const char *from, *to;
} fixed_renames[] = {
    {"_Z9mem_fencej", "_Z13_cl_mem_fencej"},
    {"_Z14read_mem_fencej", "_Z18_cl_read_mem_fencej"},
    {"_Z15write_mem_fencej", "_Z19_cl_write_mem_fencej"},
};

/* The 32-bit atom_* of cl_khr_{global,local}_int32_{base,extended}_atomics on a global or
 * local int/uint: the same operation as OpenCL 1.1's atomic_*, which the library has under
 * SPIR names (its 64-bit atom_* it has as they are). Writes the new name to `out`. */
static int legacy_atom_name(const char *name, char *out, size_t size)
{
    char *end;
    if (strncmp(name, "_Z", 2) != 0)
        return 0;
    unsigned long n = strtoul(name + 2, &end, 10);
    if (end == name + 2 || strncmp(end, "atom_", 5) != 0 || n < 6 || strlen(end) < n)
        return 0;
    const char *rest = end + n;
    if ((strncmp(rest, "PU3AS1V", 7) != 0 && strncmp(rest, "PU3AS3V", 7) != 0) ||
        (rest[7] != 'i' && rest[7] != 'j'))
        return 0;
    int w = snprintf(out, size, "_Z%luatomic_%.*s%s", n + 2, (int)(n - 5), end + 5, rest);
    return w > 0 && (size_t)w < size;
}

/* Points the calls of declaration `f` at `to` (a declaration of the same type, made when
 * the module has none). */
static void rename_builtin(LLVMModuleRef m, LLVMValueRef f, const char *to)
{
    LLVMValueRef g = LLVMGetNamedFunction(m, to);
    if (!g) {
        LLVMSetValueName2(f, to, strlen(to));
        return;
    }
    LLVMReplaceAllUsesWith(f, g);
    LLVMDeleteFunction(f);
}

static void rename_builtins(LLVMModuleRef m)
{
    LLVMValueRef next;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
        next = LLVMGetNextFunction(f);
        if (!LLVMIsDeclaration(f))
            continue;
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        char to[256];
        const char *target = NULL;
        for (size_t i = 0; i < sizeof fixed_renames / sizeof *fixed_renames; i++)
            if (!strcmp(name, fixed_renames[i].from))
                target = fixed_renames[i].to;
        if (!target && legacy_atom_name(name, to, sizeof to))
            target = to;
        if (target)
            rename_builtin(m, f, target);
    }
}

/* An uninitialised variable that a loop sets before every use reaches the IR as a phi with
 * an undef (or poison) value on the edge that never runs. PoCL's work-group loops, which
 * carry values across barriers, can turn that into lost stores (a flag declared without a
 * value and set in a loop with barriers guarded the kernel's only global store, and no
 * store came out). Any value is a legal choice for undef, so zero is used. */
static void define_undef_phis(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && LLVMIsAPHINode(i);
                 i = LLVMGetNextInstruction(i))
                for (unsigned k = 0; k < LLVMCountIncoming(i); k++) {
                    LLVMValueRef v = LLVMGetIncomingValue(i, k);
                    if (LLVMIsUndef(v) || LLVMIsPoison(v))
                        LLVMSetOperand(i, k, LLVMConstNull(LLVMTypeOf(v)));
                }
}

int skmd_pass_lower_pocl(LLVMModuleRef m, const struct skmd_pass_opts *opts)
{
    struct skmd_ctx ctx;
    skmd_ctx_init(&ctx, m);
    if (ctx.target != SKMD_TARGET_SPIR)
        return skmd_pass_fail(opts, "PoCL lowering needs a spir64 module, not %s",
                              LLVMGetTarget(m));
    rename_builtins(m);
    define_undef_phis(m);
    if (skmd_pocl_cut_wide_calls(m, opts))
        return -1;
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
