#!/bin/sh
# Installs, from Debian's packages, whatever the build and the tests need and is missing.
# The lists are tools/deps.txt plus each directory's deps.txt; "@LLVM@" stands for the
# LLVM version that matches the installed PoCL. Quiet and quick when nothing is missing.
set -e
cd "$(dirname "$0")/.."
list() { cat tools/deps.txt */deps.txt 2>/dev/null | sed 's/#.*//' | tr -s ' \n' '\n' | grep . || true; }
missing() {
  llvm=$(tools/pocl-llvm-version.sh)
  for p in $(list | sed "s/@LLVM@/$llvm/g" | sort -u); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}
apt_install() {
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "install-deps: missing packages: $*; run as root: apt-get install $*" >&2; exit 1; fi
  echo "install-deps: installing $*"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null ||
  { $sudo apt-get update >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null; }
}
# PoCL first: it decides which LLVM the rest must match.
dpkg-query -W -f='${Status}' pocl-opencl-icd 2>/dev/null | grep -q 'install ok installed' || apt_install pocl-opencl-icd
m=$(missing)
[ -z "$m" ] || apt_install $m
