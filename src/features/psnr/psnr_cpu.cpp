// The CPU reference of psnr: per-plane SSE with the shared row arithmetic.
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_math.h"

namespace twinvmaf::psnr {

namespace {

template <class Sample>
std::uint64_t plane_sse(const PlaneView& ref, const PlaneView& dis)
{
    std::uint64_t sse = 0;
    for (unsigned y = 0; y < ref.height; ++y)
        sse += row_sse(ref.row<Sample>(y), dis.row<Sample>(y), ref.width);
    return sse;
}

}  // namespace

void PsnrCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const bool high_bitdepth = format().bitdepth > 8;
    for (unsigned p = 0; p < planes(); ++p) {
        const PlaneView ref = inputs.ref.plane(static_cast<int>(p));
        const PlaneView dis = inputs.dis.plane(static_cast<int>(p));
        scores.set_integer(p, high_bitdepth ? plane_sse<std::uint16_t>(ref, dis)
                                            : plane_sse<std::uint8_t>(ref, dis));
    }
}

}  // namespace twinvmaf::psnr
