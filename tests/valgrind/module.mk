# tests/valgrind/: `make valgrind`: three examples under valgrind's memcheck and libskmd on
# 2 PoCL members; fails on any block definitely lost through libskmd. Slow (minutes per
# example under valgrind), so not part of `make test`. Logs under $(O)tests/valgrind/.
VALGRIND_APPS := vector_add matrix_mul reduction
.PHONY: valgrind
valgrind: $(LIBSKMD_SO) $(O)tools/skmd-opt $(foreach a,$(VALGRIND_APPS),$(O)examples/$(a)/$(a))
	@tests/valgrind/run-valgrind.sh $(abspath $(LIBSKMD_SO)) $(O)tests/valgrind \
	  $(foreach a,$(VALGRIND_APPS),$(O)examples/$(a)/$(a))
CLEAN_FILES += $(O)tests/valgrind
