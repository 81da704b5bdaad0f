#!/usr/bin/env bash
# The GPU checks of the ssimulacra2 twin in one run on a GPU machine, most
# important first (the shape of tools/fork_twins_gpu_check.sh):
#   1. build (--deps .device from tools/pack_device_inputs.py);
#   2. its GPU tests: every fixture and every tiny / odd size, every
#      yuv_matrix (TWINVMAF_GPU_FEATURES=ssimulacra2);
#   3. the parity gate's ssimulacra2 rows;
#   4. compute-sanitizer memcheck of 2. on four fixtures;
#   5. the device time per 4K frame of its kernels (ncu; frames 3..6 of a
#      run less frames 1..2) on vtest scaled up to 3840x2160 and on noise.
#
#   tools/ssimulacra2_gpu_check.sh [--deps DIR] [--out DIR] [--arch 90]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps="$root/.device"; out="${OUT:-/tmp}"; arch=90
while [ $# -gt 0 ]; do
  case "$1" in
    --deps) deps=$2; shift 2 ;; --out) out=$2; shift 2 ;; --arch) arch=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
python3 -c "import tarfile, sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$deps/fixtures.tar.xz" "$deps"
fixtures="$deps/fixtures"
export PATH="$PATH:/usr/local/cuda/bin" TWINVMAF_FIXTURES="$fixtures"
build="$root/build/gpu"
section() { echo; echo "=== $* ($(date +%T)) ==="; }
status=0

section "build (sm_$arch)"
hwy_config=$(find "$deps/hwy" -name hwy-config.cmake 2>/dev/null | head -1)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -Dhwy_DIR="$(dirname "$hwy_config")" -DTWINVMAF_GTEST_SOURCE_DIR="$deps/googletest" \
  -DCMAKE_CXX_FLAGS="-I$deps/include" -DTWINVMAF_BUILD_BENCH=OFF -DTWINVMAF_PYTHON=OFF >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target twinvmaf gpu_tests >"$out/build.log" 2>&1 ||
  { grep -E "error|what" "$out/build.log" | head -30; exit 1; }
echo "built"

section "GPU twin of ssimulacra2 vs CPU (fixtures, tiny and odd sizes, every yuv_matrix)"
TWINVMAF_GPU_FEATURES=ssimulacra2 "$build/tests/gpu_tests" --gtest_filter='GpuTwins.EqualCpu*' \
  >"$out/ss2_gpu_tests.log" 2>&1 || status=1
grep -E "OK \]|FAILED|PASSED|Failure|Expected|Which is" "$out/ss2_gpu_tests.log" | head -40

section "parity gate"
python3 "$root/tools/parity_gate.py" --cli "$build/twinvmaf" --fixtures "$fixtures" --backends cuda \
  --only ssimulacra2 --jobs "$(nproc)" || status=1

section "compute-sanitizer memcheck (four fixtures, tiny sizes)"
few=$(mktemp -d)
for f in noise_257x145_420p10 vtest_576x324_420p8 cup_640x480_444p8 noise_19x23_420p8; do ln -sfn "$fixtures/$f" "$few/$f"; done
TWINVMAF_FIXTURES="$few" TWINVMAF_GPU_FEATURES=ssimulacra2 timeout 240 compute-sanitizer --tool memcheck \
  --error-exitcode 3 "$build/tests/gpu_tests" --gtest_filter='GpuTwins.EqualCpu*' >"$out/ss2_memcheck.log" 2>&1 ||
  status=1
grep -E "PASSED|FAILED|ERROR SUMMARY" "$out/ss2_memcheck.log" | tail -6

section "4K device time per frame (ncu)"
python3 "$root/tools/make_upscaled.py" "$fixtures/vtest_576x324_420p8" 3840x2160 8 /tmp/ss2_4k_video >/dev/null
mkdir -p /tmp/ss2_4k_noise
head -c $((3840 * 2160 * 3 / 2 * 6)) /dev/urandom >/tmp/ss2_4k_noise/ref.yuv
head -c $((3840 * 2160 * 3 / 2 * 6)) /dev/urandom >/tmp/ss2_4k_noise/dis.yuv
for clip in video noise; do
  for frames in 2 6; do
    ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
      "$build/twinvmaf" -r /tmp/ss2_4k_$clip/ref.yuv -d /tmp/ss2_4k_$clip/dis.yuv -w 3840 -h 2160 -p 420 -b 8 \
      --frame_cnt $frames --backend cuda -n --feature ssimulacra2 -q --json -o /dev/null >"/tmp/ss2_ncu_$frames.csv" 2>/dev/null
  done
  python3 - /tmp/ss2_ncu_2.csv /tmp/ss2_ncu_6.csv "$clip" <<'PY'
import csv, io, sys, collections
def per_kernel(path):
    text = open(path).read()
    text = text[text.find('"ID"'):] if '"ID"' in text else text
    totals = collections.Counter()
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            v = float(row["Metric Value"].replace(",", ""))
            unit = row.get("Metric Unit", "ns")
            totals[row["Kernel Name"].split("(")[0][:60]] += v * {"us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}.get(unit, 1)
    return totals
a, b = per_kernel(sys.argv[1]), per_kernel(sys.argv[2])
total = 0.0
for k in sorted(set(a) | set(b)):
    d = (b[k] - a[k]) / 4
    total += d
    print(f"  ssimulacra2 {sys.argv[3]:6s} {k:60s} {d / 1e3:9.1f} us/frame")
print(f"  ssimulacra2 {sys.argv[3]:6s} all kernels: {total / 1e3:.1f} us per 4K frame (target < 5000)")
PY
done
exit $status
