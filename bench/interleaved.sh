#!/bin/bash
# Interleaved processes: one example natively on one device, then under libskmd in each
# column, round after round, so that all columns see the same drift of the machine; then
# each column's fastest and median process against native's. For short examples, whose
# end-to-end time moves more from one process to the next than the difference sought.
#
# Usage: bench/interleaved.sh --device P:D --libskmd LIB [--bin-dir DIR] [--rounds N]
#          [--reps N] [--scale X] [--column 'NAME: VAR=VALUE ...']... EXAMPLE...
# Prints one line per process ("EXAMPLE COLUMN ms_best=X"), then the table. A column may
# set its own LD_PRELOAD (two builds side by side) and SKMD_PROFILE_DB; of two or more
# columns, each that sets none runs on its own copy of the profile database, removed at exit.
set -eu
device="" lib="" bindir=examples rounds=8 reps=7 scale=() columns=()
while [ $# -gt 0 ]; do
  case $1 in
    --device) device=$2; shift 2 ;;
    --libskmd) lib=$(realpath "$2"); shift 2 ;;
    --bin-dir) bindir=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --scale) scale=(--scale "$2"); shift 2 ;;
    --column) columns+=("$2"); shift 2 ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ -n "$device" ] && [ -n "$lib" ] && [ $# -gt 0 ] || { sed -n 7,11p "$0" >&2; exit 2; }
[ ${#columns[@]} -gt 0 ] || columns=("libskmd:")
# As bench.py: a sanitized build's programs take the preloaded library after the ASan runtime.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
out=$(mktemp) dbs=$(mktemp -d); trap 'rm -rf "$out" "$dbs"' EXIT
# Two or more columns: each its own copy, made before any runs, of the profile database they
# would share (as libskmd finds it), so that what one column learns (tables, guard decisions)
# does not decide the next one's runs. A column's own SKMD_PROFILE_DB wins; one column keeps
# the user's database, which learns across runs.
# Where libskmd would find it, and the copy made, as bench.py does (SQLite's backup API).
copy_db() { # DST: copies the database they would share to DST; says how, for the column's line
  /usr/bin/python3 - "$(dirname "$0")" "$1" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import bench
print(bench.copy_profile_db(bench.profile_db_of(dict(os.environ)), sys.argv[2]))
PY
}
shared=$(/usr/bin/python3 -c 'import os, sys; sys.path.insert(0, sys.argv[1]); import bench; print(bench.profile_db_of(dict(os.environ)))' "$(dirname "$0")")
db=()  # per column: its SKMD_PROFILE_DB assignment, or none
for c in "${columns[@]}"; do
  name=${c%%:*}
  if [[ " ${c#*:} " == *" SKMD_PROFILE_DB="* ]]; then
    db+=(""); echo "interleaved: column $name: profile database: the column's own SKMD_PROFILE_DB" >&2
  elif [ ${#columns[@]} -lt 2 ]; then
    db+=(""); echo "interleaved: column $name: profile database $shared (learns across runs)" >&2
  else
    copy="$dbs/${name//[^[:alnum:]_.+-]/_}.db"
    db+=("SKMD_PROFILE_DB=$copy"); echo "interleaved: column $name: profile database $copy ($(copy_db "$copy"))" >&2
  fi
done
best() { grep -o 'ms_best=[0-9.]*' || echo "ms_best=FAILED"; }
for ex in "$@"; do
  for _ in $(seq "$rounds"); do
    echo "$ex native $("$bindir/$ex/$ex" --device "$device" --reps "$reps" "${scale[@]}" | best)" |
      tee -a "$out"
    for i in "${!columns[@]}"; do
      c=${columns[$i]}
      # shellcheck disable=SC2086 # the column's settings are words on purpose
      echo "$ex ${c%%:*} $(env LD_PRELOAD="$lib" ${db[$i]:+"${db[$i]}"} ${c#*:} "$bindir/$ex/$ex" \
        --reps "$reps" "${scale[@]}" | best)" | tee -a "$out"
    done
  done
done
/usr/bin/python3 - "$out" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    ex, col, v = line.split()
    v = v.split('=')[1]
    runs[(ex, col)].append(float(v) if v != 'FAILED' else float('inf'))
print("\n| example | column | processes | fastest ms | median ms | fastest vs native | median vs native |")
print("|---|---|---:|---:|---:|---:|---:|")
for (ex, col), v in runs.items():
    n = runs[(ex, 'native')]
    print("| %s | %s | %d | %.3f | %.3f | %.2fx | %.2fx |" % (ex, col, len(v), min(v), statistics.median(v),
          min(n) / min(v), statistics.median(n) / statistics.median(v)))
PY
