#!/usr/bin/env python3
"""Every feature on every small frame size: twinvmaf against Netflix's `vmaf`.

  size_sweep.py make DIR
      writes the clips of every grid (GRIDS below) into DIR/FORMAT/: for each
      size W x H, WxH.{ref,dis}.yuv in Netflix's raw layout (chroma planes of
      (w >> sx) x (h >> sy): what its CLI reads) and WxH.{ref,dis}.tv.yuv in
      twinvmaf's (chroma rounded up; the extra column / row is mid-grey and
      never scored); 3 frames.
  size_sweep.py netflix VMAF DIR [--jobs J] [--only FEATURE,...]
      runs Netflix's CLI (docs/compat.md, "Reference builds") once per case (clip,
      feature, option set) into DIR/FORMAT/WxH.FEATURE.SET.nflx.json, or
      .nflx.err (exit code or signal, stderr) where it gives no scores.
  size_sweep.py twinvmaf CLI DIR [--jobs J] [--only ...]
      the same with twinvmaf's CLI (--backend cpu) into .tv.json / .tv.err.
  size_sweep.py valgrind VMAF DIR --select FEATURE:SETS:FORMAT:SIZES ...
      runs Netflix's CLI under memcheck on the selected cases into
      .nflx.vg (the error summary; "clean" or the first errors).
  size_sweep.py compare DIR [-v]
      per feature, option set and format: how many cases are equal at %.17g,
      differ, scored by one side only, or refused by both; lists the others.
  size_sweep.py golden DIR OUT [--full FEATURE:SETS:FORMAT:SIZES ...]
      writes the golden file of tests/data/size_sweep/ (its README has the
      format) from Netflix's outputs and the valgrind findings.

A case is (FORMAT, W, H, FEATURE, SET); CASES below says which exist. The
clips' samples are a function of (W, H, bit depth, frame, plane) only, from
splitmix64 (samples() below); tests/unit/test_size_sweep.cpp makes the same
pictures without files. SIZES in selectors: comma list of WxH, or "all".
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

FRAMES = 3

# Feature -> option set name -> options (Netflix's names), "" for none. The
# sets are the goldens' (fixtures/MANIFEST.md, "Runs") plus float_adm's small
# frame cases; the first set of each feature is its default.
FEATURES = {
    "psnr": {"default": "", "nochroma": "enable_chroma=false"},
    "motion": {"default": "", "force0": "motion_force_zero=true",
               "ffw": "motion_five_frame_window=true:motion_moving_average=true", "debug": "debug=true"},
    "vif": {"default": "", "egl1": "vif_enhn_gain_limit=1.0", "debug": "debug=true"},
    "adm": {"default": "", "egl1.2": "adm_enhn_gain_limit=1.2",
            "csf2": "adm_csf_mode=2:adm_min_val=0.5:adm_dlm_weight=0.7:adm_noise_weight=0.02",
            "debug": "debug=true"},
    "speed_chroma": {"default": "", "ps0.6": "speed_prescale=0.6:speed_prescale_method=bilinear"},
    "speed_temporal": {"default": ""},
    "cambi": {"default": "", "fullref": "full_ref=true"},
    "float_psnr": {"default": ""},
    "float_ansnr": {"default": ""},
    "float_moment": {"default": ""},
    "ciede": {"default": ""},
    "psnr_hvs": {"default": ""},
    "float_ssim": {"default": "", "db": "enable_db=true"},
    "float_ms_ssim": {"default": ""},
    "float_vif": {"default": "", "debug": "debug=true"},
    "float_motion": {"default": ""},
    "float_adm": {"default": "debug=true", "egl1": "debug=true:adm_enhn_gain_limit=1.0",
                  "egl1.2": "debug=true:adm_enhn_gain_limit=1.2",
                  "csf2": "debug=true:adm_csf_mode=2:adm_min_val=0.5:adm_dlm_weight=0.7:adm_noise_weight=0.02",
                  "bcm": "debug=true:adm_bypass_cm=1", "apn2.5": "debug=true:adm_p_norm=2.5"},
}

FORMATS = {  # name -> (pixel_format, bitdepth, chroma shift x, chroma shift y)
    "420p8": ("420", 8, 1, 1),
    "420p10": ("420", 10, 1, 1),
    "422p8": ("422", 8, 1, 0),
    "444p8": ("444", 8, 0, 0),
}

# Sides of the thin grid: every refusal rule's and filter width's edges.
EDGES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 31, 32, 33, 40]
# Larger sizes: odd ones, and the edges of SpEED (80 samples after 4:2:x),
# float_ms_ssim (176) and cambi (216).
LARGE = [(41, 37), (63, 65), (97, 55), (129, 73), (79, 80), (80, 79), (80, 80), (159, 160), (160, 159),
         (160, 160), (161, 80), (160, 81), (175, 176), (176, 175), (176, 176), (215, 215), (216, 7),
         (7, 216), (216, 40), (40, 216)]


def full_grid():
    return [(w, h) for w in range(1, 41) for h in range(1, 41)]


def thin_grid():
    sizes = {(n, n) for n in range(1, 41)} | {(w, h) for w in EDGES for h in EDGES}
    return sorted(sizes)


def grid_sizes(fmt):
    """The clip sizes of a format."""
    return sorted(set(full_grid() if fmt == "420p8" else thin_grid()) | set(LARGE))


def case_sets(fmt, w, h):
    """(feature, set) pairs run on a clip: on 420p8 every default set on the full
    grid; every set on the thin grid and the large sizes; on other formats
    every default set on the thin grid, every set on the large sizes."""
    small = (w, h) not in LARGE
    thin = (w, h) in THIN
    for feature, sets in FEATURES.items():
        for i, set_name in enumerate(sets):
            if i == 0 and (fmt == "420p8" or thin or not small):
                yield feature, set_name
            elif i > 0 and (not small or (fmt == "420p8" and thin)):
                yield feature, set_name


THIN = set(thin_grid())

MASK64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def samples(pw, ph, width, height, bitdepth, frame, plane):
    """(ref, dis) samples of a pw x ph plane, row-major: ref uniform in
    [0, max], dis = ref + uniform noise in [-amp, amp] (amp = 24 << (bitdepth -
    8)), clipped. The state depends on the frame size (not the plane's)."""
    state = (width << 40) ^ (height << 24) ^ (bitdepth << 16) ^ frame ^ (plane << 56)
    maxval = (1 << bitdepth) - 1
    amp = 24 << (bitdepth - 8)
    ref, dis = [], []
    for _ in range(pw * ph):
        state, r = splitmix64(state)
        value = r % (maxval + 1)
        noise = (r >> 32) % (2 * amp + 1) - amp
        ref.append(value)
        dis.append(min(max(value + noise, 0), maxval))
    return ref, dis


def pack(values, bitdepth):
    if bitdepth == 8:
        return bytes(values)
    return b"".join(s.to_bytes(2, "little") for s in values)


def make(args):
    for fmt, (_, bitdepth, sx, sy) in FORMATS.items():
        folder = os.path.join(args.dir, fmt)
        os.makedirs(folder, exist_ok=True)
        mid = 1 << (bitdepth - 1)
        for w, h in grid_sizes(fmt):
            cw, ch = w >> sx, h >> sy  # Netflix's chroma; ours is rounded up
            tw, th = (w + (1 << sx) - 1) >> sx, (h + (1 << sy) - 1) >> sy
            out = {("ref", ""): [], ("dis", ""): [], ("ref", ".tv"): [], ("dis", ".tv"): []}
            for f in range(FRAMES):
                planes = [samples(w, h, w, h, bitdepth, f, 0)]
                planes += [samples(cw, ch, w, h, bitdepth, f, p) for p in (1, 2)]
                for side in (0, 1):
                    name = ("ref", "dis")[side]
                    nf = [planes[0][side]] + [planes[p][side] for p in (1, 2)]
                    out[(name, "")] += [pack(x, bitdepth) for x in nf]
                    out[(name, ".tv")].append(pack(planes[0][side], bitdepth))
                    for p in (1, 2):
                        rows = planes[p][side]
                        padded = []
                        for y in range(th):
                            row = rows[y * cw:(y + 1) * cw] if y < ch else []
                            padded += row + [mid] * (tw - len(row))
                        out[(name, ".tv")].append(pack(padded, bitdepth))
            for (name, suffix), chunks in out.items():
                with open(os.path.join(folder, f"{w}x{h}.{name}{suffix}.yuv"), "wb") as f:
                    f.write(b"".join(chunks))


def parse_sizes(text):
    if text == "all":
        return None
    return [tuple(map(int, s.split("x"))) for s in text.split(",")]


def cases(args):
    """Every (format, folder, pixel format, bit depth, w, h, feature, set,
    options) of the sweep, restricted by --only."""
    only = set(args.only.split(",")) if getattr(args, "only", None) else None
    for fmt, (pix, bitdepth, _, _) in FORMATS.items():
        folder = os.path.join(args.dir, fmt)
        if not os.path.isdir(folder):
            continue
        for w, h in grid_sizes(fmt):
            for feature, set_name in case_sets(fmt, w, h):
                if only and feature not in only:
                    continue
                yield fmt, folder, pix, bitdepth, w, h, feature, set_name, FEATURES[feature][set_name]


def selected(selectors):
    """FEATURE:SETS:FORMAT:SIZES selectors -> predicate over cases."""
    rules = []
    for sel in selectors or []:
        feature, sets, fmt, sizes = sel.split(":")
        rules.append((feature, sets, fmt, parse_sizes(sizes)))

    def match(case):
        fmt, _, _, _, w, h, feature, set_name, _ = case
        for f, s, fm, sizes in rules:
            if (f == "all" or feature in f.split(",")) and (s == "all" or set_name in s.split(",")) and \
                    (fm == "all" or fmt in fm.split(",")) and (sizes is None or (w, h) in sizes):
                return True
        return False
    return match


def base_of(case):
    fmt, folder, _, _, w, h, feature, set_name, _ = case
    return os.path.join(folder, f"{w}x{h}"), f"{feature}.{set_name}"


def feature_arg(feature, opts):
    return f"{feature}={opts}" if opts else feature


def netflix_cmd(vmaf, case, out):
    _, _, pix, bitdepth, w, h, feature, _, opts = case
    clip, _ = base_of(case)
    return [vmaf, "-r", f"{clip}.ref.yuv", "-d", f"{clip}.dis.yuv", "-w", str(w), "-h", str(h),
            "-p", pix, "-b", str(bitdepth), "--threads", "1", "--cpumask", "255", "--no_prediction",
            "--feature", feature_arg(feature, opts), "--json", "-o", out]


def has_scores(path):
    if not os.path.exists(path):
        return False
    try:
        frames = json.load(open(path)).get("frames")
    except ValueError:
        return False
    return bool(frames) and all(f.get("metrics") for f in frames)


def run_side(args, suffix, make_cmd):
    def one(case):
        clip, tag = base_of(case)
        out = f"{clip}.{tag}.{suffix}.json"
        err = f"{clip}.{tag}.{suffix}.err"
        if os.path.exists(out) or os.path.exists(err):
            return
        cmd = make_cmd(case, out)
        p = subprocess.run(["nice", "-n", "10"] + cmd, capture_output=True, text=True)
        if p.returncode != 0 or not has_scores(out):
            if os.path.exists(out):
                os.remove(out)
            status = f"signal {-p.returncode}" if p.returncode < 0 else \
                f"exit {p.returncode}" if p.returncode else "no scores"
            with open(err, "w") as f:
                f.write(f"{status}\n{' '.join(cmd)}\n--- stderr\n{p.stderr[-4000:]}")

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, list(cases(args))))


def run_netflix(args):
    run_side(args, "nflx", lambda case, out: netflix_cmd(args.vmaf, case, out))


def run_twinvmaf(args):
    def cmd(case, out):
        _, _, pix, bitdepth, w, h, feature, _, opts = case
        clip, _ = base_of(case)
        return [args.cli, "-r", f"{clip}.ref.tv.yuv", "-d", f"{clip}.dis.tv.yuv", "-w", str(w),
                "-h", str(h), "-p", pix, "-b", str(bitdepth), "--threads", "1", "--backend", "cpu",
                "--no_prediction", "--feature", feature_arg(feature, opts), "--precision", "max", "--json",
                "-q", "-o", out]
    run_side(args, "tv", cmd)


def run_valgrind(args):
    match = selected(args.select)

    def one(case):
        clip, tag = base_of(case)
        vg = f"{clip}.{tag}.nflx.vg"
        if os.path.exists(vg):
            return
        out = f"{clip}.{tag}.vg.json"
        cmd = ["nice", "-n", "10", "valgrind", "--tool=memcheck", "--error-exitcode=99", "-q",
               "--track-origins=no"] + netflix_cmd(args.vmaf, case, out)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if os.path.exists(out):
            os.remove(out)
        kinds = sorted({line.split("== ", 1)[1].split(" of size")[0].strip()
                        for line in p.stderr.splitlines()
                        if "== " in line and ("Invalid" in line or "uninitialised" in line
                                              or "Uninitialised" in line)})
        with open(vg, "w") as f:
            f.write(("clean" if p.returncode not in (99,) and not kinds else
                     "errors: " + "; ".join(kinds) if kinds else f"exit {p.returncode}") + "\n")
            f.write(p.stderr[-3000:])

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(one, [c for c in cases(args) if match(c)]))


def metrics_of(path):
    # parse_int=float keeps the sign of "-0" (json reads it as the integer 0).
    return [f["metrics"] for f in json.load(open(path), parse_int=float)["frames"]]


def text(value):
    return "null" if value is None else "%.17g" % value


def valgrind_of(case):
    clip, tag = base_of(case)
    path = f"{clip}.{tag}.nflx.vg"
    if not os.path.exists(path):
        return None
    return open(path).readline().strip()


def compare(args):
    counts = {}  # (feature, set, fmt) -> {category: n}
    lines = []
    for case in cases(args):
        fmt, _, _, _, w, h, feature, set_name, _ = case
        clip, tag = base_of(case)
        nf, tv = f"{clip}.{tag}.nflx.json", f"{clip}.{tag}.tv.json"
        has_nf, has_tv = os.path.exists(nf), os.path.exists(tv)
        vg = valgrind_of(case)
        dirty = vg is not None and vg != "clean"
        if not has_nf and not has_tv:
            cat = "both refuse"
        elif has_nf and not has_tv:
            cat = "netflix only (oob)" if dirty else "netflix only"
        elif has_tv and not has_nf:
            cat = "twinvmaf only"
        else:
            a, b = metrics_of(nf), metrics_of(tv)
            bad = [(i, k, fa[k], fb.get(k)) for i, (fa, fb) in enumerate(zip(a, b)) for k in fa
                   if text(fa[k]) != (text(fb[k]) if k in fb else "missing")]
            if len(a) != len(b) or any(set(fa) != set(fb) for fa, fb in zip(a, b)):
                bad.append(("frames/keys", "", len(a), len(b)))
            cat = ("differ" if bad else "equal") + (" (oob)" if dirty else "")
        counts.setdefault((feature, set_name, fmt), {}).setdefault(cat, 0)
        counts[(feature, set_name, fmt)][cat] += 1
        if cat not in ("equal", "both refuse"):
            detail = ""
            if cat.startswith("differ"):
                detail = f": {len(bad)} values, e.g. frame {bad[0][0]} {bad[0][1]}: " \
                         f"netflix {bad[0][2]!r} twinvmaf {bad[0][3]!r}"
            elif cat.startswith("twinvmaf only"):
                detail = ": netflix " + open(f"{clip}.{tag}.nflx.err").readline().strip()
            elif cat.startswith("netflix only"):
                detail = ": " + open(f"{clip}.{tag}.tv.err").read().split("--- stderr\n")[1].strip()[:160]
            lines.append(f"{feature} {set_name} {fmt} {w}x{h}: {cat}{detail}")
    if args.verbose:
        for line in lines:
            print(line)
    total = {}
    for key, cats in sorted(counts.items()):
        print(f"{key[0]:15} {key[1]:9} {key[2]:7} " + ", ".join(f"{c} {n}" for c, n in sorted(cats.items())))
        for c, n in cats.items():
            total[c] = total.get(c, 0) + n
    print("all: " + ", ".join(f"{c} {n}" for c, n in sorted(total.items())))


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def golden(args):
    """The golden file (format: tests/data/size_sweep/README.md)."""
    full = selected(args.full)
    groups = {}  # (feature, set, fmt) -> lines
    keys_of = {}
    for case in cases(args):
        fmt, _, _, _, w, h, feature, set_name, opts = case
        clip, tag = base_of(case)
        nf = f"{clip}.{tag}.nflx.json"
        lines = groups.setdefault((feature, set_name, fmt), [])
        vg = valgrind_of(case)
        if not os.path.exists(nf):
            status = open(f"{clip}.{tag}.nflx.err").readline().strip()
            reason = "crash" if status.startswith("signal") else \
                "noscores" if status == "no scores" else "exit" + status.split()[-1]
            lines.append(f"{w}x{h} refused {reason}")
            continue
        if vg is not None and vg != "clean":
            lines.append(f"{w}x{h} refused oob")
            continue
        if vg is None and os.path.exists(f"{clip}.{tag}.tv.err"):
            # Netflix scores; not run under valgrind; twinvmaf's size rule,
            # checked with valgrind on its edges and a sample, refuses it.
            lines.append(f"{w}x{h} refused rule")
            continue
        metrics = metrics_of(nf)
        keys = list(metrics[0])
        if keys_of.setdefault((feature, set_name, fmt), keys) != keys:
            sys.exit(f"{feature} {set_name} {fmt} {w}x{h}: keys {keys} differ from {keys_of[(feature, set_name, fmt)]}")
        blob = "\n".join(" ".join(text(m[k]) for k in keys) for m in metrics) + "\n"
        lines.append(f"{w}x{h} {fnv1a64(blob.encode()):016x}")
        if full(case):
            for i, m in enumerate(metrics):
                lines.append(f"{w}x{h} = {i} " + " ".join(text(m[k]) for k in keys))
    with open(args.out, "w") as f:
        f.write("# Netflix libvmaf 3.2.0 (f85a8536, plain C path) on tools/size_sweep.py's clips; "
                "tests/data/size_sweep/README.md\n")
        for (feature, set_name, fmt), lines in groups.items():
            keys = keys_of.get((feature, set_name, fmt), [])
            opts = FEATURES[feature][set_name] or "-"
            f.write(f"@ {feature} {set_name} {opts} {fmt} {' '.join(keys) if keys else '-'}\n")
            f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("make")
    p.add_argument("dir")
    for name in ("netflix", "twinvmaf", "valgrind"):
        p = sub.add_parser(name)
        p.add_argument("vmaf" if name != "twinvmaf" else "cli")
        p.add_argument("dir")
        p.add_argument("--jobs", type=int, default=os.cpu_count())
        p.add_argument("--only")
        if name == "valgrind":
            p.add_argument("--select", action="append", required=True)
    p = sub.add_parser("compare")
    p.add_argument("dir")
    p.add_argument("--only")
    p.add_argument("-v", "--verbose", action="store_true")
    p = sub.add_parser("golden")
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--only")
    p.add_argument("--full", action="append")
    args = ap.parse_args()
    {"make": make, "netflix": run_netflix, "twinvmaf": run_twinvmaf, "valgrind": run_valgrind,
     "compare": compare, "golden": golden}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
