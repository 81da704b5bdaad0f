// The GPU twin of float_psnr: the luma sum of squared errors, the CPU's
// double bit for bit.
//
// The CPU adds squared_error() of every sample to one double, serially
// (float_psnr_math.h). Those terms are non-negative floats on the depth's
// grid of 2^-2(bpc-8) (the squares of differences of samples on
// 2^-(bpc-8)), so the chain is exact, hence order-free, while the total
// stays below 2^53 grid units (features/common/float_exact_sum.h): the
// device adds the terms as integers in any order (float_gpu.h, "exact
// sums", one block per row) and converts the total once. Beyond, which only
// 16-bit frames with large errors (and 12-bit ones above about 5e8 samples)
// reach, one thread runs the CPU's chain with accumulate_row().
#include "features/common/float_gpu.h"
#include "features/float_psnr/float_psnr.h"
#include "features/float_psnr/float_psnr_math.h"

namespace twinvmaf::float_psnr {

namespace {

using float_gpu::LumaPair;

template <class Sample>
struct SquaredErrors {
    __device__ void operator()(const LumaPair& p, int y, int x, float (&out)[1]) const
    {
        out[0] = squared_error(p.ref_float<Sample>(y, x), p.dis_float<Sample>(y, x));
    }
};

// The CPU's chain (float_psnr_cpu.cpp), for totals the grid cannot hold.
template <class Sample>
struct SerialNoise {
    __device__ void operator()(const LumaPair& p, double* out) const
    {
        double noise = 0;
        for (int y = 0; y < p.h; ++y)
            noise = accumulate_row(p.ref_row<Sample>(y), p.dis_row<Sample>(y), static_cast<unsigned>(p.w),
                                   p.bitdepth, noise);
        out[0] = noise;
    }
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat&)
{
    return std::make_unique<float_gpu::ExactSumTwin<1, SquaredErrors, SerialNoise>>();
}

}  // namespace twinvmaf::float_psnr
