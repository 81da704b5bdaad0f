#!/usr/bin/env python3
"""Parity gate: every feature that has a GPU twin, on every backend present,
over the fixtures, against the CPU reference.

Prints the feature x backend table (frames identical / total, max |diff|,
and the fixtures that both backends refuse with the same error). Every cell
must be identical, and each fixture's output the same bytes bar the fps
line; the exit status is 1 otherwise.

    tools/parity_gate.py [--cli build/release/twinvmaf] [--fixtures DIR]
                         [--backends cuda,hip]
"""
import argparse
import concurrent.futures
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
    ("cambi", "cambi"),
    ("cambi=full_ref=true", "cambi full_ref"),
    ("cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06", "cambi v1 (hrs 1080)"),
    ("cambi=enc_width=320:enc_height=180:enc_bitdepth=8", "cambi enc 320x180 8-bit"),
    ("cambi=window_size=31:topk=0.2", "cambi window 31 topk 0.2"),
    ("cambi=max_log_contrast=3:tvi_threshold=0.03:cambi_vis_lum_threshold=0.1", "cambi mlc 3 tvi vlt"),
    ("cambi=eotf=pq:cambi_topk=0.9", "cambi pq topk 0.9"),
    ("ciede", "ciede"),
    ("speed_chroma", "speed_chroma"),
    ("speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear", "speed_chroma ps 0.6 bilinear"),
    ("speed_chroma=speed_prescale=0.8:speed_prescale_method=nearest", "speed_chroma ps 0.8 nearest"),
    ("speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic", "speed_chroma ps 1.5 bicubic"),
    ("speed_chroma=speed_prescale=1.3:speed_prescale_method=lanczos4", "speed_chroma ps 1.3 lanczos4"),
    ("speed_chroma=speed_weight_var_mode=3:speed_kernelscale=1.5", "speed_chroma wvm 3 ks 1.5"),
    ("speed_chroma=speed_weight_var_mode=5:speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_max_val=45",
     "speed_chroma wvm 5 snn nnf mxv"),
    ("speed_temporal", "speed_temporal"),
    ("speed_temporal=speed_use_ref_diff=true", "speed_temporal use_ref_diff"),
    ("speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear", "speed_temporal ps 0.5 bilinear"),
    ("float_psnr", "float_psnr"),
    ("float_ansnr", "float_ansnr"),
    ("float_moment", "float_moment"),
    ("float_motion", "float_motion"),
    ("float_motion=motion_force_zero=true", "float_motion force zero"),
    ("float_motion=motion_filter_size=3:debug=false", "float_motion filter 3"),
    ("float_motion=motion_add_scale1=true", "float_motion add scale1"),
    ("float_motion=motion_add_uv=true:motion_filter_size=1", "float_motion add uv, filter 1"),
    ("float_motion=motion_fps_weight=1.5:motion_blend_factor=0.5:motion_blend_offset=2:motion_max_val=5",
     "float_motion host options"),
    ("float_vif", "float_vif"),
    ("float_vif=vif_enhn_gain_limit=1.0", "float_vif egl 1.0"),
    ("float_vif=vif_kernelscale=0.5", "float_vif kernelscale 0.5"),
    ("float_vif=vif_kernelscale=1.5:debug=true", "float_vif kernelscale 1.5 debug"),
    ("float_vif=debug=true:vif_skip_scale0=true", "float_vif debug skip scale0"),
    ("float_vif=vif_prescale=0.5:vif_prescale_method=bilinear", "float_vif prescale 0.5 bilinear"),
    ("float_vif=vif_prescale=1.5:vif_prescale_method=bicubic:vif_sigma_nsq=1.5", "float_vif ps 1.5 bicubic nsq"),
    ("float_adm", "float_adm"),
    ("float_adm=adm_enhn_gain_limit=1.2", "float_adm egl 1.2"),
    ("float_adm=adm_csf_mode=1", "float_adm csf mode 1"),
    ("float_adm=adm_csf_mode=2", "float_adm csf mode 2"),
    ("float_adm=adm_norm_view_dist=4:adm_ref_display_height=2160", "float_adm nvd 4 rdh 2160"),
    ("float_adm=debug=true:adm_csf_scale=1.5:adm_csf_diag_scale=0.7", "float_adm debug csf scales"),
    ("float_adm=adm_skip_scale0=true:adm_skip_aim_scale=1", "float_adm skip scale0, aim 1"),
    ("float_adm=adm_bypass_cm=1:adm_f1s0=0.5:adm_f2s3=2", "float_adm bypass cm, factors"),
    ("float_adm=adm_p_norm=2", "float_adm p_norm 2"),
    ("float_adm=adm_p_norm=2.5:debug=true", "float_adm p_norm 2.5 debug"),
    ("float_adm=adm_p_norm=4:adm_bypass_cm=1", "float_adm p_norm 4 bypass cm"),
    ("model:vmaf_float_v0.6.1", "vmaf_float_v0.6.1 (model)"),
    ("model:vmaf_float_v0.6.1neg", "vmaf_float_v0.6.1neg (model)"),
    ("model:vmaf_float_4k_v0.6.1", "vmaf_float_4k_v0.6.1 (model)"),
    ("model:vmaf_float_b_v0.6.3", "vmaf_float_b_v0.6.3 (model)"),
    ("float_ssim", "float_ssim"),
    ("float_ssim=enable_db=true", "float_ssim enable_db"),
    ("float_ssim=enable_db=true:clip_db=true", "float_ssim enable_db+clip_db"),
    ("float_ssim=enable_lcs=true", "float_ssim enable_lcs"),
    ("float_ssim=scale=1:enable_lcs=true", "float_ssim scale 1 lcs"),
    ("float_ssim=scale=3:enable_db=true:clip_db=true", "float_ssim scale 3 db+clip"),
    ("float_ms_ssim", "float_ms_ssim"),
    ("float_ms_ssim=enable_db=true", "float_ms_ssim enable_db"),
    ("float_ms_ssim=enable_db=true:clip_db=true", "float_ms_ssim enable_db+clip_db"),
    ("float_ms_ssim=enable_lcs=true", "float_ms_ssim enable_lcs"),
    ("psnr_hvs", "psnr_hvs (4:2:0, 4:2:2, 4:4:4 fixtures)"),
    ("motion_v2", "motion_v2 (lusoris/vmaf)"),
    ("motion_v2=motion_force_zero=true", "motion_v2 force zero"),
    ("motion_v2=motion_moving_average=true", "motion_v2 moving average"),
    ("motion_v2=motion_blend_factor=0.25:motion_blend_offset=1.5:motion_fps_weight=2:motion_max_val=20",
     "motion_v2 host options"),
    ("ssim", "ssim (lusoris/vmaf integer SSIM)"),
    ("ssimulacra2", "ssimulacra2 (lusoris/vmaf)"),
    ("ssimulacra2=yuv_matrix=1", "ssimulacra2 bt601 limited"),
    ("ssimulacra2=yuv_matrix=2", "ssimulacra2 bt709 full"),
    ("ssimulacra2=yuv_matrix=3", "ssimulacra2 bt601 full"),
    ("lusoris_float_ms_ssim", "lusoris_float_ms_ssim (lusoris/vmaf)"),
    ("lusoris_float_ms_ssim=enable_db=true:clip_db=true", "lusoris_float_ms_ssim enable_db+clip_db"),
    ("lusoris_float_ms_ssim=enable_lcs=true", "lusoris_float_ms_ssim enable_lcs"),
    ("model:vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h (model)"),
    ("model:vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_5d0h (model)"),
    ("model:vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_1d5h_2160"),
    ("model:vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_3d0h_2160"),
    ("model:vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h"),
    ("model:vmaf_v1.0.16_hfr_5d0h", "vmaf_v1.0.16_hfr_5d0h"),
    ("model:vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"),
    ("model:vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h_2160"),
    ("model:vmaf_v1.0.16_3d0h:cambi.enc_width=1280:cambi.enc_height=720:cambi.enc_bitdepth=8",
     "vmaf_v1.0.16_3d0h_enc720p8"),
]


def fixture_args(path):
    with open(os.path.join(path, "fixture.json")) as f:
        info = json.load(f)
    return ["-r", os.path.join(path, "ref.yuv"), "-d", os.path.join(path, "dis.yuv"),
            "-w", str(info["width"]), "-h", str(info["height"]),
            "-p", str(info["pixel_format"]), "-b", str(info["bitdepth"])]


def score(cli, args, feature, backend, out):
    """(parsed JSON, its text without the fps line, error text)."""
    # "model:<version>[:overrides]" scores a built-in model; anything else is a feature.
    scoring = ["--model", "version=" + feature[6:]] if feature.startswith("model:") else ["-n", "--feature", feature]
    cmd = [cli] + args + scoring + ["--backend", backend, "--json", "--precision", "max", "-q", "-o", out]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return None, None, done.stderr.strip()
    with open(out) as f:
        text = f.read()
    without_fps = "\n".join(line for line in text.splitlines() if not line.startswith('  "fps":'))
    return json.loads(text), without_fps, ""


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
    return identical, total, worst


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(root, "build", "release", "twinvmaf"))
    parser.add_argument("--fixtures", default=os.environ.get(
        "TWINVMAF_FIXTURES", os.path.join(root, "..", "shared", "fixtures")))
    parser.add_argument("--backends", default="cuda,hip")
    parser.add_argument("--only", default="", help="only the rows whose label contains this text")
    parser.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                        help="fixtures scored at once (default: half the cores)")
    opts = parser.parse_args()

    fixtures = sorted(os.path.join(opts.fixtures, d) for d in os.listdir(opts.fixtures)
                      if os.path.exists(os.path.join(opts.fixtures, d, "fixture.json")))
    failed = False
    backends = opts.backends.split(",")
    # Each row is printed as soon as it is done, so that a run cut short (a
    # device call's time limit) keeps the rows it finished.
    print("%-30s | %s" % ("feature", " | ".join("%-56s" % b for b in backends)))
    print("-" * (33 + 59 * len(backends)), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for feature, label in CASES:
            if opts.only not in label:
                continue
            cells = {}
            for backend in backends:
                identical = total = 0
                worst = 0.0
                note = ""
                refused_alike = 0

                def both(fixture):
                    args = fixture_args(fixture)
                    out = os.path.join(tmp, os.path.basename(fixture))
                    return (fixture, score(opts.cli, args, feature, "cpu", out + ".cpu.json"),
                            score(opts.cli, args, feature, backend, out + "." + backend + ".json"))

                with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
                    results = list(pool.map(both, fixtures))
                for fixture, (cpu, cpu_text, cpu_err), (gpu, gpu_text, gpu_err) in results:
                    if cpu is None or gpu is None:
                        # Both refusing with the same message agree (e.g. a
                        # frame size the feature does not score); the other
                        # fixtures of the row are still compared.
                        if cpu is None and gpu is None and cpu_err == gpu_err:
                            refused_alike += 1
                        else:
                            note = "%s: cpu %s, %s %s" % (os.path.basename(fixture), cpu_err or "scored", backend,
                                                          (gpu_err or "scored").replace("twinvmaf: error: ", ""))
                        continue
                    i, t, w = compare(cpu, gpu)
                    identical += i
                    total += t
                    worst = max(worst, w)
                    if cpu_text != gpu_text and i == t:
                        note = "output bytes differ on " + os.path.basename(fixture)
                if note and not total:
                    cells[backend] = "n/a (" + note[:60] + ")"
                    failed = True
                    continue
                ok = identical == total and not note
                failed |= not ok
                cells[backend] = "%d/%d identical, max|diff| %.3g%s%s" % (
                    identical, total, worst, " (+%d refused alike)" % refused_alike if refused_alike else "",
                    "" if ok else "  <-- " + (note or "DIFFERS"))
            print("%-30s | %s" % (label, " | ".join("%-56s" % cells[b] for b in backends)), flush=True)

    print("\nfixtures: %d (%s)" % (len(fixtures), opts.fixtures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
