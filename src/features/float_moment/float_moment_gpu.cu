// The GPU twin of float_moment: each luma plane's sum and sum of squares,
// the CPU's doubles bit for bit.
//
// The CPU adds the samples and their float squares to two doubles per
// plane, serially (float_moment_math.h). Those terms are non-negative floats
// on the depth's grid of 2^-2(bpc-8) (8-bit 1, 10-bit 2^-4, 12-bit 2^-8,
// 16-bit 2^-16: samples are multiples of 2^-(bpc-8), their squares of
// 2^-2(bpc-8), rounded or not), so each chain is exact, hence order-free,
// while its total stays below 2^53 grid units
// (features/common/float_exact_sum.h): the device adds the terms as
// integers in any order (float_gpu.h, "exact sums": one block per row,
// both planes in one launch) and converts the totals once. 8- and 10-bit
// totals never reach that limit at any accepted frame size (a bright 8-bit
// 4K plane's sum of squares is about 2^37 units), 12-bit ones only above
// about 5e8 samples; 16-bit ones do (2^53 units = 2^37: e.g. bright 4K),
// and there one thread runs the CPU's chains with accumulate_row().
#include "features/common/float_gpu.h"
#include "features/float_moment/float_moment.h"
#include "features/float_moment/float_moment_math.h"

namespace twinvmaf::float_moment {

namespace {

using float_gpu::LumaPair;

// Terms 0..3: ref sample, dis sample, ref square, dis square (the slots of
// FrameScores).
template <class Sample>
struct MomentTerms {
    __device__ void operator()(const LumaPair& p, int y, int x, float (&out)[4]) const
    {
        const float r = p.ref_float<Sample>(y, x), d = p.dis_float<Sample>(y, x);
        out[0] = r;
        out[1] = d;
        out[2] = r * r;
        out[3] = d * d;
    }
};

// The CPU's chains (float_moment_cpu.cpp), for totals the grid cannot hold.
template <class Sample>
struct SerialMoments {
    __device__ static MomentSums plane(const LumaPair& p, const std::uint8_t* base)
    {
        MomentSums sums;
        for (int y = 0; y < p.h; ++y)
            sums = accumulate_row(reinterpret_cast<const Sample*>(base + y * p.stride), static_cast<unsigned>(p.w),
                                  p.bitdepth, sums);
        return sums;
    }
    __device__ void operator()(const LumaPair& p, double* out) const
    {
        const MomentSums ref = plane(p, p.ref), dis = plane(p, p.dis);
        out[0] = ref.sum;
        out[1] = dis.sum;
        out[2] = ref.sum_of_squares;
        out[3] = dis.sum_of_squares;
    }
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat&)
{
    return std::make_unique<float_gpu::ExactSumTwin<4, MomentTerms, SerialMoments>>();
}

}  // namespace twinvmaf::float_moment
