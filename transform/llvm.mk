# transform/llvm.mk: the variables of the transform/ build, shared by transform/module.mk and
# tools/skmd-opt.mk (which make reads first), so included by both; read once.
ifndef TRANSFORM_LIB
TRANSFORM_C_SRCS := $(sort $(wildcard transform/*.c))
TRANSFORM_CXX_SRCS := $(sort $(wildcard transform/*.cpp))
TRANSFORM_OBJS := $(TRANSFORM_C_SRCS:%.c=$(O)%.o) $(TRANSFORM_CXX_SRCS:%.cpp=$(O)%.o)
TRANSFORM_LIB := $(O)transform/libskmdtransform.a
TRANSFORM_RECORD_LIB := $(O)transform/libskmdrecord.a
TRANSFORM_LLVM_INC := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
TRANSFORM_LLVM_MAJOR := $(firstword $(subst ., ,$(shell $(LLVM_CONFIG) --version 2>/dev/null)))
# What a program linking libskmdtransform.a adds to its link line.
TRANSFORM_LDLIBS := $(shell $(LLVM_CONFIG) --ldflags 2>/dev/null) \
  -Wl,-rpath,$(shell $(LLVM_CONFIG) --libdir 2>/dev/null) \
  $(shell $(LLVM_CONFIG) --link-shared --libs 2>/dev/null) $(if $(TRANSFORM_CXX_SRCS),-lstdc++)
TRANSFORM_CPPFLAGS := -isystem $(TRANSFORM_LLVM_INC) -DSKMD_LLVM_MAJOR=$(TRANSFORM_LLVM_MAJOR)

# The analysis and merge passes come from their own files; until they define their entry
# points, skmd-opt says so instead of failing to link.
TRANSFORM_HAVE_ANALYSIS := $(if $(shell grep -l '^int skmd_pass_analyze\b' transform/*.c 2>/dev/null),1,0)
TRANSFORM_HAVE_MERGE := $(if $(shell grep -l '^int skmd_pass_merge\b' transform/*.c 2>/dev/null),1,0)
# Objects depend on this stamp, so that a change of LLVM or of these flags rebuilds them.
TRANSFORM_STAMP := $(O)transform/.llvm-$(TRANSFORM_LLVM_MAJOR)-a$(TRANSFORM_HAVE_ANALYSIS)m$(TRANSFORM_HAVE_MERGE)
TRANSFORM_CPPFLAGS += -DSKMD_HAVE_ANALYSIS=$(TRANSFORM_HAVE_ANALYSIS) -DSKMD_HAVE_MERGE=$(TRANSFORM_HAVE_MERGE)
endif
