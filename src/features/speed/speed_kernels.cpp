// SpEED's reference kernels (loops over speed_math.h) and the choice between
// them and the SIMD ones (speed_simd.cpp).
#include "features/speed/speed_kernels.h"

#include "core/cr_log2.h"
#include "core/simd.h"
#include "features/speed/speed_math.h"

namespace twinvmaf::speed {

namespace {

void log2_loop(const double* x, std::size_t n, double* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = tv::log2_correctly_rounded(x[i]);
}

void block_entropies(const float* eig, const float* variances, int blocks, float sigma_nn, double log2_2pie,
                     float* out)
{
    for (int b = 0; b < blocks; ++b) out[b] = block_entropy(eig, variances[b], sigma_nn, log2_2pie);
}

}  // namespace

Kernels reference_kernels() { return {log2_loop, block_entropies}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::speed
