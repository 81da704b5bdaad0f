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

void delta_e_batch(const Lab* c1, const Lab* c2, std::size_t n, Weights k, float* out)
{
    for (std::size_t i = 0; i < n; ++i) out[i] = delta_e_2000(c1[i], c2[i], k);
}

void put(double* table, int i, tv::dd::DD value)
{
    table[2 * i] = value.hi;
    table[2 * i + 1] = value.lo;
}

LibmTables make_libm_tables()
{
    namespace detail = tv::cr_libm_detail;
    LibmTables t{};
    for (int i = 0; i < 128; ++i) {
        t.inv_centre[i] = detail::pow_inv_centre(i);
        put(t.log2_of_centre, i, detail::pow_log2_of_centre(i));
        put(t.exp2_fine_point, i, detail::exp2_fine_point(i));
    }
    for (int i = 0; i < 53; ++i) {
        put(t.sin_point, i, detail::sin_point(i));
        put(t.cos_point, i, detail::cos_point(i));
    }
    for (int i = 0; i < 65; ++i) put(t.atan_point, i, detail::atan_point(i));
    return t;
}

}  // namespace

const LibmTables& libm_tables()
{
    static const LibmTables tables = make_libm_tables();
    return tables;
}

Kernels reference_kernels() { return {lab_batch, pow_batch, delta_e_batch}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::ciede
