/* fuzz_transform: libFuzzer harness for the transform pipeline on LLVM IR input: the
 * passes skmd-opt runs for the runtime (inline, cleanup, analyze, partition-ready, merge,
 * lower=pocl), in its order, through the transform library.
 *
 * Input: LLVM IR text. Bitcode is skipped: LLVM 15's bitcode reader is not hardened
 * against corrupt files and crashes inside LLVM (tests/fuzz/crashers/, docs/fuzzing.md),
 * which would hide the passes' own bugs. Inputs that do not parse, or that the LLVM
 * verifier rejects, are skipped too: the passes' contract starts at a valid module (see
 * docs/fuzzing.md for why skmd-opt itself should verify its input). A pass
 * may refuse a module (non-zero, with a reason); it must never crash, and a module a pass
 * accepted must still verify afterwards. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "../../transform/passes.h"
#include "../../transform/record.h"

static int verbose;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    verbose = getenv("SKMD_FUZZ_VERBOSE") != NULL;
    return 0;
}

/* Aborts (a finding) when a pass that succeeded left an invalid module. */
static void check_valid(LLVMModuleRef m, const char *after)
{
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "fuzz_transform: invalid module after %s: %s\n", after,
                msg ? msg : "?");
        abort();
    }
    LLVMDisposeMessage(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || (size >= 2 && data[0] == 'B' && data[1] == 'C') ||
        (size >= 4 && data[0] == 0xde && data[1] == 0xc0 && data[2] == 0x17 && data[3] == 0x0b))
        return 0; /* bitcode, or its wrapper */
    LLVMContextRef llvm = LLVMContextCreate();
    /* The buffer must end in a NUL for the text parser; the copy makes it so. */
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, "fuzz");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(llvm, buf, &m, &msg)) { /* takes buf, success or not */
        LLVMDisposeMessage(msg);
        LLVMContextDispose(llvm);
        return 0;
    }
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(m);
        LLVMContextDispose(llvm);
        return 0;
    }
    LLVMDisposeMessage(msg);

    char err[1024] = "";
    struct skmd_program_record rec;
    skmd_record_init(&rec);
    struct skmd_pass_opts opts = {.record = &rec, .err = err, .err_size = sizeof err};
    const char *failed = NULL;
    if (skmd_pass_inline(m, &opts))
        failed = "inline";
    else if (check_valid(m, "inline"), skmd_pass_cleanup(m, &opts))
        failed = "cleanup";
    else if (check_valid(m, "cleanup"), skmd_pass_analyze(m, &opts))
        failed = "analyze";
    else if (skmd_pass_partition_ready(m, &opts))
        failed = "partition-ready";
    else if (check_valid(m, "partition-ready"), skmd_pass_merge(m, &opts))
        failed = "merge";
    else if (check_valid(m, "merge"), skmd_pass_lower_pocl(m, &opts))
        failed = "lower=pocl";
    if (failed && verbose)
        fprintf(stderr, "fuzz_transform: %s refused: %s\n", failed, err);
    if (failed && !err[0]) {
        fprintf(stderr, "fuzz_transform: %s failed without a reason\n", failed);
        abort();
    }
    /* The record the runtime would read back must write out. */
    if (!failed) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (f) {
            skmd_record_write(f, &rec);
            fclose(f);
            free(text);
        }
    }
    skmd_record_free(&rec);
    LLVMDisposeModule(m);
    LLVMContextDispose(llvm);
    return 0;
}
