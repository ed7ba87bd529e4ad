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

# record.c writes the record's JSON with libskmd's one string escaper (support/json.c, a
# leaf: stdio alone), carried in both libraries so that every program linking one has it.
$(O)transform/record.o: CPPFLAGS += -Ilibskmd
$(TRANSFORM_LIB): $(O)libskmd/support/json.o

ifneq ($(wildcard transform/record.c),)
$(TRANSFORM_RECORD_LIB): $(patsubst %.c,$(O)%.o,$(wildcard transform/record*.c)) \
  $(O)libskmd/support/json.o
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
ALL_TARGETS += $(TRANSFORM_RECORD_LIB)
endif
