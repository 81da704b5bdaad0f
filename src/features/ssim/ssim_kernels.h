// The row kernels of float_ssim's and float_ms_ssim's CPU path as a table of
// function pointers: the reference (loops over ssim_math.h, moved from
// ssim_cpu.cpp) or their Highway SIMD implementation (ssim_simd.cpp), which
// runs the same IEEE operations one map position or output sample per lane
// and so returns the reference's bits (tests/unit/test_simd_ssim.cpp checks
// it on every target). core/simd.h says which one kernels() gives. The sums
// of the terms (one serial chain each) are not here: ssim_cpu.cpp adds the
// terms a kernel wrote, in Netflix's order.
#pragma once

#include "features/ssim/ssim_math.h"

namespace twinvmaf::ssim {

// The horizontal pass of one picture row (`ref`, `dis`: map_width +
// kWindow - 1 samples): out[map][x] = horizontal_window<map>(ref, dis, x)
// for the five maps and x < map_width.
using HorizontalRowFn = void (*)(const float* ref, const float* dis, int map_width, float* const out[kMomentMaps]);

// One map row: the vertical windows of the five maps, rows[map][k] being
// the horizontally filtered row k (top to bottom) under the window, then
// terms[x] = lcs_terms(the five moments at x) for x < map_width. moments[map]
// (map_width floats each) is scratch.
using TermsRowFn = void (*)(const float* const rows[kMomentMaps][kWindow], int map_width,
                            float* const moments[kMomentMaps], LcsTerms* terms);

// _iqa_decimate of a packed width x height picture into out
// (decimated_size(width, factor) x decimated_size(height, factor)): a
// size x size kernel of weights[k] (row-major) at every factor-th sample,
// decimated_sample() of ssim_math.h.
using DecimateFn = void (*)(const float* in, int width, int height, int factor, int size, const float* weights,
                            float* out);

struct Kernels {
    HorizontalRowFn horizontal_row;
    TermsRowFn terms_row;
    DecimateFn decimate;
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractors use: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::ssim
