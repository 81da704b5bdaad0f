// The batch kernels of ciede's CPU path: the reference (ciede_math.h's
// functions, one call per element) or their Highway SIMD implementation
// (ciede_simd.cpp), which returns the same bits (tests/unit/
// test_simd_ciede.cpp). core/simd.h says which one kernels() gives.
#pragma once

#include <cstddef>

#include "features/ciede/ciede_math.h"

namespace twinvmaf::ciede {

// lab_from_yuv(y[i], u[i], v[i], bitdepth) into out[i], i < n. The samples
// are integers of `bitdepth` bits (8..16), given as doubles.
using LabBatchFn = void (*)(const double* y, const double* u, const double* v, std::size_t n, unsigned bitdepth,
                            Lab* out);

// libm::pow(x[i], y[i]) into out[i], i < n (any arguments): pow's lane-wise
// fast phase on its own, for the tests.
using PowBatchFn = void (*)(const double* x, const double* y, std::size_t n, double* out);

struct Kernels {
    LabBatchFn lab_batch;
    PowBatchFn pow_batch;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

// pow's fast-phase tables (core/cr_libm_table.h) as plain arrays for
// gathers: pow_inv_centre(i); pow_log2_of_centre(i) and exp2_fine_point(i)
// as hi at [2 i], lo at [2 i + 1].
struct PowTables {
    double inv_centre[128];
    double log2_of_centre[256];
    double exp2_fine_point[256];
};
const PowTables& pow_tables();

}  // namespace twinvmaf::ciede
