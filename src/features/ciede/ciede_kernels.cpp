// ciede's batch kernels (ciede_kernels.h).
#include "features/ciede/ciede_kernels.h"

namespace twinvmaf::ciede {

namespace {

void lab_batch(const double* y, const double* u, const double* v, std::size_t n, unsigned bitdepth, Lab* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = lab_from_yuv(y[i], u[i], v[i], bitdepth);
}

void delta_e_batch(const Lab* c1, const Lab* c2, std::size_t n, Weights k, float* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = delta_e_2000(c1[i], c2[i], k);
}

}  // namespace

Kernels kernels() { return {lab_batch, delta_e_batch}; }

}  // namespace twinvmaf::ciede
