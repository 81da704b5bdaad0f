// ADM's db2 wavelet, one output row at a time (Netflix's adm_dwt2_8,
// adm_dwt2_16, adm_dwt2_s123_combined and their low-pass-only variants).
//
// Output row i of a scale reads input rows 2i-1 .. 2i+2 (mirror()ed): the
// vertical pass filters them into a low-pass and a high-pass row of the input
// width; the horizontal pass filters those at columns 2j-1 .. 2j+2 into the
// four bands a (lo-lo), v (lo-hi), h (hi-lo) and d (hi-hi).
//
// Scale 0 reads the picture and keeps 16-bit coefficients with 32-bit sums;
// scales 1..3 read the previous scale's a band and keep 32-bit coefficients
// with 64-bit sums and per-scale rounding.
#pragma once

#include <cstdint>

#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// db2 analysis filters in Q15.
inline constexpr std::int32_t kLowPass[4] = {15826, 27411, 7345, -4240};
inline constexpr std::int32_t kHighPass[4] = {-4240, -7345, 27411, -15826};
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

// ---- Scale 0: the picture (8..16-bit samples) to 16-bit bands ------------

// The vertical pass also removes the mid-grey offset (samples 0..2^bpc-1 to
// -2^(bpc-1)..) and shifts by the bit depth. Netflix sums in int32, which
// can wrap in between for 16-bit input but not in the result; we sum in
// uint32 so the wrap is defined and the bits are the same.
TV_HD std::int16_t dwt0_vertical(const std::int32_t* taps, std::uint32_t s0, std::uint32_t s1,
                                 std::uint32_t s2, std::uint32_t s3, std::int32_t offset, int shift)
{
    const std::uint32_t sum = static_cast<std::uint32_t>(taps[0]) * s0 + static_cast<std::uint32_t>(taps[1]) * s1 +
                              static_cast<std::uint32_t>(taps[2]) * s2 + static_cast<std::uint32_t>(taps[3]) * s3 +
                              static_cast<std::uint32_t>(offset);
    return static_cast<std::int16_t>(static_cast<std::int32_t>(sum) >> shift);
}

// One vertical-pass row: `rows` are the 4 input rows of dwt_taps(), `width`
// the input width.
template <class Sample>
TV_HD void dwt0_vertical_row(const Sample* const rows[4], int width, int bitdepth, std::int16_t* low,
                             std::int16_t* high)
{
    const std::int32_t half = std::int32_t{1} << (bitdepth - 1);
    const std::int32_t low_offset = half - kLowPassSum * half;  // rounding minus the grey offset
    const std::int32_t high_offset = half;                      // the high-pass sum is 0
    const Sample* r0 = rows[0];
    const Sample* r1 = rows[1];
    const Sample* r2 = rows[2];
    const Sample* r3 = rows[3];
    for (int x = 0; x < width; ++x) {
        low[x] = dwt0_vertical(kLowPass, r0[x], r1[x], r2[x], r3[x], low_offset, bitdepth);
        high[x] = dwt0_vertical(kHighPass, r0[x], r1[x], r2[x], r3[x], high_offset, bitdepth);
    }
}

// Horizontal pass: (sum + 2^15) >> 16, in int32 (it cannot wrap).
TV_HD std::int16_t dwt0_horizontal(const std::int32_t* taps, std::int16_t s0, std::int16_t s1, std::int16_t s2,
                                   std::int16_t s3)
{
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
TV_HD std::int32_t dwt_filter(const std::int32_t* taps, Coef s0, Coef s1, Coef s2, Coef s3, DwtRounding rounding)
{
    const std::int64_t sum = std::int64_t{taps[0]} * s0 + std::int64_t{taps[1]} * s1 +
                             std::int64_t{taps[2]} * s2 + std::int64_t{taps[3]} * s3;
    return static_cast<std::int32_t>((sum + rounding.add) >> rounding.shift);
}

// One vertical-pass row of scales 1..3; `Coef` is the previous scale's a
// band (int16 after scale 0, int32 after that).
template <class Coef>
TV_HD void dwt_vertical_row(const Coef* const rows[4], int width, DwtRounding rounding, std::int32_t* low,
                            std::int32_t* high)
{
    const Coef* r0 = rows[0];
    const Coef* r1 = rows[1];
    const Coef* r2 = rows[2];
    const Coef* r3 = rows[3];
    for (int x = 0; x < width; ++x) {
        low[x] = dwt_filter(kLowPass, r0[x], r1[x], r2[x], r3[x], rounding);
        high[x] = dwt_filter(kHighPass, r0[x], r1[x], r2[x], r3[x], rounding);
    }
}

// ---- Horizontal pass of any scale -----------------------------------------

// One output row of the bands from one vertical-pass row pair. `Bands`
// supplies the arithmetic (Dwt0Horizontal or DwtHorizontal below). With
// kLowOnly only the a band is made (adm_skip_scale0: Netflix's *_lo wavelet).
template <bool kLowOnly, class Bands, class In, class Out>
TV_HD void dwt_horizontal_row(const In* low, const In* high, int input_width, int output_width, Bands bands,
                              Out* a, Out* v, Out* h, Out* d)
{
    auto one = [&](int x, int c0, int c1, int c2, int c3) {
        a[x] = bands(kLowPass, low[c0], low[c1], low[c2], low[c3]);
        if (kLowOnly) return;
        v[x] = bands(kHighPass, low[c0], low[c1], low[c2], low[c3]);
        h[x] = bands(kLowPass, high[c0], high[c1], high[c2], high[c3]);
        d[x] = bands(kHighPass, high[c0], high[c1], high[c2], high[c3]);
    };
    auto mirrored = [&](int x) {
        const Taps t = dwt_taps(x, input_width);
        one(x, t.index[0], t.index[1], t.index[2], t.index[3]);
    };
    // Columns 1 .. interior_end-1 read 2x-1 .. 2x+2 < input_width directly.
    int interior_end = (input_width - 1) / 2;
    if (interior_end > output_width) interior_end = output_width;
    int x = 0;
    if (output_width > 0) mirrored(x++);
    for (; x < interior_end; ++x) one(x, 2 * x - 1, 2 * x, 2 * x + 1, 2 * x + 2);
    for (; x < output_width; ++x) mirrored(x);
}

struct Dwt0Horizontal {
    TV_HD std::int16_t operator()(const std::int32_t* taps, std::int16_t s0, std::int16_t s1, std::int16_t s2,
                                  std::int16_t s3) const
    {
        return dwt0_horizontal(taps, s0, s1, s2, s3);
    }
};

struct DwtHorizontal {
    DwtRounding rounding;
    TV_HD std::int32_t operator()(const std::int32_t* taps, std::int32_t s0, std::int32_t s1, std::int32_t s2,
                                  std::int32_t s3) const
    {
        return dwt_filter(taps, s0, s1, s2, s3, rounding);
    }
};

}  // namespace twinvmaf::adm
