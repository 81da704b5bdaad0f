#!/usr/bin/env python3
"""Per-kernel GPU profile (run on a GPU machine with Nsight Compute's `ncu`):
for a model or a feature set, the device time of every kernel per frame, the
DRAM bytes it moves and the fraction of the device's DRAM bandwidth it
reaches, beside the frame loop and device span of the same command without
the profiler.

    bench/profile_gpu_kernels.py [--build DIR] [--fixtures DIR]
        [--scoring "--model version=vmaf_v0.6.1" | "--feature float_ssim" ...]
        [--fixture vtest_576x324_420p8] [--size 3840x2160] [--frames 6]
        [--ncu PATH]

Why it is built this way:
  - ncu replays each kernel to read its counters, so its run takes far longer
    than the plain one; the durations it reports are each kernel's own
    (launches serialised), not the overlapped frame loop. Clocks are left
    alone (--clock-control none: the default locks them to base clock, which
    would make every kernel look slower than it runs) and caches are not
    flushed between kernels (--cache-control none), as in a real run.
  - Kernels launched once per run (set-up, tables) are not per-frame costs:
    the command is profiled at 2 and at 2 + N frames and each kernel's figures
    per frame are the difference divided by N.
  - The bandwidth fraction is ncu's dram__throughput (% of peak sustained,
    elapsed) weighted by duration, so a row's figure is what the kernel
    reached while it ran; a kernel near 100 % is bound by memory, one far
    below with few bytes is bound by latency, serial chains or occupancy.
Prints figures only; there is no pass/fail. Inputs: a fixture scaled up
(tools/make_upscaled.py, numpy)."""
import argparse
import collections
import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "dram__throughput.avg.pct_of_peak_sustained_elapsed"]


def number(text):
    """A figure of ncu's CSV, which groups thousands with commas."""
    return float(text.replace(",", ""))


def profile(ncu, command):
    """{kernel name: [launches, ns, bytes, pct x ns]} for one ncu run."""
    result = subprocess.run([ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                             "--cache-control", "none", "--metrics", ",".join(METRICS)] + command,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit("ncu failed (%d): %s" % (result.returncode, result.stderr.strip()[-2000:]))
    # ncu prints its own lines (==PROF==) before the CSV: start at the header.
    text = result.stdout[result.stdout.index('"ID"'):]
    rows = list(csv.DictReader(io.StringIO(text)))
    kernels = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for row in rows:
        if not row.get("ID", "").strip().isdigit():
            continue  # the units row
        name = re.sub(r"\(.*", "", row["Kernel Name"]).strip()
        ns = number(row["gpu__time_duration.sum"])
        k = kernels[name]
        k[0] += 1
        k[1] += ns
        k[2] += number(row["dram__bytes_read.sum"]) + number(row["dram__bytes_write.sum"])
        k[3] += number(row["dram__throughput.avg.pct_of_peak_sustained_elapsed"]) * ns
    return kernels


def timing(command):
    """(frame loop ms/frame, device span ms/frame, twins' device ms/frame line)
    of one plain run with TWINVMAF_GPU_TIMING=1."""
    err = subprocess.run(command, env=dict(os.environ, TWINVMAF_GPU_TIMING="1"), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    loop = float(re.search(r"frame loop [\d.]+ \(([\d.]+)/frame\)", err).group(1))
    span = float(re.search(r"device span [\d.]+ \(([\d.]+)/frame\)", err).group(1))
    twins = re.search(r"device ms/frame: (.*)", err)
    return loop, span, twins.group(1) if twins else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "gpu"))
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--scoring", action="append",
                        help="twinvmaf scoring arguments; repeat for several profiles (default: vmaf_v0.6.1)")
    parser.add_argument("--fixture", default="vtest_576x324_420p8",
                        help="the 4:2:0 fixture scaled up (vtest_576x324_420p10 for 10-bit)")
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--frames", type=int, default=6, help="frames profiled beyond the first 2 (default 6)")
    parser.add_argument("--ncu", default=shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
    args = parser.parse_args()
    scorings = args.scoring or ["--model version=vmaf_v0.6.1"]
    cli = os.path.join(args.build, "twinvmaf")
    width, height = (int(v) for v in args.size.split("x"))
    fixture = os.path.join(args.fixtures, args.fixture)
    with open(os.path.join(fixture, "fixture.json")) as f:
        bitdepth = json.load(f)["bitdepth"]
    frames = 2 + args.frames
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"), fixture, args.size,
                        str(max(frames, 20)), tmp], check=True, stdout=subprocess.DEVNULL)
        inputs = ["-r", os.path.join(tmp, "ref.yuv"), "-d", os.path.join(tmp, "dis.yuv"), "-w", str(width),
                  "-h", str(height), "-p", "420", "-b", str(bitdepth), "--backend", "cuda", "--json",
                  "-o", os.path.join(tmp, "out.json")]
        for scoring in scorings:
            base = [cli] + inputs + shlex.split(scoring)
            short = profile(args.ncu, base + ["--frame_cnt", "2", "-q"])
            full = profile(args.ncu, base + ["--frame_cnt", str(frames), "-q"])
            loop, span, twins = timing(base + ["--frame_cnt", "20"])
            print("\n%s at %s %d-bit: %d frames profiled (ncu %d-frame run less its 2-frame run)" % (
                scoring, args.size, bitdepth, args.frames, frames))
            print("  %-46s %9s %10s %10s %8s %7s" % ("kernel", "launches", "us/frame", "MB/frame", "GB/s",
                                                   "% peak"))
            per_frame = []
            for name, (n, ns, nbytes, pct_ns) in full.items():
                s = short.get(name, [0, 0.0, 0.0, 0.0])
                dn, dns, dbytes, dpct = n - s[0], ns - s[1], nbytes - s[2], pct_ns - s[3]
                if dn <= 0:
                    continue
                per_frame.append((dns / args.frames, name, dn / args.frames, dbytes / args.frames,
                                  dpct / dns if dns > 0 else 0.0))
            total_us = total_mb = 0.0
            for us_ns, name, launches, nbytes, pct in sorted(per_frame, reverse=True):
                us = us_ns / 1000
                total_us += us
                total_mb += nbytes / 1e6
                print("  %-46s %9.2f %10.1f %10.2f %8.0f %7.1f" % (
                    name[:46], launches, us, nbytes / 1e6, nbytes / (us_ns or 1), pct))
            print("  %-46s %9s %10.1f %10.2f %8.0f" % ("sum of kernels (serialised)", "", total_us, total_mb,
                                                       total_mb * 1e3 / (total_us or 1)))
            print("  without ncu, 20 frames: frame loop %.3f ms/frame, device span %.3f ms/frame; %s" % (
                loop, span, twins))


if __name__ == "__main__":
    main()
