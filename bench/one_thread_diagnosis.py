#!/usr/bin/env python3
"""Where a one-thread run's wall time goes: the whole model at --threads 1,
ours and Netflix's, side by side in one run, each as it is started normally,
with every thread of the process pinned to one core, and pinned to two. Per
variant: wall and CPU (user + system) ms/frame, voluntary and involuntary
context switches per frame, peak RSS. A wall time well above the CPU time at
one thread is time spent waiting (hand-overs between the reading, scoring and
main threads, or cores waking up); pinning shows whether moving between cores
costs it. Needs only python3 (and numpy for the clip), as run_cpu_benchmarks.py.

    bench/one_thread_diagnosis.py --netflix PATH [--build DIR] [--fixtures DIR]
        [--case v1016_1080p10] [--frames 100] [--runs 3]

On the GPU machine: bench/run_device_cpu.sh builds build/device-cpu; then
    python3 bench/one_thread_diagnosis.py --build build/device-cpu --netflix PATH
        --fixtures .device/fixtures"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from run_cpu_benchmarks import CASES, run_usage  # noqa: E402


def run(cmd, cores):
    """wall s, cpu s, voluntary and involuntary switches, max rss MiB."""
    wall, usage = run_usage(cmd, (lambda: os.sched_setaffinity(0, cores)) if cores else None)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_nvcsw, usage.ru_nivcsw, usage.ru_maxrss / 1024.0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--netflix", required=True)
    p.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    p.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES", os.path.join(ROOT, "..", "shared", "fixtures")))
    p.add_argument("--case", default="v1016_1080p10", choices=sorted(CASES))
    p.add_argument("--frames", type=int, default=100)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    model, fixture, w, h, depth = CASES[a.case]
    allowed = sorted(os.sched_getaffinity(0))
    variants = [("default", None), ("one core", {allowed[0]})]
    if len(allowed) > 1:
        variants.append(("two cores", set(allowed[:2])))
    with tempfile.TemporaryDirectory() as tmp:
        clip = os.path.join(tmp, "clip")
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"),
                        os.path.join(a.fixtures, fixture), f"{w}x{h}", str(a.frames), clip], check=True)
        args = ["-r", os.path.join(clip, "ref.yuv"), "-d", os.path.join(clip, "dis.yuv"), "-w", str(w), "-h", str(h),
                "-p", "420", "-b", str(depth), "--threads", "1", "-q", "--json", "-o", os.path.join(tmp, "out.json"),
                "--model", f"version={model}"]
        print(f"{a.case}: {model}, {w}x{h} {depth}-bit, {a.frames} frames, --threads 1, least of {a.runs} runs")
        print(f"{'cli':>8} {'variant':>10} {'wall ms/fr':>10} {'cpu ms/fr':>10} {'vol cs/fr':>9} "
              f"{'invol/fr':>8} {'MiB':>6}")
        for name, cores in variants:
            for cli, path in (("ours", os.path.join(a.build, "twinvmaf")), ("netflix", a.netflix)):
                results = [run([path, *args], cores) for _ in range(a.runs)]
                wall = min(r[0] for r in results)
                cpu = min(r[1] for r in results)
                vol = min(r[2] for r in results)
                invol = min(r[3] for r in results)
                rss = max(r[4] for r in results)
                f = a.frames
                print(f"{cli:>8} {name:>10} {1000 * wall / f:>10.2f} {1000 * cpu / f:>10.2f} {vol / f:>9.1f} "
                      f"{invol / f:>8.1f} {rss:>6.0f}")


if __name__ == "__main__":
    main()
