#!/usr/bin/env python3
"""A GPU kernel change measured beside the code it replaces, in one run (run
on a GPU machine): two twinvmaf binaries, the old and the new, score the same
upscaled input with each scoring set, in turns, and the table gives each
one's median device ms/frame per twin (TWINVMAF_GPU_TIMING=1: the sum of the
twin's kernels per frame, from its stream's events) and frame loop, then
whether the two give the same bytes (--precision max, fps left out).

    bench/gpu_twin_ab.py --old OLD_CLI --new NEW_CLI [--fixtures DIR]
        [--fixture vtest_576x324_420p8] [--size 3840x2160] [--frames 20]
        [--runs 5] [--scoring "-n --feature float_adm" ...]

Turns (old, new, old, new, ...) so that drift in clocks or temperature hits
both alike. Prints figures only; there is no pass/fail apart from a binary
that fails. Inputs: tools/make_upscaled.py (numpy)."""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_gpu_benchmarks import timed, timing_numbers  # noqa: E402


def scores(cmd, path):
    timed(cmd + ["--precision", "max", "--json", "-q", "-o", path])
    with open(path) as f:
        result = json.load(f)
    return {k: v for k, v in result.items() if k not in ("fps", "version")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--fixtures", default=os.environ.get("TWINVMAF_FIXTURES",
                                                            os.path.join(ROOT, "..", "shared", "fixtures")))
    parser.add_argument("--fixture", default="vtest_576x324_420p8")
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scoring", action="append", help="scoring arguments (repeatable; default: -n --feature float_adm)")
    args = parser.parse_args()
    scorings = args.scoring or ["-n --feature float_adm"]
    width, height = (int(v) for v in args.size.split("x"))
    bitdepth = 10 if "p10" in args.fixture else 12 if "p12" in args.fixture else 8
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_upscaled.py"),
                        os.path.join(args.fixtures, args.fixture), args.size, str(args.frames), tmp],
                       check=True, stdout=subprocess.DEVNULL)
        io = ["-r", os.path.join(tmp, "ref.yuv"), "-d", os.path.join(tmp, "dis.yuv"), "-w", str(width),
              "-h", str(height), "-p", "420", "-b", str(bitdepth), "--backend", "cuda"]
        print("%s, %s, %d frames, %d runs each, medians (old -> new):" % (args.fixture, args.size, args.frames,
                                                                          args.runs))
        for scoring in scorings:
            base = io + shlex.split(scoring) + ["--json", "-o", os.path.join(tmp, "out.json")]
            loops = {"old": [], "new": []}
            device = {"old": {}, "new": {}}
            for _ in range(args.runs):
                for which in ("old", "new"):
                    loop, twins = timing_numbers([getattr(args, which)] + base)
                    loops[which].append(loop)
                    for name, ms in twins.items():
                        device[which].setdefault(name, []).append(ms)
            print("  %s" % scoring)
            print("    %-22s %10s %10s %7s" % ("", "old", "new", "new/old"))
            rows = [("frame loop ms/frame", loops["old"], loops["new"])]
            rows += [("device ms " + name, device["old"].get(name, []), device["new"].get(name, []))
                     for name in sorted(set(device["old"]) | set(device["new"]))]
            for label, old, new in rows:
                o = statistics.median(old) if old else float("nan")
                n = statistics.median(new) if new else float("nan")
                print("    %-22s %10.4f %10.4f %7.3f" % (label, o, n, n / o if o else float("nan")))
            same = scores([args.old] + io + shlex.split(scoring), os.path.join(tmp, "old.json")) == \
                scores([args.new] + io + shlex.split(scoring), os.path.join(tmp, "new.json"))
            print("    same bytes (--precision max, every frame):", same)


if __name__ == "__main__":
    main()
