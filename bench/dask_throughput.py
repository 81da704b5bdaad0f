#!/usr/bin/env python3
"""Catalogue throughput: pairs per second scoring one catalogue with
`twinvmaf --batch` in one process and with twinvmaf.dask on a LocalCluster
of 1 and 2 worker processes (docs/python.md quotes its output).

    PYTHONPATH=build/release/python /usr/bin/python3 bench/dask_throughput.py \
        [--pairs 24] [--fixture vtest_576x324_420p8] [--repeat 3]

The catalogue is the fixture's pair N times (each with its own output), the
default model plus psnr, JSON at full precision. Times exclude starting the
cluster (a cluster is started once and scores the catalogue --repeat
times; the best run is quoted) and include each worker's engine start on its
first pair. The engine threads of each configuration are in its label.

On a GPU host, --gpus N --backend cuda instead compares `--batch` on one GPU
with twinvmaf.dask.local_gpu_cluster() of 1, 2, ... N workers, one GPU each:

    PYTHONPATH=build/release/python /usr/bin/python3 bench/dask_throughput.py --gpus 8 --backend cuda --pairs 64
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def catalogue(folder, fixture, pairs):
    meta = json.loads((fixture / "fixture.json").read_text())
    geometry = f"w={meta['width']} h={meta['height']} p={meta['pixel_format']} b={meta['bitdepth']}"
    lines = [f'"{fixture / "ref.yuv"}" "{fixture / "dis.yuv"}" {geometry} output="{folder / f"pair{i}.json"}"'
             for i in range(pairs)]
    path = folder / "pairs.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def best(seconds):
    return min(seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=24)
    parser.add_argument("--fixture", default="vtest_576x324_420p8")
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES", str(ROOT.parent / "shared/fixtures")))
    parser.add_argument("--cli", default=str(ROOT / "build/release/twinvmaf"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--gpus", type=int, default=0, help="GPU workers: 1..N, one GPU each (with --backend)")
    parser.add_argument("--backend", default="cpu", help="the engines' backend (cpu, cuda, hip)")
    args = parser.parse_args()

    import distributed
    import twinvmaf.dask

    fixture = Path(args.fixtures) / args.fixture
    options = dict(features=["psnr"], format="json", precision="max")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        pairs = catalogue(Path(tmp), fixture, args.pairs)
        batch_runs = [("--threads", "1"), ("--threads", "2")] if not args.gpus else [("--threads", "0")]
        for option, value in batch_runs:
            runs = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                subprocess.run([args.cli, "--batch", str(pairs), "--feature", "psnr", "--json", "--precision", "max",
                                "--backend", args.backend, option, value, "-q"], check=True)
                runs.append(time.perf_counter() - start)
            results.append((f"--batch, one process, {args.backend}, {option} {value}", best(runs)))
        configurations = [(1, 1), (1, 2), (2, 1)] if not args.gpus else [(n, 0) for n in range(1, args.gpus + 1)]
        for workers, threads in configurations:
            if args.gpus:
                cluster = twinvmaf.dask.local_gpu_cluster(workers)
            else:
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=40)
            with cluster, distributed.Client(cluster) as client:
                runs = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = twinvmaf.dask.score_catalogue(pairs, client, backend=args.backend, threads=threads,
                                                           progress=False, **options)
                    runs.append(time.perf_counter() - start)
                    assert not result.failed, result.failed
            what = "GPU(s), one each" if args.gpus else f"x {threads} engine thread(s)"
            results.append((f"dask, {workers} worker(s) {what}", best(runs)))

    print(f"{args.pairs} pairs of {args.fixture} (default model + psnr), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}")
    for label, seconds in results:
        print(f"  {label:48s} {seconds:6.2f} s  {args.pairs / seconds:6.1f} pairs/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
