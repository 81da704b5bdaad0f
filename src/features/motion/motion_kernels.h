// The row kernels of motion's CPU path: the reference (motion_math.h's
// loops) or their Highway SIMD implementation (motion_simd.cpp), which
// returns the same bits (tests/unit/test_simd_motion.cpp). core/simd.h says
// which one kernels() gives. Rows handed to a kernel are only read and
// written within their columns (and the padded row's kRadius on each side).
#pragma once

#include <cstdint>

#include "features/motion/motion_math.h"

namespace twinvmaf::motion {

// vertical_blur_row() of motion_math.h: the vertical pass of one output row
// into padded[kRadius ..]; whether any value is nonzero.
template <class Sample>
using VerticalBlurFn = bool (*)(const Sample* const earlier[5], const Sample* const current[5], unsigned width,
                                unsigned bitdepth, std::int32_t* padded);

// row_sad() of motion_math.h: horizontal pass and SAD of one padded row.
using RowSadFn = RowSad (*)(const std::int32_t* padded, unsigned width);

struct Kernels {
    VerticalBlurFn<std::uint8_t> vertical_blur_8bit;
    VerticalBlurFn<std::uint16_t> vertical_blur_16bit;  // 9..16-bit samples
    RowSadFn row_sad;
};

Kernels reference_kernels();
Kernels simd_kernels();
Kernels kernels();

}  // namespace twinvmaf::motion
