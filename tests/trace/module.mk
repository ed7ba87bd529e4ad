# tests/trace: libskmd/trace.c (spans from several threads -> valid Chrome trace JSON) and
# tools/skmd-trace (SVG timeline, one lane per device; text summary).
MAKE_TRACE := $(O)tests/trace/make-trace
ALL_TARGETS += $(MAKE_TRACE)
CLEAN_FILES += $(MAKE_TRACE) $(O)tests/trace/out

$(O)tests/trace/make-trace.o: CPPFLAGS += -Ilibskmd
$(MAKE_TRACE): $(O)tests/trace/make-trace.o $(O)libskmd/trace.o $(O)libskmd/config.o $(O)libskmd/log.o
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

TEST_TARGETS += test-trace
.PHONY: test-trace
test-trace: $(MAKE_TRACE)
	@mkdir -p $(O)tests/trace/out
	@rm -f $(O)tests/trace/out/threads.json
	@SKMD_TRACE=$(O)tests/trace/out/threads.json $(MAKE_TRACE) 4 50
	@/usr/bin/python3 -m json.tool $(O)tests/trace/out/threads.json > /dev/null
	@/usr/bin/python3 tests/trace/check-trace.py $(O)tests/trace/out/threads.json 4 50
	@echo "PASS test-trace"

TEST_TARGETS += test-skmd-trace
.PHONY: test-skmd-trace
test-skmd-trace: $(O)tools/skmd-trace $(MAKE_TRACE)
	@tests/trace/test-skmd-trace.sh $(O)tools/skmd-trace $(MAKE_TRACE) $(O)tests/trace/out/tool
