// float_vif's reference kernels and the choice between them and the SIMD ones.
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

TV_CPU_CLONES void pixel_terms_row(const float* filtered, int w, const StatisticParams& p, float* num, float* den)
{
    const float* mu1 = filtered;
    const float* mu2 = filtered + w;
    const float* xx = filtered + 2 * w;
    const float* yy = filtered + 3 * w;
    const float* xy = filtered + 4 * w;
    for (int j = 0; j < w; ++j) pixel_terms(mu1[j], mu2[j], xx[j], yy[j], xy[j], p, &num[j], &den[j]);
}

}  // namespace

Kernels reference_kernels() { return {vertical_moments, pixel_terms_row}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::float_vif
