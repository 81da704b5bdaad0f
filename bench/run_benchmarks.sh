#!/usr/bin/env bash
# End-to-end CLI benchmarks: fps and ms/frame of `twinvmaf --feature psnr` (or
# the feature or model given) on the 576x324 and 1920x1080 fixtures, one thread
# and all cores, beside Netflix's `vmaf` on the same inputs when a path to it
# is given, with the ratio (Netflix's time / ours: above 1 means we are faster).
#
#   bench/run_benchmarks.sh [--netflix /path/to/vmaf] [--build build/release]
#                           [--feature vif | --model vmaf_v0.6.1] [--frames N]
#
# Inputs are the fixtures repeated to N frames (default: 480 at 576x324, 300
# at 1080p; written to a temp dir), so start-up is a small share. Each figure
# is the best of 3 runs. Prints figures only; there is no pass/fail.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/release"
netflix=""
feature=psnr
scoring=(--no_prediction --feature psnr)
frames_small=480
frames_large=300
while [ $# -gt 0 ]; do
  case "$1" in
    --netflix) netflix="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --feature) feature="$2"; scoring=(--no_prediction --feature "$2"); shift 2 ;;
    --model) feature="$2"; scoring=(--model "version=$2"); shift 2 ;;
    --frames) frames_small="$2"; frames_large="$2"; shift 2 ;;
    *) echo "usage: $0 [--netflix /path/to/vmaf] [--build dir] [--feature name | --model version] [--frames N]" >&2
       exit 2 ;;
  esac
done
echo "scoring: ${scoring[*]}"
fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"
twinvmaf="$build/twinvmaf"
[ -x "$twinvmaf" ] || { echo "no $twinvmaf: run 'make build' first" >&2; exit 1; }
[ -d "$fixtures" ] || { echo "no fixtures at $fixtures (set TWINVMAF_FIXTURES)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cores=$(nproc)

# repeat FIXTURE FRAMES -> writes $tmp/FIXTURE.{ref,dis}.yuv of FRAMES frames
repeat() {
  local name=$1 frames=$2 frame_bytes file_frames copies
  frame_bytes=$(sed -n 's/.*"frame_size_bytes": *\([0-9]*\).*/\1/p' "$fixtures/$name/fixture.json")
  file_frames=$(( $(stat -c %s "$fixtures/$name/ref.yuv") / frame_bytes ))
  copies=$(( (frames + file_frames - 1) / file_frames ))
  for side in ref dis; do
    for _ in $(seq "$copies"); do cat "$fixtures/$name/$side.yuv"; done > "$tmp/$name.$side.full"
    head -c $((frames * frame_bytes)) "$tmp/$name.$side.full" > "$tmp/$name.$side.yuv"
    rm -f "$tmp/$name.$side.full"
  done
}

# best_seconds CMD... -> best wall time of 3 runs
best_seconds() {
  local best="" t
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; return 1; }
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

printf '%-24s %-8s %8s %10s %12s %12s %8s\n' input threads frames "tv fps" "tv ms/frame" "nflx fps" ratio
run_case() {
  local name=$1 w=$2 h=$3 frames=$4
  repeat "$name" "$frames"
  for threads in 1 "$cores"; do
    local args=(-r "$tmp/$name.ref.yuv" -d "$tmp/$name.dis.yuv" -w "$w" -h "$h" -p 420 -b 8
                "${scoring[@]}" --threads "$threads" -q --json -o "$tmp/out.json")
    local t fps ms nfps="-" ratio="-"
    t=$(best_seconds "$twinvmaf" "${args[@]}")
    fps=$(echo "$frames / $t" | bc -l)
    ms=$(echo "1000 * $t / $frames" | bc -l)
    if [ -n "$netflix" ]; then
      local nt
      nt=$(best_seconds "$netflix" "${args[@]}")
      nfps=$(printf '%.1f' "$(echo "$frames / $nt" | bc -l)")
      ratio=$(printf '%.2fx' "$(echo "$nt / $t" | bc -l)")
    fi
    printf '%-24s %-8s %8d %10.1f %12.3f %12s %8s\n' "$name" "$threads" "$frames" "$fps" "$ms" "$nfps" "$ratio"
  done
}

run_case vtest_576x324_420p8 576 324 "$frames_small"
run_case checker_1920x1080_420p8 1920 1080 "$frames_large"

if [ "$feature" = psnr ] && [ -x "$build/bench/bench_psnr_kernel" ]; then
  echo
  echo "PSNR kernel alone (1080p frame pair, one thread):"
  "$build/bench/bench_psnr_kernel" --benchmark_min_time=0.2
fi

if [ -x "$build/bench/bench_model_predict" ]; then
  echo
  echo "Model scoring alone (features given, one thread):"
  "$build/bench/bench_model_predict" --benchmark_min_time=0.2
fi
