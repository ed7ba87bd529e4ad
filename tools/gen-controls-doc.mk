# tools/gen-controls-doc: docs/controls.md from libskmd/support/controls.def.
#   make docs     regenerates docs/controls.md (commit the result)
# test-controls-doc fails when docs/controls.md is not what the generator prints.
SKMD_CONFIG_OBJS := \
  $(O)libskmd/support/config.o $(O)libskmd/support/config_warnings.o \
  $(O)libskmd/support/log.o $(O)libskmd/support/log_level.o
GEN_CONTROLS_DOC := $(O)tools/gen-controls-doc
ALL_TARGETS += $(GEN_CONTROLS_DOC)
CLEAN_FILES += $(GEN_CONTROLS_DOC)

$(GEN_CONTROLS_DOC): $(O)tools/gen-controls-doc.o $(SKMD_CONFIG_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

$(O)tools/gen-controls-doc.o: CPPFLAGS += -Ilibskmd

.PHONY: docs docs-controls test-controls-doc
docs: docs-controls
docs-controls: $(GEN_CONTROLS_DOC)
	$(GEN_CONTROLS_DOC) > docs/controls.md.tmp && mv docs/controls.md.tmp docs/controls.md

TEST_TARGETS += test-controls-doc
test-controls-doc: $(GEN_CONTROLS_DOC)
	@if $(GEN_CONTROLS_DOC) | diff -u docs/controls.md - ; then echo "PASS docs/controls.md is current"; \
	else echo "FAIL docs/controls.md is stale: run 'make docs' and commit it"; exit 1; fi
