// adm's reference kernels (the row functions of the math headers) and the
// choice between them and the SIMD ones (adm_simd.cpp).
#include "features/adm/adm_kernels.h"

#include "core/simd.h"
#include "features/adm/adm_row_math.h"

namespace twinvmaf::adm {

namespace {

void dwt0_horizontal(const std::int16_t* split, int input_width, int output_width, std::int16_t* low_out,
                     std::int16_t* high_out)
{
    dwt_horizontal_row(split, input_width, output_width, Dwt0Horizontal{}, low_out, high_out);
}

void dwt_horizontal(const std::int32_t* split, int input_width, int output_width, DwtRounding rounding,
                    std::int32_t* low_out, std::int32_t* high_out)
{
    dwt_horizontal_row(split, input_width, output_width, DwtHorizontal{rounding}, low_out, high_out);
}

template <class Arith>
BandKernels<Arith> reference_band_kernels()
{
    return BandKernels<Arith>{
        .angle_test = angle_test_row<Arith>,
        .decouple = decouple_orientation_row<Arith>,
        .add_masking_weights = add_masking_weights_row<Arith>,
        .masked_cube = masked_cube_row<Arith>,
        .reference_cube = reference_cube_row<Arith>,
    };
}

}  // namespace

Kernels reference_kernels()
{
    return Kernels{
        .dwt0_vertical_8bit = dwt0_vertical_row<std::uint8_t>,
        .dwt0_vertical_16bit = dwt0_vertical_row<std::uint16_t>,
        .dwt0_horizontal = dwt0_horizontal,
        .dwt_vertical_16bit = dwt_vertical_row<std::int16_t>,
        .dwt_vertical_32bit = dwt_vertical_row<std::int32_t>,
        .dwt_horizontal = dwt_horizontal,
        .scale0 = reference_band_kernels<Scale0Arithmetic>(),
        .scale_n = reference_band_kernels<ScaleNArithmetic>(),
        .masking_threshold = masking_threshold_row,
    };
}

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::adm
