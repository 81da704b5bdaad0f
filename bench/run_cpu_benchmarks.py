#!/usr/bin/env python3
"""CPU benchmarks against Netflix's `vmaf`, side by side in one run (issue 16's
figures): for each case, the whole model at --threads 1 and at all cores, each
extractor of the model alone at --threads 1, and what reading the pairs costs
(no extractor), ours and Netflix's, ms/frame and the ratio (Netflix's time /
ours: above 1 means we are faster). Needs only python3 and numpy (no bc, no
GNU time), so it runs on the GPU machine too (bench/run_device_cpu.sh).

    bench/run_cpu_benchmarks.py --netflix PATH [--build DIR] [--fixtures DIR]
        [--cases v061_1080p,v1016_1080p10,v061_2160p] [--runs 3] [--threads 1,N]
        [--frames-1080p 200] [--frames-2160p 60] [--no-per-feature] [--reading-only]
        [--extra-features float_vif,float_adm,...]

Cases: vmaf_v0.6.1 on 1920x1080 8-bit (v061_1080p), vmaf_v1.0.16_3d0h on
1920x1080 10-bit (v1016_1080p10) and vmaf_v0.6.1 on 3840x2160 8-bit
(v061_2160p); the pictures are vtest_576x324_420p8 / _420p10 scaled up
(tools/make_upscaled.py) and looped.

Every figure is the least of --runs runs (wall time for the whole model,
user + system CPU time for the extractors alone, which on a shared machine is
steadier; the whole model rows also give their CPU time per frame: at one
thread, a wall time above it is time spent waiting), and is given twice: per
frame of the whole command, and net of start-up, (t(N frames) - t(2 frames))
/ (N - 2). The extractor rows' "net" is also less the "(read only)" row. The whole model rows add the peak resident
memory (max RSS) of the process.

--reading-only prints, per case, only what reading the pairs costs at one
thread, from runs in which ours and Netflix's take turns (so a slow spell of
the machine falls on both): the least and the median CPU time per frame of
the whole command and net of start-up, and the median user and system time
(reading is mostly the kernel's copy from the page cache, system time).
Prints figures only; no pass/fail."""
import argparse
import json
import os
import re
import subprocess
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = {
    "v061_1080p": ("vmaf_v0.6.1", "vtest_576x324_420p8", 1920, 1080, 8),
    "v1016_1080p10": ("vmaf_v1.0.16_3d0h", "vtest_576x324_420p10", 1920, 1080, 10),
    "v061_2160p": ("vmaf_v0.6.1", "vtest_576x324_420p8", 3840, 2160, 8),
}


def run_usage(cmd, preexec_fn=None):
    """(wall seconds, resource usage) of one run; exits on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=preexec_fn)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if status != 0:
        sys.exit(f"FAILED ({status}): {' '.join(cmd)}\n{err}")
    return wall, usage


def run(cmd):
    """(wall seconds, cpu seconds, max rss MiB) of one run; exits on failure."""
    wall, usage = run_usage(cmd)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def best(cmd, runs):
    """Least wall, least cpu and largest rss over `runs` runs."""
    results = [run(cmd) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def taking_turns(cmds, runs):
    """Per command, the (user + system, user, system) CPU seconds of each of
    `runs` runs, the commands run one after the other in turn."""
    results = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            _, usage = run_usage(cmd)
            results[i].append((usage.ru_utime + usage.ru_stime, usage.ru_utime, usage.ru_stime))
    return results


def reading_rows(clis, args, frames, runs):
    """The --reading-only table of one case: each CLI with no extractor at
    one thread, whole and 2-frame runs taking turns."""
    whole = taking_turns([[cli, *args(False, "--no_prediction")] for cli in clis], runs)
    start = taking_turns([[cli, *args(True, "--no_prediction")] for cli in clis], runs)
    rows = []
    for w, s in zip(whole, start):
        cpu = [r[0] for r in w]
        rows.append({
            "least": 1000 * min(cpu) / frames,
            "median": 1000 * statistics.median(cpu) / frames,
            "net": 1000 * (statistics.median(cpu) - statistics.median(r[0] for r in s)) / (frames - 2),
            "user": 1000 * statistics.median(r[1] for r in w) / frames,
            "system": 1000 * statistics.median(r[2] for r in w) / frames,
            "spread": 1000 * (max(cpu) - min(cpu)) / frames,
        })
    ours, theirs = rows
    print(f"{'':>7} {'least':>8} {'median':>8} {'net':>8} {'user':>7} {'system':>7} {'max-min':>8}"
          f"   (CPU ms/frame, one thread, {runs} runs each taking turns; net: median less 2-frame median)")
    for name, row in (("ours", ours), ("netflix", theirs)):
        print(f"{name:>7} {row['least']:>8.3f} {row['median']:>8.3f} {row['net']:>8.3f} {row['user']:>7.3f} "
              f"{row['system']:>7.3f} {row['spread']:>8.3f}")
    print(f"{'ratio':>7} {ratio(theirs['least'], ours['least']):>8} {ratio(theirs['median'], ours['median']):>8} "
          f"{ratio(theirs['net'], ours['net']):>8} {ratio(theirs['user'], ours['user']):>7} "
          f"{ratio(theirs['system'], ours['system']):>7}")


def model_features(model):
    """The model's extractors with their options, as --feature arguments."""
    path = None
    for folder, _, files in os.walk(os.path.join(ROOT, "models")):
        if model + ".json" in files:
            path = os.path.join(folder, model + ".json")
    data = json.load(open(path))
    data = data.get("model_dict", data)
    names = data["feature_names"]
    opts = data.get("feature_opts_dicts") or [{}] * len(names)
    specs = []
    for name, opt in zip(names, opts):
        m = re.match(r"(VMAF_integer_feature|VMAF_feature|Cambi_feature|Speed_chroma_feature)_(\w+?)_", name + "_")
        if not m:
            continue
        group, key = m.groups()
        if group == "Cambi_feature":
            extractor = "cambi"
        elif group == "Speed_chroma_feature":
            extractor = "speed_chroma"
        else:
            base = re.match(r"(adm|motion|vif|ansnr)", key).group(1)
            extractor = base if group == "VMAF_integer_feature" else "float_" + base
        text = lambda v: "true" if v is True else "false" if v is False else str(v)
        spec = extractor + ("=" + ":".join(f"{k}={text(v)}" for k, v in opt.items()) if opt else "")
        if spec not in specs:
            specs.append(spec)
    return specs


def ratio(theirs, ours):
    return f"{theirs / ours:.2f}x" if ours > 0 else "-"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--netflix", required=True, help="Netflix's vmaf CLI")
    p.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    p.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES", os.path.join(ROOT, "..", "shared", "fixtures")))
    p.add_argument("--cases", default="v061_1080p,v1016_1080p10,v061_2160p")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--threads", default=f"1,{os.cpu_count()}")
    p.add_argument("--frames-1080p", type=int, default=200)
    p.add_argument("--frames-2160p", type=int, default=60)
    p.add_argument("--no-per-feature", action="store_true")
    p.add_argument("--reading-only", action="store_true",
                   help="only the (read only) row of each case: what reading the pairs costs, "
                        "with more frames and runs than the full table can afford")
    p.add_argument("--extra-features", default="",
                   help="more extractors to time alone at one thread in every case, beside the model's "
                        "(comma-separated --feature specs, e.g. float_vif,float_adm,float_ssim)")
    a = p.parse_args()
    ours = os.path.join(a.build, "twinvmaf")
    kernels = subprocess.run([ours, "--version"], capture_output=True, text=True).stdout.strip().replace("\n", "; ")
    print(f"ours: {kernels}; TWINVMAF_SIMD={os.environ.get('TWINVMAF_SIMD', '(unset)')}")
    print(f"netflix: {a.netflix}; cores: {os.cpu_count()}; runs: {a.runs} (least)")
    threads = [int(t) for t in a.threads.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        for case in a.cases.split(","):
            model, fixture, w, h, depth = CASES[case]
            frames = a.frames_2160p if h > 1080 else a.frames_1080p
            clip = os.path.join(tmp, case)
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"),
                            os.path.join(a.fixtures, fixture), f"{w}x{h}", str(frames), clip], check=True)
            # The first 2 frames of the same clip, for the start-up figure.
            frame_bytes = (w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)) * (1 if depth == 8 else 2)
            for side in ("ref", "dis"):
                with open(os.path.join(clip, f"{side}.yuv"), "rb") as f, \
                        open(os.path.join(clip, f"{side}2.yuv"), "wb") as g:
                    g.write(f.read(2 * frame_bytes))

            def args(two, *scoring, threads=1):
                suffix = "2" if two else ""
                return ["-r", os.path.join(clip, f"ref{suffix}.yuv"), "-d", os.path.join(clip, f"dis{suffix}.yuv"),
                        "-w", str(w), "-h", str(h), "-p", "420", "-b", str(depth), "--threads", str(threads),
                        "-q", "--json", "-o", os.path.join(tmp, "out.json"), *scoring]

            def measure(cli, scoring, threads, cpu):
                """ms/frame whole and net of start-up, and max RSS."""
                whole = best([cli, *args(False, *scoring, threads=threads)], a.runs)
                start = best([cli, *args(True, *scoring, threads=threads)], a.runs)
                i = 1 if cpu else 0
                return (1000 * whole[i] / frames, 1000 * (whole[i] - start[i]) / (frames - 2), whole[2],
                        1000 * whole[1] / frames)

            print(f"\n== {case}: {model}, {w}x{h} {depth}-bit, {frames} frames ({fixture} scaled up)")
            if a.reading_only:
                reading_rows([ours, a.netflix], args, frames, a.runs)
                continue
            print(f"{'threads':>7} {'ours ms/fr':>10} {'nflx ms/fr':>10} {'ratio':>6} {'ours net':>9} "
                  f"{'nflx net':>9} {'ratio':>6} {'ours MiB':>8} {'nflx MiB':>8} {'ours cpu':>9} {'nflx cpu':>9}"
                  "   (whole model, wall; cpu: user + system ms/frame)")
            for t in threads:
                o = measure(ours, ["--model", f"version={model}"], t, cpu=False)
                n = measure(a.netflix, ["--model", f"version={model}"], t, cpu=False)
                print(f"{t:>7} {o[0]:>10.3f} {n[0]:>10.3f} {ratio(n[0], o[0]):>6} {o[1]:>9.3f} {n[1]:>9.3f} "
                      f"{ratio(n[1], o[1]):>6} {o[2]:>8.0f} {n[2]:>8.0f} {o[3]:>9.3f} {n[3]:>9.3f}")
            if a.no_per_feature:
                continue
            print(f"{'extractor':>14} {'ours ms/fr':>10} {'nflx ms/fr':>10} {'ratio':>6} {'ours net':>9} "
                  f"{'nflx net':>9} {'ratio':>6}   (one thread, CPU time; net: less start-up and reading)")
            read = None
            extras = [f for f in a.extra_features.split(",") if f]
            specs = model_features(model) + extras
            for spec in ["(read only)"] + specs:
                scoring = ["--no_prediction"] + ([] if spec == "(read only)" else ["--feature", spec])
                o = measure(ours, scoring, 1, cpu=True)
                n = measure(a.netflix, scoring, 1, cpu=True)
                if read is None:
                    read = (o[1], n[1])
                    net_o, net_n = o[1], n[1]
                else:
                    net_o, net_n = o[1] - read[0], n[1] - read[1]
                print(f"{spec.split('=')[0]:>14} {o[0]:>10.3f} {n[0]:>10.3f} {ratio(n[0], o[0]):>6} "
                      f"{net_o:>9.3f} {net_n:>9.3f} {ratio(net_n, net_o):>6}")


if __name__ == "__main__":
    main()
