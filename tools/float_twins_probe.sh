#!/usr/bin/env bash
# The float twins (issue 14, part A) on a GPU machine, after tools/gpu_check.sh
# has built build/gpu: their parity-gate rows, and each twin's device
# ms/frame at 3840x2160 (TWINVMAF_GPU_TIMING=1) next to the CPU's ms/frame
# on all cores, then every float feature in one command.
#
#   tools/float_twins_probe.sh [--fixtures DIR] [--frames 30]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"; frames=30
while [ $# -gt 0 ]; do
  case "$1" in
    --fixtures) fixtures=$2; shift 2 ;; --frames) frames=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
cli="$root/build/gpu/twinvmaf"
[ -x "$cli" ] || { echo "no $cli: run tools/gpu_check.sh first" >&2; exit 2; }

echo "=== parity gate: float rows ==="
python3 "$root/tools/parity_gate.py" --cli "$cli" --fixtures "$fixtures" --backends cuda --only float
python3 "$root/tools/parity_gate.py" --cli "$cli" --fixtures "$fixtures" --backends cuda --only vmaf_float

echo; echo "=== 3840x2160, $frames frames (vtest_576x324_420p8 scaled up) ==="
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
python3 "$root/tools/make_upscaled.py" "$fixtures/vtest_576x324_420p8" 3840x2160 "$frames" "$big" || exit 1
args=(-r "$big/ref.yuv" -d "$big/dis.yuv" -w 3840 -h 2160 -p 420 -b 8 -n --json -o /dev/null)
for feature in float_psnr float_ansnr float_moment float_motion float_vif float_adm; do
  echo "--- $feature"
  TWINVMAF_GPU_TIMING=1 "$cli" "${args[@]}" --feature "$feature" --backend cuda 2>&1 | grep -E "device ms|host ms"
  TWINVMAF_GPU_TIMING=1 "$cli" "${args[@]}" --feature "$feature" --backend cpu 2>&1 | grep -E "host ms"
done
echo "--- every float feature at once"
all=(--feature float_psnr --feature float_ansnr --feature float_moment --feature float_motion --feature float_vif
     --feature float_adm)
TWINVMAF_GPU_TIMING=1 "$cli" "${args[@]}" "${all[@]}" --backend cuda 2>&1 | grep -E "device ms|host ms"
TWINVMAF_GPU_TIMING=1 "$cli" "${args[@]}" "${all[@]}" --backend cpu 2>&1 | grep -E "host ms"
