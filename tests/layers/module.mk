# tests/layers/: libskmd's one-way rule (docs/layers.md): no file includes a header of, or
# calls a function of, a higher layer (includes read from the sources, calls from nm of
# the objects).
TEST_TARGETS += test-layers
.PHONY: test-layers
test-layers: $(LIBSKMD_OBJS)
	@python3 tests/layers/check-layers.py $(or $(O),.) $(LIBSKMD_LAYERS)
