# tools/skmd-opt: the out-of-process kernel compiler (transform/ + LLVM). The clang it runs
# and the libclc it links default to what this build found; --clang/--libclc override them.
include transform/llvm.mk
# (Its path, SKMD_OPT, is set in the top Makefile: the tests name it before this is read.)

SKMD_OPT_CLANG := $(shell command -v $(CLANG) 2>/dev/null || echo $(CLANG))
SKMD_OPT_LIBCLC := $(firstword $(wildcard /usr/lib/clc/nvptx64--nvidiacl.bc \
  /usr/lib/llvm-$(LLVM_VERSION)/lib/clc/nvptx64--nvidiacl.bc) /usr/lib/clc/nvptx64--nvidiacl.bc)

# Every cache key holds a digest of the compiler's own sources: a libskmd whose analysis or
# passes changed never reads an entry an older one wrote (a stale record means wrong splits).
SKMD_OPT_SOURCES := $(sort $(wildcard transform/*.c transform/*.cpp transform/*.h) tools/skmd-opt.c)
SKMD_OPT_DIGEST := $(shell cat $(SKMD_OPT_SOURCES) | sha1sum | cut -c1-16)

$(O)tools/skmd-opt.o: CPPFLAGS += $(TRANSFORM_CPPFLAGS) \
  -DSKMD_DEFAULT_CLANG='"$(SKMD_OPT_CLANG)"' -DSKMD_DEFAULT_LIBCLC='"$(SKMD_OPT_LIBCLC)"' \
  -DSKMD_OPT_DIGEST='"$(SKMD_OPT_DIGEST)"'
$(O)tools/skmd-opt.o: $(TRANSFORM_STAMP) $(SKMD_OPT_SOURCES)

$(SKMD_OPT): $(O)tools/skmd-opt.o $(TRANSFORM_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(TRANSFORM_LIB) $(TRANSFORM_LDLIBS)

ALL_TARGETS += $(SKMD_OPT)
CLEAN_FILES += $(SKMD_OPT)
