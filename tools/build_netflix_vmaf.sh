#!/usr/bin/env bash
# Build Netflix's `vmaf` CLI (libvmaf 3.2.0, commit f85a8536) the way the
# goldens in ../shared/fixtures were made, for comparing twinvmaf against it
# on inputs the fixtures do not cover (e.g. tests/data/size_sweep/).
#
#   tools/build_netflix_vmaf.sh MIRROR_GIT_DIR OUT_DIR
#
# MIRROR_GIT_DIR  a git directory (bare is fine) that holds commit f85a8536 of
#                 https://github.com/Netflix/vmaf, e.g.
#                 /work/.mirror/Netflix+vmaf/repo. Nothing is fetched: this is
#                 a developer tool, CI has no network.
# OUT_DIR         created if missing; gets OUT_DIR/src (libvmaf/ and model/,
#                 exported with git archive), OUT_DIR/build (meson build) and the CLI at
#                 OUT_DIR/build/tools/vmaf.
#
# Needs: git, meson (>= 0.56.1), ninja, a C/C++ compiler (the goldens: gcc 12,
# glibc, x86-64), nasm >= 2.14 (the x86 SIMD of the integer features) and
# xxd (the built-in models); python3 for NETFLIX_RCP=intel. On Debian:
# apt-get install meson ninja-build nasm xxd. Tests and docs of libvmaf are
# not built (-Denable_tests=false -Denable_docs=false): only tools/vmaf.
# Environment: COMMIT (default f85a8536), JOBS (default 2),
# NETFLIX_PRECISION=upstream to keep upstream's number format,
# NETFLIX_RCP=intel on a non-Intel host (below).
#
# One local change, the same as the goldens' (fixtures/MANIFEST.md,
# "Reference"): libvmaf's output writers print every score with %.17g instead
# of upstream's %.6f / %.16f, so each number is the exact double. Netflix's
# 3.2.0 CLI has no --precision option; the change is applied to the exported
# copy (src/output.c) only, never to the mirror.
#
# Build options: release, -Denable_float=true (float_adm, float_vif, ...),
# static library. -Denable_avx512 does not matter for the float features: the
# x86 SIMD files of libvmaf (src/feature/x86/*) cover only the integer
# adm/vif/motion, cambi and speed; float_adm.c calls the plain C of
# adm_tools.c, whose one intrinsic is SSE's RCPSS (rcp_s, on every x86-64
# build). To pin the integer features to plain C at run time, pass
# `--cpumask 255` to the CLI.
set -euo pipefail

say() { printf 'build_netflix_vmaf: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

[ $# -eq 2 ] || die "usage: $0 MIRROR_GIT_DIR OUT_DIR"
mirror=$1
out=$2
commit=${COMMIT:-f85a8536}
jobs=${JOBS:-2}

for tool in git meson ninja cc c++ nasm xxd; do
  command -v "$tool" >/dev/null ||
    die "needs '$tool' on PATH (Debian: apt-get install meson ninja-build nasm xxd build-essential)"
done
git -C "$mirror" cat-file -e "$commit^{commit}" 2>/dev/null ||
  die "$mirror is not a git directory holding commit $commit"

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src
build=$out/build

if [ ! -f "$src/libvmaf/meson.build" ]; then
  say "exporting $commit from $mirror to $src"
  # Only libvmaf/ and model/ (the built-in models): a partial mirror may lack
  # other blobs (papers, test data). git archive then still names a missing
  # blob outside these paths on stderr but exits 0; a missing blob inside
  # them is caught here first.
  missing=$(git -C "$mirror" ls-tree -r "$commit" libvmaf model |
    awk '$2 == "blob" {print $3}' |
    git -C "$mirror" cat-file --batch-check | grep -c ' missing$' || true)
  [ "$missing" = 0 ] || die "$mirror lacks $missing blobs under libvmaf/ or model/ at $commit"
  mkdir -p "$src"
  git -C "$mirror" archive "$commit" libvmaf model | tar -x -C "$src"
fi

if [ "${NETFLIX_PRECISION:-max}" != upstream ]; then
  # Only the score formats: fps keeps %.2f, as in the goldens.
  sed -i -e 's/%\.6f/%.17g/g' -e 's/%\.16f/%.17g/g' "$src/libvmaf/src/output.c"
  grep -q '%\.17g' "$src/libvmaf/src/output.c" ||
    die "the %.17g change did not apply to $src/libvmaf/src/output.c"
fi

if [ "${NETFLIX_RCP:-cpu}" = intel ]; then
  # Netflix's float ADM divides with RCPSS (rcp_s in adm_tools.c), whose bits
  # are the CPU vendor's: AMD's differ from Intel's, on which the goldens
  # were made (src/core/intel_rcp.h). On an AMD host this swaps the
  # instruction for Intel's result computed in integer arithmetic (the
  # formula of intel_rcp.h), so that this build gives the Intel goldens'
  # numbers. Netflix's code is otherwise unchanged.
  f=$src/libvmaf/src/feature/adm_tools.c
  if ! grep -q intel_rcpss_emulated "$f"; then
    python3 - "$f" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
intrinsic = "_mm_cvtss_f32(_mm_rcp_ss(_mm_load_ss(&x)))"
assert text.count(intrinsic) == 1, "rcp_s not found as expected"
emulation = r"""
#include <stdint.h>
/* build_netflix_vmaf.sh NETFLIX_RCP=intel: Intel's RCPSS result. */
static float intel_rcpss_emulated(float x)
{
    uint32_t bits, out;
    memcpy(&bits, &x, 4);
    uint32_t sign = bits & 0x80000000u, e = (bits >> 23) & 0xffu, f = bits & 0x7fffffu;
    if (e == 0) out = sign | 0x7f800000u;
    else if (e == 0xffu) out = f ? (bits | 0x400000u) : sign;
    else if (e >= 253) out = sign;
    else {
        uint32_t divisor = 4097 + 2 * (f >> 12);
        uint32_t m = ((1u << 26) + divisor) / (2 * divisor) - 4096;
        out = sign | ((253 - e) << 23) | (m << 11);
    }
    float r;
    memcpy(&r, &out, 4);
    return r;
}
"""
text = text.replace("static float rcp_s(float x)", emulation + "\nstatic float rcp_s(float x)", 1)
text = text.replace(intrinsic, "intel_rcpss_emulated(x)", 1)
open(path, "w").write(text)
PY
  fi
fi

if [ ! -f "$build/build.ninja" ]; then
  (cd "$src/libvmaf" &&
    meson setup "$build" --buildtype release -Denable_float=true \
      -Ddefault_library=static -Denable_tests=false -Denable_docs=false)
fi
start=$(date +%s)
ninja -C "$build" -j "$jobs" tools/vmaf
say "built $build/tools/vmaf ($("$build/tools/vmaf" --version 2>&1 | head -1)) in $(( $(date +%s) - start )) s"
