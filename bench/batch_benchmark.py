#!/usr/bin/env python3
"""Batch scoring against one process per pair (run on a GPU machine).

    bench/batch_benchmark.py [--build DIR] [--fixtures DIR] [--work DIR]
                             [--pairs 100] [--frames 10] [--size 3840x2160]
                             [--backend cuda] [--scoring "--model version=vmaf_v0.6.1"]

Scores PAIRS pairs of SIZE clips of FRAMES frames twice: once with
`twinvmaf --batch LIST` (one process, one engine: the GPU context, the twins
and the pinned pictures made once) and once as PAIRS separate processes,
and prints for both the whole time, the time per pair, and the overhead per
pair: a pair's wall time minus its frame loop. In batch mode that is what
each pair costs beyond its frames (opening the session and the files,
prediction, writing the output; the first pair also pays the engine's
start-up, so it is shown apart); per process it is the process's whole time
minus its frame loop (driver start-up and teardown included). The issue's
target: at most 5 ms per pair in batch mode with --backend cuda. It also
checks that every batch output equals its single run's (apart from fps).

Inputs: vtest_576x324_420p8 scaled up (tools/make_upscaled.py, numpy); the
pairs are hard links to one pair of files (distinct paths, one copy in the
page cache, a few hundred MB of disk). Prints figures only; no pass/fail
apart from the output check (exit 1 when outputs differ)."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST_LINE = re.compile(r"(?:pair (\d+)/\d+ \(line \d+\): )?host ms: start-up ([\d.]+) .*?"
                       r"frame loop ([\d.]+) .*?whole run ([\d.]+)")


def run(cmd, env):
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(cmd)}\n{result.stderr}")
    return seconds, result.stderr


def host_lines(stderr):
    """(pair, start-up ms, frame loop ms, whole run ms) per scored pair."""
    return [(int(m.group(1) or 0), float(m.group(2)), float(m.group(3)), float(m.group(4)))
            for m in HOST_LINE.finditer(stderr)]


def describe(values):
    if not values:
        return "-"
    return (f"median {statistics.median(values):.2f}, mean {statistics.fmean(values):.2f}, "
            f"min {min(values):.2f}, max {max(values):.2f}")


def without_fps(path):
    with open(path, encoding="utf-8") as f:
        return re.sub(r'"fps": [^,\n]*', '"fps"', f.read())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "gpu"))
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                             os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--work", default="/tmp/twinvmaf_batch_bench")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--scoring", default="--model version=vmaf_v0.6.1")
    parser.add_argument("--source", default=None,
                        help="a folder with ref.yuv and dis.yuv of --size (8-bit 4:2:0) to use instead of "
                             "scaling vtest up (needs no numpy); --frames of them are scored")
    args = parser.parse_args()

    cli = os.path.join(args.build, "twinvmaf")
    if not os.access(cli, os.X_OK):
        sys.exit(f"no {cli}: build first (tools/gpu_check.sh builds build/gpu)")
    width, height = (int(v) for v in args.size.split("x"))
    source = args.source or os.path.join(args.work, "source")
    if not os.path.exists(os.path.join(source, "dis.yuv")):
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"),
                        os.path.join(args.fixtures, "vtest_576x324_420p8"), args.size, str(args.frames), source],
                       check=True)
    pairs_dir, out_dir = os.path.join(args.work, "pairs"), os.path.join(args.work, "out")
    os.makedirs(pairs_dir, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    geometry = ["-w", str(width), "-h", str(height), "-p", "420", "-b", "8"]
    lines = []
    for i in range(args.pairs):
        for name in ("ref", "dis"):
            link = os.path.join(pairs_dir, f"{name}_{i:03d}.yuv")
            if not os.path.exists(link):
                try:
                    os.link(os.path.join(source, f"{name}.yuv"), link)
                except OSError:  # another file system, or read-only source
                    os.symlink(os.path.abspath(os.path.join(source, f"{name}.yuv")), link)
        lines.append(f"{pairs_dir}/ref_{i:03d}.yuv {pairs_dir}/dis_{i:03d}.yuv "
                     f"width={width} height={height} pixel_format=420 bitdepth=8 "
                     f"output={out_dir}/batch_{i:03d}.json")
    list_path = os.path.join(args.work, "list.txt")
    with open(list_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

    env = dict(os.environ, TWINVMAF_GPU_TIMING="1")
    common = ["--backend", args.backend, "--frame_cnt", str(args.frames), "--json", "--precision", "max"] + \
        args.scoring.split()
    # Warm-up: the files into the page cache, the driver loaded once.
    run([cli, "-r", f"{pairs_dir}/ref_000.yuv", "-d", f"{pairs_dir}/dis_000.yuv"] + geometry + common +
        ["-o", os.devnull], env)

    batch_seconds, batch_err = run([cli, "--batch", list_path] + common, env)
    batch = host_lines(batch_err)
    process_seconds = 0.0
    processes = []
    for i in range(args.pairs):
        seconds, err = run([cli, "-r", f"{pairs_dir}/ref_{i:03d}.yuv", "-d", f"{pairs_dir}/dis_{i:03d}.yuv"] +
                           geometry + common + ["-o", f"{out_dir}/proc_{i:03d}.json"], env)
        process_seconds += seconds
        lines_i = host_lines(err)
        processes.append((seconds * 1000, lines_i[0][2] if lines_i else float("nan")))

    n = args.pairs
    print(f"{n} pairs of {args.size} x {args.frames} frames, --backend {args.backend}, {args.scoring}")
    print(f"  --batch:        whole {batch_seconds:8.2f} s = {1000 * batch_seconds / n:8.2f} ms/pair")
    print(f"  {n} processes:  whole {process_seconds:8.2f} s = {1000 * process_seconds / n:8.2f} ms/pair")
    if len(batch) == n:
        first, rest = batch[0], batch[1:]
        print(f"  batch, pair 1 (engine start-up {first[1]:.1f} ms): whole {first[3]:.1f} ms, "
              f"frame loop {first[2]:.1f} ms")
        print(f"  batch, pairs 2..{n}: overhead (whole - frame loop) ms/pair: "
              f"{describe([w - f for _, _, f, w in rest])}")
        print(f"  batch, pairs 2..{n}: frame loop ms/pair: {describe([f for _, _, f, _ in rest])}")
        print(f"  batch, pairs 2..{n}: start-up inside the pipeline ms/pair: {describe([s for _, s, _, _ in rest])}")
        loops = sum(f for _, _, f, _ in batch)
        print(f"  batch, whole - every frame loop: {(1000 * batch_seconds - loops) / n:.2f} ms/pair "
              "(process start and end spread over the pairs)")
    else:
        print(f"  (found {len(batch)} timing lines for {n} pairs: is TWINVMAF_GPU_TIMING honoured?)")
    print(f"  processes: overhead (whole - frame loop) ms/pair: {describe([w - f for w, f in processes])}")

    differing = [i for i in range(n)
                 if without_fps(f"{out_dir}/batch_{i:03d}.json") != without_fps(f"{out_dir}/proc_{i:03d}.json")]
    print(f"  outputs: {n - len(differing)}/{n} batch outputs equal their single runs apart from fps"
          + (f"; differ: {differing[:10]}" if differing else ""))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
