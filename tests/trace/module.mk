# tests/trace: libskmd/support/trace.c (spans from several threads -> valid Chrome trace JSON) and
# tools/skmd-trace (SVG timeline, one lane per device; text summary; --balance; --decisions).
MAKE_TRACE := $(O)tests/trace/make-trace
ALL_TARGETS += $(MAKE_TRACE)
CLEAN_FILES += $(MAKE_TRACE) $(O)tests/trace/out

$(O)tests/trace/make-trace.o: CPPFLAGS += -Ilibskmd
$(MAKE_TRACE): $(O)tests/trace/make-trace.o $(O)libskmd/support/trace.o $(O)libskmd/support/json.o \
  $(O)libskmd/support/config.o $(O)libskmd/support/config_warnings.o \
  $(O)libskmd/support/log.o $(O)libskmd/support/log_level.o
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

# skmd-trace --balance: a hand-made trace with known finish times, and gemm's real traces
# under libskmd on two PoCL devices with uneven (10%/90%) and even shares.
TEST_TARGETS += test-trace-balance
.PHONY: test-trace-balance
test-trace-balance: $(O)tools/skmd-trace $(LIBSKMD_SO) $(O)examples/gemm/gemm $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/trace/test-balance.sh $(O)tools/skmd-trace "$(SKMD_PRELOAD)" \
	  $(O)examples/gemm/gemm $(O)tests/trace/out/balance

# skmd-trace --decisions: a hand-written decision log with known figures, and real logs of
# gemm under libskmd on two PoCL devices (forced 50%/50% shares, then the partitioner's).
TEST_TARGETS += test-trace-decisions
.PHONY: test-trace-decisions
test-trace-decisions: $(O)tools/skmd-trace $(LIBSKMD_SO) $(O)examples/gemm/gemm $(SKMD_OPT)
	@env $(SKMD_SAN_ENV) tests/trace/test-decisions.sh $(O)tools/skmd-trace "$(SKMD_PRELOAD)" \
	  $(O)examples/gemm/gemm $(O)tests/trace/out/decisions
