// SpEED's reference kernels (loops over speed_math.h) and the choice between
// them and the SIMD ones (speed_simd.cpp).
#include "features/speed/speed_kernels.h"

#include <algorithm>
#include <cstddef>

#include "core/cpu_dispatch.h"
#include "core/glibc_log2.h"
#include "core/simd.h"
#include "features/speed/speed_math.h"

namespace twinvmaf::speed {

namespace {

// Multiversioned (TV_CPU_CLONES) so that glibc's fused multiply-adds are
// one instruction on x86-64-v3 and v4 rather than a call to libm's fma();
// the bits are the same either way (one rounding).
TV_CPU_CLONES void log2_loop(const double* x, std::size_t n, double* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = tv::glibc::log2(x[i]);
}

TV_CPU_CLONES void block_entropies(const float* eig, const float* variances, int blocks, float sigma_nn,
                                   double log2_2pie, float* out)
{
    for (int b = 0; b < blocks; ++b) out[b] = block_entropy(eig, variances[b], sigma_nn, log2_2pie);
}

bool back_substitute(const float* r, const float* b, float* x, int n, int cols)
{
    bool solved = true;
    for (int j = 0; j < cols; ++j) solved = back_substitute_column(r, b, x, n, cols, j) && solved;
    return solved;
}

void block_means(const float* data, int stride, int sub_w, int sub_h, float* means)
{
    for (int k = 0; k < kBlockElements; ++k) means[k] = submatrix_mean(data, stride, k / kBlock, k % kBlock, sub_w, sub_h);
}

}  // namespace

// The sums of (x - mean_x)(y - mean_y) in double for every pair of the 25
// block offsets, each pair in Netflix's order (sub-picture rows, then
// columns); independent pairs run side by side in the vector lanes.
TV_CPU_CLONES void covariance_sums(const float* data, int stride, int sub_w, int sub_h, const float* means,
                                   double* centered, double* sums)
{
    constexpr int kPad = kCovariancePad;
    std::fill(sums, sums + kBlockElements * kPad, 0.0);
    for (int i = 0; i < sub_h; ++i) {
        for (int j = 0; j < sub_w; ++j) {
            double* c = centered + static_cast<std::ptrdiff_t>(j) * kPad;
            for (int k = 0; k < kBlockElements; ++k) {
                const int r = k / kBlock, col = k % kBlock;
                c[k] = static_cast<double>(data[static_cast<std::ptrdiff_t>(r + i) * stride + (col + j)]) -
                       static_cast<double>(means[k]);
            }
            for (int k = kBlockElements; k < kPad; ++k) c[k] = 0.0;
        }
        for (int j = 0; j < sub_w; ++j) {
            const double* c = centered + static_cast<std::ptrdiff_t>(j) * kPad;
            for (int x = 0; x < kBlockElements; ++x) {
                const double cx = c[x];
                double* s = sums + x * kPad;
                // Only y <= x is wanted: up to the end of x's group of 8 (whole
                // vectors of doubles; the entries above x there are unused).
                const int y_end = (x | 7) + 1;
                for (int y = 0; y < y_end; ++y) s[y] += cx * c[y];
            }
        }
    }
}

Kernels reference_kernels() { return {log2_loop, block_entropies, covariance_sums, back_substitute, block_means}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::speed
