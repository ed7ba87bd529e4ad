#!/bin/sh
# Native vs. libskmd timings of the examples: see bench/README.md, or bench/run.sh --help.
# Prefers Debian's python3; the script itself needs only the standard library.
here=$(dirname "$0")
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=python3; fi
exec "$py" "$here/bench.py" "$@"
