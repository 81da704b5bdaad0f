// motion's reference kernels and the choice between them and the SIMD ones.
#include "features/motion/motion_kernels.h"

#include "core/simd.h"

namespace twinvmaf::motion {

namespace {

bool vertical_blur_8bit(const std::uint8_t* const earlier[5], const std::uint8_t* const current[5], unsigned width,
                        unsigned bitdepth, std::int32_t* padded)
{
    return vertical_blur_row<std::int32_t>(earlier, current, width, bitdepth, padded);
}

// The unrounded sum fits int32 up to 15-bit samples; 16-bit needs int64.
bool vertical_blur_16bit(const std::uint16_t* const earlier[5], const std::uint16_t* const current[5],
                         unsigned width, unsigned bitdepth, std::int32_t* padded)
{
    if (bitdepth < 16) return vertical_blur_row<std::int32_t>(earlier, current, width, bitdepth, padded);
    return vertical_blur_row<std::int64_t>(earlier, current, width, bitdepth, padded);
}

}  // namespace

Kernels reference_kernels() { return {vertical_blur_8bit, vertical_blur_16bit, row_sad}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::motion
