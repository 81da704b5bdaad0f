// The row kernels of psnr's CPU path: the reference (psnr_math.h) or their
// Highway SIMD implementation (psnr_simd.cpp), which returns the same sums
// (tests/unit/test_simd_psnr.cpp). core/simd.h says which one kernels() gives.
#pragma once

#include <cstdint>

#include "features/psnr/psnr_math.h"

namespace twinvmaf::psnr {

struct Kernels {
    // row_sse() of psnr_math.h for 8-bit and for 9..16-bit samples.
    std::uint32_t (*row_sse_8bit)(const std::uint8_t* ref, const std::uint8_t* dis, unsigned width);
    std::uint64_t (*row_sse_16bit)(const std::uint16_t* ref, const std::uint16_t* dis, unsigned width,
                                   unsigned bitdepth);
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::psnr
