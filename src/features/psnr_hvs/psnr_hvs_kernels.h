// The block kernels of psnr_hvs's CPU path: the reference (psnr_hvs_math.h's
// block_terms() per block) or their Highway SIMD implementation
// (psnr_hvs_simd.cpp), which returns the same bits
// (tests/unit/test_simd_psnr_hvs.cpp). core/simd.h says which one kernels()
// gives. A kernel computes the terms of a run of blocks and continues the
// plane's serial float sum over them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "features/psnr_hvs/psnr_hvs_math.h"

namespace twinvmaf::psnr_hvs {

// block_terms() of `blocks` neighbouring blocks of one block row, the first
// at ref[0] / dis[0], the others every kBlockStep samples to the right:
// terms[kCoefficients * b + k] is term k of block b. Returns `sum` with
// every term added to it, one float addition at a time, in that order (block
// by block, each block's terms in raster order: Netflix's chain). Reads 8
// rows of kBlockStep * blocks + 1 samples; writes blocks * kCoefficients
// floats.
template <class Sample>
using BlockRowFn = float (*)(const Sample* ref, std::ptrdiff_t ref_stride, const Sample* dis,
                             std::ptrdiff_t dis_stride, int blocks, const float (*csf)[kBlockSize],
                             const float (*mask)[kBlockSize], float* terms, float sum);

struct Kernels {
    BlockRowFn<std::uint8_t> block_row_8bit;
    BlockRowFn<std::uint16_t> block_row_16bit;  // 9..16-bit samples
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::psnr_hvs
