#!/usr/bin/env python3
"""Goldens of the lusoris/vmaf fork's ssimulacra2 extractor.

  ssimulacra2_goldens.py fixtures VMAF FIXTURES OUT [--cpumask M]
      runs the fork's CLI (docs/compat.md, "Reference builds") on every public
      fixture (every yuv_matrix on a few of them, MATRIX_FIXTURES) and writes
      OUT: one line per frame, "FIXTURE yuv_matrix=N FRAME VALUE" (%.17g as
      the CLI prints it). The fork's pictures (src/picture.c) and raw reader have
      ceil-sized chroma planes, the fixtures' own layout, so odd sizes need
      no copy (unlike Netflix's; fixtures/MANIFEST.md, "Odd frame sizes").
  ssimulacra2_goldens.py small VMAF OUT [--cpumask M] [--valgrind]
      the same on the clips of SMALL (made here from splitmix64; the test
      makes the same pictures without files): "FORMAT WxH yuv_matrix=N FRAME
      VALUE", or "FORMAT WxH yuv_matrix=N refused REASON" where the fork
      fails. With --valgrind every clip also runs under memcheck (the C path:
      give --cpumask 255 or 48) and a line "FORMAT WxH valgrind clean|ERRORS"
      is written.

--cpumask 255 (the default) pins the fork's plain C code: its AVX2 and
AVX-512 paths differ from it (and from each other) in the edge map and give
other scores (tests/data/fork_goldens/README.md, ssimulacra2).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

FRAMES = 3
# (FORMAT, W, H): FORMAT is CHROMA + "p" + BITS.
SMALL = [(f, w, h) for f in ("420p8", "422p10", "444p12")
         for (w, h) in ((1, 1), (1, 9), (9, 1), (2, 2), (3, 5), (7, 7), (8, 8), (9, 8), (8, 9), (15, 17), (16, 16), (17, 33),
                        (31, 8), (8, 40), (33, 33), (64, 9), (65, 66), (100, 75))]
MATRIX_FIXTURES = ("cup_640x480_444p8", "box_640x480_422p10", "vtest_576x324_420p12", "noise_19x23_420p8")


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def parse_format(fmt):
    chroma, bits = fmt.split("p")
    return int(chroma), int(bits)


def plane_sizes(chroma, w, h):
    sx = 0 if chroma == 444 else 1
    sy = 1 if chroma == 420 else 0
    # The fork's picture_compute_geometry(): chroma rounded up.
    return [(w, h), ((w + sx) >> sx, (h + sy) >> sy), ((w + sx) >> sx, (h + sy) >> sy)]


def small_frame(chroma, bits, w, h, frame):
    """(ref planes, dis planes) of the fork's geometry, lists of rows."""
    maxv = (1 << bits) - 1
    amp = 24 << (bits - 8)
    state = (w << 40) ^ (h << 24) ^ (bits << 16) ^ (chroma << 4) ^ frame
    ref, dis = [], []
    for pw, ph in plane_sizes(chroma, w, h):
        rp, dp = [], []
        for _ in range(ph):
            rr, dr = [], []
            for _ in range(pw):
                state, r = splitmix64(state)
                value = r % (maxv + 1)
                noise = ((r >> 32) % (2 * amp + 1)) - amp
                rr.append(value)
                dr.append(min(max(value + noise, 0), maxv))
            rp.append(rr)
            dp.append(dr)
        ref.append(rp)
        dis.append(dp)
    return ref, dis


def pack(planes, bits):
    out = bytearray()
    for plane in planes:
        for row in plane:
            for v in row:
                out += bytes([v]) if bits == 8 else bytes([v & 0xFF, v >> 8])
    return bytes(out)


def run_fork(vmaf, ref, dis, w, h, chroma, bits, matrix, cpumask, valgrind=False):
    """Per-frame values, or an error text."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        cmd = [vmaf, "-r", ref, "-d", dis, "-w", str(w), "-h", str(h), "-p", str(chroma), "-b", str(bits),
               "--threads", "1", "--feature", f"ssimulacra2=yuv_matrix={matrix}", "--no_prediction",
               "--precision=max", "--cpumask", str(cpumask), "--json", "-o", out]
        if valgrind:
            cmd = ["valgrind", "--error-exitcode=99", "-q"] + cmd
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(out):
            return None, f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ''}", p.stderr
        with open(out) as f:
            text = f.read()
    # Keep the CLI's own digits: parse the JSON, then re-print with repr
    # (shortest round-trip) only to check; the file gets %.17g.
    frames = json.loads(text)["frames"]
    return [fr["metrics"]["ssimulacra2"] for fr in frames], None, p.stderr


def g17(v):
    return "%.17g" % v


def cmd_fixtures(args):
    lines = []
    names = sorted(d for d in os.listdir(args.fixtures) if os.path.isfile(os.path.join(args.fixtures, d, "fixture.json")))
    for name in names:
        meta = json.load(open(os.path.join(args.fixtures, name, "fixture.json")))
        w, h, chroma, bits, frames = meta["width"], meta["height"], int(meta["pixel_format"]), meta["bitdepth"], meta["frames"]
        ref = os.path.join(args.fixtures, name, "ref.yuv")
        dis = os.path.join(args.fixtures, name, "dis.yuv")
        for matrix in (range(4) if name in MATRIX_FIXTURES else (0,)):
            values, err, _ = run_fork(args.vmaf, ref, dis, w, h, chroma, bits, matrix, args.cpumask)
            if err:
                sys.exit(f"{name} yuv_matrix={matrix}: {err}")
            if len(values) != frames:
                sys.exit(f"{name}: {len(values)} frames, expected {frames}")
            for i, v in enumerate(values):
                lines.append(f"{name} yuv_matrix={matrix} {i} {g17(v)}")
            print(name, matrix, "ok", file=sys.stderr)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


def cmd_small(args):
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, w, h in SMALL:
            chroma, bits = parse_format(fmt)
            ref, dis = os.path.join(tmp, "ref.yuv"), os.path.join(tmp, "dis.yuv")
            with open(ref, "wb") as fr, open(dis, "wb") as fd:
                for frame in range(FRAMES):
                    r, d = small_frame(chroma, bits, w, h, frame)
                    fr.write(pack(r, bits))
                    fd.write(pack(d, bits))
            for matrix in ((0, 3) if fmt == "420p8" else (0,)):
                values, err, _ = run_fork(args.vmaf, ref, dis, w, h, chroma, bits, matrix, args.cpumask)
                if err:
                    lines.append(f"{fmt} {w}x{h} yuv_matrix={matrix} refused {err}")
                else:
                    for i, v in enumerate(values):
                        lines.append(f"{fmt} {w}x{h} yuv_matrix={matrix} {i} {g17(v)}")
            if args.valgrind:
                _, err, stderr = run_fork(args.vmaf, ref, dis, w, h, chroma, bits, 0, args.cpumask, valgrind=True)
                lines.append(f"{fmt} {w}x{h} valgrind " + ("clean" if not err and "==" not in stderr else "ERRORS"))
                if err or "==" in stderr:
                    print(stderr[:3000], file=sys.stderr)
            print(fmt, w, h, "done", file=sys.stderr)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("fixtures")
    a.add_argument("vmaf")
    a.add_argument("fixtures")
    a.add_argument("out")
    a.add_argument("--cpumask", type=int, default=255)
    b = sub.add_parser("small")
    b.add_argument("vmaf")
    b.add_argument("out")
    b.add_argument("--cpumask", type=int, default=255)
    b.add_argument("--valgrind", action="store_true")
    args = ap.parse_args()
    {"fixtures": cmd_fixtures, "small": cmd_small}[args.cmd](args)


if __name__ == "__main__":
    main()
