#!/usr/bin/env bash
# Compressed input on the GPU machine (issue 27 items 3, 4 and 6), from the
# checkout root, with what tools/pack_device_inputs.py --ffmpeg and
# tools/make_hwdec_clips.sh put in .device/:
#
#   tools/gpu_decode_check.sh check|bench|all [OUT_DIR]
#
# Builds twinvmaf with CUDA and installs it (/tmp/tv), builds FFmpeg 7.1 with
# NVDEC and the libvmaf_cuda filter against that libvmaf.so.3
# (tools/build_ffmpeg.sh, /tmp/ff), then twinvmaf again against FFmpeg 7.1's
# libraries (its decoding). About 4 minutes on 16 cores. The anchor, Netflix's
# libvmaf.so.3 built with CUDA, is not built here (its build recipe stays
# out of this repository, as the workplace's rules ask of code fetched from
# elsewhere): NETFLIX_PREFIX names an install of it (lib/libvmaf.so.3),
# NETFLIX_BUILD a command that makes it there, run beside the builds above;
# without it the Netflix rows are left out (.device/gpu_decode_check.env, if
# there, is sourced first for these settings). Then
#   check: every .device/clips/check pair through --hwdec cuda (NVDEC,
#          device-resident) and --hwdec none against the host decode's JSON
#          made here by Debian's FFmpeg (.device/clips/expected), the flow
#          counters, the device-picture and C API GPU tests, and FFmpeg's
#          libvmaf_cuda filter on twinvmaf's library against twinvmaf's CLI
#          (and on Netflix's, the anchor; its v1 refusal);
#   bench: the side-by-side timings of item 6, medians of 5 interleaved runs
#          (BENCH_RUNS); all: check, then bench while the first 6 minutes
#          last (BENCH_BY seconds from the start).
set -uo pipefail
mode=${1:-check}
out=${2:-${OUT:-/tmp/gpu_decode_check}}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
root=$PWD
jobs=$(nproc)
say() { printf '== %s\n' "$*"; }
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

hwy=$(dirname "$(find "$root/.device/hwy" -name hwy-config.cmake | head -1)")
[ -d .device/fixtures ] || python3 -c "import tarfile;tarfile.open('.device/fixtures.tar.xz').extractall('.device')"
configure() {
  cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -Dhwy_DIR="$hwy" \
    -DTWINVMAF_GTEST_SOURCE_DIR="$root/.device/googletest" -DCMAKE_CXX_FLAGS="-I$root/.device/include" \
    -DTWINVMAF_BUILD_BENCH=OFF "$@" >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
}
build() { cmake --build build/gpu -j"$jobs" --target "$@" >"$out/build.log" 2>&1 || { grep -m20 -A3 error "$out/build.log"; exit 1; }; }

# 1. Netflix's CUDA libvmaf (beside everything else), and twinvmaf without
# FFmpeg: the libvmaf.so.3 FFmpeg is built against.
# Local settings (NETFLIX_PREFIX, NETFLIX_BUILD), carried with .device/.
[ -f .device/gpu_decode_check.env ] && . .device/gpu_decode_check.env
netflix_prefix=${NETFLIX_PREFIX:-}
netflix=
if [ -n "${NETFLIX_BUILD:-}" ]; then
  bash -c "$NETFLIX_BUILD" >"$out/netflix_build.log" 2>&1 &
  netflix=$!
fi
configure -DTWINVMAF_FFMPEG=OFF
build twinvmaf vmaf gpu_tests capi_test
cmake --install build/gpu --prefix /tmp/tv >/dev/null || exit 1
stamp "twinvmaf built and installed"
# 2. FFmpeg 7.1 against it.
bash tools/build_ffmpeg.sh --prefix /tmp/ff --libvmaf-pc /tmp/tv/lib/pkgconfig --jobs $((jobs / 2)) \
  --nvccflags "-gencode arch=compute_90,code=sm_90 -O2" >"$out/ffmpeg_build.log" 2>&1 || { tail -30 "$out/ffmpeg_build.log"; exit 1; }
if [ -n "$netflix" ]; then
  wait $netflix || { echo "Netflix's CUDA build failed:"; tail -30 "$out/netflix_build.log"; }
fi
[ -n "$netflix_prefix" ] && [ -f "$netflix_prefix/lib/libvmaf.so.3" ] || { netflix_prefix=; echo "no Netflix CUDA libvmaf: its rows are left out"; }
stamp "FFmpeg 7.1 built"
grep -E "hwaccels|filters|libvmaf" "$out/ffmpeg_build.log" | tail -4
# 3. twinvmaf decoding with FFmpeg 7.1's libraries.
export LD_LIBRARY_PATH=/tmp/ff/lib
PKG_CONFIG_PATH=/tmp/ff/lib/pkgconfig configure -DTWINVMAF_FFMPEG=ON
grep -m1 "compressed input" "$out/configure.log"
build twinvmaf
stamp "twinvmaf rebuilt with FFmpeg 7.1"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
tv=build/gpu/twinvmaf
ff=/tmp/ff/bin/ffmpeg
clips=.device/clips
scoring=(--feature psnr=enable_chroma=true --feature float_ssim --precision max --json)
strip() { python3 -c "import re,sys;print(re.sub(r'\"fps\": [^,]*','\"fps\"',open(sys.argv[1]).read()))" "$1"; }

if [ "$mode" = check ] || [ "$mode" = all ]; then
  say "device-picture and C API tests"
  TWINVMAF_FIXTURES=$root/.device/fixtures build/gpu/tests/gpu_tests --gtest_filter='DevicePictures*:GpuApi*' \
    >"$out/gpu_tests.log" 2>&1
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED \]" "$out/gpu_tests.log" | head -12
  # What a failure said (the full log is in the output folder).
  grep -B2 -A12 -E "^[^ ]*: Failure|exception" "$out/gpu_tests.log" | head -60
  build/gpu/tests/capi_test cuda 2>&1 | tail -3
  say "NVDEC (--hwdec cuda) and host decoding against Debian FFmpeg 5.1's host decode"
  for a in "$clips"/check/a_*; do
    n=${a##*/a_}
    for hw in cuda none; do
      # Not --quiet: the flow line (uploads against device copies) is printed only without it.
      TWINVMAF_GPU_TIMING=1 $tv -r "$a" -d "$clips/check/b_$n" "${scoring[@]}" --backend cuda --hwdec $hw \
        -o "$out/$n.$hw.json" 2>"$out/$n.$hw.err"
      rc=$?
      flow=$(grep -o "flow: [^,]*, [^,]*" "$out/$n.$hw.err")
      if [ $rc -ne 0 ]; then res="rc=$rc $(grep -v '^twinvmaf: \(host\|device\|start\|backend\|flow\)' "$out/$n.$hw.err" | head -2)"
      elif [ "$(strip "$out/$n.$hw.json")" = "$(strip "$clips/expected/$n.json")" ]; then res="identical"
      else res="DIFFERS"; fi
      printf '%-20s %-5s %-9s %s\n' "$n" "$hw" "$res" "$flow"
    done
  done
  say "FFmpeg 7.1's libvmaf_cuda filter (NVDEC frames) on twinvmaf's libvmaf.so.3 against twinvmaf's CLI"
  for n in h264.mp4 hevc.mkv vp9.webm; do
    for model in vmaf_v0.6.1 vmaf_v1.0.16_3d0h; do
      for lib in twinvmaf ${netflix_prefix:+netflix}; do
        [ $lib = netflix ] && libpath=$netflix_prefix/lib:/tmp/ff/lib || libpath=/tmp/tv/lib:/tmp/ff/lib
        LD_LIBRARY_PATH=$libpath $ff -hide_banner -loglevel error -nostdin \
          -hwaccel cuda -hwaccel_output_format cuda -i "$clips/check/b_$n" \
          -hwaccel cuda -hwaccel_output_format cuda -i "$clips/check/a_$n" \
          -lavfi "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda=model=version=$model:log_fmt=json:log_path=$out/ff_${lib}_${model}_$n.json" \
          -f null - >"$out/ff_${lib}_${model}_$n.log" 2>&1
        echo "ffmpeg libvmaf_cuda on $lib, $model, $n: rc=$? $(grep -m2 -iE 'error|VMAF score' "$out/ff_${lib}_${model}_$n.log" | tr '\n' ' ')"
      done
      $tv -r "$clips/check/a_$n" -d "$clips/check/b_$n" --backend cuda --model version=$model --json -q -o "$out/cli_${model}_$n.json"
      python3 - "$out/cli_${model}_$n.json" "$out/ff_twinvmaf_${model}_$n.json" "$out/ff_netflix_${model}_$n.json" <<'PY'
import json, sys
cli = json.load(open(sys.argv[1]))
def frames(path):
    try:
        return json.load(open(path))["frames"]
    except Exception as e:
        return None
for label, path in (("twinvmaf lib", sys.argv[2]), ("netflix lib", sys.argv[3])):
    got = frames(path)
    if got is None:
        print("   %s: no output" % label); continue
    same = sum(1 for a, b in zip(cli["frames"], got) if a["metrics"] == b["metrics"])
    worst = max(abs(a["metrics"][k] - b["metrics"].get(k, float("nan"))) for a, b in zip(cli["frames"], got)
                for k in a["metrics"] if k in b["metrics"])
    print("   %s: %d frames, %d of them every metric equal to the CLI's; max |diff| %.3g; pooled vmaf %s"
          % (label, len(got), same, worst, json.load(open(path)).get("pooled_metrics", {}).get("vmaf", {}).get("mean")))
PY
    done
  done
fi

if [ "$mode" = all ] && [ $(( $(date +%s) - t0 )) -gt "${BENCH_BY:-360}" ]; then
  stamp "no time left for the benchmarks in this call"
elif [ "$mode" = bench ] || [ "$mode" = all ]; then
  say "item 6: whole commands, ${BENCH_RUNS:-5} runs interleaved, medians (s)"
  python3 tools/gpu_decode_bench.py --twinvmaf $tv --ffmpeg $ff --ours-lib /tmp/tv/lib \
    ${netflix_prefix:+--netflix-lib $netflix_prefix/lib} \
    --ffmpeg-lib /tmp/ff/lib --clips "$clips/bench" --runs "${BENCH_RUNS:-5}" 2>&1 | tee "$out/bench.txt"
fi
stamp "done"
