#!/usr/bin/env python3
"""Goldens of the lusoris/vmaf fork's extractors on the public fixtures.

    tools/fork_goldens.py FORK_VMAF_CLI [RUN ...]
    tools/fork_goldens.py --sweep FORK_VMAF_CLI [RUN ...]

FORK_VMAF_CLI is the fork's `vmaf` built from its source (docs/compat.md, "Reference builds"; it
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

--sweep: the same runs on small synthetic clips instead (sweep_sizes() at
each of SWEEP_BITS, 4:2:0, SWEEP_FRAMES frames, made here in a temporary folder):
luma from splitmix64 (sweep_luma(); tests/unit/test_fork_golden.cpp makes
the same pictures), chroma mid-grey, chroma planes ceil(w/2) x ceil(h/2) (the
fork's reader). Writes tests/data/fork_goldens/sweep_<run>.txt with lines
    <W>x<H> <bitdepth> <key> <frame 0> <frame 1> ...
or  <W>x<H> <bitdepth> refused <exit status> <message>.
With --valgrind the fork runs under memcheck on VALGRIND_SIZES x
VALGRIND_BITS (plain C path, --cpumask 255,
and AVX2, --cpumask 48) instead and one line per case says "clean" or the
first error.
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


SWEEP_EDGES = [1, 2, 3, 4, 5, 8, 9, 10, 16, 17, 33]
SWEEP_EXTRA = {(65, 3), (3, 65), (129, 17), (40, 40)}
SWEEP_BITS = [8, 10, 12, 16]


def sweep_sizes(bitdepth):
    """8-bit: every W x H up to 40x40 (tools/size_sweep.py's full grid);
    deeper: the edge sizes crossed; both with SWEEP_EXTRA."""
    if bitdepth == 8:
        grid = {(w, h) for w in range(1, 41) for h in range(1, 41)}
    else:
        grid = {(w, h) for w in SWEEP_EDGES for h in SWEEP_EDGES}
    return sorted(grid | SWEEP_EXTRA)
SWEEP_FRAMES = 3
# --valgrind: the sizes and bit depths run under memcheck (a subset: memcheck
# is slow).
VALGRIND_EDGES = [1, 2, 3, 4, 5, 17]
VALGRIND_SIZES = [(w, h) for w in VALGRIND_EDGES for h in VALGRIND_EDGES]
VALGRIND_BITS = [8, 16]
MASK64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def sweep_luma(w, h, bitdepth, frame):
    """(ref, dis) luma, row-major: ref = previous frame's ref plus noise in
    [-amp, amp] (uniform in [0, max] on frame 0), dis = ref plus noise, both
    clipped; amp = 24 << (bitdepth - 8)."""
    maxval = (1 << bitdepth) - 1
    amp = 24 << (bitdepth - 8)
    ref, dis = [], []
    state0 = (w << 40) ^ (h << 24) ^ (bitdepth << 16)
    base = None
    for f in range(frame + 1):
        state = state0 ^ f
        ref, dis = [], []
        for i in range(w * h):
            state, r = splitmix64(state)
            motion = (r >> 16) % (2 * amp + 1) - amp
            noise = (r >> 40) % (2 * amp + 1) - amp
            value = r % (maxval + 1) if base is None else min(max(base[i] + motion, 0), maxval)
            ref.append(value)
            dis.append(min(max(value + noise, 0), maxval))
        base = ref
    return ref, dis


def sweep_clip(folder, w, h, bitdepth):
    cw, ch = (w + 1) // 2, (h + 1) // 2
    mid = 1 << (bitdepth - 1)
    width = 1 if bitdepth == 8 else 2
    pack = lambda xs: b"".join(x.to_bytes(width, "little") for x in xs)
    chroma = pack([mid] * (cw * ch)) * 2
    files = []
    for side in (0, 1):
        path = folder / f"{w}x{h}.{bitdepth}.{side}.yuv"
        path.write_bytes(b"".join(pack(sweep_luma(w, h, bitdepth, f)[side]) + chroma
                                  for f in range(SWEEP_FRAMES)))
        files.append(path)
    return files


def sweep(cli, chosen, all_runs, valgrind):
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for run in chosen:
            lines = []
            for bitdepth in (VALGRIND_BITS if valgrind else SWEEP_BITS):
                for (w, h) in (VALGRIND_SIZES if valgrind else sweep_sizes(bitdepth)):
                    ref, dis = sweep_clip(tmp, w, h, bitdepth)
                    base = [cli, "-r", str(ref), "-d", str(dis), "-w", str(w), "-h", str(h), "-p", "420",
                            "-b", str(bitdepth), "--threads", "1", *all_runs[run], "--precision", "max"]
                    where = f"{w}x{h} {bitdepth}"
                    if valgrind:
                        for mask in ("255", "48"):
                            r = subprocess.run(["valgrind", "-q", "--error-exitcode=99", *base, "--cpumask", mask,
                                                "--json", "-o", str(tmp / "vg.json")], capture_output=True, text=True)
                            errs = [l for l in r.stderr.splitlines() if l.startswith("==")]
                            lines.append(f"{where} cpumask={mask} " + ("clean" if r.returncode != 99 else
                                         " | ".join(errs[:3])))
                        continue
                    out = tmp / "out.json"
                    if out.exists():
                        out.unlink()
                    r = subprocess.run([*base, "--json", "-o", str(out)], capture_output=True, text=True)
                    doc = json.loads(out.read_text(), parse_float=str, parse_int=str) if out.exists() else None
                    if r.returncode != 0 or not doc or not doc["frames"]:
                        msg = [l.strip() for l in (r.stderr + r.stdout).splitlines() if l.strip()]
                        why = next((l for l in msg if "ERROR" in l or "error" in l), msg[-1] if msg else "")
                        lines.append(f"{where} refused {r.returncode} {why}")
                        continue
                    frames = doc["frames"]
                    for key in frames[0]["metrics"]:
                        values = [fr["metrics"].get(key) for fr in frames]
                        lines.append(" ".join([where, key] + ["null" if v is None else v for v in values]))
            name = ("sweep_valgrind_" if valgrind else "sweep_") + run
            (DATA / f"{name}.txt").write_text("\n".join(lines) + "\n")
            print(f"fork_goldens: {name}: {len(lines)} lines", file=sys.stderr)


def main():
    args = sys.argv[1:]
    mode = None
    while args and args[0] in ("--sweep", "--valgrind"):
        mode = args.pop(0)
    if not args:
        sys.exit(__doc__)
    cli = args[0]
    if mode:
        all_runs = runs()
        sweep(cli, args[1:] or list(all_runs), all_runs, mode == "--valgrind")
        return
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
