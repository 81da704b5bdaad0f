// SpEED's per-block entropies (the 25 correctly rounded log2 of each block,
// speed_math.h's block_entropy()) as a table of function pointers: the
// reference loop or the Highway SIMD one (speed_simd.cpp), which runs the
// same IEEE operations of tv::log2_correctly_rounded (core/cr_log2.h) one
// block per lane and so returns the reference's bits
// (tests/unit/test_simd_speed.cpp checks it on every target). core/simd.h
// says which one kernels() gives.
#pragma once

#include <cstddef>

namespace twinvmaf::speed {

// out[i] = tv::log2_correctly_rounded(x[i]) for i < n.
using Log2Fn = void (*)(const double* x, std::size_t n, double* out);

// out[b] = block_entropy(eig, variances[b], sigma_nn, log2_2pie) for b < blocks.
using BlockEntropiesFn = void (*)(const float* eig, const float* variances, int blocks, float sigma_nn,
                                  double log2_2pie, float* out);

struct Kernels {
    Log2Fn log2;
    BlockEntropiesFn block_entropies;
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::speed
