#!/bin/bash
# tests/tools: every user tool answers --help (exit 0, a usage line on stdout) and a bad
# flag (non-zero exit, one line on stderr that names the flag); skmd-info lists the right
# members with 1 and 3 PoCL devices, and its --json output parses.
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
