#!/usr/bin/env bash
# ciede's GPU twin on a GPU machine, after tools/gpu_check.sh has built
# build/gpu: the twin tests (every twin, ciede among them), its parity-gate row, and its device time per
# frame at 1920x1080 and 3840x2160 next to the CPU (the serial sum is the
# expected bottleneck, docs/compat.md "ciede on the GPU").
#
#   tools/ciede_probe.sh [--build DIR] [--fixtures DIR]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/gpu"; fixtures="${TWINVMAF_FIXTURES:-$root/.device/fixtures}"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;; --fixtures) fixtures=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
export TWINVMAF_FIXTURES="$fixtures"
"$build/tests/gpu_tests" --gtest_filter='GpuTwins.EqualCpu*'
python3 "$root/tools/parity_gate.py" --cli "$build/twinvmaf" --fixtures "$fixtures" --backends cuda --only ciede
python3 "$root/bench/run_gpu_benchmarks.py" --build "$build" --fixtures "$fixtures" --scoring "-n --feature ciede" \
  --sizes 1920x1080:20,3840x2160:10 --runs 3
