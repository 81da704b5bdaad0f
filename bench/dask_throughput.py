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
    args = parser.parse_args()

    import distributed
    import twinvmaf.dask

    fixture = Path(args.fixtures) / args.fixture
    options = dict(features=["psnr"], format="json", precision="max")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        pairs = catalogue(Path(tmp), fixture, args.pairs)
        for threads in (1, 2):
            runs = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                subprocess.run([args.cli, "--batch", str(pairs), "--feature", "psnr", "--json", "--precision", "max",
                                "--threads", str(threads), "-q"], check=True)
                runs.append(time.perf_counter() - start)
            results.append((f"--batch, one process, {threads} engine thread(s)", best(runs)))
        for workers, threads in ((1, 1), (1, 2), (2, 1)):
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=40) as cluster, \
                    distributed.Client(cluster) as client:
                runs = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = twinvmaf.dask.score_catalogue(pairs, client, threads=threads, **options)
                    runs.append(time.perf_counter() - start)
                    assert not result.failed, result.failed
            results.append((f"dask, {workers} worker(s) x {threads} engine thread(s)", best(runs)))

    print(f"{args.pairs} pairs of {args.fixture} (default model + psnr), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}")
    for label, seconds in results:
        print(f"  {label:45s} {seconds:6.2f} s  {args.pairs / seconds:6.1f} pairs/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
