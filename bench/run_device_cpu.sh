#!/usr/bin/env bash
# CPU speed and SIMD exactness on the GPU machine's CPU (no GPU needed): builds
# twinvmaf CPU-only with what --deps carries, checks every SIMD kernel against
# the reference on every instruction set the CPU runs (the checkasm-style unit
# tests and the golden runs under each TWINVMAF_SIMD cap), then runs
# bench/run_cpu_benchmarks.py against Netflix's vmaf given with --netflix.
#
#   bench/run_device_cpu.sh --deps DIR --netflix PATH [--fixtures DIR] [--out DIR]
#                           [--no-tests] [-- ARGS for run_cpu_benchmarks.py]
#
# --deps DIR holds what that machine lacks (it has cmake, ninja, python3 and
# numpy, no Debian packages), as for tools/gpu_check.sh:
#   DIR/googletest      GoogleTest sources
#   DIR/include/nlohmann nlohmann-json headers
#   DIR/hwy             Debian's libhwy-dev and libhwy1 unpacked with
#                       `dpkg -x libhwy-dev_*.deb DIR/hwy; dpkg -x libhwy1_*.deb DIR/hwy`
#                       (from `apt-get download libhwy-dev libhwy1`)
#   DIR/fixtures.tar.xz the cut fixtures (used when --fixtures is not given)
# tools/pack_device_inputs.py makes all four in .device/ (ignored by git).
# --netflix PATH: Netflix's vmaf 3.2.0 CLI built for that CPU (docs/compat.md,
# "CPU speed", says how it was built for these figures).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/.device"; netflix=""; fixtures=""; out="${OUT:-/tmp}"
tests=1; bench_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$2; shift 2 ;; --netflix) netflix=$2; shift 2 ;;
    --fixtures) fixtures=$2; shift 2 ;; --out) out=$2; shift 2 ;;
    --no-tests) tests=0; shift ;;
    --) shift; bench_args=("$@"); break ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$netflix" ] || { echo "--netflix PATH is required" >&2; exit 2; }
[ -x "$netflix" ] || { echo "--netflix $netflix: not an executable" >&2; exit 2; }
# Fixtures: --fixtures, else the cut ones tools/pack_device_inputs.py packed
# (first frames, no goldens: the golden runs then skip, and SimdCli's
# same-bytes-on-every-target test and the checkasm tests check exactness;
# the benchmarks loop the frames), else TWINVMAF_FIXTURES or ../shared.
if [ -z "$fixtures" ]; then
  if [ -f "$deps/fixtures.tar.xz" ]; then
    python3 -c "import tarfile, sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$deps/fixtures.tar.xz" "$deps"
    fixtures="$deps/fixtures"
  else
    fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"
  fi
fi
mkdir -p "$out"
hwy_config=$(find "$deps/hwy" -name hwy-config.cmake 2>/dev/null | head -1)
[ -n "$hwy_config" ] || { echo "no hwy-config.cmake under $deps/hwy (see --deps above)" >&2; exit 2; }
export TWINVMAF_FIXTURES="$fixtures"
build="$root/build/device-cpu"
section() { echo; echo "=== $* ==="; }

section "machine"
grep -m1 "model name" /proc/cpuinfo; echo "cores: $(nproc)"
grep -m1 "^flags" /proc/cpuinfo | grep -o -w "avx2\|avx512[a-z_0-9]*" | tr '\n' ' '; echo

section "build (CPU only)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWINVMAF_CUDA=OFF -DTWINVMAF_BUILD_BENCH=OFF \
  -Dhwy_DIR="$(dirname "$hwy_config")" -DTWINVMAF_GTEST_SOURCE_DIR="$deps/googletest" \
  -DCMAKE_CXX_FLAGS="-I$deps/include" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
targets=(twinvmaf)
[ "$tests" = 1 ] && targets+=(unit_tests cli_tests)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -E "error|what" "$out/build.log" | head -30; exit 1; }
"$build/twinvmaf" --version

status=0
if [ "$tests" = 1 ]; then
  section "SIMD kernels against the reference, every instruction set (checkasm-style)"
  "$build/tests/unit_tests" --gtest_filter='Simd*' 2>&1 | grep -E "targets checked|OK \]|FAILED|PASSED|Failure|Which is|Expected" || status=1
  section "golden runs under every TWINVMAF_SIMD cap"
  (cd "$build" && ctest -R 'GoldenSimd|SimdCli' -j "$(nproc)" --output-on-failure 2>&1 | tail -12) || status=1
fi

section "benchmarks against Netflix"
python3 "$root/bench/run_cpu_benchmarks.py" --build "$build" --fixtures "$fixtures" --netflix "$netflix" \
  "${bench_args[@]}" || status=1
exit $status
