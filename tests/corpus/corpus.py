#!/usr/bin/python3
"""tests/corpus: real OpenCL programs from Debian packages, unchanged, natively and under
libskmd, every result compared with the native run.

Programs: CLBlast's own correctness tests (clblast-tests), ffmpeg's *_opencl filters
(frame checksums), hashcat (a mask attack that must crack a known MD5), pyopencl's array,
elementwise, reduction, scan and clrandom modules (pyopencl_corpus.py, against numpy).
Configurations: native (POCL_DEVICES=pthread), then libskmd on 2 PoCL devices
("pthread pthread") and 3 ("pthread pthread basic"), each by default, forced equal
(SKMD_POLICY=equal) and forced uneven (SKMD_SPLIT), with SKMD_ZERO_COPY=0,
SKMD_SHARE_BUILD=source and a real context per member (SKMD_CONTEXTS=device) in some
(CONFIGS below).  The forced ones also lower
SKMD_MIN_SPLIT_WORKGROUPS so that small launches split too.

A run fails only when something that passes natively fails under libskmd, or when a
program that is expected to split had no launch split under a forced split (libskmd's
SKMD_REPORT=1 table says how many launches of each kernel were split).  Results: one JSON
line per program x configuration in OUT/results.jsonl, the table in OUT/summary.md, each
run's stdout/stderr in OUT/runs/.

usage: corpus.py --preload "LD_PRELOAD value" --out DIR [--jobs N] [--only REGEX] [--configs a,b]
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# name, POCL_DEVICES, libskmd controls (None: native, no libskmd)
FORCED = {"SKMD_MIN_SPLIT_WORKGROUPS": "2"}
CONFIGS = [
    ("native", "pthread", None),
    ("2:default", "pthread pthread", {}),
    ("2:equal", "pthread pthread", dict(FORCED, SKMD_POLICY="equal")),
    # discrete-memory CPU members and shares built from the app's source: NVIDIA's route
    ("2:uneven", "pthread pthread", dict(FORCED, SKMD_SPLIT="0.2,0.8", SKMD_ZERO_COPY="0",
                                         SKMD_SHARE_BUILD="source")),
    ("3:default", "pthread pthread basic", {}),
    ("3:equal", "pthread pthread basic", dict(FORCED, SKMD_POLICY="equal")),
    ("3:uneven", "pthread pthread basic", dict(FORCED, SKMD_SPLIT="0.5,0.2,0.3", SKMD_ZERO_COPY="0")),
    # a real context and programs per member, as every GPU has: members meet only through
    # the host, and a member's own program can fail to build alone
    ("3:contexts", "pthread pthread basic", dict(FORCED, SKMD_SPLIT="0.3,0.4,0.3",
                                                 SKMD_CONTEXTS="device")),
]
FORCED_CONFIGS = {c[0] for c in CONFIGS if c[2] and ("SKMD_SPLIT" in c[2] or c[2].get("SKMD_POLICY") == "equal")}

# (xscal and xomatcopy also pass on every configuration; left out to keep the corpus within
# ~10 minutes on 2 cores with cold caches: CORPUS_CLBLAST="xaxpy xscal ..." picks others)
CLBLAST = os.environ.get("CORPUS_CLBLAST", "xaxpy xdot xnrm2 xamax xgemv xger xtrsv xsyrk").split()
FFMPEG_FILTERS = [
    ("avgblur", "avgblur_opencl=sizeX=3:sizeY=2"),
    ("boxblur", "boxblur_opencl=luma_radius=2:luma_power=1"),
    ("convolution", "convolution_opencl=0m='1 2 1 2 4 2 1 2 1':0rdiv=0.0625"),
    ("unsharp", "unsharp_opencl=lx=5:ly=5:la=1.5"),
    ("nlmeans", "nlmeans_opencl=s=2:p=3:r=7"),
    ("sobel", "sobel_opencl"),
    ("erosion", "erosion_opencl"),
    ("transpose", "transpose_opencl=dir=clock"),
    ("pad", "pad_opencl=w=352:h=272:x=16:y=16"),
    ("overlay", None),     # two inputs: built in ffmpeg_cmd
    ("colorkey", None),    # RGBA: built in ffmpeg_cmd
]
HASH_WORD = "skmd"  # hashcat must find it from its MD5 with the mask ?l?l?l?l


def strip_ansi(s):
    return re.sub(r"\x1b\[[0-9;]*m", "", s)


# ---------------------------------------------------------------- programs
# Each program: dict(name, suite, split (expected to split under a forced split? True, or
# the reason it cannot), cmd(cfg, rundir) -> (argv, extra env), judge(out, err, rc) -> dict
# with "ok" and what to compare, compare(native_result, result) -> None or why not).

def clblast_program(routine):
    def cmd(cfg, rundir):
        return [f"/usr/bin/clblast_test_{routine}", "-platform", "0", "-device", "0"], {}

    def judge(out, err, rc):
        text = strip_ansi(out)
        counts = [tuple(int(x) for x in m) for m in
                  re.findall(r"(\d+) test\(s\) passed\s+(\d+) test\(s\) skipped\s+(\d+) test\(s\) failed", text)]
        passed = sum(c[0] for c in counts)
        skipped = sum(c[1] for c in counts)
        failed = sum(c[2] for c in counts)
        ok = rc == 0 and bool(counts) and failed == 0
        return dict(ok=ok, passed=passed, skipped=skipped, failed=failed, precisions=len(counts),
                    detail=f"{passed} passed/{skipped} skipped/{failed} failed")

    def compare(nat, res):
        if res["passed"] < nat["passed"]:
            return f"{res['passed']} passed, natively {nat['passed']}"
        if res["failed"] > nat["failed"]:
            return f"{res['failed']} failed, natively {nat['failed']}"
        return None
    return dict(name=f"clblast {routine}", suite="clblast", split=True, cmd=cmd, judge=judge, compare=compare,
                timeout=400)


def ffmpeg_cmd(filt):
    base = ["/usr/bin/ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error",
            "-init_hw_device", "opencl=ocl:0.0", "-filter_hw_device", "ocl"]
    src = "testsrc=size=320x240:rate=25:duration=0.2"
    name, spec = filt
    if name == "overlay":
        return base + ["-f", "lavfi", "-i", src, "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:duration=0.2",
                       "-filter_complex",
                       "[0:v]format=yuv420p,hwupload[a];[1:v]format=yuv420p,hwupload[b];"
                       "[a][b]overlay_opencl=x=40:y=30,hwdownload,format=yuv420p",
                       "-f", "framemd5", "-"]
    if name == "colorkey":
        return base + ["-f", "lavfi", "-i", src, "-vf",
                       "format=rgba,hwupload,colorkey_opencl=color=0x00ff00:similarity=0.3:blend=0.1,"
                       "hwdownload,format=rgba", "-f", "framemd5", "-"]
    return base + ["-f", "lavfi", "-i", src, "-vf",
                   f"format=yuv420p,hwupload,{spec},hwdownload,format=yuv420p", "-f", "framemd5", "-"]


def ffmpeg_program(filt):
    def cmd(cfg, rundir):
        return ffmpeg_cmd(filt), {}

    def judge(out, err, rc):
        frames = [line.rsplit(",", 1)[1].strip() for line in out.splitlines()
                  if line and not line.startswith("#") and line.count(",") >= 5]
        return dict(ok=rc == 0 and len(frames) == 5, frames=frames,
                    detail=f"{len(frames)} frames, md5 {hashlib.md5(''.join(frames).encode()).hexdigest()[:12]}")

    def compare(nat, res):
        if res["frames"] != nat["frames"]:
            bad = [i for i, (a, b) in enumerate(zip(nat["frames"], res["frames"])) if a != b]
            return f"frame checksums differ from native (frames {bad or 'count'})"
        return None
    return dict(name=f"ffmpeg {filt[0]}_opencl", suite="ffmpeg",
                split="image kernels (libskmd runs kernels that write images whole)",
                cmd=cmd, judge=judge, compare=compare, timeout=240)


def hashcat_program(icd):
    target = hashlib.md5(HASH_WORD.encode()).hexdigest()

    def cmd(cfg, rundir):
        # hashcat dlopen()s libOpenCL and looks the entry points up in that handle: under
        # LD_PRELOAD libskmd answers that dlopen with itself; by the ICD route
        # (OCL_ICD_VENDORS naming a directory that holds skmd.icd alone, run_one()) the
        # loader it opens loads libskmd as its one vendor.  Its session files go to the
        # run's own directory; its kernel cache (XDG_CACHE_HOME, binaries keyed by device
        # name and options) is the corpus's, so the later configurations of the same members
        # load the binary the first one built (clCreateProgramWithBinary on SKMDBIN2, which
        # carries the source and options of the compile + link: split as the first).
        argv = ["/usr/bin/hashcat", "-a", "3", "-m", "0", "--potfile-disable", "-O", "--backend-ignore-cuda",
                "--quiet", "-D", "1", "--outfile", os.path.join(rundir, "cracked.txt"), "--outfile-format", "1,2",
                target, "?l?l?l?l"]
        return argv, {"HOME": rundir, "XDG_DATA_HOME": os.path.join(rundir, "xdg-data"),
                      "XDG_CONFIG_HOME": os.path.join(rundir, "xdg-config")}

    def judge(out, err, rc, rundir=None):
        cracked = ""
        if rundir and os.path.exists(os.path.join(rundir, "cracked.txt")):
            cracked = open(os.path.join(rundir, "cracked.txt")).read().strip()
        ok = rc == 0 and cracked == f"{target}:{HASH_WORD}"
        return dict(ok=ok, cracked=cracked, detail=f"cracked '{cracked}'" if cracked else f"not cracked (rc {rc})")
    return dict(name="hashcat md5 ?l?l?l?l" + (" (ICD route)" if icd else ""), suite="hashcat", icd=icd,
                split=True,
                cmd=cmd, judge=judge, compare=lambda n, r: None, timeout=400)


def pyopencl_program():
    def cmd(cfg, rundir):
        return ["/usr/bin/python3", os.path.join(HERE, "pyopencl_corpus.py")], \
            {"PYOPENCL_NO_CACHE": "1", "PYOPENCL_CTX": "0"}

    def judge(out, err, rc):
        checks = {name: verdict for verdict, name in re.findall(r"^(PASS|FAIL) ([^:\n]+)", out, re.M)}
        digests = dict(re.findall(r"^DIGEST (\S+) (\S+)", out, re.M))
        npass = sum(v == "PASS" for v in checks.values())
        return dict(ok=rc == 0 and npass == len(checks) == 7, checks=checks, digests=digests,
                    detail=f"{npass}/{len(checks)} checks pass")

    def compare(nat, res):
        lost = [k for k, v in nat["checks"].items() if v == "PASS" and res["checks"].get(k) != "PASS"]
        return f"checks that pass natively fail: {', '.join(lost)}" if lost else None
    return dict(name="pyopencl modules", suite="pyopencl", split=True, cmd=cmd, judge=judge, compare=compare,
                timeout=400, digests=True)


def programs():
    return ([clblast_program(r) for r in CLBLAST] + [ffmpeg_program(f) for f in FFMPEG_FILTERS]
            + [hashcat_program(False), hashcat_program(True), pyopencl_program()])


# ---------------------------------------------------------------- running

def parse_report(err):
    """libskmd's SKMD_REPORT=1 table: per kernel launches, split launches, decision."""
    kernels = {}
    if "libskmd report:" not in err:
        return None
    for line in err[err.index("libskmd report:"):].splitlines():
        m = re.match(r"^(\S+)\s+(\d+)\s+(\d+)/(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(.*)$", line)
        if m and m.group(1) != "kernel":
            kernels[m.group(1)] = dict(launches=int(m.group(2)), split=int(m.group(3)),
                                       decision=m.group(5).strip())
    return kernels


def run_one(prog, cfg, args, env_base):
    cname, devices, controls = cfg
    rundir = os.path.join(args.out, "runs", re.sub(r"[^A-Za-z0-9_.-]+", "_", prog["name"]), cname.replace(":", "-"))
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    argv, extra = prog["cmd"](cfg, rundir)
    env = dict(env_base)
    env.update(extra)
    env["POCL_DEVICES"] = devices
    if controls is not None:
        env.update(controls)
        env["SKMD_REPORT"] = "1"
        env["SKMD_PROFILE_DB"] = os.path.join(args.out, "cache", f"profile-{cname.replace(':', '-')}.db")
        if prog.get("icd"):
            # the ICD route: the system loader finds libskmd through skmd.icd alone
            env["OCL_ICD_VENDORS"] = args.vendors
            env["LD_PRELOAD"] = " ".join(p for p in args.preload.split() if not p.endswith("libskmd.so"))
        else:
            env["LD_PRELOAD"] = args.preload
    t0 = time.time()
    try:
        p = subprocess.run(argv, env=env, cwd=rundir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=prog["timeout"])
        rc, out, err = p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", (e.stdout or b"").decode(errors="replace"), (e.stderr or b"").decode(errors="replace")
    secs = time.time() - t0
    open(os.path.join(rundir, "stdout"), "w").write(out)
    open(os.path.join(rundir, "stderr"), "w").write(err)
    open(os.path.join(rundir, "command"), "w").write(
        " ".join(f"{k}='{env[k]}'" for k in sorted(env) if k.startswith(("SKMD_", "POCL_", "LD_PRELOAD", "OCL_ICD")))
        + " " + " ".join(f"'{a}'" for a in argv) + "\n")
    judge = prog["judge"]
    res = judge(out, err, rc if rc != "timeout" else -1, rundir) if prog["suite"] == "hashcat" else \
        judge(out, err, rc if rc != "timeout" else -1)
    if rc == "timeout":
        res["ok"] = False
        res["detail"] = f"timed out after {prog['timeout']} s; " + res["detail"]
    res.update(program=prog["name"], suite=prog["suite"], config=cname, pocl_devices=devices,
               controls=controls, rc=rc, seconds=round(secs, 1), rundir=os.path.relpath(rundir, args.out))
    if controls is not None:
        rep = parse_report(err)
        res["report"] = rep
        res["launches"] = sum(k["launches"] for k in rep.values()) if rep else 0
        res["split_launches"] = sum(k["split"] for k in rep.values()) if rep else 0
        res["on_skmd"] = rep is not None
        warn = [line for line in err.splitlines() if line.startswith("libskmd: warn")]
        res["libskmd_warnings"] = sorted(set(warn))[:10]
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preload", required=True, help="the LD_PRELOAD value that loads libskmd")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("CORPUS_JOBS", "2")))
    ap.add_argument("--only", default=os.environ.get("CORPUS_ONLY", ""), help="regex on program names")
    ap.add_argument("--configs", default=os.environ.get("CORPUS_CONFIGS", ""), help="comma list of configurations")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    libskmd = next((p for p in args.preload.split() if p.endswith("libskmd.so")), None)
    if not libskmd:
        sys.exit("corpus: --preload names no libskmd.so")
    os.makedirs(os.path.join(args.out, "cache"), exist_ok=True)
    shutil.rmtree(os.path.join(args.out, "runs"), ignore_errors=True)
    for f in os.listdir(os.path.join(args.out, "cache")):
        if f.startswith("profile-"):
            os.remove(os.path.join(args.out, "cache", f))  # each corpus run starts unprofiled
    args.vendors = os.path.join(args.out, "vendors")
    os.makedirs(args.vendors, exist_ok=True)
    open(os.path.join(args.vendors, "skmd.icd"), "w").write(os.path.abspath(libskmd) + "\n")

    missing = [p for p in ["/usr/bin/clblast_test_xaxpy", "/usr/bin/ffmpeg", "/usr/bin/hashcat"] if not os.path.exists(p)]
    if missing:
        print(f"FAIL corpus: missing {', '.join(missing)} (tests/corpus/deps.txt; make deps)")
        return 1
    progs = [p for p in programs() if re.search(args.only, p["name"])]
    cfgs = [c for c in CONFIGS if not args.configs or c[0] in args.configs.split(",") or c[0] == "native"]

    env_base = {k: v for k, v in os.environ.items() if not k.startswith(("SKMD_", "POCL_", "OCL_ICD"))}
    env_base.pop("LD_PRELOAD", None)
    env_base.update({
        "POCL_CPU_MAX_CU_NUM": "1",
        # private caches, kept between corpus runs (PoCL's compiled kernels, libskmd's split programs)
        "POCL_CACHE_DIR": os.path.join(args.out, "cache", "pocl"),
        "SKMD_CACHE_DIR": os.path.join(args.out, "cache", "skmd"),
        "XDG_CACHE_HOME": os.path.join(args.out, "cache", "xdg"),
        "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0",
    })

    t0 = time.time()
    results = []
    # native first (it warms PoCL's kernel cache), then configuration by configuration
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for cfg in cfgs:
            futs = [pool.submit(run_one, p, cfg, args, env_base) for p in progs]
            for f in futs:
                r = f.result()
                results.append(r)
                extra = ""
                if r["controls"] is not None:
                    extra = f"; split {r['split_launches']}/{r['launches']} launches" if r["on_skmd"] else "; NO libskmd report"
                print(f"  {r['config']:10} {r['program']:28} {'ok  ' if r['ok'] else 'fail'} {r['seconds']:6.1f}s  {r['detail']}{extra}",
                      flush=True)
    total = time.time() - t0

    # verdicts: libskmd vs native
    native = {r["program"]: r for r in results if r["config"] == "native"}
    failures = []
    byprog = {p["name"]: p for p in progs}
    digest_ref = {}
    for r in results:
        if r["config"] == "native":
            r["verdict"] = "pass" if r["ok"] else "native-fail"
            continue
        prog, nat = byprog[r["program"]], native.get(r["program"])
        why = None
        if not r["on_skmd"]:
            why = "libskmd printed no report (did the program run on libskmd at all?)"
        elif nat and nat["ok"]:
            if not r["ok"]:
                why = f"fails under libskmd: {r['detail']}"
            else:
                why = prog["compare"](nat, r)
        if not why and prog.get("digests") and r["ok"]:
            # pyopencl sizes some launches by the device's compute units (clrandom), so its
            # digests are compared among the libskmd runs with the same members
            ref = digest_ref.setdefault(r["pocl_devices"], r)
            diff = [k for k in set(ref["digests"]) | set(r["digests"]) if ref["digests"].get(k) != r["digests"].get(k)]
            if diff:
                why = f"results differ from {ref['config']}: {', '.join(sorted(diff))}"
        if not why and r["config"] in FORCED_CONFIGS and prog["split"] is True and r["split_launches"] == 0:
            why = "no launch was split under a forced split"
        r["why"] = why
        r["verdict"] = "FAIL" if why else ("pass" if r["ok"] else "fail-as-native")
        if why:
            failures.append(r)
    forced_split = {c: sum(r["split_launches"] for r in results if r["config"] == c) for c in FORCED_CONFIGS
                    if any(r["config"] == c for r in results)}
    for c, n in forced_split.items():
        if n == 0:
            failures.append(dict(program="(all)", config=c, why="no launch of any program was split"))

    with open(os.path.join(args.out, "results.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps({k: v for k, v in r.items() if k not in ("frames",)}, sort_keys=True) + "\n")

    # the table: programs x configurations
    cols = [c[0] for c in cfgs]
    cell = {}
    for r in results:
        if r["config"] == "native":
            s = "pass" if r["ok"] else "fail"
        else:
            s = {"pass": "pass", "FAIL": "**FAIL**", "fail-as-native": "fail (as native)"}[r["verdict"]]
            s += f" {r['split_launches']}/{r['launches']}"
        cell[(r["program"], r["config"])] = s
    lines = ["| program | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for p in progs:
        lines.append(f"| {p['name']} | " + " | ".join(cell.get((p["name"], c), "-") for c in cols) + " |")
    notes = ["", "Cells under libskmd: verdict, then split launches / launches (SKMD_REPORT=1).",
             "Configurations: " + "; ".join(
                 f"{c[0]}: POCL_DEVICES='{c[1]}'" + ("" if not c[2] else " " + " ".join(f"{k}={v}" for k, v in c[2].items()))
                 for c in cfgs),
             "Programs not expected to split: " + "; ".join(
                 f"{', '.join(p['name'] for p in progs if p['split'] == why)}: {why}"
                 for why in dict.fromkeys(p["split"] for p in progs if p["split"] is not True)),
             f"Corpus time: {total:.0f} s, {len(results)} runs, {args.jobs} at a time."]
    table = "\n".join(lines + notes)
    open(os.path.join(args.out, "summary.md"), "w").write(table + "\n")
    print(table)
    for f in failures:
        cmdfile = os.path.join(args.out, f.get("rundir", ""), "command")
        print(f"FAIL corpus {f['program']} [{f['config']}]: {f['why']}" +
              (f"\n     command: {open(cmdfile).read().strip()}" if f.get("rundir") else ""))
    if failures:
        print(f"FAIL corpus: {len(failures)} failure(s); runs in {args.out}/runs/")
        return 1
    print(f"PASS corpus: {len(progs)} programs x {len(cfgs)} configurations, {total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
