// Row kernels of float_adm's CPU path, as a table of function pointers: the
// reference (float_adm_kernels.cpp: the loops over float_adm_math.h) or the
// Highway SIMD implementation (float_adm_simd.cpp, compiled for every
// instruction set), which returns the reference's bits
// (tests/unit/test_simd_float_adm.cpp compares them on random and extreme
// rows for every target this build has). core/simd.h says which one
// kernels() gives. Kernels read and write only the columns their arguments
// name.
#pragma once

#include <cstdint>

#include "features/float_adm/float_adm_math.h"

namespace twinvmaf::float_adm {

// dwt_vertical_row(): the vertical pass of one output row (`rows`: input
// rows 2i-1 .. 2i+2, mirrored) into `low` and `high`, `width` columns.
using VerticalFn = void (*)(const float* const rows[4], int width, float* low, float* high);

// dwt_horizontal() at every output column j in [0, width) of one row, from
// the vertical pass's rows of `input_width` columns; column j of `a`, `v`,
// `h`, `d` (v, h, d all null: the a band only).
using HorizontalFn = void (*)(const float* low, const float* high, int input_width, int width, float* a, float* v,
                              float* h, float* d);

// One row of a band through decouple_and_weigh(): columns [left, right) of
// the reference's (`o`) and distorted's (`t`) h, v, d rows into the rows of
// the weighted and masking planes of both parts.
struct DecoupleRow {
    const float* o[kOrientations];
    const float* t[kOrientations];
    float* weighted[2][kOrientations];
    float* masking[2][kOrientations];
};
using DecoupleFn = void (*)(const DecoupleRow& row, int left, int right, const DecoupleParams& params,
                            const float weight[kOrientations]);

// Row y of a width x height band: each orientation's masked_row_sum() over
// the scored columns of `measured` (its h, v, d rows), with thresholds
// masking_threshold() from `other` (0 when `bypass_cm`), into `row_sums`.
// `threshold` is scratch of `width` floats, `terms` of 3 * width.
using MaskedRowSumsFn = void (*)(const CsfPlanes& other, int width, int height, int y,
                                 const float* const measured[kOrientations], const Region& scored, bool bypass_cm,
                                 double p_norm, float* threshold, float* terms, float row_sums[kOrientations]);

// reference_row_sum() of the h, v, d rows of one row, into `row_sums`;
// `terms` is scratch of 3 * the rows' width.
using ReferenceRowSumsFn = void (*)(const float* const reference_rows[kOrientations],
                                    const float weight[kOrientations], const Region& scored, double p_norm,
                                    float* terms, float row_sums[kOrientations]);

struct Kernels {
    VerticalFn vertical;
    HorizontalFn horizontal;
    DecoupleFn decouple;
    MaskedRowSumsFn masked_row_sums;
    ReferenceRowSumsFn reference_row_sums;
};

// intel_rcp_fraction(i) << 11 for the 2048 indices i (the SIMD RCPSS's table).
const std::uint32_t* intel_rcp_table();

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::float_adm
