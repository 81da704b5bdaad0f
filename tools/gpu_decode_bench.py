#!/usr/bin/env python3
"""Issue 27 item 6 on the GPU machine: whole commands on compressed pairs,
twinvmaf against FFmpeg 7.1's libvmaf / libvmaf_cuda filters on Netflix's
libvmaf (and on twinvmaf's, the same FFmpeg binary with the other
libvmaf.so.3 on LD_LIBRARY_PATH), run interleaved, medians of --runs.

    tools/gpu_decode_bench.py --twinvmaf BIN --ffmpeg BIN --ours-lib DIR --netflix-lib DIR
                              --ffmpeg-lib DIR --clips DIR [--runs 5]

Clips (tools/make_hwdec_clips.sh, bench/): ref_/dis_ 2160_hevc10.mkv,
1080_h264.mp4, 1080_av1.mkv, 100 frames each. FFmpeg's libvmaf_cuda takes
yuv420p or yuv444p16 frames only, so NVDEC's NV12/P010 go through
scale_cuda=format=... first (FFmpeg's documented way), on both libraries."""
import argparse
import os
import statistics
import subprocess
import time


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("twinvmaf", "ffmpeg", "ours-lib", "ffmpeg-lib", "clips"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--netflix-lib", help="Netflix's libvmaf.so.3 (with CUDA); without it its rows are left out")
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    cores = os.cpu_count()

    def ffmpeg_cmd(clip, filt, hw, model="vmaf_v0.6.1", fmt="yuv420p"):
        ref, dis = (os.path.join(a.clips, side + "_" + clip) for side in ("ref", "dis"))
        hwargs = ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda"] if hw else []
        if hw:
            graph = ("[0:v]scale_cuda=format=%s[d];[1:v]scale_cuda=format=%s[r];[d][r]%s=model=version=%s"
                     ":log_path=/dev/null" % (fmt, fmt, filt, model))
        else:
            graph = "[0:v][1:v]%s=model=version=%s:n_threads=%d:log_path=/dev/null" % (filt, model, cores)
        return [a.ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin"] + hwargs + ["-i", dis] + hwargs + \
               ["-i", ref, "-lavfi", graph, "-f", "null", "-"]

    def ours(clip, backend, model="vmaf_v0.6.1"):
        ref, dis = (os.path.join(a.clips, side + "_" + clip) for side in ("ref", "dis"))
        extra = ["--backend", "cuda", "--hwdec", "cuda"] if backend == "cuda" else ["--backend", "cpu", "--threads", str(cores)]
        return [a.twinvmaf, "-r", ref, "-d", dis, "--model", "version=" + model, "-q", "--json", "-o", "/dev/null"] + extra

    netflix = a.netflix_lib + ":" + a.ffmpeg_lib if a.netflix_lib else None
    mine = a.ours_lib + ":" + a.ffmpeg_lib
    groups = []
    for clip, fmt, v1 in (("2160_hevc10.mkv", "yuv444p16", "vmaf_v1.0.16_3d0h_2160"),
                          ("1080_h264.mp4", "yuv420p", "vmaf_v1.0.16_3d0h"),
                          ("1080_av1.mkv", "yuv420p", "vmaf_v1.0.16_3d0h")):
        groups.append(("%s vmaf_v0.6.1, GPU" % clip, [
            ("twinvmaf --hwdec cuda", ours(clip, "cuda"), a.ffmpeg_lib),
            ("ffmpeg libvmaf_cuda on Netflix's lib", ffmpeg_cmd(clip, "libvmaf_cuda", True, fmt=fmt), netflix),
            ("ffmpeg libvmaf_cuda on twinvmaf's lib", ffmpeg_cmd(clip, "libvmaf_cuda", True, fmt=fmt), mine)]))
        groups.append(("%s %s (v1)" % (clip, v1), [
            ("twinvmaf --hwdec cuda", ours(clip, "cuda", v1), a.ffmpeg_lib),
            ("ffmpeg libvmaf_cuda on twinvmaf's lib", ffmpeg_cmd(clip, "libvmaf_cuda", True, v1, fmt), mine),
            ("ffmpeg libvmaf_cuda on Netflix's lib", ffmpeg_cmd(clip, "libvmaf_cuda", True, v1, fmt), netflix),
            ("twinvmaf cpu, %d threads" % cores, ours(clip, "cpu", v1), a.ffmpeg_lib)]))
        groups.append(("%s vmaf_v0.6.1, CPU at all %d cores" % (clip, cores), [
            ("twinvmaf --backend cpu", ours(clip, "cpu"), a.ffmpeg_lib),
            ("ffmpeg libvmaf (n_threads=%d) on Netflix's lib" % cores, ffmpeg_cmd(clip, "libvmaf", False), netflix)]))

    for title, commands in groups:
        commands = [c for c in commands if c[2] is not None]
        times = {label: [] for label, _, _ in commands}
        failed = {}
        for _ in range(a.runs):
            for label, cmd, libs in commands:
                if label in failed:
                    continue
                env = dict(os.environ, LD_LIBRARY_PATH=libs)
                start = time.perf_counter()
                r = subprocess.run(cmd, env=env, capture_output=True, text=True)
                elapsed = time.perf_counter() - start
                if r.returncode != 0:
                    failed[label] = "exit %d: %s" % (r.returncode, (r.stderr.strip().splitlines() or [""])[-1][:160])
                else:
                    times[label].append(elapsed)
        print("\n%s (medians of %d)" % (title, a.runs))
        base = None
        for label, cmd, _ in commands:
            if label in failed:
                print("  %-48s FAILS: %s" % (label, failed[label]))
                continue
            median = statistics.median(times[label])
            base = base or median
            print("  %-48s %7.3f s  %6.1f fps  (x%.2f of the first row's time)"
                  % (label, median, 100 / median, median / base))
        print("  first: " + " ".join(commands[0][1]))
        if len(commands) > 1:
            print("  second: LD_LIBRARY_PATH=%s %s" % (commands[1][2], " ".join(commands[1][1])))


if __name__ == "__main__":
    main()
