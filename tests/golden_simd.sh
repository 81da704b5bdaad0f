#!/usr/bin/env bash
# One GoldenSimd.<cap> test: cli_tests' golden runs with the CPU kernels capped
# to an instruction set (TWINVMAF_SIMD), unless that cap leaves the CPU's own
# choice as it is: then these runs would repeat, kernel for kernel, the golden
# runs cli_tests makes without a cap (in the release build and in the
# sanitizer tree's Sanitized.cli_tests), so the test says so and skips (77).
# E.g. on an AVX2 machine the avx2 and avx3 caps both run the AVX2 kernels.
#   golden_simd.sh TWINVMAF_CLI CAP CLI_TESTS GTEST_FILTER
set -euo pipefail
cli=$1 cap=$2 cli_tests=$3 filter=$4
default=$(env -u TWINVMAF_SIMD "$cli" --version | sed -n 's/^CPU kernels: //p')
capped=$(TWINVMAF_SIMD=$cap "$cli" --version | sed -n 's/^CPU kernels: //p')
[ -n "$default" ] && [ -n "$capped" ] || { echo "no 'CPU kernels:' line from $cli --version"; exit 1; }
if [ "$capped" = "$default" ]; then
  echo "capped to $cap this CPU runs its default kernels ($default), which the uncapped golden runs check: skipped"
  exit 77
fi
echo "capped to $cap: $capped kernels (default $default)"
TWINVMAF_SIMD=$cap exec "$cli_tests" --gtest_filter="$filter"
