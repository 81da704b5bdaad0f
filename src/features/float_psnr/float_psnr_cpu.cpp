// The CPU reference of float_psnr: the luma sum of squared errors, row by
// row with float_psnr_math.h (one serial chain, Netflix's order).
#include <cstdint>

#include "features/float_psnr/float_psnr.h"
#include "features/float_psnr/float_psnr_math.h"

namespace twinvmaf::float_psnr {

namespace {

template <class Sample>
double plane_noise(const PlaneView& ref, const PlaneView& dis, unsigned bitdepth)
{
    double noise = 0;
    for (unsigned y = 0; y < ref.height; ++y)
        noise = accumulate_row(ref.row<Sample>(y), dis.row<Sample>(y), ref.width, bitdepth, noise);
    return noise;
}

}  // namespace

void FloatPsnrCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const unsigned bitdepth = format().bitdepth;
    const PlaneView ref = inputs.ref.plane(0), dis = inputs.dis.plane(0);
    scores.set(0, bitdepth == 8 ? plane_noise<std::uint8_t>(ref, dis, bitdepth)
                                : plane_noise<std::uint16_t>(ref, dis, bitdepth));
}

}  // namespace twinvmaf::float_psnr
