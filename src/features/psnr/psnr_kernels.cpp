// psnr's reference kernels and the choice between them and the SIMD ones.
#include "features/psnr/psnr_kernels.h"

#include "core/simd.h"

namespace twinvmaf::psnr {

namespace {

std::uint32_t row_sse_8bit(const std::uint8_t* ref, const std::uint8_t* dis, unsigned width)
{
    return row_sse(ref, dis, width);
}

std::uint64_t row_sse_16bit(const std::uint16_t* ref, const std::uint16_t* dis, unsigned width, unsigned bitdepth)
{
    return row_sse(ref, dis, width, bitdepth);
}

}  // namespace

Kernels reference_kernels() { return {row_sse_8bit, row_sse_16bit}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::psnr
