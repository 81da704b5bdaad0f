// The row kernels of adm's CPU path, as a table of function pointers: the
// reference (the row functions of adm_dwt_math.h and adm_row_math.h, the
// definition) or the Highway SIMD implementation (adm_simd.cpp, compiled for
// every instruction set), which returns the reference's bits
// (tests/unit/test_simd_adm.cpp compares them on random and extreme rows for
// every target this build has). core/simd.h says which one kernels() gives.
//
// Every kernel has its reference row function's arguments and contract: it
// reads and writes only the columns that function does (the SIMD code runs
// whole vectors inside them and the reference on the rest), so rows need no
// slack. The scratch a reference function takes (the gains of decouple) may
// be left unwritten by the SIMD one.
#pragma once

#include <cstdint>

#include "features/adm/adm_band_math.h"
#include "features/adm/adm_dwt_math.h"
#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// ---- the wavelet ------------------------------------------------------------

// dwt0_vertical_row(): scale 0's vertical pass of the picture into split rows.
template <class Sample>
using Dwt0VerticalFn = void (*)(const Sample* const rows[4], int width, int bitdepth, std::int16_t* low,
                                std::int16_t* high);

// dwt_horizontal_row() with Dwt0Horizontal: scale 0's horizontal pass
// (high_out may be null).
using Dwt0HorizontalFn = void (*)(const std::int16_t* split, int input_width, int output_width,
                                  std::int16_t* low_out, std::int16_t* high_out);

// dwt_vertical_row(): the vertical pass of scales 1..3 (from scale 0's 16-bit
// a band, or the 32-bit one of scales 1 and 2).
template <class Coef>
using DwtVerticalFn = void (*)(const Coef* const rows[4], int width, DwtRounding rounding, std::int32_t* low,
                               std::int32_t* high);

// dwt_horizontal_row() with DwtHorizontal{rounding}: the horizontal pass of
// scales 1..3 (high_out may be null).
using DwtHorizontalFn = void (*)(const std::int32_t* split, int input_width, int output_width, DwtRounding rounding,
                                 std::int32_t* low_out, std::int32_t* high_out);

// ---- decouple, CSF, masking and the sums, per precision ----------------------

// The stages of adm_row_math.h for one precision (Arith: Scale0Arithmetic or
// ScaleNArithmetic), with those functions' arguments.
template <class Arith>
struct BandKernels {
    using Coef = typename Arith::Coef;

    void (*angle_test)(const Coef* ref_h, const Coef* ref_v, const Coef* dis_h, const Coef* dis_v, int begin,
                       int end, std::uint8_t* aligned);
    void (*decouple)(const Coef* ref, const Coef* dis, const std::uint8_t* aligned, int begin, int end,
                     double gain_limit, std::int32_t* gain, Coef* restored, Coef* additive);
    void (*add_masking_weights)(const Coef* masker, std::uint32_t csf_weight, int theta, bool first, int begin,
                                int end, std::int32_t* neighbour, std::int32_t* centre);
    std::uint64_t (*masked_cube)(const Coef* source, std::uint32_t csf_weight, const std::int32_t* threshold,
                                 int begin, int end, const MaskingShifts& shifts, int theta);
    std::uint64_t (*reference_cube)(const Coef* band, int begin, int end, const DenominatorShifts& shifts);
};

// masking_threshold_row() (the same for both precisions).
using MaskingThresholdFn = void (*)(const std::int32_t* above, const std::int32_t* row, const std::int32_t* below,
                                    const std::int32_t* centre, int width, int begin, int end,
                                    std::int32_t* column_sums, std::int32_t* threshold);

struct Kernels {
    Dwt0VerticalFn<std::uint8_t> dwt0_vertical_8bit;
    Dwt0VerticalFn<std::uint16_t> dwt0_vertical_16bit;
    Dwt0HorizontalFn dwt0_horizontal;
    DwtVerticalFn<std::int16_t> dwt_vertical_16bit;  // scale 1
    DwtVerticalFn<std::int32_t> dwt_vertical_32bit;  // scales 2, 3
    DwtHorizontalFn dwt_horizontal;
    BandKernels<Scale0Arithmetic> scale0;
    BandKernels<ScaleNArithmetic> scale_n;
    MaskingThresholdFn masking_threshold;
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::adm
