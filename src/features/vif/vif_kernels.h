// The row kernels of vif's CPU path, as a table of function pointers: the
// reference (loops over vif_math.h, the definition) or the Highway SIMD
// implementation (vif_simd.cpp, compiled for every instruction set), which
// returns the reference's bits (tests/unit/test_simd_vif.cpp compares them
// on random rows for every target this build has). core/simd.h says which
// one kernels() gives.
//
// Row buffers handed to a kernel must have kRowSlack writable samples after
// their last column (and MomentRow arrays kMaxFilterHalf before their first
// and kMaxFilterHalf + kRowSlack after their last): the SIMD code reads whole
// vectors past a row's end and ignores what it read there. It writes only
// the row's columns.
#pragma once

#include <cstdint>

#include "features/vif/vif_math.h"

namespace twinvmaf::vif {

// Samples a SIMD kernel may read past a row's last column (two of the widest
// vectors of 16-bit lanes, and a filter's reach).
inline constexpr unsigned kRowSlack = 64 + kMaxFilterWidth;

// Vertical moments of columns [0, width) of one output row (as
// vertical_moments<Scale, Sample>).
template <class Sample>
using VerticalMomentsFn = void (*)(const Sample* const* ref_rows, const Sample* const* dis_rows,
                                   VerticalShifts shifts, unsigned width, MomentRow out);

// The statistics of one padded moment row: horizontal_sigmas<Scale> over
// columns [0, width) into `sigmas` (scratch) and add_samples of them into
// `sums`. The SIMD version adds the same integers without storing sigmas.
using RowStatisticsFn = void (*)(const MomentRow& moments, unsigned width, SigmaRow sigmas,
                                 const std::uint16_t* log2_table, double gain_limit, ScaleSums& sums);

// Vertical pass of the decimation filter (as vertical_lowpass<Scale, Sample>).
template <class Sample>
using VerticalLowpassFn = void (*)(const Sample* const* ref_rows, const Sample* const* dis_rows, unsigned shift,
                                   unsigned width, std::uint16_t* ref_out, std::uint16_t* dis_out);

// Horizontal pass and decimation (as horizontal_lowpass_decimate<Scale>) of
// output columns [0, out_width).
using HorizontalDecimateFn = void (*)(const std::uint16_t* ref_in, const std::uint16_t* dis_in, unsigned out_width,
                                      std::uint16_t* ref_out, std::uint16_t* dis_out);

// Indexed by scale. 8-bit pictures are only read at scale 0 (statistics) and
// scale 1 (its decimation); the other 8-bit entries are null.
struct Kernels {
    VerticalMomentsFn<std::uint8_t> vertical_moments_8bit[kScaleCount];
    VerticalMomentsFn<std::uint16_t> vertical_moments_16bit[kScaleCount];
    RowStatisticsFn row_statistics[kScaleCount];
    VerticalLowpassFn<std::uint8_t> vertical_lowpass_8bit[kScaleCount];    // scale 1
    VerticalLowpassFn<std::uint16_t> vertical_lowpass_16bit[kScaleCount];  // scales 1..3
    HorizontalDecimateFn horizontal_decimate[kScaleCount];                 // scales 1..3
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::vif
