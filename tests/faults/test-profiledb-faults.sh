#!/bin/bash
# test-profiledb-faults.sh PRELOAD APP SHIM: APP (an example program, run with --quick) under
# libskmd on 2 PoCL members, with its profile database (SKMD_PROFILE_DB) made unusable in
# each way a real machine can: corrupt, read-only file, read-only directory, locked by
# another process, disk full (SHIM, tests/faults/enospc_shim.c: ENOSPC for the database's
# files only; RLIMIT_FSIZE cannot be used, as PoCL writes files of its own at every build
# and aborts the app when it cannot). Each run must
# still print PASSED (the app's own check of its results) and leave the database as the
# fault left it; when this libskmd opens the profile database at all (a baseline run creates
# it), its log must say what happened ("profile database: ..." on stderr).
# Under root the read-only cases run the app as nobody (root ignores file modes).
set -u
preload=$1
app=$(realpath "$2")
shim=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/skmd-faults.XXXXXX)
locker_pid=
cleanup() {
  [ -n "$locker_pid" ] && kill "$locker_pid" 2>/dev/null
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
fail=0

# Caches of compiled kernels (libskmd's and PoCL's) shared by every run, warm after the
# first, so that the faulty runs write nothing but the profile database.
mkdir -p "$work/cache" "$work/pocl"
as_user=()
if [ "$(id -u)" = 0 ]; then
  chown -R 65534:65534 "$work/cache" "$work/pocl"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

# run NAME DBPATH [prefix command...]: runs the app; its stdout+stderr in $work/NAME.log.
run() {
  local name=$1 db=$2; shift 2
  env POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 POCL_CACHE_DIR="$work/pocl" \
    SKMD_CACHE_DIR="$work/cache" SKMD_PROFILE_DB="$db" SKMD_LOG=warn HOME="$work" \
    LD_PRELOAD="$preload" "$@" "$app" --quick --reps 1 >"$work/$name.log" 2>&1
}

# check NAME WHAT: PASSED printed; the log names the profile database when libskmd uses it.
check() {
  local name=$1 what=$2
  if ! grep -q '^PASSED' "$work/$name.log"; then
    echo "FAIL faults-profiledb $name: $what: the app did not pass"; tail -5 "$work/$name.log"
    fail=1; return
  fi
  if [ "$uses_db" = 1 ] && ! grep -q 'profile database' "$work/$name.log"; then
    echo "FAIL faults-profiledb $name: $what: results right, but the log does not say what happened"
    tail -5 "$work/$name.log"; fail=1; return
  fi
  echo "PASS faults-profiledb $name: $what$([ "$uses_db" = 1 ] && echo ", logged: $(grep -m1 'profile database' "$work/$name.log" | cut -c1-110)")"
}

# Baseline: a fresh path. Warms the caches and tells whether libskmd keeps a database.
mkdir -p "$work/ok" && chown 65534:65534 "$work/ok" 2>/dev/null
run baseline "$work/ok/profile.db" "${as_user[@]}"
if ! grep -q '^PASSED' "$work/baseline.log"; then
  echo "FAIL faults-profiledb baseline: the app does not pass without any fault"
  tail -5 "$work/baseline.log"; exit 1
fi
uses_db=0
[ -s "$work/ok/profile.db" ] && uses_db=1
echo "PASS faults-profiledb baseline ($([ $uses_db = 1 ] && echo "profile database written" || echo "this libskmd keeps no profile database: log checks skipped"))"
# A valid database to start the other cases from (an empty file where there is none).
good=$work/ok/profile.db
[ -f "$good" ] || : >"$good"

# 1. Corrupt: not SQLite at all. It must be set aside (when used), never crash the app.
mkdir -p "$work/corrupt"
head -c 8192 /dev/urandom >"$work/corrupt/profile.db"
chown -R 65534:65534 "$work/corrupt" 2>/dev/null
run corrupt "$work/corrupt/profile.db" "${as_user[@]}"
check corrupt "corrupt file"
if [ "$uses_db" = 1 ] && ! ls "$work/corrupt"/profile.db.corrupt-* >/dev/null 2>&1; then
  echo "FAIL faults-profiledb corrupt: the corrupt file was not moved aside"; fail=1
fi

# 2. Read-only file in a writable directory: read, never written.
mkdir -p "$work/rofile" && cp "$good" "$work/rofile/profile.db"
chown -R 65534:65534 "$work/rofile" 2>/dev/null
chmod 444 "$work/rofile/profile.db"
sum=$(md5sum <"$work/rofile/profile.db")
run rofile "$work/rofile/profile.db" "${as_user[@]}"
check rofile "read-only file"
[ "$(md5sum <"$work/rofile/profile.db")" = "$sum" ] ||
  { echo "FAIL faults-profiledb rofile: the read-only file changed"; fail=1; }

# 3. Read-only directory: the database (and its directory) cannot be made.
mkdir -p "$work/rodir" && chmod 555 "$work/rodir"
run rodir "$work/rodir/sub/profile.db" "${as_user[@]}"
check rodir "read-only directory"
[ -e "$work/rodir/sub" ] && { echo "FAIL faults-profiledb rodir: something was created"; fail=1; }

# 4. Locked: another process holds an exclusive transaction for the whole run.
mkdir -p "$work/locked" && cp "$good" "$work/locked/profile.db"
chown -R 65534:65534 "$work/locked" 2>/dev/null
/usr/bin/python3 "$here/hold-lock.py" "$work/locked/profile.db" "$work/locked/ready" &
locker_pid=$!
for _ in $(seq 50); do [ -e "$work/locked/ready" ] && break; sleep 0.1; done
if [ ! -e "$work/locked/ready" ]; then
  echo "FAIL faults-profiledb locked: the lock holder did not start"; fail=1
else
  start=$SECONDS
  run locked "$work/locked/profile.db" "${as_user[@]}"
  check locked "locked by another process ($((SECONDS - start)) s)"
fi
kill "$locker_pid" 2>/dev/null; wait "$locker_pid" 2>/dev/null; locker_pid=

# 5. Disk full: every write to a file of the database's directory fails with ENOSPC.
mkdir -p "$work/full" && cp "$good" "$work/full/profile.db"
chown -R 65534:65534 "$work/full" 2>/dev/null
sum=$(md5sum <"$work/full/profile.db")
preload_app=$preload
preload="$preload $shim"
run full "$work/full/profile.db" env ENOSPC_SHIM_MATCH="$work/full/"
preload=$preload_app
check full "disk full (ENOSPC)"
[ "$(md5sum <"$work/full/profile.db")" = "$sum" ] ||
  { echo "FAIL faults-profiledb full: the database changed although no write could finish"; fail=1; }

exit $fail
