// The row kernels of float_vif's CPU path: the reference (float_vif_math.h's
// add_moment_tap over the taps and columns, pixel_terms over the columns) or their Highway SIMD
// implementation (features/common/float_filter_simd.cpp, with the shared
// filter's), which returns the same bits (tests/unit/test_simd_float_filter.cpp).
// core/simd.h says which one kernels() gives.
#pragma once

#include "features/float_vif/float_vif_math.h"

namespace twinvmaf::float_vif {

// The five vertical passes of output row `row` of two packed w x h planes
// a (ref) and b (dis) into out's five rows of w: mu1, mu2, a*a, b*b, a*b
// filtered, each added in tap order from +0 over the mirrored rows.
using VerticalMomentsFn = void (*)(const float* taps, int ntaps, const float* a, const float* b, int w, int h,
                                   int row, float* out);

// pixel_terms() of each column j < w of a row's five filtered rows (mu1,
// mu2, xx, yy, xy: vertical_moments' layout, after the horizontal pass) into
// num[j] and den[j]; the caller adds them up in column order.
using PixelTermsFn = void (*)(const float* filtered, int w, const StatisticParams& p, float* num, float* den);

struct Kernels {
    VerticalMomentsFn vertical_moments;
    PixelTermsFn pixel_terms_row;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::float_vif
