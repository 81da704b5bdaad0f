#!/usr/bin/env python3
"""Where a GPU run's start-up goes (issue 27, item 5: process start to the
first frame scored), step by step, on a GPU machine.

    bench/startup_split.py [--build DIR] [--fixtures DIR] [--fixture NAME]
                           [--size 3840x2160] [--frames 10] [--runs 7]
                           [--scoring "--model version=vmaf_v0.6.1"]
                           [--variant NAME=VAR=VALUE,...]

Runs `twinvmaf --backend cuda` --runs times (variants interleaved, so that
drift hits them alike) with TWINVMAF_GPU_TIMING=1 and reads its "start-up
ms:" line (src/core/startup_timeline.h: each step's own milliseconds, from
main() to the first frame scored) and its wall clock at main(). Prints, per
variant, the median and the fastest of each step: process start (launch to
main()), the options and models, the inputs opened, the driver (the first
runtime call: cuInit and the device count), the context, the twins' device
memory, streams and slots, the pinned pictures, the first frame read,
submitted and scored (collected: when the pipeline's window is full, so later
than the device finished it, never earlier), and the total from launch.

A variant runs the same command with environment variables set, e.g.
--variant eager=CUDA_MODULE_LOADING=EAGER to see what loading every kernel
up front costs. --hold-device adds a variant run while another process holds
a context on the device (as nvidia-persistenced or a service would): what of
the start-up is the driver's. --driver-floor also times, in the same turns, a
bare process that only initialises the driver and retains the primary
context (driver API through ctypes: cuInit, cuDevicePrimaryCtxRetain, and
the process's exit): the floor any CUDA program pays on this machine.
Prints figures only; no pass/fail.
Inputs: a fixture scaled up (tools/make_upscaled.py, numpy)."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from run_gpu_benchmarks import HOLDER  # noqa: E402  (the context holder)


# The floor: cuInit and the primary context, timed inside a bare process.
DRIVER_FLOOR = """
import ctypes, time
t0 = time.perf_counter()
cuda = ctypes.CDLL("libcuda.so.1")
device, context = ctypes.c_int(), ctypes.c_void_p()
t1 = time.perf_counter()
assert cuda.cuInit(0) == 0 and cuda.cuDeviceGet(ctypes.byref(device), 0) == 0
t2 = time.perf_counter()
assert cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device) == 0
t3 = time.perf_counter()
print("%.3f %.3f %.3f" % (1000 * (t1 - t0), 1000 * (t2 - t1), 1000 * (t3 - t2)), flush=True)
"""


def driver_floor_run():
    """{step: ms} of the bare driver process."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", DRIVER_FLOOR], capture_output=True, text=True, check=True)
    whole = 1000 * (time.perf_counter() - start)
    load, init, context = (float(v) for v in done.stdout.split())
    return {"libcuda loaded": load, "driver": init, "context": context, "whole command": whole}


def one_run(cmd, env):
    """{step: ms} of one run, with "process start" and "total" from launch."""
    started_ns = time.time_ns()
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    whole_ms = 1000 * (time.perf_counter() - start)
    if done.returncode != 0:
        sys.exit("FAILED (%d): %s\n%s" % (done.returncode, " ".join(cmd), done.stderr[-2000:]))
    at_main = int(re.search(r"wall clock at main\(\): (\d+)", done.stderr).group(1))
    line = re.search(r"start-up ms: (.*?); main\(\) to [a-z ]+ ([\d.]+)", done.stderr)
    if not line:
        sys.exit("no start-up line in:\n" + done.stderr[-2000:])
    steps = {"process start": (at_main - started_ns) / 1e6}
    for part in line.group(1).split(", "):
        name, ms = part.rsplit(" ", 1)
        steps[name] = float(ms)
    steps["launch to first frame scored"] = steps["process start"] + float(line.group(2))
    steps["whole command"] = whole_ms
    return steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "gpu"))
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--fixture", default="vtest_576x324_420p8")
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--scoring", default="--model version=vmaf_v0.6.1")
    parser.add_argument("--variant", action="append", default=[],
                        help="NAME=VAR=VALUE[,VAR=VALUE...]: also run with these variables (repeatable)")
    parser.add_argument("--hold-device", action="store_true",
                        help="also run while another process holds a context on the device")
    parser.add_argument("--driver-floor", action="store_true",
                        help="also time a bare process that only opens the driver and its context")
    args = parser.parse_args()

    cli = os.path.join(args.build, "twinvmaf")
    fixture = os.path.join(args.fixtures, args.fixture)
    bitdepth = 10 if "p10" in args.fixture else 12 if "p12" in args.fixture else 8
    width, height = (int(v) for v in args.size.split("x"))
    variants = [("plain", {})]
    for text in args.variant:
        name, _, assignments = text.partition("=")
        variants.append((name, dict(a.split("=", 1) for a in assignments.split(","))))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"), fixture, args.size,
                        str(args.frames), tmp], check=True, stdout=subprocess.DEVNULL)
        cmd = [cli, "-r", os.path.join(tmp, "ref.yuv"), "-d", os.path.join(tmp, "dis.yuv"), "-w", str(width),
               "-h", str(height), "-p", "420", "-b", str(bitdepth)] + args.scoring.split() + \
              ["--backend", "cuda", "--json", "-o", os.path.join(tmp, "out.json")]
        # The page cache holds the input from here on, as in the benchmarks.
        one_run(cmd, dict(os.environ, TWINVMAF_GPU_TIMING="1"))
        results = {name: [] for name, _ in variants}
        holder = None
        if args.hold_device:
            results["held context"] = []
        if args.driver_floor:
            results["bare driver"] = []
        for _ in range(args.runs):
            for name, extra in variants:
                results[name].append(one_run(cmd, dict(os.environ, TWINVMAF_GPU_TIMING="1", **extra)))
            if args.hold_device:
                holder = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, text=True)
                holder.stdout.readline()
                results["held context"].append(one_run(cmd, dict(os.environ, TWINVMAF_GPU_TIMING="1")))
                holder.stdin.close()
                holder.wait()
            if args.driver_floor:
                results["bare driver"].append(driver_floor_run())

    print("start-up of `%s` at %s %d-bit, %d frames, %d runs: ms, median (fastest)" % (
        args.scoring, args.size, bitdepth, args.frames, args.runs))
    names = list(results)
    steps = list(results[names[0]][0]) + [s for s in ("libcuda loaded",) if args.driver_floor]
    print("%-30s" % "step" + "".join("%22s" % n for n in names))
    for step in steps:
        cells = []
        for n in names:
            values = [r.get(step) for r in results[n] if step in r]
            cells.append("%13.1f (%5.1f)" % (statistics.median(values), min(values)) if values else "-")
        print("%-30s" % step + "".join("%22s" % c for c in cells))


if __name__ == "__main__":
    main()
