# tools/skmd-trace: a libskmd trace -> SVG/PNG timeline and a text summary (tools/trace/).
SKMD_TRACE_TOOL := $(O)tools/skmd-trace
SKMD_TRACE_OBJS := $(patsubst %.c,$(O)%.o,$(wildcard tools/trace/*.c))
ALL_TARGETS += $(SKMD_TRACE_TOOL)
CLEAN_FILES += $(SKMD_TRACE_TOOL)

# balance.c writes JSON strings with libskmd's one escaper (support/json.c).
$(O)tools/trace/balance.o: CPPFLAGS += -Ilibskmd
$(SKMD_TRACE_TOOL): $(SKMD_TRACE_OBJS) $(O)libskmd/support/json.o
	$(CC) $(LDFLAGS) -o $@ $^ -lm
