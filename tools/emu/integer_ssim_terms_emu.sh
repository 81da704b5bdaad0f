#!/usr/bin/env bash
# The integer ssim twin's terms_kernel (src/features/integer_ssim/
# integer_ssim_gpu.cu) run on the host, no GPU needed: the kernel's text is
# cut out of the .cu file and compiled with CUDA's built-ins emulated
# (integer_ssim_terms_emu.cpp: a block's threads as std::threads with a
# barrier for __syncthreads, __shared__ as statics), and every term is
# compared bit for bit with a direct computation from integer_ssim_math.h on
# 14 sizes (tile edges, 1x1, 129x33) at 8, 10 and 15 bits. A check of the
# kernel's indexing between GPU runs; the GPU tests are the reference.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^constexpr int kTileW/{p=1} /^struct Terms/{p=0} p' "$root/src/features/integer_ssim/integer_ssim_gpu.cu" >"$tmp/kernel.inc"
[ -s "$tmp/kernel.inc" ] || { echo "terms_kernel not found in integer_ssim_gpu.cu" >&2; exit 2; }
c++ -std=c++20 -O1 -ffp-contract=off -I"$root/include" -I"$root/src" -DTWINVMAF_KERNEL_INC="\"$tmp/kernel.inc\"" \
  "$root/tools/emu/integer_ssim_terms_emu.cpp" -o "$tmp/emu" -pthread
"$tmp/emu"
