// The batch kernels of ciede's CPU path: ciede_math.h's functions, one call
// per element. There is no SIMD form: the libm calls are glibc's algorithms
// (features/common/libm.h), whose table lookups and branches cost as much
// lane-wise as they do one by one; the former lane-wise kernels ran the
// correctly rounded functions, whose bits are not Netflix's.
#pragma once

#include <cstddef>

#include "features/ciede/ciede_math.h"

namespace twinvmaf::ciede {

// lab_from_yuv(y[i], u[i], v[i], bitdepth) into out[i], i < n. The samples
// are integers of `bitdepth` bits (8..16), given as doubles.
using LabBatchFn = void (*)(const double* y, const double* u, const double* v, std::size_t n, unsigned bitdepth,
                            Lab* out);

// delta_e_2000(c1[i], c2[i], k) into out[i], i < n.
using DeltaEBatchFn = void (*)(const Lab* c1, const Lab* c2, std::size_t n, Weights k, float* out);

struct Kernels {
    LabBatchFn lab_batch;
    DeltaEBatchFn delta_e_batch;
};

Kernels kernels();

}  // namespace twinvmaf::ciede
