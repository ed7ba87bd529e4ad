#!/bin/bash
# skmd-profile against a known database: list, show, export --json, clear, --help of each,
# bad arguments of run/calibrate (their real runs are in tests/plan/test-plan.sh).
# usage: test_skmd_profile.sh SKMD_PROFILE MAKE_FIXTURE
set -u
tool=$1 fixture=$2
dir=$(mktemp -d /tmp/skmd-profile-test-XXXXXX)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
db=$dir/profile.db
fail=0
check() { # check DESCRIPTION COMMAND...: the command must succeed
  local what=$1; shift
  if ! "$@"; then echo "FAIL: $what"; fail=1; fi
}
status() { "$@" >"$dir/out" 2>"$dir/err"; echo $?; }

hash=$("$fixture" "$db") || { echo "FAIL: fixture"; exit 1; }

out=$("$tool" --db "$db" list)
check "list shows the kernel" grep -q "^$hash  vector_add  *2  *1  *8  *1$" <<<"$out"
check "list has a header" grep -q '^KERNEL  *NAME  *DEVICES' <<<"$out"

out=$("$tool" show vector_add --db "$db")
check "show by name finds the hash" grep -q "^kernel $hash$" <<<"$out"
check "show prints the guard's members" grep -q '^guard state, shape 77, members PoCL cpu, NVIDIA H100, policy skmd (stored .* UTC, 40 launches guarded):$' <<<"$out"
check "show prints the guard's verdict" grep -q '^  whole on NVIDIA H100: the split measured 1.800 ms (5 samples); the split is retried in 32 launches' <<<"$out"
check "show prints the whole times" grep -q '^  whole: PoCL cpu 2.500 ms x1, NVIDIA H100 1.200 ms x2$' <<<"$out"
check "show prints the GPU's range 4096-8191" grep -q '^NVIDIA H100 .* 4096-8191  *800.000  *1$' <<<"$out"
check "show prints the CPU's range 1024-2047" grep -q '^PoCL cpu .* 1024-2047  *25.500  *3$' <<<"$out"
check "show prints the finish offsets' members" grep -q '^finish offsets, shape 77, members PoCL cpu, NVIDIA H100 ' <<<"$out"
check "show prints the GPU's finish offset" grep -q '^  NVIDIA H100 +0.060 ms$' <<<"$out"
check "show prints the CPU's finish offset" grep -q '^  PoCL cpu -0.015 ms$' <<<"$out"
out2=$("$tool" --db "$db" show "${hash:0:6}")
check "show by hash prefix" test "$out" = "$out2"
check "show of an unknown kernel fails" test "$(status "$tool" --db "$db" show nosuch)" = 1
check "show without a kernel is a usage error" test "$(status "$tool" --db "$db" show)" = 2

"$tool" --db "$db" export --json --output "$dir/export.json" --progress 2>"$dir/progress"
check "export succeeds" test $? = 0
check "the progress bar reaches 100%" grep -q '100% (15/15)' "$dir/progress"
check "export is valid JSON with the stored figures" /usr/bin/python3 - "$dir/export.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 5
g, = d["guards"]
assert g["devices"] == "1,2" and g["policy"] == "skmd" and g["whole_dev"] == 2 and g["whole_mode"] == 1, g
assert g["split_ms"] == 1.8 and g["retry_at"] - g["launches"] == 32 and g["launch"] == "0000000000001234", g
assert g["whole"] == "1:2.5:1,2:1.2:2", g
assert g["offhost_ms"] == 2.1 and g["offhost_n"] == 3 and g["offhost_mode"] == 0, g
h, = d["hosts"]
assert h["devices"] == "1,2" and h["idle"] == 9.5e6 and h["busy"] == 4.25e6, h
assert h["updated"] > 0, h
o = d["offsets"]
assert [(x["devices"], x["device"], x["ms"], x["shape"]) for x in o] == [("1,2", 1, -0.015, 77), ("1,2", 2, 0.06, 77)], o
assert all(x["updated"] > 0 for x in o), o
assert len(d["devices"]) == 2 and len(d["perf"]) == 4 and len(d["links"]) == 3
assert {p["rate"] for p in d["perf"]} == {25.5, 26.0, 500.0, 800.0}
assert d["decisions"][0]["reason"] == 'split: "output contiguous"'
assert d["kernels"][0]["name"] == "vector_add"
PY
check "export without --json is a usage error" test "$(status "$tool" --db "$db" export)" = 2

for cmd in list show export clear run calibrate; do
  check "$cmd --help" test "$(status "$tool" "$cmd" --help)" = 0
  check "$cmd --help prints its usage" grep -q "usage: skmd-profile .*$cmd" "$dir/out"
done
check "--help" test "$(status "$tool" --help)" = 0
check "an unknown command is a usage error" test "$(status "$tool" frobnicate)" = 2

check "run without an application is a usage error" test "$(status "$tool" run --launches 2)" = 2
check "run with a bad count is a usage error" test "$(status "$tool" run --launches x -- /bin/true)" = 2
check "calibrate with bad sizes is a usage error" test "$(status "$tool" calibrate --sizes 9:1)" = 2

# Read-only files of schema versions 2 (the fixture less its hosts and offsets tables and
# the guards' offhost columns) and 3 (less the offsets table and the offhost columns) are
# exported and shown as they are: hosts empty in version 2, offsets empty, the off-host
# figures 0. Root ignores permissions: it reads them as nobody.
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null; then
  mkdir "$dir/ro" && cp "$db" "$dir/ro/v2.db" && cp "$db" "$dir/ro/v3.db"
  to_old_version() { # to_old_version FILE VERSION
    /usr/bin/python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
c.executescript("PRAGMA journal_mode=DELETE;"
                + "".join("ALTER TABLE guards DROP COLUMN offhost_%s;" % n
                          for n in ("ms", "n", "mode"))
                + "DROP TABLE offsets;"
                + ("DROP TABLE hosts;" if sys.argv[2] == "2" else "")
                + "PRAGMA user_version=%s" % sys.argv[2])' "$1" "$2"
  }
  to_old_version "$dir/ro/v2.db" 2 && to_old_version "$dir/ro/v3.db" 3
  chmod 755 "$dir" && chmod 444 "$dir"/ro/v*.db && chmod 555 "$dir/ro"
  for v in 2 3; do
    check "a read-only version $v file exports as it is" /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
assert len(d["hosts"]) == (0 if sys.argv[1] == "2" else 1) and len(d["perf"]) == 4, d
assert d["offsets"] == [], d
g, = d["guards"]
assert g["split_ms"] == 1.8 and g["whole_mode"] == 1 and g["updated"] > 0, g
assert g["offhost_ms"] == 0 and g["offhost_n"] == 0 and g["offhost_mode"] == 0, g
' $v < <("${as_user[@]}" "$tool" --db "$dir/ro/v$v.db" export --json 2>/dev/null)
    out=$("${as_user[@]}" "$tool" --db "$dir/ro/v$v.db" show vector_add 2>&1)
    check "a read-only version $v file shows its guard and no offsets" \
      test "$(grep -c -e '^guard state' -e '^finish offsets' -e 'failed' <<<"$out")" = 1
  done
fi

check "clear succeeds" test "$(status "$tool" --db "$db" clear)" = 0
out=$("$tool" --db "$db" list)
check "nothing is left after clear" grep -q '^no profiles in' <<<"$out"
check "clear empties every exported table" /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
assert all(d[t] == [] for t in d if t != "schema_version") and "hosts" in d, d
' < <("$tool" --db "$db" export --json)

[ $fail = 0 ] && echo "test_skmd_profile: all checks passed"
exit $fail
