// The row kernels of ssimulacra2's CPU path: the reference (loops over
// ssimulacra2_math.h) or their Highway SIMD implementation
// (ssimulacra2_simd.cpp), which returns the same bits
// (tests/unit/test_ssimulacra2.cpp, SimdKernelsEqualTheReference).
// core/simd.h says which one kernels() gives.
#pragma once

#include <cstddef>

#include "features/ssimulacra2/ssimulacra2_math.h"

namespace twinvmaf::ssimulacra2 {

inline constexpr int kMaps = 5;  // mu1 (ref), mu2 (dis), sigma11, sigma22, sigma12
// Terms per position that the six sums add (terms_row's rows): SSIM's d and
// d^4, then ringing, ringing^4, blurring, blurring^4.
inline constexpr int kTermRows = 6;

// picture_to_linear_rgb's arithmetic on w samples (as floats) of Y, U, V.
using RgbRowFn = void (*)(const RgbParams& p, const float* ys, const float* us, const float* vs, int w, float* r,
                          float* g, float* b);
// linear_rgb_to_xyb of `plane` samples of three planes (R, G, B at lin,
// lin + plane, lin + 2 plane) into X, Y, B likewise.
using XybFn = void (*)(const float* lin, std::size_t plane, float* xyb);
// One step of the vertical pass of the five maps: lrow[m] and rrow[m] are
// the rows the fork adds (zero rows outside), state the poles (per map six
// rows of w: p1 of the three poles, then p2), rows the five outputs.
using VerticalStepFn = void (*)(const float* const* lrow, const float* const* rrow, int w, float* state, float* rows);
// The terms of one output row (rows: vertical_step's five outputs; img1 and
// img2 the XYB rows of ref and dis) into kTermRows rows of w.
using TermsRowFn = void (*)(const float* rows, const float* img1, const float* img2, int w, double* terms);

struct Kernels {
    RgbRowFn rgb_row;
    XybFn xyb;
    VerticalStepFn vertical_step;
    TermsRowFn terms_row;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::ssimulacra2
