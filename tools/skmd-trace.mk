# tools/skmd-trace: a libskmd trace -> SVG/PNG timeline and a text summary; a decision log ->
# the model against the measurements (tools/trace/).
SKMD_TRACE_TOOL := $(O)tools/skmd-trace
SKMD_TRACE_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard tools/trace/*.c))
ALL_TARGETS += $(SKMD_TRACE_TOOL)
CLEAN_FILES += $(SKMD_TRACE_TOOL)

# balance.c and decisions.c write JSON strings with libskmd's one escaper (support/json.c).
$(O)tools/trace/balance.o $(O)tools/trace/decisions.o: CPPFLAGS += -Ilibskmd
$(SKMD_TRACE_TOOL): $(SKMD_TRACE_OBJS) $(O)libskmd/support/json.o
	$(CC) $(LDFLAGS) -o $@ $^ -lm
