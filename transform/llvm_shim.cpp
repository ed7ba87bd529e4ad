// transform/llvm_shim.cpp: the one C++ file of transform/: what LLVM-C lacks, taking and
// returning LLVM*Ref. Today: cloning a function body into a function with more parameters
// (the merge kernel is the partition-ready kernel plus source pointers).
#include "llvm_shim.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

extern "C" int skmd_shim_clone_body(LLVMValueRef from_ref, LLVMValueRef to_ref,
                                    const LLVMValueRef *old_globals,
                                    const LLVMValueRef *new_globals, unsigned nglobals)
{
    auto *from = llvm::dyn_cast_or_null<llvm::Function>(llvm::unwrap(from_ref));
    auto *to = llvm::dyn_cast_or_null<llvm::Function>(llvm::unwrap(to_ref));
    if (!from || !to || from->isDeclaration() || !to->isDeclaration() ||
        to->arg_size() < from->arg_size() || from->getParent() != to->getParent())
        return -1;
    llvm::ValueToValueMapTy map;
    auto to_arg = to->arg_begin();
    for (llvm::Argument &a : from->args()) {
        if (a.getType() != to_arg->getType())
            return -1;
        to_arg->setName(a.getName());
        map[&a] = &*to_arg++;
    }
    for (unsigned g = 0; g < nglobals; g++)
        map[llvm::unwrap(old_globals[g])] = llvm::unwrap(new_globals[g]);
    llvm::SmallVector<llvm::ReturnInst *, 4> returns;
    llvm::CloneFunctionInto(to, from, map, llvm::CloneFunctionChangeType::LocalChangesOnly,
                            returns);
    return 0;
}
