// The CPU path of psnr: per-plane SSE with the row kernels of psnr_kernels.h
// (psnr_math.h's loops or their SIMD implementation).
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_kernels.h"

namespace twinvmaf::psnr {

namespace {

std::uint64_t plane_sse(const Kernels& kernels, const PlaneView& ref, const PlaneView& dis, unsigned bitdepth)
{
    std::uint64_t sse = 0;
    for (unsigned y = 0; y < ref.height; ++y) {
        if (bitdepth > 8)
            sse += kernels.row_sse_16bit(ref.row<std::uint16_t>(y), dis.row<std::uint16_t>(y), ref.width, bitdepth);
        else
            sse += kernels.row_sse_8bit(ref.row<std::uint8_t>(y), dis.row<std::uint8_t>(y), ref.width);
    }
    return sse;
}

}  // namespace

void PsnrCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const Kernels k = kernels();
    for (unsigned p = 0; p < planes(); ++p) {
        const int plane = static_cast<int>(p);
        scores.set_integer(p, plane_sse(k, inputs.ref.plane(plane), inputs.dis.plane(plane), format().bitdepth));
    }
}

}  // namespace twinvmaf::psnr
