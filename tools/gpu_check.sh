#!/usr/bin/env bash
# Builds twinvmaf with CUDA on a GPU machine and runs everything that needs
# the device: the strict-FP probe, the GPU twin tests (also under
# compute-sanitizer memcheck) and the parity gate (the GPU benchmarks are
# bench/run_gpu_benchmarks.py).
#
#   tools/gpu_check.sh [--deps DIR] [--fixtures DIR] [--out DIR] [--arch 90]
#
# --deps holds what the GPU machine lacks (it has nvcc, cmake, ninja, python3):
#   DIR/googletest (sources), DIR/include/nlohmann (headers), DIR/hwy
#   (Debian's libhwy-dev and libhwy1 unpacked there with dpkg -x, from
#   `apt-get download libhwy-dev libhwy1`) and DIR/fixtures.tar.xz, used
#   when --fixtures is not given (tools/pack_device_inputs.py packs them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/.device"; fixtures="${TWINVMAF_FIXTURES:-}"; out="${OUT:-/tmp}"; arch=90
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$2; shift 2 ;; --fixtures) fixtures=$2; shift 2 ;;
    --out) out=$2; shift 2 ;; --arch) arch=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$fixtures" ]; then
  if [ -f "$deps/fixtures.tar.xz" ]; then
    python3 -c "import tarfile, sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$deps/fixtures.tar.xz" "$deps"
    fixtures="$deps/fixtures"
  else
    fixtures="$root/../shared/fixtures"
  fi
fi
export PATH="$PATH:/usr/local/cuda/bin" TWINVMAF_FIXTURES="$fixtures"
build="$root/build/gpu"
section() { echo; echo "=== $* ==="; }

section "build (sm_$arch)"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
hwy_config=$(find "$deps/hwy" -name hwy-config.cmake 2>/dev/null | head -1)
[ -n "$hwy_config" ] || { echo "no hwy-config.cmake under $deps/hwy (see --deps above)" >&2; exit 2; }
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -Dhwy_DIR="$(dirname "$hwy_config")" \
  -DTWINVMAF_GTEST_SOURCE_DIR="$deps/googletest" -DCMAKE_CXX_FLAGS="-I$deps/include" \
  -DTWINVMAF_BUILD_BENCH=OFF >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
# Only what needs the device: the CPU suite runs in CI.
cmake --build "$build" -j "$(nproc)" --target twinvmaf gpu_tests fp_probe_tests >"$out/build.log" 2>&1 ||
  { grep -E "error|what" "$out/build.log" | head -30; exit 1; }
echo "built"

status=0
section "strict floating-point probe"
"$build/tests/fp_probe_tests" 2>&1 | grep -E "probe|OK|FAILED|PASSED" || status=1
section "GPU twins vs CPU"
"$build/tests/gpu_tests" >"$out/gpu_tests.log" 2>&1 || status=1
grep -E "flow|OK \]|FAILED|PASSED|Failure|Expected|Which is" "$out/gpu_tests.log" | head -80
section "compute-sanitizer memcheck (GPU twin tests: tiny and odd sizes, and five fixtures (the API test needs noise_33x33))"
if command -v compute-sanitizer >/dev/null; then
  # Every kernel of every twin, on fewer fixtures (memcheck is slow).
  few=$(mktemp -d)
  # (DevicePictures needs the 12-bit vtest too.)
  for f in noise_257x145_420p10 vtest_576x324_420p8 vtest_576x324_420p12 cup_640x480_444p8 noise_33x33_420p8; do ln -sfn "$fixtures/$f" "$few/$f"; done
  TWINVMAF_FIXTURES="$few" compute-sanitizer --tool memcheck --error-exitcode 3 "$build/tests/gpu_tests" \
    >"$out/memcheck.log" 2>&1 || status=1
  grep -E "PASSED|FAILED|ERROR SUMMARY" "$out/memcheck.log" | tail -6
else
  echo "compute-sanitizer not found"
fi
section "parity gate"
python3 "$root/tools/parity_gate.py" --cli "$build/twinvmaf" --fixtures "$fixtures" --backends cuda \
  --jobs "$(nproc)" || status=1
exit $status
