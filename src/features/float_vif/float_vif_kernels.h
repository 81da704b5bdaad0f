// The row kernel of float_vif's CPU path: the reference (float_vif_math.h's
// add_moment_tap over the taps and columns) or its Highway SIMD
// implementation (features/common/float_filter_simd.cpp, with the shared
// filter's), which returns the same bits (tests/unit/test_simd_float_filter.cpp).
// core/simd.h says which one kernels() gives.
#pragma once

namespace twinvmaf::float_vif {

// The five vertical passes of output row `row` of two packed w x h planes
// a (ref) and b (dis) into out's five rows of w: mu1, mu2, a*a, b*b, a*b
// filtered, each added in tap order from +0 over the mirrored rows.
using VerticalMomentsFn = void (*)(const float* taps, int ntaps, const float* a, const float* b, int w, int h,
                                   int row, float* out);

struct Kernels {
    VerticalMomentsFn vertical_moments;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::float_vif
