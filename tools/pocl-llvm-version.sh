#!/bin/sh
# Prints the major version of the LLVM that the installed PoCL links (15 on Debian 12, 16 on
# Ubuntu 24.04). libskmd's kernel compiler must not be newer: PoCL reads bitcode of its own
# LLVM or older.
v=$(dpkg-query -W -f='${Depends}\n' 'libpocl2*' 2>/dev/null | grep -o 'libllvm[0-9]*' | head -n1 | tr -dc 0-9)
[ -n "$v" ] || v=$(ls /usr/bin/llvm-config-* 2>/dev/null | sed 's/.*-//' | sort -n | head -n1)
echo "${v:-15}"
