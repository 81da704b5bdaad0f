// The lusoris/vmaf fork's MS-SSIM pyramid step (libvmaf/src/feature/
// ms_ssim_decimate.c, commit c2a3c7e0), shared by its CPU reference and its
// GPU twin (fork_ms_ssim_gpu.cu). The fork's float_ms_ssim is Netflix's MS-SSIM (twinvmaf's
// features/ssim) except for this step: where Netflix applies the 9x9 low-pass
// as one 2-D kernel (IQA's _iqa_decimate), the fork applies its 9-tap 1-D
// factor separably, each pass a chain of float fused multiply-adds:
//   horizontal: tmp[y][xo] = fma(src[y][m(2 xo + k - 4)], lpf[k], acc), k = 0..8,
//               for every source row y;
//   vertical:   dst[yo][xo] = fma(tmp[m(2 yo + k - 4)][xo], lpf[k], acc),
//   each from acc = 0, m() the mirror below; outputs ceil(w/2) x ceil(h/2).
// Its C, AVX2 and AVX-512 paths give the same bits (checked on the fixtures).
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace twinvmaf::fork_ms_ssim {

inline constexpr int kTaps = 9;
inline constexpr int kHalf = 4;

// ms_ssim_lpf_h = ms_ssim_lpf_v of the fork (the 9/7 wavelet's low-pass).
TV_HD float tap(int k)
{
    switch (k < kHalf ? k : kTaps - 1 - k) {
    case 0: return 0.026727f;
    case 1: return -0.016828f;
    case 2: return -0.078201f;
    case 3: return 0.266846f;
    default: return 0.602914f;
    }
}

// The fork's KBND_SYMMETRIC mirror in its period form (the edge sample
// repeated: -1 reads 0, n reads n - 1), for any index.
TV_HD int mirror(int index, int n)
{
    const int period = 2 * n;
    int r = index % period;
    if (r < 0) r += period;
    return r >= n ? period - r - 1 : r;
}

// The fork's output size of a pass: n / 2 + (n & 1).
TV_HD int halved(int n) { return n / 2 + (n & 1); }

// One output of a pass over a line of n samples read by at(i): the chain of
// fused multiply-adds at the window centred on 2 * out.
template <class At>
TV_HD float pass_value(const At& at, int out, int n)
{
    float acc = 0.0f;
    for (int k = 0; k < kTaps; ++k) acc = tv::fused_multiply_add(at(mirror(2 * out + k - kHalf, n)), tap(k), acc);
    return acc;
}

}  // namespace twinvmaf::fork_ms_ssim
