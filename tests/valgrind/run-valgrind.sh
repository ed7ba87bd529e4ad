#!/bin/bash
# run-valgrind.sh PRELOAD OUTDIR APP...: each APP (an example, --quick) under valgrind's
# memcheck and libskmd on 2 PoCL members. A "definitely lost" block whose allocation stack
# passes through libskmd (libskmd/, transform/ sources or libskmd.so) is libskmd's leak:
# the run fails on any. Leaks wholly inside the driver are counted, not failed. One line
# of figures per app; valgrind's full log in OUTDIR/NAME.valgrind.txt.
set -u
preload=$1 outdir=$2; shift 2
mkdir -p "$outdir"
fail=0
for app in "$@"; do
  name=$(basename "$app")
  log=$outdir/$name.valgrind.txt
  start=$SECONDS
  out=$(env POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 LD_PRELOAD="$preload" \
    valgrind --leak-check=full --show-leak-kinds=definite --num-callers=40 \
    --fullpath-after= --log-file="$log" "$app" --quick --reps 1 2>&1)
  secs=$((SECONDS - start))
  if ! grep -q '^PASSED' <<<"$out"; then
    echo "FAIL valgrind $name: the app did not pass under valgrind"; echo "$out" | tail -5
    fail=1; continue
  fi
  read -r total ours records errors <<<"$(/usr/bin/python3 "$(dirname "$0")/leaks.py" "$log")"
  if [ "$ours" -gt 0 ]; then
    echo "FAIL valgrind $name: $ours bytes definitely lost in $records record(s) allocated through libskmd (of $total definitely lost; $log)"
    fail=1
  else
    echo "PASS valgrind $name: 0 bytes definitely lost through libskmd ($total definitely lost inside the driver; $errors memcheck errors, in the driver; ${secs} s)"
  fi
done
exit $fail
