// ciede's reference kernels and the choice between them and the SIMD ones.
#include "features/ciede/ciede_kernels.h"

#include "core/simd.h"

namespace twinvmaf::ciede {

namespace {

void lab_batch(const double* y, const double* u, const double* v, std::size_t n, unsigned bitdepth, Lab* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = lab_from_yuv(y[i], u[i], v[i], bitdepth);
}

void pow_batch(const double* x, const double* y, std::size_t n, double* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = libm::pow(x[i], y[i]);
}

PowTables make_pow_tables()
{
    namespace detail = tv::cr_libm_detail;
    PowTables t{};
    for (int i = 0; i < 128; ++i) {
        t.inv_centre[i] = detail::pow_inv_centre(i);
        t.log2_of_centre[2 * i] = detail::pow_log2_of_centre(i).hi;
        t.log2_of_centre[2 * i + 1] = detail::pow_log2_of_centre(i).lo;
        t.exp2_fine_point[2 * i] = detail::exp2_fine_point(i).hi;
        t.exp2_fine_point[2 * i + 1] = detail::exp2_fine_point(i).lo;
    }
    return t;
}

}  // namespace

const PowTables& pow_tables()
{
    static const PowTables tables = make_pow_tables();
    return tables;
}

Kernels reference_kernels() { return {lab_batch, pow_batch}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::ciede
