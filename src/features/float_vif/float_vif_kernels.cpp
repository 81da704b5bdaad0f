// float_vif's reference kernel and the choice between it and the SIMD one.
#include "features/float_vif/float_vif_kernels.h"

#include <algorithm>
#include <cstddef>

#include "core/cpu_dispatch.h"
#include "core/simd.h"
#include "features/common/float_filter_math.h"
#include "features/float_vif/float_vif_math.h"

namespace twinvmaf::float_vif {

namespace {

// Per tap, every column (the columns are independent chains).
TV_CPU_CLONES void vertical_moments(const float* taps, int ntaps, const float* a, const float* b, int w, int h,
                                    int row, float* out)
{
    float* mu1 = out;
    float* mu2 = out + w;
    float* xx = out + 2 * w;
    float* yy = out + 3 * w;
    float* xy = out + 4 * w;
    std::fill(out, out + 5 * static_cast<std::ptrdiff_t>(w), 0.0f);
    const int radius = ntaps / 2;
    for (int k = 0; k < ntaps; ++k) {
        const std::ptrdiff_t offset = static_cast<std::ptrdiff_t>(float_filter::mirror_tap(row - radius + k, h)) * w;
        const float* ra = a + offset;
        const float* rb = b + offset;
        const float f = taps[k];
        for (int c = 0; c < w; ++c) add_moment_tap(f, ra[c], rb[c], mu1[c], mu2[c], xx[c], yy[c], xy[c]);
    }
}

}  // namespace

Kernels reference_kernels() { return {vertical_moments}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::float_vif
