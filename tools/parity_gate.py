#!/usr/bin/env python3
"""Parity gate: every feature that has a GPU twin, on every backend present,
over the fixtures, against the CPU reference.

Prints the feature x backend table (frames identical / total, max |diff|).
Every cell must be identical; the exit status is 1 otherwise.

    tools/parity_gate.py [--cli build/release/twinvmaf] [--fixtures DIR]
                         [--backends cuda,hip]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# (feature argument, label); each runs on every fixture.
CASES = [
    ("psnr", "psnr"),
    ("psnr=enable_mse=true:enable_apsnr=true", "psnr mse+apsnr"),
    ("psnr=enable_chroma=false", "psnr luma only"),
    ("psnr=reduced_hbd_peak=true:min_sse=0.5", "psnr hbd peak+min_sse"),
    ("motion", "motion"),
    ("motion=motion_five_frame_window=true", "motion five-frame window"),
    ("motion=motion_force_zero=true", "motion force zero"),
    ("motion=debug=true:motion_moving_average=true:motion_blend_factor=0.5:motion_blend_offset=2:"
     "motion_fps_weight=1.5:motion_max_val=5", "motion host options"),
    ("adm", "adm"),
    ("adm=adm_enhn_gain_limit=1.2", "adm gain limit 1.2"),
    ("adm=adm_csf_mode=1", "adm csf mode 1"),
    ("adm=adm_csf_mode=2", "adm csf mode 2"),
    ("adm=adm_csf_mode=3", "adm csf mode 3"),
    ("adm=adm_csf_scale=1.5:adm_csf_diag_scale=0.7:adm_norm_view_dist=4:adm_ref_display_height=2160",
     "adm csf weights"),
    ("adm=adm_skip_scale0=true", "adm skip scale 0"),
    ("adm=adm_skip_aim=true", "adm skip aim"),
    ("adm=debug=true:adm_dlm_weight=0.7:adm_noise_weight=0.02:adm_min_val=0.5", "adm host options"),
    ("vif", "vif"),
    ("vif=vif_enhn_gain_limit=1.0", "vif egl 1.0"),
    ("vif=vif_skip_scale0=true", "vif skip scale0"),
    ("vif=debug=true", "vif debug"),
    ("vif=debug=true:vif_skip_scale0=true:vif_enhn_gain_limit=1.5", "vif debug+skip0+egl 1.5"),
    ("model:vmaf_v0.6.1", "vmaf_v0.6.1 (model)"),
    ("model:vmaf_v0.6.1neg", "vmaf_v0.6.1neg (model)"),
    ("model:vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1 (model)"),
    ("model:vmaf_4k_v0.6.1neg", "vmaf_4k_v0.6.1neg (model)"),
    ("model:vmaf_b_v0.6.3", "vmaf_b_v0.6.3 (model)"),
]


def fixture_args(path):
    with open(os.path.join(path, "fixture.json")) as f:
        info = json.load(f)
    return ["-r", os.path.join(path, "ref.yuv"), "-d", os.path.join(path, "dis.yuv"),
            "-w", str(info["width"]), "-h", str(info["height"]),
            "-p", str(info["pixel_format"]), "-b", str(info["bitdepth"])]


def score(cli, args, feature, backend, out):
    # "model:<version>" scores a built-in model; anything else is a feature.
    scoring = ["--model", "version=" + feature[6:]] if feature.startswith("model:") else ["-n", "--feature", feature]
    cmd = [cli] + args + scoring + ["--backend", backend, "--json", "--precision", "max", "-q", "-o", out]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip()
    with open(out) as f:
        return json.load(f), ""


def compare(cpu, gpu):
    """(identical frames, total frames, max |diff|) over every metric."""
    identical, total, worst = 0, 0, 0.0
    for a, b in zip(cpu["frames"], gpu["frames"]):
        total += 1
        same = a["metrics"].keys() == b["metrics"].keys()
        for key, va in a["metrics"].items():
            vb = b["metrics"].get(key)
            if va is None or vb is None:
                same &= va is None and vb is None
                continue
            if repr(float(va)) != repr(float(vb)):
                same = False
                worst = max(worst, abs(float(va) - float(vb)))
        identical += same
    total += abs(len(cpu["frames"]) - len(gpu["frames"]))
    same_pool = json.dumps(cpu["pooled_metrics"]) == json.dumps(gpu["pooled_metrics"]) and \
        json.dumps(cpu["aggregate_metrics"]) == json.dumps(gpu["aggregate_metrics"])
    return identical, total, worst, same_pool


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(root, "build", "release", "twinvmaf"))
    parser.add_argument("--fixtures", default=os.environ.get(
        "TWINVMAF_FIXTURES", os.path.join(root, "..", "shared", "fixtures")))
    parser.add_argument("--backends", default="cuda,hip")
    opts = parser.parse_args()

    fixtures = sorted(os.path.join(opts.fixtures, d) for d in os.listdir(opts.fixtures)
                      if os.path.exists(os.path.join(opts.fixtures, d, "fixture.json")))
    failed = False
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for feature, label in CASES:
            cells = {}
            for backend in opts.backends.split(","):
                identical = total = 0
                worst = 0.0
                note = ""
                for fixture in fixtures:
                    args = fixture_args(fixture)
                    cpu, err = score(opts.cli, args, feature, "cpu", os.path.join(tmp, "cpu.json"))
                    if cpu is None:
                        note = "cpu failed: " + err
                        break
                    gpu, err = score(opts.cli, args, feature, backend, os.path.join(tmp, "gpu.json"))
                    if gpu is None:
                        note = err.replace("twinvmaf: error: ", "")
                        break
                    i, t, w, pooled_same = compare(cpu, gpu)
                    identical += i
                    total += t
                    worst = max(worst, w)
                    if not pooled_same:
                        note = "pooled/aggregate differ on " + os.path.basename(fixture)
                if note and not total:
                    cells[backend] = "n/a (" + note[:60] + ")"
                    continue
                ok = identical == total and not note
                failed |= not ok
                cells[backend] = "%d/%d identical, max|diff| %.3g%s" % (
                    identical, total, worst, "" if ok else "  <-- " + (note or "DIFFERS"))
            rows.append((label, cells))

    backends = opts.backends.split(",")
    print("%-26s | %s" % ("feature", " | ".join("%-44s" % b for b in backends)))
    print("-" * (29 + 47 * len(backends)))
    for label, cells in rows:
        print("%-26s | %s" % (label, " | ".join("%-44s" % cells[b] for b in backends)))
    print("\nfixtures: %d (%s)" % (len(fixtures), opts.fixtures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
