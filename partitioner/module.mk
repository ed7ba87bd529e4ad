# partitioner/: plain C, no OpenCL; performance tables + link model -> work-group ranges.
PARTITIONER_SRCS := $(wildcard partitioner/*.c)
PARTITIONER_LIB := $(O)partitioner/libskmdpart.a
ALL_TARGETS += $(PARTITIONER_LIB)
CLEAN_FILES += $(PARTITIONER_LIB)

$(PARTITIONER_LIB): $(PARTITIONER_SRCS:%.c=$(O)%.o)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
