/* transform/cfg_search.c: which blocks of a kernel's control-flow graph reach which, for
 * the loop recognition (affine.c) and the guards of accesses (analysis_guard.c). */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

int an_block_index(const struct analysis *a, LLVMBasicBlockRef bb)
{
    for (unsigned i = 0; i < a->nblocks; i++)
        if (a->blocks[i] == bb)
            return (int)i;
    return -1;
}

int an_cfg_search(struct analysis *a, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                  LLVMBasicBlockRef avoid, const struct an_cut *cuts, unsigned ncuts,
                  LLVMBasicBlockRef cut_edge_from, LLVMBasicBlockRef cut_edge_to)
{
    unsigned n = a->nblocks;
    int *stack = malloc((n + 1) * sizeof *stack);
    int start = an_block_index(a, from), found = 0, sp = 0;
    if (!stack || start < 0) {
        free(stack);
        a->oom |= !stack;
        return 0;
    }
    memset(a->mark, 0, n);
    a->mark[start] = 1;
    stack[sp++] = start;
    while (sp && !found) {
        LLVMBasicBlockRef bb = a->blocks[stack[--sp]];
        if (bb == to) {
            found = 1;
            break;
        }
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        int keep = -1;
        for (unsigned c = 0; c < ncuts; c++)
            if (cuts[c].from == bb)
                keep = (int)cuts[c].keep_only;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef succ = LLVMGetSuccessor(term, s);
            if ((keep >= 0 && (int)s != keep) || succ == avoid ||
                (bb == cut_edge_from && succ == cut_edge_to))
                continue;
            int i = an_block_index(a, succ);
            if (i >= 0 && !a->mark[i]) {
                a->mark[i] = 1;
                stack[sp++] = i;
            }
        }
    }
    free(stack);
    return found;
}

int an_reachable(struct analysis *a, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                 LLVMBasicBlockRef avoid)
{
    return an_cfg_search(a, from, to, avoid, NULL, 0, NULL, NULL);
}
