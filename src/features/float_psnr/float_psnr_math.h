// float_psnr's arithmetic, shared by the CPU reference and a GPU twin.
//
// Netflix (psnr.c, compute_psnr) converts both luma planes to floats on the
// 8-bit range (offset 0), squares each difference in float and adds the
// squares to one double, row after row, sample after sample.
//
// Reduction order: one serial double chain over every sample, row-major
// (rows in order, samples left to right), as Netflix. That chain is exact,
// hence order-free, wherever its partial sums stay exact: every square is a
// float multiple of 2^-2(bpc-8) below 2^16 (exact for 8..12 bits; 16-bit
// squares round to float, multiples of 2^-16), so a sum of up to 2^33
// (10-bit), 2^29 (12-bit) or 2^21 (16-bit) samples of any values is exact
// and a twin may add in any order there (features/common/float_exact_sum.h
// proves it); beyond (16-bit frames above 1920x1080 with large errors,
// 12-bit ones above 2^29 samples) only this order gives Netflix's bits.
#pragma once

#include "core/host_device.h"
#include "features/common/float_picture.h"

namespace twinvmaf::float_psnr {

// (ref - dis)^2 in float, as Netflix's `diff * diff`.
TV_HD float squared_error(float ref, float dis)
{
    const float diff = ref - dis;
    return diff * diff;
}

// Adds the squared errors of one row of samples to `noise`, in order.
template <class Sample>
TV_HD double accumulate_row(const Sample* ref, const Sample* dis, unsigned width, unsigned bitdepth, double noise)
{
    for (unsigned x = 0; x < width; ++x) {
        const float r = float_picture::sample_to_float(ref[x], bitdepth, 0.0f);
        const float d = float_picture::sample_to_float(dis[x], bitdepth, 0.0f);
        noise += static_cast<double>(squared_error(r, d));
    }
    return noise;
}

}  // namespace twinvmaf::float_psnr
