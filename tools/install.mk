# tools/install.mk: make install / make uninstall.
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage ICD_DIR=/etc/OpenCL/vendors
#
# Installs libskmd.so in PREFIX/lib, the tools in PREFIX/bin, their man pages (made from
# their --help by tools/gen-man.sh) in PREFIX/share/man/man1, libskmd.pc in
# PREFIX/lib/pkgconfig, the docs in PREFIX/share/doc/libskmd, and an OpenCL vendors file ICD_DIR/skmd.icd naming the
# installed library, so that the ICD loader can load libskmd without LD_PRELOAD (the .icd
# names PREFIX/lib/libskmd.so, without DESTDIR: to try the ICD route before installing,
# use a scratch PREFIX and ICD_DIR, see docs/tools.md). Other fragments add their tools to
# INSTALL_TOOLS and their documents to INSTALL_DOCS. The kernel compiler helper skmd-opt
# goes to PREFIX/bin with a link PREFIX/lib/skmd-opt, next to libskmd.so, where the
# library looks for it first when SKMD_COMPILER is empty.
PREFIX ?= /usr/local
DESTDIR ?=
ICD_DIR ?= /etc/OpenCL/vendors
SKMD_LIBRARY ?= $(O)libskmd/libskmd.so
INSTALL_TOOLS += $(O)tools/skmd-run $(O)tools/skmd-trace $(O)tools/skmd-info $(O)tools/skmd-opt \
  $(SKMD_PROFILE_BIN)
INSTALL_DOCS += docs/controls.md docs/tools.md
# The version, written once in libskmd/support/version.h.
SKMD_VERSION := $(shell sed -n 's/^\#define SKMD_VERSION "\(.*\)"/\1/p' libskmd/support/version.h)
# The NAME line of each tool's man page; the rest comes from its --help.
MAN_SUMMARY_skmd-run := run a program under libskmd
MAN_SUMMARY_skmd-info := show the SKMD device, its member devices and libskmd's state
MAN_SUMMARY_skmd-opt := libskmd's kernel compiler and analyser
MAN_SUMMARY_skmd-profile := look at and fill libskmd's profile database
MAN_SUMMARY_skmd-trace := draw and sum up a libskmd trace or decision log
MAN_DIR := $(O)tools/man
MAN_PAGES := $(patsubst %,$(MAN_DIR)/%.1,$(notdir $(INSTALL_TOOLS)))
SKMD_PC := $(O)libskmd/libskmd.pc
CLEAN_FILES += $(MAN_DIR) $(SKMD_PC)

$(MAN_DIR)/%.1: $(O)tools/% tools/gen-man.sh libskmd/support/version.h
	@mkdir -p $(dir $@)
	tools/gen-man.sh $< $(SKMD_VERSION) "$(MAN_SUMMARY_$*)" > $@.tmp && mv $@.tmp $@

# PREFIX is written in: rebuilt at every install.
.PHONY: $(SKMD_PC)
$(SKMD_PC): libskmd/libskmd.pc.in
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SKMD_VERSION)|' $< > $@

.PHONY: install uninstall
install: all $(MAN_PAGES) $(SKMD_PC)
	@test -f $(SKMD_LIBRARY) || { echo "install: $(SKMD_LIBRARY) is not built; run make first" >&2; exit 1; }
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/libskmd $(DESTDIR)$(ICD_DIR)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(SKMD_LIBRARY) $(DESTDIR)$(PREFIX)/lib/libskmd.so
	install -m 755 $(INSTALL_TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(SKMD_PC) $(DESTDIR)$(PREFIX)/lib/pkgconfig/libskmd.pc
	install -m 644 $(wildcard $(INSTALL_DOCS)) $(DESTDIR)$(PREFIX)/share/doc/libskmd/
	echo "$(PREFIX)/lib/libskmd.so" > $(DESTDIR)$(ICD_DIR)/skmd.icd
	ln -sf ../bin/skmd-opt $(DESTDIR)$(PREFIX)/lib/skmd-opt

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libskmd.so $(DESTDIR)$(PREFIX)/lib/skmd-opt $(DESTDIR)$(ICD_DIR)/skmd.icd
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(INSTALL_TOOLS)))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(notdir $(MAN_PAGES)))
	rm -f $(DESTDIR)$(PREFIX)/lib/pkgconfig/libskmd.pc
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/libskmd
