#!/usr/bin/env bash
# GPU benchmarks (run on a GPU machine): fps and ms/frame at 1920x1080 (200
# frames) and 3840x2160 (100 frames), --backend cuda against --backend cpu
# (all cores), whole command and net of start-up: (t(N) - t(2)) / (N - 2).
# Then the device time per twin and the upload share (TWINVMAF_GPU_TIMING=1),
# and Netflix's vmaf on the same inputs when --netflix is given.
#
#   bench/run_gpu_benchmarks.sh [--build DIR] [--fixtures DIR] [--netflix PATH]
#                               [--scoring "--model version=vmaf_v0.6.1"]
#
# Inputs: vtest_576x324_420p8 scaled up (tools/make_upscaled.py, numpy).
# Prints figures only; there is no pass/fail.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/gpu"; fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"; netflix=""
scoring="--model version=vmaf_v0.6.1"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;; --fixtures) fixtures=$2; shift 2 ;;
    --netflix) netflix=$2; shift 2 ;; --scoring) scoring=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cores=$(nproc)
read -r -a scoring_args <<<"$scoring"
echo "scoring: $scoring   (cpu: $cores threads)"

seconds() {  # seconds CMD... (best of 5: start-up varies by tens of ms run to run)
  local best=""
  for _ in 1 2 3 4 5; do
    local start end t
    start=$(date +%s.%N); "$@" >/dev/null 2>"$tmp/err" || { echo "FAILED: $* : $(tail -1 "$tmp/err")" >&2; echo 0; return; }
    end=$(date +%s.%N); t=$(python3 -c "print($end - $start)")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then best=$t; fi
  done
  echo "$best"
}

printf '%-10s %-22s %7s %12s %14s %12s\n' size backend frames "whole fps" "net ms/frame" "net fps"
for spec in 1920x1080:200 3840x2160:100; do
  size=${spec%:*}; frames=${spec#*:}; w=${size%x*}; h=${size#*x}
  python3 "$root/tools/make_upscaled.py" "$fixtures/vtest_576x324_420p8" "$size" "$frames" "$tmp/in" || exit 1
  io=(-r "$tmp/in/ref.yuv" -d "$tmp/in/dis.yuv" -w "$w" -h "$h" -p 420 -b 8)
  for backend in "cuda" "cpu"; do
    cmd=("$build/twinvmaf" "${io[@]}" "${scoring_args[@]}" --backend "$backend" --threads "$cores" -q --json -o "$tmp/out.json")
    t2=$(seconds "${cmd[@]}" --frame_cnt 2); tn=$(seconds "${cmd[@]}")
    python3 -c "n=$frames; t2=$t2; tn=$tn; net=(tn-t2)/(n-2); print('%-10s %-22s %7d %12.1f %14.3f %12.1f' % ('$size', 'twinvmaf $backend', n, n/tn, 1000*net, 1/net if net>0 else 0))"
  done
  if [ -n "$netflix" ]; then
    cmd=("$netflix" "${io[@]}" "${scoring_args[@]}" --threads "$cores" -q --json -o "$tmp/out.json")
    t2=$(seconds "${cmd[@]}" --frame_cnt 2); tn=$(seconds "${cmd[@]}")
    python3 -c "n=$frames; t2=$t2; tn=$tn; net=(tn-t2)/(n-2); print('%-10s %-22s %7d %12.1f %14.3f %12.1f' % ('$size', 'netflix', n, n/tn, 1000*net, 1/net if net>0 else 0))"
  fi
  echo "  device time per frame ($size, cuda):"
  TWINVMAF_GPU_TIMING=1 "$build/twinvmaf" "${io[@]}" "${scoring_args[@]}" --backend cuda -o "$tmp/out.json" --json 2>&1 \
    | grep -E "device ms/frame|host ms|backend" | sed 's/^/    /'
  cmp_args=("${io[@]}" "${scoring_args[@]}" --precision max --json --frame_cnt 20 -q)
  "$build/twinvmaf" "${cmp_args[@]}" --backend cuda -o "$tmp/gpu.json" && \
    "$build/twinvmaf" "${cmp_args[@]}" --backend cpu -o "$tmp/cpu.json" && \
    python3 - "$tmp/gpu.json" "$tmp/cpu.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
strip = lambda d: {k: v for k, v in d.items() if k not in ("fps", "version")}
print("  cuda == cpu on the first 20 frames (--precision max):", strip(a) == strip(b))
PY
done
