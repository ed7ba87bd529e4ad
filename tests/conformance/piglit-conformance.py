#!/usr/bin/python3
"""piglit's OpenCL tests natively and under libskmd, per PoCL device configuration.

Runs every test of a list (piglit's `cl` profile, or a subset file) once natively and once
with LD_PRELOAD=<libskmd>, for each POCL_DEVICES configuration given; writes a Markdown
pass/fail table (a column per configuration and mode) and compares: a test that passes
natively and fails, crashes or times out under libskmd is a regression unless the
known-differences file lists it. Exit status 1 on any new regression, 2 on bad usage.

  piglit-conformance.py --preload libskmd/libskmd.so [--devices "pthread" ...]
      [--subset FILE] [--known FILE] [--markdown FILE] [--update-doc FILE]
      [--logs DIR] [-j N] [--timeout S]
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

PIGLIT_ROOTS = ["/usr/lib/x86_64-linux-gnu/piglit", "/usr/lib/piglit", "/usr/local/lib/piglit"]
BAD = ("fail", "crash", "timeout")          # results that break the gate after a native pass
DOC_BEGIN = "<!-- piglit-conformance results begin -->"
DOC_END = "<!-- piglit-conformance results end -->"


def die(msg):
    print("piglit-conformance: " + msg, file=sys.stderr)
    sys.exit(2)


def find_piglit(root):
    for r in ([root] if root else PIGLIT_ROOTS):
        if r and os.path.exists(os.path.join(r, "tests", "cl.xml.gz")):
            return r
    die("piglit's OpenCL profile (tests/cl.xml.gz) not found in %s; install the Debian "
        "package piglit or pass --piglit-root" % (root or ", ".join(PIGLIT_ROOTS)))


def load_profile(root):
    """piglit's `cl` profile: [(name, argv)], in the profile's order."""
    tests = []
    for t in ET.parse(gzip.open(os.path.join(root, "tests", "cl.xml.gz"))).getroot():
        opts = {o.get("name"): o.get("value") for o in t}
        if t.get("type") == "cl_prog":
            # the value is a Python string literal: 'tests/cl/...cl'
            argv = ["cl-program-tester", os.path.join(root, opts["filename"].strip("'\""))]
        else:
            argv = re.findall(r"'([^']*)'", opts.get("command", ""))
        if argv:
            argv[0] = os.path.join(root, "bin", argv[0])
            tests.append((t.get("name"), argv))
    return tests


def read_list(path, what):
    """Lines of a list file, '#' comments and blank lines dropped."""
    try:
        with open(path) as f:
            return [l.split("#", 1)[0].strip() for l in f if l.split("#", 1)[0].strip()]
    except OSError as e:
        die("cannot read %s %s: %s" % (what, path, e.strerror))


def read_known(path):
    """Known differences: 'test name | devices or * | reason' -> {(name, devices): reason}."""
    known = {}
    for n, line in enumerate(read_list(path, "known-differences file") if path else [], 1):
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3 or not all(parts):
            die("%s: entry %d is not 'test name | devices or * | reason': %s" % (path, n, line))
        known[(parts[0], parts[1])] = parts[2]
    return known


def run_one(argv, env, timeout, log_path):
    """One piglit program -> pass/fail/skip/warn/crash/timeout (piglit's own meanings)."""
    start = time.monotonic()
    try:
        p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout, cwd=os.path.dirname(argv[0]))
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
        result = None
        for m in re.finditer(r'^PIGLIT: (\{.*\})\s*$', out, re.M):
            try:
                result = json.loads(m.group(1)).get("result", result)
            except ValueError:
                pass
        if rc < 0 or rc >= 128 or result is None:
            result = "crash"            # killed by a signal, or died before reporting
        elif result == "pass" and rc != 0:
            result = "fail"
    except subprocess.TimeoutExpired as e:
        out, rc, result = (e.stdout or b"").decode("utf-8", "replace"), None, "timeout"
    if log_path and result not in ("pass", "skip"):
        with open(log_path, "w") as f:
            f.write("$ %s\n# exit %s, %.1f s\n%s" % (" ".join(argv), rc, time.monotonic() - start, out))
    return result


def config_key(devices, mode):
    return "%s / %s" % (mode, devices)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preload", required=True, help="LD_PRELOAD value that loads libskmd")
    ap.add_argument("--devices", action="append", help="a POCL_DEVICES value (repeatable); "
                    "default: 'pthread' and 'pthread pthread basic'")
    ap.add_argument("--subset", help="file of test names to run (default: the whole profile)")
    ap.add_argument("--known", help="known-differences file")
    ap.add_argument("--markdown", help="write the result table (Markdown) here")
    ap.add_argument("--update-doc", help="replace the results section of this Markdown file")
    ap.add_argument("--logs", help="directory for the output of every test that did not pass")
    ap.add_argument("--piglit-root", help="where piglit is installed")
    ap.add_argument("--skmd-env", action="append", default=[],
                    help="VAR=VALUE added to the libskmd runs only (repeatable)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per test (piglit's default: 60)")
    args = ap.parse_args()
    devices = args.devices or ["pthread", "pthread pthread basic"]
    if args.jobs < 1 or args.timeout <= 0:
        die("--jobs and --timeout must be positive")
    for lib in args.preload.split():
        if not os.path.exists(lib):
            die("preload library %s does not exist (build it with make)" % lib)
    skmd_env = {}
    for kv in args.skmd_env:
        if "=" not in kv:
            die("--skmd-env wants VAR=VALUE, got %r" % kv)
        skmd_env[kv.split("=", 1)[0]] = kv.split("=", 1)[1]

    root = find_piglit(args.piglit_root)
    tests = load_profile(root)
    if args.subset:
        wanted = read_list(args.subset, "subset file")
        by_name = dict(tests)
        missing = [w for w in wanted if w not in by_name]
        if missing:
            die("%s: not in piglit's cl profile: %s" % (args.subset, "; ".join(missing[:5])))
        tests = [(w, by_name[w]) for w in wanted]
    known = read_known(args.known)
    if args.logs:
        os.makedirs(args.logs, exist_ok=True)

    base = dict(os.environ)
    base.setdefault("POCL_CPU_MAX_CU_NUM", "1")
    for v in ("LD_PRELOAD", "PIGLIT_CL_PLATFORM", "PIGLIT_CL_DEVICE", "PIGLIT_CL_VERSION"):
        base.pop(v, None)
    configs = []                           # (key, devices, env)
    for d in devices:
        env = dict(base, POCL_DEVICES=d)
        configs.append((config_key(d, "native"), d, env))
        # under libskmd, piglit runs on the SKMD platform only
        configs.append((config_key(d, "libskmd"), d,
                        dict(env, LD_PRELOAD=args.preload, PIGLIT_CL_PLATFORM="SKMD", **skmd_env)))

    results = {}                           # key -> {name: result}
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for key, d, env in configs:
            tag = re.sub(r"[^A-Za-z0-9]+", "_", key).strip("_")
            futs = {name: pool.submit(run_one, argv, env, args.timeout,
                                      os.path.join(args.logs, "%s__%s.log" % (tag, re.sub(r"[^A-Za-z0-9@.-]+", "_", name)))
                                      if args.logs else None)
                    for name, argv in tests}
            results[key] = {n: f.result() for n, f in futs.items()}
            counts = {}
            for r in results[key].values():
                counts[r] = counts.get(r, 0) + 1
            print("%-40s %s (%.0f s so far)" % (key, " ".join("%s %d" % kv for kv in sorted(counts.items())),
                                                  time.monotonic() - t0), flush=True)

    # The gate: native pass -> libskmd fail/crash/timeout, unless known.
    regressions, known_hit, lost = [], [], []
    for d in devices:
        nat, sk = results[config_key(d, "native")], results[config_key(d, "libskmd")]
        for name, _ in tests:
            if nat[name] == "pass" and sk[name] in BAD:
                reason = known.get((name, d)) or known.get((name, "*"))
                (known_hit if reason else regressions).append((name, d, sk[name], reason))
            elif nat[name] == "pass" and sk[name] != "pass":
                lost.append((name, d, sk[name]))
    stale = [(n, d) for (n, d) in known
             if not any(k[0] == n and (d == "*" or k[1] == d) for k in known_hit)
             and any(n == t for t, _ in tests)]

    table = render_markdown(tests, devices, results, known_hit, regressions, lost, stale, args)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table)
    if args.update_doc:
        update_doc(args.update_doc, table)

    for n, d, r, reason in known_hit:
        print("known   %-60s [%s] %s: %s" % (n, d, r, reason))
    for n, d, r in lost:
        print("note    %-60s [%s] passes natively, %s under libskmd" % (n, d, r))
    for n, d in stale:
        print("stale   known difference no longer seen: %s [%s]" % (n, d))
    for n, d, r, _ in regressions:
        print("FAIL    %-60s [%s] passes natively, %s under libskmd" % (n, d, r))
    print("piglit-conformance: %d tests x %d configurations in %.0f s: %d new regression(s), "
          "%d known difference(s)" % (len(tests), len(configs), time.monotonic() - t0,
                                      len(regressions), len(known_hit)))
    return 1 if regressions else 0


def render_markdown(tests, devices, results, known_hit, regressions, lost, stale, args):
    keys = [config_key(d, m) for d in devices for m in ("native", "libskmd")]
    out = ["Generated by `tests/conformance/piglit-conformance.py`%s." %
           (" (subset %s)" % args.subset if args.subset else " (piglit's whole `cl` profile)"), "",
           "| Configuration | pass | fail | skip | warn | crash | timeout |",
           "|---|---|---|---|---|---|---|"]
    for k in keys:
        vals = list(results[k].values())
        out.append("| %s | %s |" % (k, " | ".join(str(vals.count(r)) for r in
                                                  ("pass", "fail", "skip", "warn", "crash", "timeout"))))
    out += ["", "Passes natively but not under libskmd: %d known difference(s), %d new regression(s), "
            "%d other (skip/warn) change(s)." % (len(known_hit), len(regressions), len(lost)), ""]
    if known_hit or regressions or lost:
        out += ["| Test | POCL_DEVICES | libskmd | Status |", "|---|---|---|---|"]
        for n, d, r, reason in known_hit:
            out.append("| %s | %s | %s | known: %s |" % (n, d, r, reason))
        for n, d, r, _ in regressions:
            out.append("| %s | %s | %s | **new regression** |" % (n, d, r))
        for n, d, r in lost:
            out.append("| %s | %s | %s | not gated (skip/warn) |" % (n, d, r))
        out.append("")
    if stale:
        out += ["Known differences not seen in this run: " + ", ".join("%s [%s]" % s for s in stale), ""]
    out += ["### Every test", "", "| Test | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    for name, _ in tests:
        row = []
        for d in devices:
            nat, sk = results[config_key(d, "native")][name], results[config_key(d, "libskmd")][name]
            row += [nat, ("**%s**" % sk) if nat == "pass" and sk != "pass" else sk]
        out.append("| %s | %s |" % (name.replace("|", "\\|"), " | ".join(row)))
    return "\n".join(out) + "\n"


def update_doc(path, table):
    try:
        with open(path) as f:
            doc = f.read()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    if DOC_BEGIN not in doc or DOC_END not in doc:
        die("%s has no '%s' ... '%s' section to replace" % (path, DOC_BEGIN, DOC_END))
    head, rest = doc.split(DOC_BEGIN, 1)
    tail = rest.split(DOC_END, 1)[1]
    with open(path, "w") as f:
        f.write(head + DOC_BEGIN + "\n" + table + DOC_END + tail)


if __name__ == "__main__":
    sys.exit(main())
