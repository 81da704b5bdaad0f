#!/usr/bin/env bash
# Encodes, with Debian's ffmpeg, the compressed pairs that the GPU machine's
# NVDEC checks and benchmarks use (it has no encoder): from the vtest
# fixture's reference (natural video, 576x324, 48 frames).
#
#   tools/make_hwdec_clips.sh OUT_DIR [FIXTURES_DIR]
#
# OUT_DIR/check/   12-frame pairs a_X (high rate) and b_X (low rate) of every
#                  codec and format NVDEC decodes on Hopper: H.264 8-bit,
#                  HEVC 8/10/12-bit 4:2:0 and 8/10-bit 4:4:4, VP9 8/10-bit,
#                  AV1 8/10-bit, and odd sizes (323x181: HEVC 4:4:4, AV1).
# OUT_DIR/bench/   100-frame pairs for the side-by-side targets (issue 27
#                  item 6): 4K 10-bit HEVC, 1080p 8-bit H.264 and AV1.
# About 4 minutes on two cores.
set -euo pipefail
out=$1
fixtures=${2:-$(dirname "$0")/../../shared/fixtures}
src=$fixtures/vtest_576x324_420p8/ref.yuv
mkdir -p "$out/check" "$out/bench"
ff() { SVT_LOG=1 ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }
raw=(-f rawvideo -pix_fmt yuv420p -s 576x324 -r 25)
x264="-c:v libx264 -preset veryfast -bf 3"
x265="-c:v libx265 -preset ultrafast -x265-params log-level=error"
vp9="-c:v libvpx-vp9 -deadline realtime -cpu-used 8"
aom="-c:v libaom-av1 -cpu-used 8 -usage realtime"
svt="-c:v libsvtav1 -preset 12"
check() {  # name encoder pix_fmt [scale]
    local name=$1 enc=$2 fmt=$3 vf=${4:-null}
    for side in a:1200k b:150k; do
        ff "${raw[@]}" -i "$src" -frames:v 12 -vf "$vf" -pix_fmt "$fmt" $enc -b:v "${side#*:}" "$out/check/${side%%:*}_$name"
    done
}
check h264.mp4 "$x264" yuv420p
check hevc.mkv "$x265" yuv420p
check hevc_10.mp4 "$x265" yuv420p10le
check hevc_12.mkv "$x265" yuv420p12le
check hevc_444.mkv "$x265" yuv444p
check hevc_444_10.mkv "$x265" yuv444p10le
check hevc_444_odd.mkv "$x265" yuv444p scale=323:181
check vp9.webm "$vp9" yuv420p
check vp9_10.webm "$vp9" yuv420p10le
check av1.mkv "$aom" yuv420p
check av1_10.ivf "$aom" yuv420p10le
check av1_odd.ivf "$aom" yuv420p scale=323:181
bench() {  # name encoder pix_fmt size ref_rate dis_rate
    local name=$1 enc=$2 fmt=$3 size=$4
    ff -stream_loop 2 "${raw[@]}" -i "$src" -frames:v 100 -vf "scale=$size:flags=bicubic" -pix_fmt "$fmt" $enc \
       -b:v "$5" "$out/bench/ref_$name"
    ff -stream_loop 2 "${raw[@]}" -i "$src" -frames:v 100 -vf "scale=$size:flags=bicubic" -pix_fmt "$fmt" $enc \
       -b:v "$6" "$out/bench/dis_$name"
}
bench 2160_hevc10.mkv "$x265" yuv420p10le 3840:2160 12M 3M
bench 1080_h264.mp4 "$x264" yuv420p 1920:1080 6M 1500k
bench 1080_av1.mkv "$svt" yuv420p 1920:1080 4M 1M
du -sh "$out"/*
