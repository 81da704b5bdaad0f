#!/usr/bin/env bash
# Device check of the float_ssim, float_ms_ssim and psnr_hvs twins (issue 14,
# part B), after tools/gpu_check.sh has built build/gpu on the GPU machine:
# their parity-gate rows, then device ms/frame per twin at 3840x2160 (from
# TWINVMAF_GPU_TIMING=1) next to the CPU's 16-thread ms/frame.
#
#   tools/ftwin_b_probe.sh [--build DIR] [--fixtures DIR] [--frames N]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/gpu"; fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"; frames=10
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;; --fixtures) fixtures=$2; shift 2 ;; --frames) frames=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
cli="$build/twinvmaf"
status=0
for only in "float_ssim" "float_ms_ssim" "psnr_hvs"; do
  echo "=== parity gate: $only ==="
  python3 "$root/tools/parity_gate.py" --cli "$cli" --fixtures "$fixtures" --backends cuda --only "$only" || status=1
done

echo "=== 3840x2160 8-bit, $frames frames: device ms/frame per twin, CPU 16 threads ==="
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
python3 "$root/tools/make_upscaled.py" "$fixtures/vtest_576x324_420p8" 3840x2160 "$frames" "$big" || exit 1
args=(-r "$big/ref.yuv" -d "$big/dis.yuv" -w 3840 -h 2160 -p 420 -b 8 -n --json -o /dev/null)
for feature in float_ssim float_ms_ssim psnr_hvs "float_ssim=scale=1"; do
  echo "--- $feature"
  for backend in "cuda" "cpu --threads 16"; do
    # shellcheck disable=SC2086
    TWINVMAF_GPU_TIMING=1 "$cli" "${args[@]}" --feature "$feature" --backend $backend 2>&1 |
      grep -E "device ms/frame|host ms|error" | sed "s/^/[$backend] /"
  done
done
exit $status
