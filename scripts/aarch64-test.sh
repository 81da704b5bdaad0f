#!/usr/bin/env bash
# Cross-builds twinvmaf for 64-bit Arm (the aarch64 preset:
# cmake/aarch64-linux-gnu.cmake) and runs its tests under qemu-user-static,
# once per CPU model: NEON only, and SVE/SVE2 with 128-, 256- and 512-bit
# vectors. Every run must give the x86 build's bytes: the golden tests demand
# Netflix's values at %.17g, as on x86, and the checkasm-style Simd* tests
# compare every kernel of every Highway target the emulated CPU runs with
# the reference loops (README, "aarch64").
#
# Usage: scripts/aarch64-test.sh [--ci]
#   (default)  every unit test and every golden run on every fixture under
#              NEON and under 512-bit SVE; the Simd* tests and the golden runs
#              on the small fixtures under 128- and 256-bit SVE.
#   --ci       what CI runs: the Simd* tests under 128- and 256-bit SVE (which
#              between them run every Arm target Highway has: SVE2_128,
#              SVE_256, SVE2, SVE, NEON) and the golden runs of the SIMD
#              features on the tiny noise_* fixtures under NEON and 256-bit
#              SVE.
#
# Run it through `make aarch64-test` (or `make aarch64-test-ci`), which
# installs the cross compiler, qemu and the arm64 libraries first
# (scripts/install-deps.sh --aarch64). Prints a line per run and a summary;
# exits nonzero if any run failed.
set -euo pipefail

mode=full
for arg in "$@"; do
  case "$arg" in
    --ci) mode=ci ;;
    -h|--help) sed -n '2,22s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "aarch64-test.sh: unknown argument '$arg' (expected --ci)" >&2; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
build=build/aarch64
test -f $build/build.ninja || cmake --preset aarch64
if [[ $mode == ci ]]; then
  cmake --build --preset aarch64 --target unit_tests cli_tests twinvmaf
else
  cmake --build --preset aarch64
fi

# qemu-aarch64's CPU models (QEMU_CPU, read by every qemu process, also the
# CLIs the tests start through build/aarch64/tests/*-emulated). In qemu 7.2's
# user mode sve-default-vector-length is in bytes; -cpu max alone gives 64
# (512 bits). sve=off leaves NEON (Highway's NEON target needs AES, which
# max has).
declare -A cpu=(
  [neon]="max,sve=off"
  [sve128]="max,sve-default-vector-length=16"
  [sve256]="max,sve-default-vector-length=32"
  [sve512]="max,sve-default-vector-length=64"
)

# The golden runs with SIMD kernels, as tests/CMakeLists.txt's GoldenSimd.*
# runs them (TWINVMAF_SIMD_GOLDEN_RUNS), and the fixture sets.
simd_runs="psnr motion vif adm float_adm cambi speed float_vif float_motion float_ssim float_ms_ssim vmaf_v0_6_1 vmaf_v1_0_16_3d0h"
simd_golden_filter=$(for r in $simd_runs; do printf 'AllFixtures/Golden.*__%s*:' "$r"; done)
simd_golden_filter=${simd_golden_filter%:}
small_fixtures="-AllFixtures/Golden.*/box_*:AllFixtures/Golden.*/checker_*:AllFixtures/Golden.*/cup_*:AllFixtures/Golden.*/megamind_*:AllFixtures/Golden.*/vtest_*"

summary=()
failed=0
# run LABEL CPU BINARY GTEST_FILTER [ENV=VALUE...]
run() {
  local label=$1 model=$2 binary=$3 filter=$4
  shift 4
  local log=$build/aarch64-test-$label.log
  local start=$SECONDS status=0
  env QEMU_CPU="${cpu[$model]}" "$@" qemu-aarch64-static "$build/tests/$binary" --gtest_filter="$filter" \
      --gtest_brief=1 >"$log" 2>&1 || status=$?
  local passed failed_count
  passed=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  failed_count=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
  local line
  line=$(printf '%-28s %-7s %5s passed %3s failed  %5d s  exit %d' "$label" "$model" "${passed:-0}" \
         "${failed_count:-0}" $((SECONDS - start)) "$status")
  echo "$line"
  summary+=("$line")
  if ((status != 0)); then
    failed=1
    grep -E '^\[  FAILED  \]' "$log" | head -20 || true
  fi
}

if [[ $mode == ci ]]; then
  run simd-kernels-sve128 sve128 unit_tests 'Simd*'
  run simd-kernels-sve256 sve256 unit_tests 'Simd*'
  run golden-simd-noise-neon neon cli_tests "$simd_golden_filter$small_fixtures"
  run golden-simd-noise-sve256 sve256 cli_tests "$simd_golden_filter$small_fixtures"
else
  for model in neon sve512; do
    run unit-$model $model unit_tests '*'
    run cli-$model $model cli_tests '*'
  done
  for model in sve128 sve256; do
    run simd-kernels-$model $model unit_tests 'Simd*'
    run golden-small-$model $model cli_tests "AllFixtures/Golden.*$small_fixtures"
  done
  # The instruction-set caps of the GoldenSimd.* tests, on an SVE CPU.
  for cap in scalar neon sve sve2; do
    run golden-simd-cap-$cap sve256 cli_tests "$simd_golden_filter$small_fixtures" TWINVMAF_SIMD=$cap
  done
fi

echo
echo "aarch64-test.sh ($mode): summary"
printf '  %s\n' "${summary[@]}"
exit $failed
