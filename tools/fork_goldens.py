#!/usr/bin/env python3
"""Goldens of the lusoris/vmaf fork's extractors on the public fixtures.

    tools/fork_goldens.py FORK_VMAF_CLI [RUN ...]

FORK_VMAF_CLI is the fork's `vmaf` built by tools/build_lusoris_vmaf.sh (it
prints %.17g). Runs are the lines of tests/data/fork_goldens/runs.txt (all of
them when none is named); each is made on every fixture of
$TWINVMAF_FIXTURES (default ../shared/fixtures) with
    vmaf -r ref.yuv -d dis.yuv -w W -h H -p P -b B --threads 1 <run args>
         --precision max --json -o OUT
exactly the MANIFEST's common invocation, on the fixture files themselves:
unlike Netflix 3.2.0's, the fork's raw reader (tools/yuv_input.c) reads
chroma planes of ceil(w/2) x ceil(h/2), the fixtures' layout, so the odd
sizes need no cropped copy (fixture.json's golden_input is about Netflix).

Writes tests/data/fork_goldens/<run>.txt, one line per fixture and key:
    <fixture> <key> <value of frame 0> <value of frame 1> ...
then one line per fixture and key of the pooled metrics:
    <fixture> pooled:<key> <min> <max> <mean> <harmonic_mean>
every number as the fork printed it (%.17g; null for none). A fixture the fork
does not score is one line:
    <fixture> refused <exit status> <the fork's first error line>
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "fork_goldens"


def fixtures_dir():
    return pathlib.Path(os.environ.get("TWINVMAF_FIXTURES", ROOT.parent / "shared" / "fixtures"))


def runs():
    out = {}
    for line in (DATA / "runs.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, args = line.split(" ", 1)
            out[name] = args.split()
    return out


def run_fixture(cli, fixture, args, tmp):
    info = json.loads((fixture / "fixture.json").read_text())
    ref, dis = fixture / "ref.yuv", fixture / "dis.yuv"
    out = tmp / "out.json"
    if out.exists():
        out.unlink()
    cmd = [cli, "-r", str(ref), "-d", str(dis), "-w", str(info["width"]), "-h", str(info["height"]),
           "-p", str(info["pixel_format"]), "-b", str(info["bitdepth"]), "--threads", "1", *args,
           "--precision", "max", "--json", "-o", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0 or not out.exists():
        lines = [l for l in (result.stderr + result.stdout).splitlines() if l.strip()]
        why = next((l for l in lines if "motion_v2" in l or "error" in l.lower() or "problem" in l), lines[-1] if lines else "")
        return [f"{fixture.name} refused {result.returncode} {why.strip()}"]
    # The fork prints %.17g; parse_float=str keeps its digits as printed.
    doc = json.loads(out.read_text(), parse_float=str, parse_int=str)
    frames = doc["frames"]
    if not frames:
        return [f"{fixture.name} refused 0 no frame scored"]
    keys = list(frames[0]["metrics"].keys())
    lines = []
    for key in keys:
        values = [frame["metrics"].get(key) for frame in frames]
        lines.append(" ".join([fixture.name, key] + ["null" if v is None else v for v in values]))
    for key, pooled in doc.get("pooled_metrics", {}).items():
        values = [pooled.get(m) for m in ("min", "max", "mean", "harmonic_mean")]
        lines.append(" ".join([fixture.name, "pooled:" + key] + ["null" if v is None else v for v in values]))
    return lines


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli = sys.argv[1]
    all_runs = runs()
    chosen = sys.argv[2:] or list(all_runs)
    fixtures = sorted(p for p in fixtures_dir().iterdir() if (p / "fixture.json").exists())
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for run in chosen:
            lines = []
            for fixture in fixtures:
                lines += run_fixture(cli, fixture, all_runs[run], tmp)
            (DATA / f"{run}.txt").write_text("\n".join(lines) + "\n")
            print(f"fork_goldens: {run}: {len(fixtures)} fixtures", file=sys.stderr)


if __name__ == "__main__":
    main()
