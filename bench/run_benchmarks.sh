#!/usr/bin/env bash
# End-to-end CLI benchmarks: fps and ms/frame of `twinvmaf --feature psnr` (or
# the feature or model given) on the 576x324 and 1920x1080 fixtures, one thread
# and all cores, beside Netflix's `vmaf` on the same inputs when a path to it
# is given, with the ratio (Netflix's time / ours: above 1 means we are faster).
#
#   bench/run_benchmarks.sh [--netflix /path/to/vmaf] [--build build/release]
#                           [--feature vif | --model vmaf_v0.6.1] [--frames N]
#                           [--input 576x324|1080p|1080p10|1080p12 ...]
#                           [--per-feature]
#
# Inputs (--input, repeatable; default 576x324 and 1080p):
#   576x324   vtest_576x324_420p8, 8-bit 4:2:0
#   1080p     checker_1920x1080_420p8, 8-bit 4:2:0
#   1080p10   vtest_576x324_420p10 upscaled to 1920x1080 (tools/make_upscaled.py,
#             numpy), 10-bit 4:2:0; 1080p12 likewise from vtest_576x324_420p12
# each looped to N frames (default: 480 at 576x324, 300 at 1080p; written to a
# temp dir), so start-up is a small share. Each figure is the best of 3 runs.
#
# With --netflix, a sanity line per input compares the outputs at one thread:
# ours with --precision max against Netflix's JSON, every per-frame metric both
# write, ours rounded to Netflix's %.6f.
#
# --per-feature (with --model): each extractor of the model run alone, one
# thread, `--no_prediction --feature NAME=<the model's feature_opts_dicts>`,
# CPU ms/frame (user + system) for ours and Netflix's. Each row includes reading the frame pair and
# start-up, which the first row, "(read only)", measures alone (no extractor).
#
# Prints figures only; there is no pass/fail.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/release"
netflix=""
feature=psnr
model=""
scoring=(--no_prediction --feature psnr)
inputs=()
per_feature=0
frames_small=480
frames_large=300
while [ $# -gt 0 ]; do
  case "$1" in
    --netflix) netflix="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --feature) feature="$2"; scoring=(--no_prediction --feature "$2"); shift 2 ;;
    --model) feature="$2"; model="$2"; scoring=(--model "version=$2"); shift 2 ;;
    --frames) frames_small="$2"; frames_large="$2"; shift 2 ;;
    --input) inputs+=("$2"); shift 2 ;;
    --per-feature) per_feature=1; shift ;;
    *) echo "usage: $0 [--netflix /path/to/vmaf] [--build dir] [--feature name | --model version] [--frames N]" \
            "[--input 576x324|1080p|1080p10|1080p12 ...] [--per-feature]" >&2
       exit 2 ;;
  esac
done
[ ${#inputs[@]} -gt 0 ] || inputs=(576x324 1080p)
if [ "$per_feature" = 1 ] && [ -z "$model" ]; then
  echo "--per-feature needs --model" >&2; exit 2
fi
echo "scoring: ${scoring[*]}"
fixtures="${TWINVMAF_FIXTURES:-$root/../shared/fixtures}"
twinvmaf="$build/twinvmaf"
[ -x "$twinvmaf" ] || { echo "no $twinvmaf: run 'make build' first" >&2; exit 1; }
[ -d "$fixtures" ] || { echo "no fixtures at $fixtures (set TWINVMAF_FIXTURES)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cores=$(nproc)

# a python3 with numpy (tools/make_upscaled.py, the model's options, the sanity
# check): the first python3 on PATH, else the system one
python=python3
python3 -c 'import numpy' 2>/dev/null || { [ -x /usr/bin/python3 ] && python=/usr/bin/python3; }

# upscale FIXTURE FRAMES STEM -> writes $tmp/STEM.{ref,dis}.yuv: the fixture
# scaled to 1920x1080 and looped to FRAMES frames
upscale() {
  local name=$1 frames=$2 stem=$3
  "$python" "$root/tools/make_upscaled.py" "$fixtures/$name" 1920x1080 "$frames" "$tmp/up" || exit 1
  mv "$tmp/up/ref.yuv" "$tmp/$stem.ref.yuv"
  mv "$tmp/up/dis.yuv" "$tmp/$stem.dis.yuv"
}

# repeat FIXTURE FRAMES -> writes $tmp/FIXTURE.{ref,dis}.yuv of FRAMES frames
repeat() {
  local name=$1 frames=$2 frame_bytes file_frames copies
  frame_bytes=$(sed -n 's/.*"frame_size_bytes": *\([0-9]*\).*/\1/p' "$fixtures/$name/fixture.json")
  file_frames=$(( $(stat -c %s "$fixtures/$name/ref.yuv") / frame_bytes ))
  copies=$(( (frames + file_frames - 1) / file_frames ))
  for side in ref dis; do
    for _ in $(seq "$copies"); do cat "$fixtures/$name/$side.yuv"; done > "$tmp/$name.$side.full"
    head -c $((frames * frame_bytes)) "$tmp/$name.$side.full" > "$tmp/$name.$side.yuv"
    rm -f "$tmp/$name.$side.full"
  done
}

# best_seconds CMD... -> best wall time of 3 runs
best_seconds() {
  local best="" t
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; return 1; }
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

printf '%-24s %-8s %8s %10s %12s %12s %12s %8s\n' input threads frames "tv fps" "tv ms/frame" "nflx fps" "nflx ms/fr" ratio
run_case() {
  local name=$1 w=$2 h=$3 depth=$4 frames=$5
  for threads in 1 "$cores"; do
    local args=(-r "$tmp/$name.ref.yuv" -d "$tmp/$name.dis.yuv" -w "$w" -h "$h" -p 420 -b "$depth"
                "${scoring[@]}" --threads "$threads" -q --json -o "$tmp/out.json")
    local t fps ms nfps="-" nms="-" ratio="-"
    t=$(best_seconds "$twinvmaf" "${args[@]}")
    fps=$(echo "$frames / $t" | bc -l)
    ms=$(echo "1000 * $t / $frames" | bc -l)
    if [ -n "$netflix" ]; then
      local nt
      nt=$(best_seconds "$netflix" "${args[@]}")
      nfps=$(printf '%.1f' "$(echo "$frames / $nt" | bc -l)")
      nms=$(printf '%.3f' "$(echo "1000 * $nt / $frames" | bc -l)")
      ratio=$(printf '%.2fx' "$(echo "$nt / $t" | bc -l)")
    fi
    printf '%-24s %-8s %8d %10.1f %12.3f %12s %12s %8s\n' "$name" "$threads" "$frames" "$fps" "$ms" "$nfps" "$nms" "$ratio"
  done
}

# sanity NAME W H DEPTH -> one line: do ours (--precision max) and Netflix's
# outputs agree on every per-frame metric at Netflix's %.6f?
sanity() {
  local name=$1 w=$2 h=$3 depth=$4
  local args=(-r "$tmp/$name.ref.yuv" -d "$tmp/$name.dis.yuv" -w "$w" -h "$h" -p 420 -b "$depth"
              "${scoring[@]}" --threads 1 -q --json)
  "$twinvmaf" "${args[@]}" --precision max -o "$tmp/ours.json" >/dev/null 2>&1
  "$netflix" "${args[@]}" -o "$tmp/netflix.json" >/dev/null 2>&1
  "$python" - "$tmp/ours.json" "$tmp/netflix.json" "$name" <<'PY'
import json, sys
ours, theirs = (json.load(open(p))["frames"] for p in sys.argv[1:3])
values = differ = 0
first = ""
if len(ours) != len(theirs):
    first = f"frame counts {len(ours)} vs {len(theirs)}"
for a, b in zip(ours, theirs):
    for key, value in b["metrics"].items():
        if key not in a["metrics"]:
            differ += 1
            first = first or f"frame {b['frameNum']}: no {key} in ours"
            continue
        values += 1
        if float("%.6f" % a["metrics"][key]) != float(value):
            differ += 1
            first = first or f"frame {b['frameNum']} {key}: {a['metrics'][key]!r} vs {value}"
vmaf = [f["metrics"]["vmaf"] for f in ours if "vmaf" in f["metrics"]]
mean = " (vmaf mean %.6f)" % (sum(vmaf) / len(vmaf)) if vmaf else ""
state = "agree" if not differ and not first else "DIFFER"
print(f"sanity {sys.argv[3]}: {state}: {values} per-frame values over {len(theirs)} frames, "
      f"ours at %.17g rounded to %.6f vs Netflix's{mean}" + (f"; first: {first}" if first else ""))
PY
}

# model_features -> lines "EXTRACTOR=opt=val:opt=val" (or "EXTRACTOR"), one per
# extractor of the model, options from its feature_opts_dicts
model_features() {
  local file
  file=$(find "$root/models" -name "$model.json" | head -1)
  [ -n "$file" ] || { echo "no models/**/$model.json" >&2; exit 1; }
  "$python" - "$file" <<'PY'
import json, re, sys
model = json.load(open(sys.argv[1]))
model = model.get("model_dict", model)
names = model["feature_names"]
opts = model.get("feature_opts_dicts") or [{}] * len(names)
seen = []
for name, opt in zip(names, opts):
    m = re.match(r"(VMAF_integer_feature|VMAF_feature|Cambi_feature|Speed_chroma_feature)_(\w+?)_", name + "_")
    if not m:
        print(f"skipping {name}: no extractor known", file=sys.stderr)
        continue
    group, key = m.groups()
    if group == "Cambi_feature":
        extractor = "cambi"
    elif group == "Speed_chroma_feature":
        extractor = "speed_chroma"
    else:
        base = re.match(r"(adm|motion|vif|ansnr)", key).group(1)
        extractor = base if group == "VMAF_integer_feature" else "float_" + base
    def text(v):
        return "true" if v is True else "false" if v is False else str(v)
    spec = extractor + ("=" + ":".join(f"{k}={text(v)}" for k, v in opt.items()) if opt else "")
    if spec not in seen:
        seen.append(spec)
for spec in seen:
    print(spec)
PY
}

# best_cpu_seconds CMD... -> least CPU time (user + system) of 3 runs: on a
# shared machine a steadier measure of one-thread work than the wall time
best_cpu_seconds() {
  local best="" t TIMEFORMAT='%U + %S'
  for _ in 1 2 3; do
    t=$( { time "$@" >/dev/null 2>&1; } 2>&1 ) || { echo "FAILED: $*" >&2; return 1; }
    t=$(echo "$t" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

# per_feature_case NAME W H DEPTH FRAMES -> ms/frame of each extractor alone
per_feature_case() {
  local name=$1 w=$2 h=$3 depth=$4 frames=$5 spec
  echo
  echo "Per extractor, run alone, one thread ($name, $frames frames; each includes reading the pair;"
  echo "CPU ms/frame = user + system time, least of 3 runs):"
  echo "(net: less the \"(read only)\" row, the extractor's own share)"
  printf '%-14s %12s %12s %8s %9s %9s %8s   %s\n' extractor "tv cpu ms/fr" "nflx cpu ms" ratio "tv net" "nflx net" "net rat" options
  local read_ms="" read_nms=""
  while read -r spec; do
    local args=(-r "$tmp/$name.ref.yuv" -d "$tmp/$name.dis.yuv" -w "$w" -h "$h" -p 420 -b "$depth"
                --no_prediction --threads 1 -q --json -o "$tmp/out.json")
    # "(read only)": no extractor at all, the cost of reading the pairs and start-up
    [ "$spec" = "(read only)" ] || args+=(--feature "$spec")
    local t ms nms="-" ratio="-"
    t=$(best_cpu_seconds "$twinvmaf" "${args[@]}")
    ms=$(echo "1000 * $t / $frames" | bc -l)
    if [ -n "$netflix" ]; then
      local nt
      nt=$(best_cpu_seconds "$netflix" "${args[@]}")
      nms=$(printf '%.3f' "$(echo "1000 * $nt / $frames" | bc -l)")
      ratio=$(printf '%.2fx' "$(echo "$nt / $t" | bc -l)")
    fi
    local opt="${spec#*=}" net="-" nnet="-" nratio="-"
    [ "$opt" = "$spec" ] && opt=""
    if [ "$spec" = "(read only)" ]; then
      read_ms=$ms; read_nms=$nms
    else
      net=$(printf '%.3f' "$(echo "$ms - $read_ms" | bc -l)")
      if [ -n "$netflix" ]; then
        nnet=$(printf '%.3f' "$(echo "$nms - $read_nms" | bc -l)")
        nratio=$(printf '%.2fx' "$(echo "$nnet / $net" | bc -l)")
      fi
    fi
    printf '%-14s %12.3f %12s %8s %9s %9s %8s   %s\n' "${spec%%=*}" "$ms" "$nms" "$ratio" "$net" "$nnet" "$nratio" "$opt"
  done < <(echo "(read only)"; model_features)
}

for input in "${inputs[@]}"; do
  case "$input" in
    576x324) case_args=(vtest_576x324_420p8 576 324 8 "$frames_small"); repeat vtest_576x324_420p8 "$frames_small" ;;
    1080p) case_args=(checker_1920x1080_420p8 1920 1080 8 "$frames_large"); repeat checker_1920x1080_420p8 "$frames_large" ;;
    1080p10|1080p12)
      depth=${input#1080p}
      case_args=("vtest_420p${depth}_up1920x1080" 1920 1080 "$depth" "$frames_large")
      upscale "vtest_576x324_420p$depth" "$frames_large" "${case_args[0]}" ;;
    *) echo "unknown --input $input (576x324, 1080p, 1080p10, 1080p12)" >&2; exit 2 ;;
  esac
  run_case "${case_args[@]}"
  if [ -n "$netflix" ]; then sanity "${case_args[@]:0:4}"; fi
  if [ "$per_feature" = 1 ]; then per_feature_case "${case_args[@]}"; fi
  rm -f "$tmp/${case_args[0]}".*.yuv
done

if [ "$feature" = psnr ] && [ -x "$build/bench/bench_psnr_kernel" ]; then
  echo
  echo "PSNR kernel alone (1080p frame pair, one thread):"
  "$build/bench/bench_psnr_kernel" --benchmark_min_time=0.2
fi

if [ -x "$build/bench/bench_model_predict" ]; then
  echo
  echo "Model scoring alone (features given, one thread):"
  "$build/bench/bench_model_predict" --benchmark_min_time=0.2
fi
