#!/bin/sh
# tools/gen-man.sh TOOL VERSION SUMMARY > NAME.1: a man page made from TOOL --help (what
# help2man does, without the dependency): the usage line becomes the synopsis, the rest of
# the text the description, kept as it is laid out.
set -e
tool=$1 version=$2 summary=$3
name=$(basename "$tool")
help=$("$tool" --help)
# roff: a backslash is \e; a line starting with . or ' would be a request
escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
upper=$(printf '%s' "$name" | tr 'a-z' 'A-Z')
printf '.TH %s 1 "" "libskmd %s" "libskmd tools"\n' "$upper" "$version"
printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
printf '.SH SYNOPSIS\n.nf\n'
printf '%s\n' "$help" | sed -n 's/^[Uu]sage: *//p' | escape
printf '.fi\n.SH DESCRIPTION\n.nf\n'
printf '%s\n' "$help" | grep -v '^[Uu]sage:' | escape
printf '.fi\n.SH SEE ALSO\n'
printf 'skmd-run(1), skmd-info(1), skmd-profile(1), skmd-trace(1), skmd-opt(1);\n'
printf 'the controls and tools in /usr/share/doc/libskmd (or PREFIX/share/doc/libskmd).\n'
