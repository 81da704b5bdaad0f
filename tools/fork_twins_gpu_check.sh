#!/usr/bin/env bash
# The GPU checks of the lusoris/vmaf fork's twins (motion_v2, ssim) in one
# run on a GPU machine, most important first:
#   1. build (as tools/gpu_check.sh: --deps .device from
#      tools/pack_device_inputs.py);
#   2. their GPU tests (every fixture and every tiny / odd size, every option
#      set of test_gpu_twins.cpp: TWINVMAF_GPU_FEATURES=motion_v2,ssim);
#   3. the flow test with every twin on (one readback per frame);
#   4. the parity gate's rows of both;
#   5. compute-sanitizer memcheck of 2. on four fixtures;
#   6. the device time per 4K frame of each twin's kernels (ncu, clocks
#      left alone; frames 3..6 of a run less frames 1..2), on a fixture
#      scaled up to 3840x2160 and on uniform noise.
#
#   tools/fork_twins_gpu_check.sh [--deps DIR] [--out DIR] [--arch 90]
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
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
hwy_config=$(find "$deps/hwy" -name hwy-config.cmake 2>/dev/null | head -1)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -Dhwy_DIR="$(dirname "$hwy_config")" -DTWINVMAF_GTEST_SOURCE_DIR="$deps/googletest" \
  -DCMAKE_CXX_FLAGS="-I$deps/include" -DTWINVMAF_BUILD_BENCH=OFF -DTWINVMAF_PYTHON=OFF >"$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target twinvmaf gpu_tests >"$out/build.log" 2>&1 ||
  { grep -E "error|what" "$out/build.log" | head -30; exit 1; }
echo "built"

section "GPU twins of motion_v2 and ssim vs CPU (fixtures, tiny and odd sizes)"
TWINVMAF_GPU_FEATURES=motion_v2,ssim "$build/tests/gpu_tests" --gtest_filter='GpuTwins.EqualCpu*' \
  >"$out/gpu_tests.log" 2>&1 || status=1
grep -E "OK \]|FAILED|PASSED|Failure|Expected|Which is" "$out/gpu_tests.log" | head -40

section "flow: every twin on"
"$build/tests/gpu_tests" --gtest_filter='GpuTwins.AllTwinsTogether*:GpuTwins.OneReadback*:GpuTwins.MotionV2*' >"$out/flow.log" 2>&1 || status=1
grep -E "flow|OK \]|FAILED|PASSED|Failure" "$out/flow.log" | head -20

section "parity gate"
python3 "$root/tools/parity_gate.py" --cli "$build/twinvmaf" --fixtures "$fixtures" --backends cuda \
  --only motion_v2 --jobs "$(nproc)" || status=1
python3 "$root/tools/parity_gate.py" --cli "$build/twinvmaf" --fixtures "$fixtures" --backends cuda \
  --only "ssim (lusoris" --jobs "$(nproc)" || status=1

section "4K device time per frame (ncu)"
# Two 8-bit 4:2:0 3840x2160 clips: vtest_576x324_420p8 scaled up (video) and
# uniform noise (ssim's worst case: terms of both signs around 0, so the
# serial chain crosses binades everywhere and gpu/chain_sum.h follows most
# chunks again).
python3 "$root/tools/make_upscaled.py" "$fixtures/vtest_576x324_420p8" 3840x2160 8 /tmp/fork4k_video >/dev/null
mkdir -p /tmp/fork4k_noise
head -c $((3840 * 2160 * 3 / 2 * 8)) /dev/urandom >/tmp/fork4k_noise/ref.yuv
head -c $((3840 * 2160 * 3 / 2 * 8)) /dev/urandom >/tmp/fork4k_noise/dis.yuv
for run in motion_v2:video ssim:video ssim:noise motion_v2:noise; do
  feature=${run%%:*} clip=/tmp/fork4k_${run##*:}
  for frames in 2 6; do
    ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
      "$build/twinvmaf" -r $clip/ref.yuv -d $clip/dis.yuv -w 3840 -h 2160 -p 420 -b 8 --frame_cnt $frames \
      --backend cuda -n --feature $feature -q --json -o /dev/null >"/tmp/ncu_$frames.csv" 2>/dev/null
  done
  python3 - /tmp/ncu_2.csv /tmp/ncu_6.csv "$run" <<'PY2'
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
    print(f"  {sys.argv[3]:16s} {k:60s} {d / 1e3:9.1f} us/frame")
print(f"  {sys.argv[3]:16s} all kernels: {total / 1e3:.1f} us per 4K frame (target < 500)")
PY2
done

section "compute-sanitizer memcheck (motion_v2, ssim; four fixtures, tiny sizes)"
few=$(mktemp -d)
for f in noise_257x145_420p10 vtest_576x324_420p8 cup_640x480_444p8 noise_33x33_420p8; do ln -sfn "$fixtures/$f" "$few/$f"; done
TWINVMAF_FIXTURES="$few" TWINVMAF_GPU_FEATURES=motion_v2,ssim timeout 150 compute-sanitizer --tool memcheck \
  --error-exitcode 3 "$build/tests/gpu_tests" --gtest_filter='GpuTwins.EqualCpu*' >"$out/memcheck.log" 2>&1 || status=1
grep -E "PASSED|FAILED|ERROR SUMMARY" "$out/memcheck.log" | tail -6
exit $status
