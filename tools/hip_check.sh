#!/usr/bin/env bash
# Compiles every GPU kernel source with hipcc for AMD targets, with the strict
# floating-point flags of the HIP build, checks on the device assembly that
# the strict build does not contract a*b+c into an FMA, and on every twin's
# device IR that nothing is fused and no device libm is called. Needs no AMD GPU.
# Exit 77 (skip) when hipcc is not installed (scripts/install-deps.sh --hip).
#
# Targets: gfx90a, gfx1030 and gfx1036 (the targets Debian's ROCm 5.2 device
# libraries have), each compiled and linked with its device code.
#
#   tools/hip_check.sh [targets [K/N] | ir]
#
# targets: only the compile for the three targets (of every Nth source from
# the Kth, for CTest to run shards side by side); ir: only the contraction
# probe and the IR check; no argument: both, every source.
set -uo pipefail
part=${1:-all}
shard=${2:-1/1}
shard_k=${shard%/*} shard_n=${shard#*/}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v hipcc >/dev/null; then
  echo "hipcc not found: HIP compile check skipped (install with scripts/install-deps.sh --hip)"
  exit 77
fi
strict=(-ffp-contract=off -fhip-fp32-correctly-rounded-divide-sqrt)
common=(-x hip -std=c++20 -I"$root/include" -I"$root/src" -DTWINVMAF_PROBE_NAMESPACE=strict -Wno-unused-result)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t sources < <(cd "$root" && ls src/gpu/*.cu src/features/*/*.cu tests/gpu/*.cu)
failed=0
# All three targets in one hipcc call per source: the host half is compiled
# once instead of three times (a third less time in CI). -O0: what this
# proves is that every source compiles and links for each target (the
# front end per target, e.g. a wave of 32 on gfx1030/gfx1036 and of 64 on
# gfx90a, and each back end's instruction selection); the optimiser adds
# nothing to that and cost 40 % of the time (vif_gpu.cu: 29.7 s at hipcc's
# default, 17.7 s at -O0). The IR check below reads the front end's IR,
# before any optimisation, whatever the level.
archs=(gfx90a gfx1030 gfx1036)
if [ "$part" != ir ]; then
  compiled=0
  for i in "${!sources[@]}"; do
    [ $(( i % shard_n )) -eq $(( shard_k - 1 )) ] || continue
    source=${sources[$i]}
    if ! hipcc "${common[@]}" "${strict[@]}" -O0 "${archs[@]/#/--offload-arch=}" -c "$root/$source" \
        -o "$tmp/out.o" 2>"$tmp/err"; then
      echo "FAIL ${archs[*]} $source"; head -20 "$tmp/err"; failed=1
    fi
    compiled=$(( compiled + 1 ))
  done
  echo "${archs[*]}: $compiled of ${#sources[@]} kernel sources (shard $shard) compiled for each"
  [ "$part" = targets ] && exit $failed
fi

# a*b+c: one v_fma*/v_fmac*/v_mad_f32 by default, none with the strict flags.
asm() { hipcc "${common[@]}" "$@" --offload-arch=gfx90a --cuda-device-only -S \
        "$root/tests/gpu/contraction_probe.cu" -o - 2>/dev/null | grep -cE 'v_(fma|fmac|mad)_f32'; }
strict_fmas=$(asm "${strict[@]}")
default_fmas=$(asm -fhip-fp32-correctly-rounded-divide-sqrt)
echo "contraction probe (gfx90a): strict build $strict_fmas FMA, default build $default_fmas FMA"
[ "$strict_fmas" = 0 ] || { echo "FAIL: the strict HIP build contracts a*b+c"; failed=1; }
[ "$default_fmas" -gt 0 ] || { echo "FAIL: the probe shows no FMA even without the strict flags"; failed=1; }

# The IR hipcc's front end hands to LLVM, for every twin: no fused
# multiply-add, no fast-math flag, no device libm (tools/kernel_fp_check.py
# says why the ISA alone cannot show it: the back end expands correctly
# rounded division and sqrt into FMA steps). The probes must be rejected.
ir() { hipcc "${common[@]}" "${strict[@]}" "${@:3}" --offload-arch=gfx90a --cuda-device-only -S -emit-llvm \
       -Xclang -disable-llvm-passes "$root/$1" -o "$2" 2>/dev/null; }
irs=()
for source in "${sources[@]}"; do
  case "$source" in tests/*) continue ;; esac
  out="$tmp/$(echo "$source" | tr / _).ll"
  ir "$source" "$out" && irs+=("$out") || { echo "FAIL IR of $source"; failed=1; }
done
python3 "$root/tools/kernel_fp_check.py" --llvm "${irs[@]}" | sed "s|$tmp/||" || failed=1
ir tests/gpu/libm_probe.cu "$tmp/libm_probe.ll"
ir tests/gpu/contraction_probe.cu "$tmp/contracted_probe.ll" -ffp-contract=fast
for probe in libm_probe contracted_probe; do
  if python3 "$root/tools/kernel_fp_check.py" --llvm "$tmp/$probe.ll" >/dev/null; then
    echo "FAIL: kernel_fp_check.py accepts $probe (the IR check proves nothing)"; failed=1
  else
    echo "IR check rejects $probe, as it must"
  fi
done
exit $failed
