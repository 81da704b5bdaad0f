#!/usr/bin/env bash
# Compiles every GPU kernel source with hipcc for AMD targets, with the strict
# floating-point flags of the HIP build, and checks on the device assembly
# that the strict build does not contract a*b+c into an FMA. Needs no AMD GPU.
# Exit 77 (skip) when hipcc is not installed (scripts/install-deps.sh --hip).
#
# Targets: gfx90a, gfx1030 and gfx1036 (the targets Debian's ROCm 5.2 device
# libraries have), each compiled and linked with its device code.
set -uo pipefail
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
for arch in gfx90a gfx1030 gfx1036; do
  for source in "${sources[@]}"; do
    if ! hipcc "${common[@]}" "${strict[@]}" --offload-arch="$arch" -c "$root/$source" \
        -o "$tmp/out.o" 2>"$tmp/err"; then
      echo "FAIL $arch $source"; head -20 "$tmp/err"; failed=1
    fi
  done
  echo "$arch: ${#sources[@]} kernel sources compiled"
done

# a*b+c: one v_fma*/v_fmac*/v_mad_f32 by default, none with the strict flags.
asm() { hipcc "${common[@]}" "$@" --offload-arch=gfx90a --cuda-device-only -S \
        "$root/tests/gpu/contraction_probe.cu" -o - 2>/dev/null | grep -cE 'v_(fma|fmac|mad)_f32'; }
strict_fmas=$(asm "${strict[@]}")
default_fmas=$(asm -fhip-fp32-correctly-rounded-divide-sqrt)
echo "contraction probe (gfx90a): strict build $strict_fmas FMA, default build $default_fmas FMA"
[ "$strict_fmas" = 0 ] || { echo "FAIL: the strict HIP build contracts a*b+c"; failed=1; }
[ "$default_fmas" -gt 0 ] || { echo "FAIL: the probe shows no FMA even without the strict flags"; failed=1; }
exit $failed
