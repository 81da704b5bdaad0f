// SpEED's per-block entropies (the 25 log2 of each block, glibc's log2 as
// Netflix's speed.c gets it, speed_math.h's block_entropy()) and covariance
// sums as a table of function pointers: the reference loops or the Highway
// SIMD ones (speed_simd.cpp), which run the same IEEE operations (of
// tv::glibc::log2, core/glibc_log2.h, one block per lane, its fused
// multiply-adds fused; of each covariance sum, one pair per lane) and so
// return the reference's bits (tests/unit/test_simd_speed.cpp checks it on
// every target). core/simd.h says which one kernels() gives.
#pragma once

#include <cstddef>

namespace twinvmaf::speed {

// out[i] = tv::glibc::log2(x[i]) for i < n.
using Log2Fn = void (*)(const double* x, std::size_t n, double* out);

// out[b] = block_entropy(eig, variances[b], sigma_nn, log2_2pie) for b < blocks.
using BlockEntropiesFn = void (*)(const float* eig, const float* variances, int blocks, float sigma_nn,
                                  double log2_2pie, float* out);

// The covariance sums of all 325 pairs of block offsets at once:
// sums[x * kCovariancePad + y] = covariance_pair_sum(..., x, y) of
// speed_math.h for y <= x (the entries with y > x up to the end of x's group
// of 8 are computed alike, the rest are unspecified). centered holds
// sub_w * kCovariancePad doubles of scratch; sums kBlockElements *
// kCovariancePad.
inline constexpr int kCovariancePad = 32;
using CovarianceSumsFn = void (*)(const float* data, int stride, int sub_w, int sub_h, const float* means,
                                  double* centered, double* sums);
// The reference of CovarianceSumsFn.
void covariance_sums(const float* data, int stride, int sub_w, int sub_h, const float* means, double* centered,
                     double* sums);

// back_substitute_column() of speed_math.h for every column j < cols of X
// (R X = B, R upper triangular n x n): whether every column was solved.
using BackSubstituteFn = bool (*)(const float* r, const float* b, float* x, int n, int cols);

// means[k] = submatrix_mean(data, stride, k / 5, k % 5, sub_w, sub_h) of
// speed_math.h for the 25 block offsets k.
using BlockMeansFn = void (*)(const float* data, int stride, int sub_w, int sub_h, float* means);

struct Kernels {
    Log2Fn log2;
    BlockEntropiesFn block_entropies;
    CovarianceSumsFn covariance_sums;
    BackSubstituteFn back_substitute;
    BlockMeansFn block_means;
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::speed
