// psnr_hvs's reference kernels and the choice between them and the SIMD ones.
#include "features/psnr_hvs/psnr_hvs_kernels.h"

#include "core/simd.h"

namespace twinvmaf::psnr_hvs {

namespace {

template <class Sample>
float block_row(const Sample* ref, std::ptrdiff_t ref_stride, const Sample* dis, std::ptrdiff_t dis_stride,
                int blocks, const float (*csf)[kBlockSize], const float (*mask)[kBlockSize], float* terms, float sum)
{
    for (int b = 0; b < blocks; ++b) {
        const int x = b * kBlockStep;
        float* block = terms + kCoefficients * b;
        block_terms(ref + x, ref_stride, dis + x, dis_stride, csf, mask, block);
        for (int k = 0; k < kCoefficients; ++k) sum += block[k];
    }
    return sum;
}

}  // namespace

Kernels reference_kernels() { return {block_row<std::uint8_t>, block_row<std::uint16_t>}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::psnr_hvs
