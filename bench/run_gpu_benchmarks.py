#!/usr/bin/env python3
"""GPU benchmarks (run on a GPU machine): fps and ms/frame at 1920x1080 (200
frames) and 3840x2160 (100 frames), --backend cuda against --backend cpu (all
cores), whole command and net of start-up: (t(N) - t(2)) / (N - 2).

    bench/run_gpu_benchmarks.py [--build DIR] [--fixtures DIR] [--netflix PATH]
                                [--scoring "--model version=vmaf_v0.6.1"]
                                [--runs 7] [--hold-device] [--sizes 1920x1080:200,...]
                                [--no-cpu] [--float-twins]

Why it is built this way:
  - A CUDA process's start (driver and context) and end (the driver's
    teardown) vary by tens of ms from run to run, which is as much as 200
    frames of work at 1080p. Both grow with the hardware queues the context
    opens (CUDA_DEVICE_MAX_CONNECTIONS; twinvmaf asks for 2, the driver's
    default is 8), so the driver's floor is timed with both. So each command runs
    --runs times with t(2) and t(N) interleaved (drift hits both alike), and
    the table gives the net from the fastest runs and from the medians.
  - "split" runs the cuda command with TWINVMAF_GPU_TIMING=1, which prints the
    wall clock at main() and after run(): the whole command splits into process
    start, start-up (context, twins, pinned pictures), frame loop and process
    end, for 2 and for N frames (interleaved), so that one sees which part
    makes t(N) - t(2) differ from N - 2 frame loops.
  - --hold-device repeats the cuda rows while another process holds a context
    on the device, as nvidia-persistenced or a long-lived service would: then
    the driver neither initialises the GPU at start nor tears it down at exit.
    It shows how much of the whole command is the driver's and not ours.
Then the device time per twin and the upload share, and Netflix's vmaf on the
same inputs when --netflix is given. Prints figures only; there is no pass/fail.
Inputs: a fixture scaled up (--fixture; tools/make_upscaled.py, numpy).

The float twins (issue 14's figures): --float-twins times every registered
twin of the float family (float_*, psnr_hvs, ciede; read from
src/gpu/twin_registry.cu) alone at 3840x2160 (or --sizes): its device
ms/frame (TWINVMAF_GPU_TIMING=1) and frame loop on cuda next to the CPU's
frame loop on all cores, flagged where the device time is above the 0.5 ms
target; then the whole command with all of them at once (the table rows
above, device time per twin, and cuda == cpu at --precision max).

VMAF v1 (issue 12's figures): --fixture vtest_576x324_420p10 with
  --scoring "--model version=vmaf_v1.0.16_3d0h" --sizes 1920x1080:200, and
  --scoring "--model version=vmaf_v1.0.16_3d0h_2160" --sizes 3840x2160:100."""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = "1920x1080:200,3840x2160:100"

# Opens a primary context on device 0 (through the driver API, so that no
# toolkit is needed), says so, and holds it until its stdin closes.
OPEN_CONTEXT = """
import ctypes, sys
cuda = ctypes.CDLL("libcuda.so.1")
device, context = ctypes.c_int(), ctypes.c_void_p()
if cuda.cuInit(0) or cuda.cuDeviceGet(ctypes.byref(device), 0) or \\
        cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device):
    sys.exit("could not open a CUDA context")
print("holding", flush=True)
"""
HOLDER = OPEN_CONTEXT + "sys.stdin.read()\n"


def timed(cmd, env=None):
    """Seconds the command took, and its stderr; exits on failure."""
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("FAILED (%d): %s\n%s" % (done.returncode, shlex.join(cmd), done.stderr[-2000:]))
    return seconds, done.stderr


def row(label, cmd, frames, runs):
    """One table row: t(2) and t(N) interleaved, `runs` times each."""
    short, full = [], []
    for _ in range(runs):
        short.append(timed(cmd + ["--frame_cnt", "2"])[0])
        full.append(timed(cmd)[0])
    net_best = (min(full) - min(short)) / (frames - 2)
    net_median = (statistics.median(full) - statistics.median(short)) / (frames - 2)
    print("%-34s %6d %10.1f %13.3f %8.1f %13.3f   t(2) %4.0f..%4.0f ms, t(N) %4.0f..%4.0f ms" % (
        label, frames, frames / min(full), 1000 * net_best, 1 / net_best if net_best > 0 else 0,
        1000 * net_median, 1000 * min(short), 1000 * max(short), 1000 * min(full), 1000 * max(full)))


def split_once(cmd):
    """Process start, start-up, frame loop per frame and process end of one
    run with TWINVMAF_GPU_TIMING=1 (ms)."""
    started_ns = time.time_ns()
    seconds, err = timed(cmd, dict(os.environ, TWINVMAF_GPU_TIMING="1"))
    ended_ns = started_ns + int(seconds * 1e9)
    number = lambda pattern: float(re.search(pattern, err).group(1))
    at_main, after_run = number(r"at main\(\): (\d+)"), number(r"after run\(\): (\d+)")
    return ((at_main - started_ns) / 1e6, number(r"start-up ([\d.]+)"),
            number(r"frame loop [\d.]+ \(([\d.]+)/frame\)"), (ended_ns - after_run) / 1e6)


def split(cmd, frames, runs):
    """The cuda command's parts for 2 and for N frames, interleaved: which of
    them differ between t(2) and t(N) besides the frame loop."""
    parts = {2: [], frames: []}
    for _ in range(runs):
        for count, rows in parts.items():
            rows.append(split_once(cmd + ["--frame_cnt", str(count)]))
    for count, rows in parts.items():
        columns = list(zip(*rows))
        print("    split, %3d frames (fastest / median of %d): process start %.1f / %.1f ms, start-up %.1f / %.1f ms, "
              "frame loop %.3f / %.3f ms/frame, process end %.1f / %.1f ms" % (
                  (count, runs) + tuple(v for c in columns for v in (min(c), statistics.median(c)))))


def engine_queues():
    """The hardware queues twinvmaf asks the CUDA driver for (gpu_runtime.h)."""
    with open(os.path.join(ROOT, "src", "gpu", "gpu_runtime.h")) as f:
        return re.search(r'kHardwareQueues = "(\d+)"', f.read()).group(1)


def driver_floor():
    """What any CUDA process pays on this machine: a Python process that
    opens a context and exits, against one that does nothing (fastest of 5),
    with the driver's default hardware queues and with twinvmaf's number."""
    empty = min(timed([sys.executable, "-c", "pass"])[0] for _ in range(5))
    queues = engine_queues()
    for label, count in (("the driver's default queues", None), ("%s queues" % queues, queues)):
        env = {k: v for k, v in os.environ.items() if k != "CUDA_DEVICE_MAX_CONNECTIONS"}
        if count:
            env["CUDA_DEVICE_MAX_CONNECTIONS"] = count
        context = min(timed([sys.executable, "-c", OPEN_CONTEXT], env)[0] for _ in range(5))
        print("driver floor, %s: a process that opens a CUDA context and exits takes %.0f ms more than an empty "
              "one (%.0f against %.0f ms)" % (label, 1000 * (context - empty), 1000 * context, 1000 * empty))


class DeviceHolder:
    """Another process holding a context on the device while in use."""

    def __enter__(self):
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "holding":
            sys.exit("--hold-device: could not open a CUDA context")
        return self

    def __exit__(self, *exc):
        self.process.stdin.close()
        self.process.wait()


# The 0.5 ms/frame device-time target of issue 14 for each float twin at 4K.
FLOAT_TWIN_TARGET_MS = 0.5


def float_family_twins():
    """The registered GPU twins of the float family, in registry order."""
    with open(os.path.join(ROOT, "src", "gpu", "twin_registry.cu")) as f:
        names = re.findall(r'\{"([a-z0-9_]+)", \{', f.read())
    return [n for n in names if n.startswith("float_") or n in ("psnr_hvs", "ciede")]


def timing_numbers(cmd, feature_names=None):
    """One run with TWINVMAF_GPU_TIMING=1: (frame loop ms/frame, {twin: device
    ms/frame}) from its stderr (device figures only on a GPU backend), of the
    twins named in feature_names (None: every entry, upload and readback
    included)."""
    err = timed(cmd, dict(os.environ, TWINVMAF_GPU_TIMING="1"))[1]
    loop = float(re.search(r"frame loop [\d.]+ \(([\d.]+)/frame\)", err).group(1))
    device = {}
    line = re.search(r"device ms/frame: (.*)", err)
    if line:
        for part in line.group(1).split(", "):
            name, _, value = part.rpartition(" ")
            if feature_names is None or name in feature_names:
                device[name] = float(value)
    return loop, device


def float_twins(cli, io, tmp, cores, frames, runs, no_cpu):
    """Issue 14's benchmark: each float twin alone, then all at once."""
    twins = float_family_twins()
    out = ["--json", "-o", os.path.join(tmp, "out.json")]
    print("  each twin alone (frame loops of one run each; device ms/frame summed over the twin's kernels):")
    print("    %-16s %12s %16s %16s %9s" % ("twin", "device ms", "cuda loop ms", "cpu loop ms", "cpu/cuda"))
    usable = []
    for twin in twins:
        base = [cli] + io + ["-n", "--feature", twin] + out
        probe = subprocess.run(base + ["--backend", "cuda", "--frame_cnt", "2", "-q"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        if probe.returncode != 0:
            print("    %-16s refused on cuda: %s" % (twin, probe.stderr.strip().splitlines()[-1][:100]))
            continue
        usable.append(twin)
        cuda_loop, device = timing_numbers(base + ["--backend", "cuda"], twins)
        cpu_loop = None if no_cpu else timing_numbers(base + ["--backend", "cpu", "--threads", str(cores)],
                                                      twins)[0]
        ms = device.get(twin, float("nan"))
        print("    %-16s %12.4f %16.3f %16s %9s%s" % (
            twin, ms, cuda_loop, "-" if cpu_loop is None else "%.3f" % cpu_loop,
            "-" if cpu_loop is None else "%.1f" % (cpu_loop / cuda_loop),
            "   <-- above the %.1f ms target" % FLOAT_TWIN_TARGET_MS if ms > FLOAT_TWIN_TARGET_MS else ""))
    if not usable:
        return
    scoring = ["-n"] + [v for twin in usable for v in ("--feature", twin)]
    print("  all %d at once (%s):" % (len(usable), " ".join(usable)))
    print("%-34s %6s %10s %13s %8s %13s" % ("command", "frames", "whole fps", "net ms/frame", "net fps",
                                            "net (medians)"))
    ours = lambda backend: [cli] + io + scoring + ["--backend", backend, "--threads", str(cores), "-q"] + out
    row("twinvmaf cuda, every float twin", ours("cuda"), frames, runs)
    if not no_cpu:
        row("twinvmaf cpu, every float twin", ours("cpu"), frames, runs)
    err = timed([cli] + io + scoring + ["--backend", "cuda"] + out, dict(os.environ, TWINVMAF_GPU_TIMING="1"))[1]
    for line in err.splitlines():
        if re.search(r"device ms/frame|host ms", line):
            print("    " + line)
    print_backends_agree(cli, io + scoring, 10, tmp)


def print_backends_agree(cli, scoring_args, frames, tmp):
    """Scores the first `frames` frames on both backends at --precision max and
    says whether every value but fps and version is the same."""
    results = []
    for backend in ("cuda", "cpu"):
        path = os.path.join(tmp, backend + ".json")
        timed([cli] + scoring_args + ["--precision", "max", "--json", "--frame_cnt", str(frames), "-q",
                                      "--backend", backend, "-o", path])
        with open(path) as f:
            scores = json.load(f)
        results.append({k: v for k, v in scores.items() if k not in ("fps", "version")})
    print("  cuda == cpu on the first %d frames (--precision max):" % frames, results[0] == results[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "gpu"))
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--netflix", help="Netflix's vmaf CLI (built with CUDA) to time on the same inputs")
    parser.add_argument("--scoring", default="--model version=vmaf_v0.6.1")
    parser.add_argument("--fixture", default="vtest_576x324_420p8",
                        help="the 4:2:0 fixture scaled up to each size (default vtest_576x324_420p8; "
                             "vtest_576x324_420p10 for 10-bit inputs)")
    parser.add_argument("--runs", type=int, default=7, help="runs of each of t(2) and t(N) (default 7)")
    parser.add_argument("--sizes", default=SIZES,
                        help="WIDTHxHEIGHT:FRAMES,... (default %s); longer clips shrink the start-up's noise "
                             "in the net" % SIZES)
    parser.add_argument("--no-cpu", action="store_true", help="leave out the --backend cpu rows")
    parser.add_argument("--float-twins", action="store_true",
                        help="issue 14's benchmark: every float twin alone and all at once (sizes default to "
                             "3840x2160:50; --scoring is ignored)")
    parser.add_argument("--hold-device", action="store_true",
                        help="also time the cuda rows while another process holds the device open")
    parser.set_defaults(sizes=None)
    args = parser.parse_args()
    if args.sizes is None:
        args.sizes = "3840x2160:50" if args.float_twins else SIZES
    cli = os.path.join(args.build, "twinvmaf")
    scoring = shlex.split(args.scoring)
    cores = os.cpu_count()
    print("scoring: %s   (cpu: %d threads, %d runs of each of t(2) and t(N))" % (
        "every float twin" if args.float_twins else args.scoring, cores, args.runs))

    driver_floor()
    if args.hold_device:
        with DeviceHolder():
            print("  with the device held open:", end=" ")
            driver_floor()
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.sizes.split(","):
            size, frames = spec.split(":")
            width, height, frames = (int(v) for v in size.split("x") + [frames])
            size = "%dx%d" % (width, height)
            fixture = os.path.join(args.fixtures, args.fixture)
            with open(os.path.join(fixture, "fixture.json")) as f:
                bitdepth = json.load(f)["bitdepth"]
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"), fixture, size,
                            str(frames), tmp], check=True, stdout=subprocess.DEVNULL)
            io = ["-r", os.path.join(tmp, "ref.yuv"), "-d", os.path.join(tmp, "dis.yuv"),
                  "-w", str(width), "-h", str(height), "-p", "420", "-b", str(bitdepth)]
            out = ["--json", "-o", os.path.join(tmp, "out.json")]
            ours = lambda backend: [cli] + io + scoring + ["--backend", backend, "--threads", str(cores), "-q"] + out
            # Without -q: the timing lines are printed only then.
            timing_run = [cli] + io + scoring + ["--backend", "cuda"] + out

            print("\n%s %d-bit, %d frames" % (size, bitdepth, frames))
            if args.float_twins:
                float_twins(cli, io, tmp, cores, frames, args.runs, args.no_cpu)
                continue
            print("%-34s %6s %10s %13s %8s %13s" % ("command", "frames", "whole fps", "net ms/frame", "net fps",
                                                    "net (medians)"))
            row("twinvmaf cuda", ours("cuda"), frames, args.runs)
            split(timing_run, frames, args.runs)
            if args.hold_device:
                with DeviceHolder():
                    row("twinvmaf cuda, device held open", ours("cuda"), frames, args.runs)
                    split(timing_run, frames, args.runs)
            if not args.no_cpu:
                row("twinvmaf cpu", ours("cpu"), frames, args.runs)
            if args.netflix:
                row("netflix", [args.netflix] + io + scoring + ["--threads", str(cores), "-q"] + out, frames,
                    args.runs)

            print("  device time per frame (cuda):")
            err = timed(timing_run, dict(os.environ, TWINVMAF_GPU_TIMING="1"))[1]
            for line in err.splitlines():
                if re.search(r"device ms/frame|host ms|backend", line):
                    print("    " + line)

            print_backends_agree(cli, io + scoring, 20, tmp)


if __name__ == "__main__":
    main()
