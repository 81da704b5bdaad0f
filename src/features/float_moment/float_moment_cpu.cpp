// The CPU reference of float_moment: each luma plane's sums, row by row with
// float_moment_math.h (serial chains, Netflix's order).
#include <cstdint>

#include "features/float_moment/float_moment.h"
#include "features/float_moment/float_moment_math.h"

namespace twinvmaf::float_moment {

namespace {

template <class Sample>
MomentSums plane_sums(const PlaneView& plane, unsigned bitdepth)
{
    MomentSums sums;
    for (unsigned y = 0; y < plane.height; ++y)
        sums = accumulate_row(plane.row<Sample>(y), plane.width, bitdepth, sums);
    return sums;
}

MomentSums plane_sums(const PlaneView& plane, unsigned bitdepth)
{
    return bitdepth == 8 ? plane_sums<std::uint8_t>(plane, bitdepth) : plane_sums<std::uint16_t>(plane, bitdepth);
}

}  // namespace

void FloatMomentCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const MomentSums ref = plane_sums(inputs.ref.plane(0), format().bitdepth);
    const MomentSums dis = plane_sums(inputs.dis.plane(0), format().bitdepth);
    scores.set(0, ref.sum);
    scores.set(1, dis.sum);
    scores.set(2, ref.sum_of_squares);
    scores.set(3, dis.sum_of_squares);
}

}  // namespace twinvmaf::float_moment
