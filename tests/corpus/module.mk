# tests/corpus/: real programs from Debian packages (CLBlast's tests, ffmpeg's OpenCL
# filters, hashcat, pyopencl's modules), unchanged, natively and under libskmd on 2 and 3
# PoCL devices, by default and under forced equal and uneven splits; every result compared
# with the native run (tests/corpus/corpus.py).  Results and the table: $(O)tests/corpus/.
#   make test-corpus                        all of it (part of `make test`)
#   make test-corpus CORPUS_ONLY=ffmpeg     programs whose name matches a regex
#   make test-corpus CORPUS_CONFIGS=2:equal configurations (native always runs)
TEST_TARGETS += test-corpus
CLEAN_FILES += $(O)tests/corpus
.PHONY: test-corpus
CORPUS_ONLY ?=
CORPUS_CONFIGS ?=
CORPUS_JOBS ?= 2

# SKMD_PRELOAD and SKMD_SAN_ENV come from tests/interposer/module.mk.
test-corpus: $(LIBSKMD_SO) $(SKMD_OPT)
	@mkdir -p $(O)tests/corpus
	@env $(SKMD_SAN_ENV) /usr/bin/python3 tests/corpus/corpus.py --preload "$(SKMD_PRELOAD)" \
	  --out $(O)tests/corpus --jobs $(CORPUS_JOBS) --only "$(CORPUS_ONLY)" --configs "$(CORPUS_CONFIGS)"
