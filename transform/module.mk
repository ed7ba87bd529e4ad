# transform/: LLVM passes over kernels. Everything here is built against $(LLVM_CONFIG) (the
# LLVM of the installed PoCL) and linked only into tools/skmd-opt, never into libskmd.so.
# libskmdrecord.a (record.o alone: plain C) is what the runtime links.
include transform/llvm.mk

$(TRANSFORM_OBJS): CPPFLAGS += $(TRANSFORM_CPPFLAGS)
# A different LLVM (or analysis/merge appearing) means different objects.
$(TRANSFORM_OBJS): $(TRANSFORM_STAMP)
$(TRANSFORM_STAMP):
	@mkdir -p $(dir $@)
	@rm -f $(O)transform/.llvm-*
	@touch $@

$(TRANSFORM_LIB): $(TRANSFORM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

ALL_TARGETS += $(TRANSFORM_LIB)
CLEAN_FILES += $(TRANSFORM_LIB) $(TRANSFORM_RECORD_LIB) transform/.llvm-*

ifneq ($(wildcard transform/record.c),)
$(TRANSFORM_RECORD_LIB): $(patsubst %.c,$(O)%.o,$(wildcard transform/record*.c))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
ALL_TARGETS += $(TRANSFORM_RECORD_LIB)
endif
