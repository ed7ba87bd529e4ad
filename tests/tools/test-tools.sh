#!/bin/bash
# tests/tools: every user tool answers --help (exit 0, a usage line on stdout), --version
# (one line) and a bad flag (non-zero exit, one line on stderr that names the flag);
# skmd-profile's bad inputs get one line; libskmd's messages for a wrong-length SKMD_SPLIT,
# an SKMD_DEVICES that selects nothing and a foreign SKMD_* variable; SKMD_REPORT=json;
# skmd-info lists the right members with 1 and 3 PoCL devices, and its --json parses.
# usage: test-tools.sh BUILD_PREFIX   (BUILD_PREFIX: "" or build-san/)
set -u
build=${1-}
fail=0
bad() { echo "FAIL test-tools: $*"; fail=1; }
export POCL_CPU_MAX_CU_NUM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tools="${build}tools/skmd-run ${build}tools/skmd-trace ${build}tools/skmd-profile
       ${build}tools/skmd-opt ${build}tools/skmd-info tools/demo.sh"
for tool in $tools; do
  "$tool" --help >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc = 0 ] || bad "$tool --help exits $rc"
  grep -qi '^usage' "$tmp/out" || bad "$tool --help prints no usage line on stdout"
  "$tool" --no-such-flag </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ $rc != 0 ] || bad "$tool --no-such-flag exits 0"
  lines=$(grep -c '' "$tmp/err")
  [ "$lines" = 1 ] || bad "$tool --no-such-flag: $lines lines on stderr, want 1: $(cat "$tmp/err")"
  grep -q -- '--no-such-flag' "$tmp/err" || bad "$tool --no-such-flag: stderr does not name the flag"
done

# --version: one line naming the tool and libskmd's version, exit 0
for tool in $tools; do
  out=$("$tool" --version 2>&1); rc=$?
  [ $rc = 0 ] && [ "$(grep -c '' <<<"$out")" = 1 ] &&
    grep -qx "$(basename "$tool") (libskmd) [0-9][0-9.]*" <<<"$out" ||
    bad "$tool --version: exit $rc: $out"
done

# one_line DESCRIPTION WANT_STATUS PATTERN COMMAND...: COMMAND exits WANT_STATUS and writes
# one line on stderr (nothing on stdout) matching PATTERN
one_line() {
  local what=$1 want=$2 pattern=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
  [ $rc = "$want" ] || bad "$what: exit $rc, want $want: $(cat "$tmp/err")"
  [ "$(grep -c '' "$tmp/err")" = 1 ] || bad "$what: not one line on stderr: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || bad "$what: stdout not empty: $(cat "$tmp/out")"
  grep -q -- "$pattern" "$tmp/err" || bad "$what: '$(cat "$tmp/err")' lacks '$pattern'"
}
profile=${build}tools/skmd-profile
one_line "skmd-profile lst" 2 "unknown command 'lst'; did you mean 'list'?" "$profile" lst
one_line "skmd-profile with no command" 2 "give a command" "$profile"
one_line "skmd-profile --db in a missing directory" 1 "$tmp/none/x.db: No such file" \
  "$profile" --db "$tmp/none/x.db" list
[ ! -e "$tmp/none" ] || bad "skmd-profile list made the missing directory"
one_line "skmd-profile run of a missing program" 127 "cannot run ./missing" \
  "$profile" --db "$tmp/p.db" run -- ./missing
one_line "skmd-profile show with no kernel" 2 "expected one KERNEL" "$profile" --db "$tmp/p.db" show

# libskmd's own messages under an app, on two PoCL devices
app=${build}examples/vector_add/vector_add
lib=$(realpath "${build}libskmd/libskmd.so")
under() { env POCL_DEVICES="pthread pthread" LD_PRELOAD="$lib" "$@" "$app" --quick; }
lines() { grep '^libskmd' "$tmp/err"; }
# a wrong-length SKMD_SPLIT: one warning with the fractions used, and the run still splits
under SKMD_SPLIT=0.5 >"$tmp/out" 2>"$tmp/err"
[ "$(lines | grep -c '')" = 1 ] &&
  lines | grep -q '^libskmd: warn: SKMD_SPLIT=0.5 gives 1 fraction for 2 devices; using 0.50,0.50' ||
  bad "SKMD_SPLIT=0.5: $(cat "$tmp/err")"
grep -q '^PASSED' "$tmp/out" || bad "SKMD_SPLIT=0.5: the app failed"
under SKMD_SPLIT=0.2,0.3,0.5 >"$tmp/out" 2>"$tmp/err"
[ "$(lines | grep -c '')" = 1 ] &&
  lines | grep -q '^libskmd: warn: SKMD_SPLIT=0.2,0.3,0.5 gives 3 fractions for 2 devices; using 0.40,0.60' ||
  bad "SKMD_SPLIT with three fractions: $(cat "$tmp/err")"
# SKMD_DEVICES that matches nothing: one error line listing the devices there are
under SKMD_DEVICES=nosuch >"$tmp/out" 2>"$tmp/err"
[ "$(lines | grep -c '')" = 1 ] &&
  lines | grep -q '^libskmd: error: SKMD_DEVICES=nosuch selects none of the devices.*: 0 = 0:0 cpu "pthread.*, 1 = 0:1 cpu "pthread' ||
  bad "SKMD_DEVICES=nosuch: $(cat "$tmp/err")"
# another program's SKMD_* variable is not warned about; a near-miss is
under SKMD_LIB=/opt/x SKMD_POLICY=equal >"$tmp/out" 2>"$tmp/err"
! lines | grep -q 'SKMD_LIB' || bad "SKMD_LIB is warned about: $(cat "$tmp/err")"
under SKMD_POLICI=equal >"$tmp/out" 2>"$tmp/err"
lines | grep -q '^libskmd: warn: SKMD_POLICI is not a libskmd control.*did you mean SKMD_POLICY?' ||
  bad "SKMD_POLICI is not named a near-miss: $(cat "$tmp/err")"
# SKMD_REPORT=json: one object with the documented keys; each kernel's decision in words
under SKMD_REPORT=json SKMD_REPORT_FILE="$tmp/report.json" SKMD_POLICY=equal >"$tmp/out" 2>"$tmp/err"
/usr/bin/python3 - "$tmp/report.json" <<'PY' || bad "SKMD_REPORT=json: $(cat "$tmp/report.json" "$tmp/err")"
import json, sys
r = json.load(open(sys.argv[1]))
for key in ("summary", "devices", "launches", "split_launches", "bytes_moved", "time_ms",
            "est_saved_ms", "kernels"):
    assert key in r, key
assert len(r["devices"]) == 2 and r["launches"] >= 1 and r["split_launches"] >= 1, r
k = {x["kernel"]: x for x in r["kernels"]}["vector_add"]
assert k["launches"] == r["launches"] and len(k["shares"]) == 2 and k["decision"], k
PY
! grep -q '^{' "$tmp/err" || bad "SKMD_REPORT_FILE: the JSON also went to stderr"

info=${build}tools/skmd-info
# One PoCL device: one member, chosen with every device, executing.
POCL_DEVICES=pthread "$info" --json >"$tmp/one.json" 2>"$tmp/err" || bad "skmd-info (1 device) failed: $(cat "$tmp/err")"
# Three: two pthread and one basic; SKMD_DEVICES=basic,pthread says which term chose each.
POCL_DEVICES="pthread basic pthread" SKMD_DEVICES=basic,pthread "$info" --json >"$tmp/three.json" 2>"$tmp/err" \
  || bad "skmd-info (3 devices) failed: $(cat "$tmp/err")"
POCL_DEVICES="pthread basic pthread" SKMD_DEVICES=basic,pthread "$info" >"$tmp/three.txt" 2>&1 \
  || bad "skmd-info text (3 devices) failed"
/usr/bin/python3 - "$tmp/one.json" "$tmp/three.json" <<'PY' || fail=1
import json, sys
def check(cond, what):
    if not cond:
        print("FAIL test-tools: skmd-info --json: " + what)
        sys.exit(1)
try:
    one = json.load(open(sys.argv[1]))
    three = json.load(open(sys.argv[2]))
except ValueError as e:
    check(False, "does not parse: %s" % e)
m = one["members"]
check(len(m) == 1, "1 PoCL device gives %d members" % len(m))
check(m[0]["chosen_by"] == "all devices" and m[0]["executing"], "the one member: %s" % m[0])
check(m[0]["kernel_form"] == "pocl bitcode", "PoCL member's kernel form: %s" % m[0]["kernel_form"])
check(one["virtual_device"]["name"].startswith("SKMD"), "virtual device name: %s" % one["virtual_device"])
m = three["members"]
check(len(m) == 3, "3 PoCL devices give %d members" % len(m))
names = [x["device"].split("-")[0] for x in m]
check(sorted(names) == ["basic", "pthread", "pthread"], "member devices: %s" % names)
for x in m:
    want = 'SKMD_DEVICES term "%s"' % x["device"].split("-")[0]
    check(x["chosen_by"] == want, "member %d chosen by %r, want %r" % (x["index"], x["chosen_by"], want))
check(sum(1 for x in m if x["executing"]) == 1, "not exactly one executing member")
units = sum(x["compute_units"] for x in m)
check(three["virtual_device"]["compute_units"] == units,
      "the SKMD device has %s compute units, its members %d" % (three["virtual_device"]["compute_units"], units))
check(any(c["variable"] == "SKMD_DEVICES" and c["value"] == "basic,pthread" for c in three["controls"]),
      "SKMD_DEVICES not listed among the changed controls: %s" % three["controls"])
check("status" in three["profile_db"] and "dir" in three["cache"], "no profile DB or cache section")
PY
grep -q '^  member 2: ' "$tmp/three.txt" || bad "skmd-info text lists no member 2: $(cat "$tmp/three.txt")"
# No real device: says so, exits 1, and still lists the rest.
mkdir "$tmp/no-vendors"
OCL_ICD_VENDORS=$tmp/no-vendors "$info" >"$tmp/out" 2>&1; rc=$?
[ $rc = 1 ] || bad "skmd-info with no real device exits $rc, want 1"
grep -q 'status  *not available' "$tmp/out" && grep -q '^Profile database' "$tmp/out" \
  || bad "skmd-info with no real device: $(cat "$tmp/out")"
# A profile database that is not SQLite is reported, and left as it was.
echo "not a database" >"$tmp/bad.db"
SKMD_PROFILE_DB=$tmp/bad.db POCL_DEVICES=pthread "$info" >"$tmp/out" 2>&1
grep -q 'status  *\(corrupt\|cannot\|not a libskmd\)' "$tmp/out" || bad "a corrupt profile DB is not reported: $(grep -A2 Profile "$tmp/out")"
[ "$(cat "$tmp/bad.db")" = "not a database" ] || bad "skmd-info changed a corrupt profile DB"
# A version 1 profile database (no guards table) is read as it is: the status says libskmd
# upgrades it, its rows are counted, and skmd-info leaves the file at version 1.
/usr/bin/python3 - "$tmp/v1.db" <<'PY' || bad "could not write a version 1 profile DB"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE devices(id INTEGER PRIMARY KEY, vendor TEXT NOT NULL, name TEXT NOT NULL,
  driver TEXT NOT NULL, UNIQUE(vendor, name, driver));
CREATE TABLE kernels(hash TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE perf(kernel TEXT NOT NULL, device INTEGER NOT NULL, shape INTEGER NOT NULL,
  range INTEGER NOT NULL, rate REAL NOT NULL, samples INTEGER NOT NULL,
  updated INTEGER NOT NULL, PRIMARY KEY(kernel, device, shape, range));
CREATE TABLE links(device INTEGER NOT NULL, direction INTEGER NOT NULL,
  memory INTEGER NOT NULL, point INTEGER NOT NULL, bytes REAL NOT NULL, ms REAL NOT NULL,
  PRIMARY KEY(device, direction, memory, point));
CREATE TABLE decisions(id INTEGER PRIMARY KEY, time INTEGER NOT NULL, kernel TEXT NOT NULL,
  shape INTEGER NOT NULL, policy TEXT NOT NULL, total INTEGER NOT NULL,
  shares TEXT NOT NULL, est_ms REAL NOT NULL, reason TEXT);
INSERT INTO devices VALUES(1, 'PoCL', 'cpu', '3.1');
INSERT INTO kernels VALUES('000000000000002a', 'vector_add');
INSERT INTO perf VALUES('000000000000002a', 1, 7, 5, 123.5, 4, 0);
PRAGMA application_id=1397443908; PRAGMA user_version=1;
""")
db.close()
PY
SKMD_PROFILE_DB=$tmp/v1.db POCL_DEVICES=pthread "$info" >"$tmp/out" 2>&1
grep -q 'status  *profile database schema 1: libskmd upgrades it on first use' "$tmp/out" \
  || bad "a version 1 profile DB is not reported as upgradable: $(grep -A6 '^Profile' "$tmp/out")"
grep -q 'schema version  *1$' "$tmp/out" && grep -q 'kernels profiled  *1$' "$tmp/out" \
  || bad "a version 1 profile DB's rows are not shown: $(grep -A6 '^Profile' "$tmp/out")"
grep -q 'not a libskmd' "$tmp/out" && bad "a version 1 profile DB is called a mismatch"
v=$(/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA user_version").fetchone()[0])' "$tmp/v1.db")
[ "$v" = 1 ] || bad "skmd-info changed a version 1 profile DB (now version $v)"
[ $fail = 0 ] && echo "PASS test-tools"
exit $fail
