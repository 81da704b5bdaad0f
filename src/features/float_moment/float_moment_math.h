// float_moment's arithmetic, shared by the CPU reference and a GPU twin.
//
// Netflix (moment.c) converts a luma plane to floats on the 8-bit range
// (offset 0) and adds the samples (1st moment) and their float squares
// (2nd moment) to two doubles, each its own chain.
//
// Reduction order: per plane and moment, one serial double chain over every
// sample, row-major, as Netflix. The chains are exact, hence order-free,
// where the partial sums stay exact: samples are multiples of 2^-(bpc-8)
// below 256, so the 1st moment is exact for up to 2^37 samples at any depth;
// squares are float multiples of 2^-2(bpc-8) below 2^16 (16-bit squares
// round to float), so the 2nd moment is exact for up to 2^37, 2^33, 2^29 and
// 2^21 samples at 8, 10, 12 and 16 bits (features/common/float_exact_sum.h
// proves it; the GPU twin relies on it). Only 16-bit frames above 1920x1080
// with bright content, and 12-bit ones above 2^29 samples, need this order.
#pragma once

#include "core/host_device.h"
#include "features/common/float_picture.h"

namespace twinvmaf::float_moment {

// Running sums of one plane.
struct MomentSums {
    double sum = 0;             // of the samples (1st moment * pixels)
    double sum_of_squares = 0;  // of their float squares (2nd moment * pixels)
};

// Adds one row of samples to `sums`, in order.
template <class Sample>
TV_HD MomentSums accumulate_row(const Sample* row, unsigned width, unsigned bitdepth, MomentSums sums)
{
    for (unsigned x = 0; x < width; ++x) {
        const float v = float_picture::sample_to_float(row[x], bitdepth, 0.0f);
        sums.sum += static_cast<double>(v);
        sums.sum_of_squares += static_cast<double>(v * v);
    }
    return sums;
}

}  // namespace twinvmaf::float_moment
