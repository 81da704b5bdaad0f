#!/usr/bin/env bash
# Compressed input (docs/decoding.md): twinvmaf decoding the pair itself
# against the same pair decoded by ffmpeg and piped in as Y4M, beside
# ffmpeg decoding both to nothing. Prints figures; passes or fails nothing.
#
# Usage: bench/decode_benchmark.sh [TWINVMAF] [RUNS]
#   TWINVMAF  the CLI (default build/release/twinvmaf); RUNS per mode (3)
# The clips (1080p, 60 frames: H.264 8-bit and HEVC 10-bit, 20 and 2 Mb/s)
# are made once in $TMPDIR/twinvmaf-decode-bench. Modes take turns, and the
# least of each mode's runs is printed (wall seconds, user + system CPU).
set -euo pipefail

cli=${1:-build/release/twinvmaf}
runs=${2:-3}
dir=${TMPDIR:-/tmp}/twinvmaf-decode-bench
mkdir -p "$dir"
ff=(ffmpeg -hide_banner -loglevel error -nostdin)
source="testsrc2=size=1920x1080:rate=25:duration=2.4"

make_clip() {  # name pix_fmt encoder options... (the bit rate last)
  local name=$1 pix_fmt=$2
  shift 2
  [[ -s $dir/$name ]] || "${ff[@]}" -y -f lavfi -i "$source" -pix_fmt "$pix_fmt" "$@" "$dir/$name"
}
make_clip h264_a.mp4 yuv420p -c:v libx264 -preset ultrafast -b:v 20M
make_clip h264_b.mp4 yuv420p -c:v libx264 -preset ultrafast -b:v 2M
make_clip hevc10_a.mkv yuv420p10le -c:v libx265 -preset ultrafast -x265-params log-level=error -b:v 20M
make_clip hevc10_b.mkv yuv420p10le -c:v libx265 -preset ultrafast -x265-params log-level=error -b:v 2M

# The least of $runs timings of a command: "wall cpu" in seconds.
declare -A best
measure() {  # key command...
  local key=$1
  shift
  local t
  /usr/bin/time -o "$dir/time.txt" -f "%e %U %S" "$@" >/dev/null 2>&1
  t=$(tail -1 "$dir/time.txt")
  local wall cpu
  wall=$(awk '{print $1}' <<<"$t")
  cpu=$(awk '{printf "%.2f", $2 + $3}' <<<"$t")
  if [[ -z ${best[$key]:-} ]] || (($(bc <<<"$wall < ${best[$key]%% *}"))); then best[$key]="$wall $cpu"; fi
}

for pair in "h264_a.mp4 h264_b.mp4" "hevc10_a.mkv hevc10_b.mkv"; do
  read -r a b <<<"$pair"
  for scoring in "psnr:-n --feature psnr" "vmaf:"; do
    name=${scoring%%:*}
    args=${scoring#*:}
    for ((i = 0; i < runs; ++i)); do
      measure "$a $name direct" "$cli" -r "$dir/$a" -d "$dir/$b" $args -q -o /dev/null --json
      measure "$a $name piped" bash -c "${ff[*]} -i '$dir/$a' -f yuv4mpegpipe -strict -1 - | '$cli' -r - -d <(${ff[*]} -i '$dir/$b' -f yuv4mpegpipe -strict -1 -) $args -q -o /dev/null --json"
    done
  done
  for ((i = 0; i < runs; ++i)); do
    measure "$a ffmpeg decoding only" bash -c "${ff[*]} -i '$dir/$a' -f null - & ${ff[*]} -i '$dir/$b' -f null -; wait"
  done
done

printf '%-34s %8s %8s %8s\n' "60 frames of 1080p, least of $runs" "wall s" "fps" "cpu s"
printf '%s\n' "${!best[@]}" | sort | while read -r key; do
  read -r wall cpu <<<"${best[$key]}"
  printf '%-34s %8s %8.1f %8s\n' "$key" "$wall" "$(bc -l <<<"60 / $wall")" "$cpu"
done
echo "(direct: twinvmaf -r A -d B; piped: ffmpeg -i A -f yuv4mpegpipe - | twinvmaf -r - -d <(ffmpeg -i B ...))"
