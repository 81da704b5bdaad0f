// ADM's db2 wavelet, one output row at a time (Netflix's adm_dwt2_8,
// adm_dwt2_16, adm_dwt2_s123_combined and their low-pass-only variants).
//
// Output row i of a scale reads input rows 2i-1 .. 2i+2 (mirror()ed): the
// vertical pass filters them into a low-pass and a high-pass row of the input
// width; the horizontal pass filters those at columns 2j-1 .. 2j+2 into the
// four bands a (lo-lo), v (lo-hi), h (hi-lo) and d (hi-hi).
//
// The vertical pass stores its rows split: the even input columns first,
// then the odd ones, so that the horizontal pass reads 2j-1 .. 2j+2 as
// contiguous runs (odd[j-1], even[j], odd[j], even[j+1]) and vectorises.
//
// Scale 0 reads the picture and keeps 16-bit coefficients with 32-bit sums;
// scales 1..3 read the previous scale's a band and keep 32-bit coefficients
// with 64-bit sums and per-scale rounding.
#pragma once

#include <cstdint>

#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// db2 analysis filters in Q15. Passed by value and made by TV_HD functions
// (not namespace-scope arrays) so that device code can use them too.
struct DwtFilter {
    std::int32_t tap[4];
};
TV_HD constexpr DwtFilter low_pass() { return DwtFilter{{15826, 27411, 7345, -4240}}; }
TV_HD constexpr DwtFilter high_pass() { return DwtFilter{{-4240, -7345, 27411, -15826}}; }
inline constexpr std::int32_t kLowPassSum = 46342;

// The four input rows (or columns) that output row (column) `out` reads.
struct Taps {
    int index[4];
};

TV_HD Taps dwt_taps(int out, int input_size)
{
    Taps t;
    for (int k = 0; k < 4; ++k) t.index[k] = mirror(2 * out - 1 + k, input_size);
    return t;
}

// Where input column `column` of a row of `width` is stored in a split row.
TV_HD int split_index(int column, int width)
{
    return (column & 1) ? (width + 1) / 2 + (column >> 1) : column >> 1;
}

// Runs `filter(column, split_index)` for every column of a row of `width`,
// even columns first, in two simple loops.
template <class Filter>
TV_HD void for_each_split_column(int width, Filter filter)
{
    const int evens = (width + 1) / 2;
    for (int x = 0; x < evens; ++x) filter(2 * x, x);
    for (int x = 0; x < width / 2; ++x) filter(2 * x + 1, evens + x);
}

// ---- Scale 0: the picture (8..16-bit samples) to 16-bit bands ------------

// The vertical pass also removes the mid-grey offset (samples 0..2^bpc-1 to
// -2^(bpc-1)..) and shifts by the bit depth. Netflix sums in int32, which
// can wrap in between for 16-bit input but not in the result; we sum in
// uint32 so the wrap is defined and the bits are the same.
TV_HD std::int16_t dwt0_vertical(DwtFilter f, std::uint32_t s0, std::uint32_t s1,
                                 std::uint32_t s2, std::uint32_t s3, std::int32_t offset, int shift)
{
    const std::int32_t* taps = f.tap;
    const std::uint32_t sum = static_cast<std::uint32_t>(taps[0]) * s0 + static_cast<std::uint32_t>(taps[1]) * s1 +
                              static_cast<std::uint32_t>(taps[2]) * s2 + static_cast<std::uint32_t>(taps[3]) * s3 +
                              static_cast<std::uint32_t>(offset);
    return static_cast<std::int16_t>(static_cast<std::int32_t>(sum) >> shift);
}

// One vertical-pass row: `rows` are the 4 input rows of dwt_taps(), `width`
// the input width; `low` and `high` are split rows.
// The vertical pass of one column `c` (a GPU thread's unit): the low-pass
// and high-pass values of the 4 input rows of dwt_taps().
template <class Sample>
TV_HD void dwt0_vertical_column(const Sample* const rows[4], int c, int bitdepth, std::int16_t& low,
                                std::int16_t& high)
{
    const std::int32_t half = std::int32_t{1} << (bitdepth - 1);
    const std::int32_t low_offset = half - kLowPassSum * half;  // rounding minus the grey offset
    const std::int32_t high_offset = half;                      // the high-pass sum is 0
    low = dwt0_vertical(low_pass(), rows[0][c], rows[1][c], rows[2][c], rows[3][c], low_offset, bitdepth);
    high = dwt0_vertical(high_pass(), rows[0][c], rows[1][c], rows[2][c], rows[3][c], high_offset, bitdepth);
}

template <class Sample>
TV_HD void dwt0_vertical_row(const Sample* const rows[4], int width, int bitdepth, std::int16_t* __restrict__ low,
                             std::int16_t* __restrict__ high)
{
    for_each_split_column(width, [&](int c, int i) { dwt0_vertical_column(rows, c, bitdepth, low[i], high[i]); });
}

// Horizontal pass: (sum + 2^15) >> 16, in int32 (it cannot wrap).
TV_HD std::int16_t dwt0_horizontal(DwtFilter f, std::int16_t s0, std::int16_t s1, std::int16_t s2,
                                   std::int16_t s3)
{
    const std::int32_t* taps = f.tap;
    const std::int32_t sum = taps[0] * s0 + taps[1] * s1 + taps[2] * s2 + taps[3] * s3;
    return static_cast<std::int16_t>((sum + 32768) >> 16);
}

// ---- Scales 1..3: 32-bit coefficients, 64-bit sums ------------------------

// Rounding of scales 1, 2, 3 (index scale - 1).
struct DwtRounding {
    std::int64_t add;
    int shift;
};
inline constexpr DwtRounding kVerticalRounding[3] = {{0, 0}, {32768, 16}, {32768, 16}};
inline constexpr DwtRounding kHorizontalRounding[3] = {{16384, 15}, {32768, 16}, {16384, 15}};

template <class Coef>
TV_HD std::int32_t dwt_filter(DwtFilter f, Coef s0, Coef s1, Coef s2, Coef s3, DwtRounding rounding)
{
    const std::int32_t* taps = f.tap;
    const std::int64_t sum = std::int64_t{taps[0]} * s0 + std::int64_t{taps[1]} * s1 +
                             std::int64_t{taps[2]} * s2 + std::int64_t{taps[3]} * s3;
    return static_cast<std::int32_t>((sum + rounding.add) >> rounding.shift);
}

// One vertical-pass row of scales 1..3 into split rows; `Coef` is the
// previous scale's a band (int16 after scale 0, int32 after that).
template <class Coef>
TV_HD void dwt_vertical_column(const Coef* const rows[4], int c, DwtRounding rounding, std::int32_t& low,
                               std::int32_t& high)
{
    low = dwt_filter(low_pass(), rows[0][c], rows[1][c], rows[2][c], rows[3][c], rounding);
    high = dwt_filter(high_pass(), rows[0][c], rows[1][c], rows[2][c], rows[3][c], rounding);
}

template <class Coef>
TV_HD void dwt_vertical_row(const Coef* const rows[4], int width, DwtRounding rounding,
                            std::int32_t* __restrict__ low, std::int32_t* __restrict__ high)
{
    for_each_split_column(width, [&](int c, int i) { dwt_vertical_column(rows, c, rounding, low[i], high[i]); });
}

// ---- Horizontal pass of any scale -----------------------------------------

// Output column x of the horizontal pass below, read through dwt_taps()
// (mirrored at the edges; the same value as the direct reads inside).
template <class Bands, class In, class Out>
TV_HD void dwt_horizontal_at(const In* split, int input_width, int x, Bands bands, Out* low_out, Out* high_out)
{
    const Taps t = dwt_taps(x, input_width);
    In s[4];
    for (int k = 0; k < 4; ++k) s[k] = split[split_index(t.index[k], input_width)];
    low_out[x] = bands(low_pass(), s[0], s[1], s[2], s[3]);
    if (high_out) high_out[x] = bands(high_pass(), s[0], s[1], s[2], s[3]);
}

// The horizontal pass of one split vertical-pass row: its low-pass output
// (a from the low row, h from the high row) and, unless `high_out` is null,
// its high-pass output (v from the low row, d from the high row). `Bands`
// supplies the arithmetic (Dwt0Horizontal or DwtHorizontal below).
template <class Bands, class In, class Out>
TV_HD void dwt_horizontal_row(const In* __restrict__ split, int input_width, int output_width, Bands bands,
                              Out* __restrict__ low_out, Out* __restrict__ high_out)
{
    const In* even = split;
    const In* odd = split + (input_width + 1) / 2;
    // Columns 1 .. interior_end-1 read 2x-1 .. 2x+2 < input_width directly.
    int interior_end = (input_width - 1) / 2;
    if (interior_end > output_width) interior_end = output_width;
    if (interior_end < 1) interior_end = 1;

    auto mirrored = [&](int x) { dwt_horizontal_at(split, input_width, x, bands, low_out, high_out); };
    if (output_width > 0) mirrored(0);
    for (int x = 1; x < interior_end; ++x) low_out[x] = bands(low_pass(), odd[x - 1], even[x], odd[x], even[x + 1]);
    if (high_out) {
        for (int x = 1; x < interior_end; ++x)
            high_out[x] = bands(high_pass(), odd[x - 1], even[x], odd[x], even[x + 1]);
    }
    for (int x = interior_end; x < output_width; ++x) mirrored(x);
}

struct Dwt0Horizontal {
    TV_HD std::int16_t operator()(DwtFilter taps, std::int16_t s0, std::int16_t s1, std::int16_t s2,
                                  std::int16_t s3) const
    {
        return dwt0_horizontal(taps, s0, s1, s2, s3);
    }
};

struct DwtHorizontal {
    DwtRounding rounding;
    TV_HD std::int32_t operator()(DwtFilter taps, std::int32_t s0, std::int32_t s1, std::int32_t s2,
                                  std::int32_t s3) const
    {
        return dwt_filter(taps, s0, s1, s2, s3, rounding);
    }
};

}  // namespace twinvmaf::adm
