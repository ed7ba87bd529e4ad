# tests/transform/: the analysis record's unit test, and the kernel corpus whose analysis
# (skmd-opt --analyze, summarised) is diffed against hand-checked .expect files.
#   make test-transform-record     the footprint evaluator and record round trip
#   make test-transform-NAME       one corpus kernel (tests/transform/corpus/NAME.cl)
#   make transform-expect          regenerate every .expect (then CHECK the diff by hand)
TEST_RECORD_BIN := $(O)tests/transform/test_record
TRANSFORM_RECORD_SRCS := $(sort $(wildcard transform/record*.c))

$(TEST_RECORD_BIN): tests/transform/test_record.c $(TRANSFORM_RECORD_SRCS) transform/record.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ tests/transform/test_record.c $(TRANSFORM_RECORD_SRCS)

.PHONY: test-transform-record
test-transform-record: $(TEST_RECORD_BIN)
	$(TEST_RECORD_BIN)

ALL_TARGETS += $(TEST_RECORD_BIN)
CLEAN_FILES += $(TEST_RECORD_BIN)
TEST_TARGETS += test-transform-record
