#!/usr/bin/env python3
"""float_adm on every small frame size: twinvmaf against Netflix's `vmaf`.

  float_adm_size_sweep.py make DIR [--max N] [--formats F,...]
      writes the clips: for each W x H in 1..N (default 40) and format F
      (420p8 by default; also 420p10, 422p8, 444p8), DIR/F/WxH.{ref,dis}.yuv
      in Netflix's raw layout (chroma planes of (w >> sx) x (h >> sy): what
      its CLI reads) and DIR/F/WxH.{ref,dis}.tv.yuv in twinvmaf's (chroma
      rounded up), same luma; 3 frames.
  float_adm_size_sweep.py netflix VMAF DIR [--jobs J]
      runs Netflix's CLI (tools/build_netflix_vmaf.sh) on every clip with every
      option set (OPTION_SETS) into DIR/F/WxH.SET.nflx.json, or
      DIR/F/WxH.SET.nflx.err (exit code or signal, stderr) when it gives no
      scores.
  float_adm_size_sweep.py twinvmaf CLI DIR
      the same with twinvmaf (one --batch process per format and option set)
      into DIR/F/WxH.SET.tv.json / .tv.err.
  float_adm_size_sweep.py compare DIR
      lists every size, format and option set where an output differs at
      %.17g (or only one side gives scores), and the counts.
  float_adm_size_sweep.py golden DIR OUT --select FORMAT:SIZES:SETS:FRAMES ...
      writes the compact golden file of tests/data/size_sweep/ from Netflix's
      outputs (see its README).

The clips' luma is a function of (W, H, bit depth, frame) only, from
splitmix64 (clip_luma() below): tests/unit/test_float_adm_size_sweep.cpp
makes the same planes without files.
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FRAMES = 3

# Name -> float_adm options. All with debug=true (it adds the num/den outputs
# and changes no other value or name).
OPTION_SETS = {
    "default": "debug=true",
    "egl1": "debug=true:adm_enhn_gain_limit=1.0",
    "egl1.2": "debug=true:adm_enhn_gain_limit=1.2",
    "csf2": "debug=true:adm_csf_mode=2:adm_min_val=0.5:adm_dlm_weight=0.7:adm_noise_weight=0.02",
    # Not in the goldens; they change what the small-frame path reads.
    "ssz": "debug=true:adm_skip_scale0=true",
    "bcm": "debug=true:adm_bypass_cm=1",
    "apn2.5": "debug=true:adm_p_norm=2.5",
}

FORMATS = {  # name -> (pixel_format, bitdepth, chroma shift x, chroma shift y)
    "420p8": ("420", 8, 1, 1),
    "420p10": ("420", 10, 1, 1),
    "422p8": ("422", 8, 1, 0),
    "444p8": ("444", 8, 0, 0),
}

MASK64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def clip_luma(width, height, bitdepth, frame):
    """(ref, dis) luma samples, row-major: ref uniform in [0, max], dis =
    ref + uniform noise in [-amp, amp] (amp = 24 << (bitdepth - 8)), clipped."""
    state = (width << 40) ^ (height << 24) ^ (bitdepth << 16) ^ frame
    maxval = (1 << bitdepth) - 1
    amp = 24 << (bitdepth - 8)
    ref, dis = [], []
    for _ in range(width * height):
        state, r = splitmix64(state)
        value = r % (maxval + 1)
        noise = (r >> 32) % (2 * amp + 1) - amp
        ref.append(value)
        dis.append(min(max(value + noise, 0), maxval))
    return ref, dis


def pack(samples, bitdepth):
    if bitdepth == 8:
        return bytes(samples)
    return b"".join(s.to_bytes(2, "little") for s in samples)


def make(args):
    for fmt in args.formats.split(","):
        _, bitdepth, sx, sy = FORMATS[fmt]
        folder = os.path.join(args.dir, fmt)
        os.makedirs(folder, exist_ok=True)
        mid = 1 << (bitdepth - 1)
        for w in range(1, args.max + 1):
            for h in range(1, args.max + 1):
                layouts = {  # file suffix -> chroma plane size
                    "": (w >> sx, h >> sy),
                    ".tv": ((w + (1 << sx) - 1) >> sx, (h + (1 << sy) - 1) >> sy),
                }
                frames = [clip_luma(w, h, bitdepth, f) for f in range(FRAMES)]
                for suffix, (cw, ch) in layouts.items():
                    chroma = pack([mid] * (cw * ch), bitdepth) * 2
                    for side in (0, 1):
                        data = b"".join(pack(fr[side], bitdepth) + chroma for fr in frames)
                        name = f"{w}x{h}.{('ref', 'dis')[side]}{suffix}.yuv"
                        with open(os.path.join(folder, name), "wb") as f:
                            f.write(data)


def clips(folder):
    for name in sorted(os.listdir(folder)):
        if name.endswith(".ref.yuv"):
            w, h = map(int, name.split(".")[0].split("x"))
            yield w, h


def cases(args):
    """Every (format, folder, pixel format, bit depth, w, h, option set name,
    options) of the sweep: all option sets on 4:2:0 8-bit, the default on the
    other formats."""
    for fmt in sorted(os.listdir(args.dir)):
        if fmt not in FORMATS:
            continue
        pix, bitdepth, _, _ = FORMATS[fmt]
        folder = os.path.join(args.dir, fmt)
        sets = OPTION_SETS if fmt == "420p8" else {"default": OPTION_SETS["default"]}
        for w, h in clips(folder):
            for set_name, opts in sets.items():
                yield fmt, folder, pix, bitdepth, w, h, set_name, opts


def run_netflix(args):
    def one(case):
        _, folder, pix, bitdepth, w, h, set_name, opts = case
        base = os.path.join(folder, f"{w}x{h}")
        out = f"{base}.{set_name}.nflx.json"
        cmd = [args.vmaf, "-r", f"{base}.ref.yuv", "-d", f"{base}.dis.yuv", "-w", str(w), "-h", str(h),
               "-p", pix, "-b", str(bitdepth), "--threads", "1", "--no_prediction",
               "--feature", f"float_adm={opts}", "--json", "-o", out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        ok = p.returncode == 0 and os.path.exists(out) and json.load(open(out)).get("frames")
        if not ok:
            if os.path.exists(out):
                os.remove(out)
            with open(f"{base}.{set_name}.nflx.err", "w") as f:
                f.write(f"{' '.join(cmd)}\nexit {p.returncode}\n--- stderr\n{p.stderr}--- stdout\n{p.stdout}")

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, list(cases(args))))


def run_twinvmaf(args):
    # One process per clip and option set keeps a refusal (a clear error) to its size.
    def one(case):
        _, folder, pix, bitdepth, w, h, set_name, opts = case
        base = os.path.join(folder, f"{w}x{h}")
        out = f"{base}.{set_name}.tv.json"
        cmd = [args.cli, "-r", f"{base}.ref.tv.yuv", "-d", f"{base}.dis.tv.yuv", "-w", str(w),
               "-h", str(h), "-p", pix, "-b", str(bitdepth), "--threads", "1", "--backend", "cpu",
               "--no_prediction", "--feature", f"float_adm={opts}", "--precision", "max", "--json",
               "-q", "-o", out]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            with open(f"{base}.{set_name}.tv.err", "w") as f:
                f.write(f"{' '.join(cmd)}\nexit {p.returncode}\n--- stderr\n{p.stderr}")

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, list(cases(args))))


def frames_of(path):
    return [f["metrics"] for f in json.load(open(path))["frames"]]


def compare(args):
    total = differ = only_one = both_fail = 0
    by_set = {}
    lines = []
    for fmt, folder, _, _, w, h, set_name, _ in cases(args):
        base = os.path.join(folder, f"{w}x{h}.{set_name}")
        total += 1
        nf, tv = f"{base}.nflx.json", f"{base}.tv.json"
        if not os.path.exists(nf) and not os.path.exists(tv):
            both_fail += 1
            continue
        if not (os.path.exists(nf) and os.path.exists(tv)):
            only_one += 1
            lines.append(f"{fmt} {w}x{h} {set_name}: only {'netflix' if os.path.exists(nf) else 'twinvmaf'}"
                         " gives scores")
            continue
        a, b = frames_of(nf), frames_of(tv)
        bad = []
        for i, (fa, fb) in enumerate(zip(a, b)):
            for k in fa:
                if repr(fa[k]) != repr(fb.get(k)):
                    bad.append((i, k, fa[k], fb.get(k)))
        if len(a) != len(b):
            bad.append(("frames", len(a), len(b), None))
        if bad:
            differ += 1
            by_set[(fmt, set_name)] = by_set.get((fmt, set_name), 0) + 1
            keys = sorted({str(x[1]) for x in bad})
            lines.append(f"{fmt} {w}x{h} {set_name}: {len(bad)} values differ ({', '.join(keys)})"
                         + (f"; e.g. frame {bad[0][0]} {bad[0][1]}: netflix {bad[0][2]!r} twinvmaf "
                            f"{bad[0][3]!r}" if args.verbose else ""))
    for line in lines:
        print(line)
    print(f"runs {total}: differ {differ}, only one side scores {only_one}, neither scores {both_fail}")
    for key, n in sorted(by_set.items()):
        print(f"  {key[0]} {key[1]}: {n} sizes differ")


# The compact golden: one line per clip, option set and frame,
#   FORMAT WxH SET FRAME v1 v2 ... v18
# in KEYS order at %.17g (null where Netflix writes a NaN or infinity), or
#   FORMAT WxH SET refused
# where Netflix gives no scores.
KEYS = ["adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3", "adm", "adm_num",
        "adm_den", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1", "adm_num_scale2",
        "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"]


def suffixed(key, set_name):
    suffix = {"default": "", "egl1": "_egl_1", "egl1.2": "_egl_1.2",
              "csf2": "_csf_2_dlmw_0.7_min_0.5_nw_0.02", "ssz": "_ssz", "bcm": "_bcm_1",
              "apn2.5": "_apn_2.5"}[set_name]
    return key if key == "adm" else key + suffix


def golden(args):
    """--select FORMAT:SIZES:SETS:FRAMES (comma lists; repeatable) picks lines."""
    out = []
    for sel in args.select:
        fmt, sizes, sets, frames = sel.split(":")
        for size in sizes.split(","):
            for set_name in sets.split(","):
                path = os.path.join(args.dir, fmt, f"{size}.{set_name}.nflx.json")
                if not os.path.exists(path):
                    out.append(f"{fmt} {size} {set_name} refused")
                    continue
                metrics = frames_of(path)
                for i in map(int, frames.split(",")):
                    m = metrics[i]
                    values = " ".join("null" if m[suffixed(k, set_name)] is None
                                      else "%.17g" % m[suffixed(k, set_name)] for k in KEYS)
                    out.append(f"{fmt} {size} {set_name} {i} {values}")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("make")
    p.add_argument("dir")
    p.add_argument("--max", type=int, default=40)
    p.add_argument("--formats", default="420p8")
    p = sub.add_parser("netflix")
    p.add_argument("vmaf")
    p.add_argument("dir")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p = sub.add_parser("twinvmaf")
    p.add_argument("cli")
    p.add_argument("dir")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p = sub.add_parser("compare")
    p.add_argument("dir")
    p.add_argument("-v", "--verbose", action="store_true")
    p = sub.add_parser("golden")
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--select", action="append", required=True)
    args = ap.parse_args()
    {"make": make, "netflix": run_netflix, "twinvmaf": run_twinvmaf, "compare": compare, "golden": golden}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
