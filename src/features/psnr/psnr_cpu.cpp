// The CPU reference of psnr: per-plane SSE with the shared row arithmetic.
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_math.h"

namespace twinvmaf::psnr {

namespace {

std::uint64_t plane_sse(const PlaneView& ref, const PlaneView& dis, unsigned bitdepth)
{
    std::uint64_t sse = 0;
    for (unsigned y = 0; y < ref.height; ++y) {
        if (bitdepth > 8)
            sse += row_sse(ref.row<std::uint16_t>(y), dis.row<std::uint16_t>(y), ref.width, bitdepth);
        else
            sse += row_sse(ref.row<std::uint8_t>(y), dis.row<std::uint8_t>(y), ref.width);
    }
    return sse;
}

}  // namespace

void PsnrCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    for (unsigned p = 0; p < planes(); ++p) {
        const int plane = static_cast<int>(p);
        scores.set_integer(p, plane_sse(inputs.ref.plane(plane), inputs.dis.plane(plane), format().bitdepth));
    }
}

}  // namespace twinvmaf::psnr
