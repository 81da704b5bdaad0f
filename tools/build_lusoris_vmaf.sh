#!/usr/bin/env bash
# Build the `vmaf` CLI of the lusoris/vmaf fork (pinned commit below) on the
# CPU only, for the goldens of the fork's extra extractors (integer_motion_v2,
# integer ssim / ms_ssim, ssimulacra2) in tests/data/fork_goldens/.
#
#   tools/build_lusoris_vmaf.sh MIRROR_GIT_DIR OUT_DIR
#
# MIRROR_GIT_DIR  a git directory (bare is fine) that holds the pinned commit
#                 of https://github.com/lusoris/vmaf, e.g.
#                 /work/.mirror/lusoris+vmaf/repo. Nothing is fetched.
# OUT_DIR         created if missing; gets OUT_DIR/src (libvmaf/ and model/,
#                 exported with git archive), OUT_DIR/build (meson build) and
#                 the CLI at OUT_DIR/build/tools/vmaf.
#
# Needs: git, meson (>= 0.58), ninja, a C/C++ compiler, nasm >= 2.14, xxd;
# python3 for LUSORIS_RCP=intel. Environment: COMMIT (default: the pin),
# JOBS (default 2), LUSORIS_PRECISION=upstream to keep the fork's default
# number format, LUSORIS_RCP=intel|cpu (default intel on an AMD host).
#
# Build options: release, -Denable_float=true, static library, no tests or
# docs, and every GPU / runtime backend off (CUDA, SYCL, HIP, Vulkan, Metal,
# ONNX-Runtime DNN, MCP): the goldens are of the fork's CPU code. The fork's
# x86 SIMD (AVX2/AVX-512 C intrinsics and nasm) is built as upstream builds
# it; `--cpumask` on the CLI pins the plain C paths at run time.
#
# Local changes, to the exported copy only (never the mirror):
# * Number format: the fork prints %.6f unless given --precision=max; the
#   defaults of src/output.c and tools/cli_parse.c become %.17g so that every
#   score is the exact double even without the flag (the goldens still pass
#   --precision=max; fps keeps %.2f).
# * LUSORIS_RCP=intel (as build_netflix_vmaf.sh NETFLIX_RCP=intel): the float
#   ADM's RCPSS (rcp_s in src/feature/adm_tools.c) is replaced by Intel's
#   result computed in integer arithmetic. None of integer_motion_v2,
#   integer ssim/ms_ssim or ssimulacra2 uses RCPSS; this keeps the build's
#   float_adm equal to the Intel goldens on any x86-64 host.
set -euo pipefail

say() { printf 'build_lusoris_vmaf: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

[ $# -eq 2 ] || die "usage: $0 MIRROR_GIT_DIR OUT_DIR"
mirror=$1
out=$2
# lusoris/vmaf master, 2026-05-16 ("refactor(predict,libvmaf): extract
# bootstrap name-builder into shared header (ADR-0480) (#1067)").
commit=${COMMIT:-c2a3c7e0febd98a6831b9bfebe5e298e229b1244}
jobs=${JOBS:-2}
if [ -z "${LUSORIS_RCP:-}" ]; then
  if grep -q AuthenticAMD /proc/cpuinfo 2>/dev/null; then LUSORIS_RCP=intel; else LUSORIS_RCP=cpu; fi
fi

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
  # model/tiny/ holds the fork's ONNX models, for the DNN runtime this build
  # leaves out; a partial mirror may lack them, so they are not exported.
  missing=$(git -C "$mirror" ls-tree -r "$commit" libvmaf model ':(exclude)model/tiny' |
    awk '$2 == "blob" {print $3}' |
    git -C "$mirror" cat-file --batch-check | grep -c ' missing$' || true)
  [ "$missing" = 0 ] || die "$mirror lacks $missing blobs under libvmaf/ or model/ at $commit"
  mkdir -p "$src"
  git -C "$mirror" archive "$commit" libvmaf model ':(exclude)model/tiny' | tar -x -C "$src"
  printf '%s\n' "$commit" >"$src/COMMIT"
fi

if [ "${LUSORIS_PRECISION:-max}" != upstream ]; then
  sed -i -e 's/^#define DEFAULT_SCORE_FORMAT "%\.6f"/#define DEFAULT_SCORE_FORMAT "%.17g"/' \
    "$src/libvmaf/src/output.c"
  sed -i -e 's/^#define VMAF_DEFAULT_PRECISION_FMT "%\.6f"/#define VMAF_DEFAULT_PRECISION_FMT "%.17g"/' \
    "$src/libvmaf/tools/cli_parse.c"
  grep -q '^#define DEFAULT_SCORE_FORMAT "%\.17g"' "$src/libvmaf/src/output.c" ||
    die "the %.17g change did not apply to src/output.c"
  grep -q '^#define VMAF_DEFAULT_PRECISION_FMT "%\.17g"' "$src/libvmaf/tools/cli_parse.c" ||
    die "the %.17g change did not apply to tools/cli_parse.c"
fi

if [ "$LUSORIS_RCP" = intel ]; then
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
#include <string.h>
/* build_lusoris_vmaf.sh LUSORIS_RCP=intel: Intel's RCPSS result. */
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
      -Ddefault_library=static -Denable_tests=false -Denable_docs=false \
      -Denable_cuda=false -Denable_sycl=false -Denable_hip=false -Denable_hipcc=false \
      -Denable_vulkan=disabled -Denable_metal=disabled -Denable_dnn=disabled \
      -Denable_mcp=false -Denable_nvtx=false)
fi
start=$(date +%s)
ninja -C "$build" -j "$jobs" tools/vmaf
say "built $build/tools/vmaf ($("$build/tools/vmaf" --version 2>&1 | head -1)) in $(( $(date +%s) - start )) s"
