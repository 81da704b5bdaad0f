// The row kernels of the shared float filter (float_filter.h): the reference
// (today's loops, each output the sum of float_filter_math.h's filter_taps:
// f[k] * x[k] added in tap order from +0) or their Highway SIMD
// implementation (float_filter_simd.cpp), which returns the same bits
// (tests/unit/test_simd_float_filter.cpp). core/simd.h says which one
// kernels() gives. A kernel writes only its outputs' columns.
#pragma once

namespace twinvmaf::float_filter {

// The vertical pass of output row `row` of a packed w x h plane:
// out[c] = sum_k f[k] * src[mirror(row - r + k)][c] for c < w (r = ntaps / 2).
using VerticalPassFn = void (*)(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out);

// The unmirrored columns of a horizontal pass: out[j] = sum_k f[k] *
// in[j * step - r + k] for lo <= j < hi, where every index read lies inside
// the row (the caller keeps the mirrored edges).
using HorizontalInteriorFn = void (*)(const float* taps, int ntaps, const float* in, int step, int lo, int hi,
                                      float* out);

struct Kernels {
    VerticalPassFn vertical_pass;
    HorizontalInteriorFn horizontal_interior;  // any step >= 1
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::float_filter
