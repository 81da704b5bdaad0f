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
#   tools/hip_check.sh [targets [K/N] | probes]
#
# targets: the compile for the three targets and the IR check of what that
# compile's front end made for gfx90a (of every Nth unit of sources from the Kth, for
# CTest to run shards side by side); probes: the contraction probe's assembly
# and the IR check's rejection of the two probes (it can fail); no argument:
# both, every source.
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
# In the order cmake/gpu.cmake lists them, so the units are the CUDA build's.
mapfile -t twin_sources < <(cd "$root" && ls src/gpu/*.cu && ls src/features/*/*.cu)
mapfile -t test_sources < <(cd "$root" && ls tests/gpu/*.cu)
failed=0
# The IR check reads the IR hipcc's front end makes for gfx90a on the way to
# the object (-save-temps keeps it: <source>-hip-amdgcn-amd-amdhsa-gfx90a.bc),
# so the compile that proves a source builds for each target also gives the
# IR that is checked, and no second front-end pass is needed (it was about
# 85 s of one core in CI). tools/kernel_fp_check.py says why the ISA alone
# cannot show it: the back end expands correctly rounded division and sqrt
# into FMA steps.
# compile FILE IR_OUT FLAGS...: the strict build's object of FILE (a path
# under the repository root, or a unit file below) for the --offload-arch
# targets FLAGS name (the last of any repeated flag wins), with its gfx90a IR
# disassembled to IR_OUT.
compile() {
  local source=$1 ir_out=$2 work
  work=$(mktemp -d -p "$tmp")
  case "$source" in /*) ;; *) source=$root/$source ;; esac
  hipcc "${common[@]}" "${strict[@]}" -O0 "${@:3}" -save-temps=obj -c "$source" -o "$work/out.o" 2>"$work/err" &&
    llvm-dis-15 "$work"/*-hip-amdgcn-amd-amdhsa-gfx90a.bc -o "$ir_out" 2>>"$work/err"
  local rc=$?
  [ $rc -eq 0 ] || { echo "FAIL ${source#"$root/"}"; head -20 "$work/err"; }
  rm -rf "$work"
  return $rc
}
# All three targets in one hipcc call per source: the host half is compiled
# once instead of three times. -O0: what this proves is that every source
# compiles and links for each target (the front end per target, e.g. a wave
# of 32 on gfx1030/gfx1036 and of 64 on gfx90a, and each back end's
# instruction selection); the optimiser adds nothing to that and cost 40 % of
# the time (vif_gpu.cu: 29.7 s at hipcc's default, 17.7 s at -O0). The front
# end's IR, which the IR check reads, does not depend on the level: the
# floating-point operations and their flags are chosen before any pass.
archs=(gfx90a gfx1030 gfx1036)
# Sources are compiled in units of up to five (the units of the CUDA build,
# cmake/gpu.cmake), each unit one translation unit that #includes its
# sources: clang parses hip_runtime.h for the host and again for each target,
# about 2 s each time, so one source at a time spent about 200 of the check's
# 325 s of CPU on headers (in units: about 128 s). Each source still goes
# through the front end and every target's back end and linker, which is
# what the check proves. Two things can make a unit fail where its sources
# alone would not: a file-local name defined in two of them, and, at -O0,
# the LDS of the __shared__ variables that non-kernel functions use, which
# the back end pools for the whole module (all twins in one unit: 75 KB,
# over gfx90a's 64 KB; the largest unit of five now: 56 KB).
# So a unit that fails is compiled again one source at a time, and only those
# verdicts count; the log says so.
unit_size=5  # cmake/gpu.cmake's TWINVMAF_KERNEL_UNIT_SIZE
units=()
for (( i = 0; i < ${#twin_sources[@]}; i += unit_size )); do units+=("${twin_sources[*]:i:unit_size}"); done
units+=("${test_sources[*]}")
if [ "$part" != probes ]; then
  compiled=0
  irs=()
  for u in "${!units[@]}"; do
    [ $(( u % shard_n )) -eq $(( shard_k - 1 )) ] || continue
    read -ra members <<< "${units[$u]}"
    names=$(for m in "${members[@]}"; do basename "$m" .cu; done | paste -sd+)
    unit="$tmp/$names.hip"
    for m in "${members[@]}"; do echo "#include \"$root/$m\""; done > "$unit"
    outputs=()
    if compile "$unit" "$tmp/$names.ll" "${archs[@]/#/--offload-arch=}" > "$tmp/unit.log"; then
      outputs=("$tmp/$names.ll")
    else
      echo "unit $names failed as one translation unit (below); its sources one at a time:"
      sed 's/^/  /' "$tmp/unit.log"
      for m in "${members[@]}"; do
        out="$tmp/$(echo "$m" | tr / _).ll"
        if compile "$m" "$out" "${archs[@]/#/--offload-arch=}"; then outputs+=("$out"); else failed=1; fi
      done
    fi
    # The test probes (tests/gpu) compile here; only the twins' IR is checked.
    case "${members[0]}" in tests/*) ;; *) irs+=("${outputs[@]}") ;; esac
    compiled=$(( compiled + ${#members[@]} ))
  done
  echo "${archs[*]}: $compiled of $(( ${#twin_sources[@]} + ${#test_sources[@]} )) kernel sources (shard $shard) compiled for each"
  # The device IR of every twin: no fused multiply-add, no fast-math flag, no
  # device libm.
  if [ ${#irs[@]} -gt 0 ]; then
    python3 "$root/tools/kernel_fp_check.py" --llvm "${irs[@]}" | sed "s|$tmp/||" || failed=1
  fi
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

# The IR check must reject the probes, made the way the twins' IR is: a
# kernel calling the device's exp(), and a*b+c built with contraction.
compile tests/gpu/libm_probe.cu "$tmp/libm_probe.ll" --offload-arch=gfx90a || failed=1
compile tests/gpu/contraction_probe.cu "$tmp/contracted_probe.ll" -ffp-contract=fast --offload-arch=gfx90a || failed=1
for probe in libm_probe contracted_probe; do
  if python3 "$root/tools/kernel_fp_check.py" --llvm "$tmp/$probe.ll" >/dev/null; then
    echo "FAIL: kernel_fp_check.py accepts $probe (the IR check proves nothing)"; failed=1
  else
    echo "IR check rejects $probe, as it must"
  fi
done
exit $failed
