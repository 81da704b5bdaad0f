// The shared float filter's reference kernels and the choice between them
// and the SIMD ones.
#include "features/common/float_filter_kernels.h"

#include <algorithm>
#include <cstddef>

#include "core/cpu_dispatch.h"
#include "core/simd.h"
#include "features/common/float_filter_math.h"

namespace twinvmaf::float_filter {

namespace {

// The columns are independent: each one's taps are added in order, the
// columns side by side (TV_CPU_CLONES: GCC's vectorisation of the same sums).
TV_CPU_CLONES void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out)
{
    const int radius = ntaps / 2;
    std::fill(out, out + w, 0.0f);
    for (int k = 0; k < ntaps; ++k) {
        const float* s = src + static_cast<std::ptrdiff_t>(mirror_tap(row - radius + k, h)) * w;
        const float fk = taps[k];
        for (int c = 0; c < w; ++c) out[c] += fk * s[c];
    }
}

TV_CPU_CLONES void horizontal_interior(const float* taps, int ntaps, const float* in, int step, int lo, int hi,
                                       float* out)
{
    const int radius = ntaps / 2;
    if (step != 1) {
        for (int j = lo; j < hi; ++j)
            out[j] = filter_taps(taps, ntaps, [&](int k) { return in[j * step - radius + k]; });
        return;
    }
    std::fill(out + lo, out + hi, 0.0f);
    for (int k = 0; k < ntaps; ++k) {
        const float fk = taps[k];
        const int shift = k - radius;
        for (int j = lo; j < hi; ++j) out[j] += fk * in[j + shift];
    }
}

}  // namespace

Kernels reference_kernels() { return {vertical_pass, horizontal_interior}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::float_filter
