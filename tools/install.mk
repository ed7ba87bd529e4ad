# tools/install.mk: make install / make uninstall.
#
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage ICD_DIR=/etc/OpenCL/vendors
#
# Installs libskmd.so in PREFIX/lib, the tools in PREFIX/bin, the docs in
# PREFIX/share/doc/libskmd, and an OpenCL vendors file ICD_DIR/skmd.icd naming the
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
INSTALL_TOOLS += $(O)tools/skmd-run $(O)tools/skmd-trace $(O)tools/skmd-info $(O)tools/skmd-opt
INSTALL_DOCS += docs/controls.md docs/tools.md

.PHONY: install uninstall
install: all
	@test -f $(SKMD_LIBRARY) || { echo "install: $(SKMD_LIBRARY) is not built; run make first" >&2; exit 1; }
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/libskmd $(DESTDIR)$(ICD_DIR)
	install -m 755 $(SKMD_LIBRARY) $(DESTDIR)$(PREFIX)/lib/libskmd.so
	install -m 755 $(INSTALL_TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(wildcard $(INSTALL_DOCS)) $(DESTDIR)$(PREFIX)/share/doc/libskmd/
	echo "$(PREFIX)/lib/libskmd.so" > $(DESTDIR)$(ICD_DIR)/skmd.icd
	ln -sf ../bin/skmd-opt $(DESTDIR)$(PREFIX)/lib/skmd-opt

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libskmd.so $(DESTDIR)$(PREFIX)/lib/skmd-opt $(DESTDIR)$(ICD_DIR)/skmd.icd
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(notdir $(INSTALL_TOOLS)))
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/libskmd
