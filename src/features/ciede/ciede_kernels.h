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

// delta_e_2000(c1[i], c2[i], k) into out[i], i < n.
using DeltaEBatchFn = void (*)(const Lab* c1, const Lab* c2, std::size_t n, Weights k, float* out);

struct Kernels {
    LabBatchFn lab_batch;
    PowBatchFn pow_batch;
    DeltaEBatchFn delta_e_batch;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

// The fast phases' tables (core/cr_libm_table.h) as plain arrays for
// gathers: pow_inv_centre(i); the double-double ones (pow_log2_of_centre,
// exp2_fine_point, sin_point, cos_point, atan_point) as hi at [2 i], lo at
// [2 i + 1].
struct LibmTables {
    double inv_centre[128];
    double log2_of_centre[256];
    double exp2_fine_point[256];
    double sin_point[106];
    double cos_point[106];
    double atan_point[130];
};
const LibmTables& libm_tables();

}  // namespace twinvmaf::ciede
