// The per-sample and per-window arithmetic of cambi (Netflix's banding
// detector), compiled for the host and for GPU devices from this one source.
//
// Everything here is integer arithmetic except the c-value of a pixel, which
// is one float product per contrast step, exactly as Netflix forms it:
// (float)(weight * p0 * p1) * reciprocal[p0 + p1], the reciprocal being
// Netflix's table of 1/n (reciprocal_table() in cambi.cpp; device twins get
// it as data).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/bit_math.h"
#include "core/host_device.h"

namespace twinvmaf::cambi {

inline constexpr int kScales = 5;
inline constexpr int kScaleWeights[kScales] = {16, 8, 4, 2, 1};
// Netflix's suprathreshold contrast response of a contrast step d + 1
// (d < kMaxDiffs). A table local to the function, which GPU code can read
// (not a namespace-scope array).
inline constexpr int kMaxDiffs = 32;
TV_HD int contrast_weight(int d)
{
    static constexpr int kWeights[kMaxDiffs] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                                8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
    return kWeights[d];
}
// The spatial mask counts flat samples in a 7x7 window.
inline constexpr int kMaskFilterSize = 7;
// Below this width AND height cambi does not score (Netflix's init fails).
inline constexpr unsigned kMinWidthHeight = 216;
// Entries of the reciprocal table; a window of w*w samples needs w*w + 1.
inline constexpr int kReciprocalSize = 4226;

// Everything the c-value of a pixel needs besides the histograms.
struct ContrastParams {
    int num_diffs = 4;                 // 1 << max_log_contrast
    std::uint16_t tvi[kMaxDiffs] = {}; // per step: largest (value + num_diffs) where it is visible
    std::uint16_t vlt_luma = 0;        // visibility threshold as a 10-bit code (0: none)
    // Only raw values in [band_base, band_base + band_size) are ever counted
    // or scored; the others never give a c-value above 0 (Netflix's band).
    std::uint16_t band_base = 0;
    std::uint16_t band_size = 0;
};

// The window cambi scores with at a given frame size: `window` (option
// window_size) was chosen for 4K, scaled by (w + h) / (3840 + 2160), halved
// with the high-resolution speed-up, always odd.
TV_HD unsigned adjusted_window(unsigned window, unsigned width, unsigned height, bool high_res_speedup)
{
    unsigned w = static_cast<std::uint16_t>((window * (width + height)) / 375u >> 4);
    if (high_res_speedup) w = static_cast<std::uint16_t>((w + 1) >> 1);
    return w | 1u;
}

// The number of flat samples (of 49) above which a sample is in the mask.
TV_HD unsigned mask_threshold(unsigned width, unsigned height)
{
    const std::uint32_t blocks = (width >> 6) * (height >> 6);
    const int index = (kMaskFilterSize * kMaskFilterSize + 3 * (ceil_log2(blocks) - 11) - 1) >> 1;
    return static_cast<std::uint16_t>(index);
}

// The value that occurs at least twice among three, else the smallest.
TV_HD std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c)
{
    if (a == b || a == c) return a;
    if (b == c) return b;
    const std::uint16_t ab = a < b ? a : b;
    return ab < c ? ab : c;
}

// Conversion of one input sample to 10 bits.
TV_HD std::uint16_t to_10bit(unsigned sample, unsigned bitdepth)
{
    if (bitdepth >= 10) {
        const unsigned shift = bitdepth - 10;
        const unsigned rounding = shift ? 1u << (shift - 1) : 0u;
        return static_cast<std::uint16_t>((sample + rounding) >> shift);
    }
    return static_cast<std::uint16_t>(sample << (10 - bitdepth));
}

// Netflix's 2x2 anti-dithering average of a sample (value r0, right
// neighbour r1, lower neighbours n0, n1): the last column averages only
// vertically, the last row only horizontally, the corner stays.
TV_HD std::uint16_t anti_dithered(std::uint16_t r0, std::uint16_t r1, std::uint16_t n0, std::uint16_t n1, bool last_row,
                                  bool last_col)
{
    if (!last_row && !last_col) return static_cast<std::uint16_t>((r0 + r1 + n0 + n1) >> 2);
    if (!last_row) return static_cast<std::uint16_t>((r0 + n0) >> 1);
    if (!last_col) return static_cast<std::uint16_t>((r0 + r1) >> 1);
    return r0;
}

// Whether sample (r, c) of a w x h picture equals its right and lower
// neighbours (the last column and row compare only what they have; the
// corner counts as flat): the spatial mask's derivative test.
TV_HD bool flat_sample(const std::uint16_t* image, std::ptrdiff_t stride, unsigned w, unsigned h, unsigned r, unsigned c)
{
    const std::uint16_t* a = image + r * stride;
    const bool right = c + 1 < w ? a[c] == a[c + 1] : true;
    const bool down = r + 1 < h ? a[c] == a[c + stride] : true;
    return right && down;
}

// Nearest-neighbour resampling: the source index of output index i, stepping
// a float position by `ratio` from `start` as Netflix does (the position is
// accumulated in float; + 0.5 is a double addition).
struct ResampleAxis {
    float ratio;
    float start;
};

TV_HD ResampleAxis resample_axis(unsigned in_size, unsigned out_size)
{
    const float ratio = static_cast<float>(in_size) / static_cast<float>(out_size);
    const float start = static_cast<float>(static_cast<double>(ratio / 2) - 0.5);
    return {ratio, start};
}

TV_HD unsigned resample_source(float position) { return static_cast<unsigned>(static_cast<int>(position + 0.5)); }

// The c-value of a masked pixel of raw 10-bit value `u` in column `col`:
// histograms[v - band_base][col] counts the masked samples of value v in the
// pixel's window. `reciprocal` is the table of 1/n.
TV_HD float c_value(const std::uint16_t* histograms, std::ptrdiff_t row_stride, int col, int u,
                    const ContrastParams& p, const float* reciprocal)
{
    const int compact = u - p.band_base;
    if (static_cast<unsigned>(compact) >= p.band_size) return 0.0f;
    const int value = u + p.num_diffs;
    const unsigned p0 = histograms[compact * row_stride + col];
    float best = 0.0f;
    for (int d = 0; d < p.num_diffs; ++d) {
        if (value <= p.tvi[d] && value + d + 1 > p.vlt_luma) {
            const int up = compact + d + 1;
            const int down = compact - d - 1;
            const unsigned p1 = histograms[up * row_stride + col];
            const unsigned p2 = down >= 0 ? histograms[down * row_stride + col] : 0u;
            const unsigned pm = p1 > p2 ? p1 : p2;
            const int product = contrast_weight(d) * static_cast<int>(p0) * static_cast<int>(pm);
            const float val = static_cast<float>(product) * reciprocal[pm + p0];
            if (val > best) best = val;
        }
    }
    return best;
}

// The band of raw values that can matter (see ContrastParams).
TV_HD void set_band(ContrastParams& p)
{
    const int lo = static_cast<int>(p.vlt_luma) - 3 * p.num_diffs + 1;
    p.band_base = static_cast<std::uint16_t>(lo > 0 ? lo : 0);
    p.band_size = static_cast<std::uint16_t>(p.tvi[p.num_diffs - 1] + 1 - p.band_base);
}

// ---------------------------------------------------------------------------
// Spatial pooling: the mean of the k largest c-values of a scale.
//
// Netflix adds the k values in double in the order its quickselect leaves
// them, an order no parallel device can follow. twinvmaf adds them exactly
// instead, in fixed point, which any order gives bit for bit, and rounds the
// exact sum to double once (docs/compat.md, "cambi's top-k sum": it changes
// no value of any public golden).
//
// Why fixed point is exact here: a c-value is 0 or
// (float)(weight * p0 * pm) * reciprocal[p0 + pm] with weight, p0, pm >= 1
// and p0 + pm < kReciprocalSize, so it lies in [2^-13, 2^14) (reciprocal >=
// 1/4225 > 2^-13; weight * p0 * pm / (p0 + pm) <= 9 * 4225 / 4 < 2^14). A
// float in that range is m * 2^(e-150), m < 2^24, e - 150 >= -36: in units
// of 2^-kFixedFractionBits (2^-40) it is the integer m << (e - 110), below
// 2^54. The sum keeps the high and low 32-bit halves of those integers in
// two 64-bit counters, which cannot overflow below 2^32 values.
inline constexpr int kFixedFractionBits = 40;

struct FixedSum {
    std::uint64_t high = 0;  // sum of (fixed >> 32)
    std::uint64_t low = 0;   // sum of (fixed & 0xffffffff)
};

// A c-value in units of 2^-40 (see above; 0 for 0).
TV_HD std::uint64_t c_value_fixed(float value)
{
    const std::uint32_t bits = tv::bit_cast<std::uint32_t>(value);
    if (bits == 0) return 0;
    const int exponent = static_cast<int>(bits >> 23);  // sign is 0: c-values are >= 0
    const std::uint64_t mantissa = (bits & 0x7fffffu) | 0x800000u;
    return mantissa << (exponent - 150 + kFixedFractionBits);
}

TV_HD void add_fixed(FixedSum& sum, std::uint64_t fixed, std::uint64_t times = 1)
{
    sum.high += (fixed >> 32) * times;
    sum.low += (fixed & 0xffffffffu) * times;
}

// The order in which c-values rank for the top k, as unsigned integers: a
// non-negative float's bits order like its value.
TV_HD std::uint32_t c_value_key(float value)
{
    return tv::bit_cast<std::uint32_t>(value);
}

// How many values the top k of a scale of w x h c-values holds (Netflix's
// clamp of (int)(topk * n) to [1, n]).
TV_HD int topk_count(double topk, unsigned w, unsigned h)
{
    const int n = static_cast<int>(w * h);
    const int k = static_cast<int>(topk * n);
    return k < 1 ? 1 : (k > n ? n : k);
}

}  // namespace twinvmaf::cambi

#if !defined(__CUDACC__) && !defined(__HIP__)
#include <cmath>

namespace twinvmaf::cambi {

// The exact sum rounded once to double, divided by k: the scale's pooled
// c-value. Host only (a 128-bit integer's conversion).
inline double pooled_mean(const FixedSum& sum, int k)
{
    const unsigned __int128 total = (static_cast<unsigned __int128>(sum.high) << 32) + sum.low;
    // The conversion rounds to nearest once; scaling by 2^-40 is exact.
    return std::ldexp(static_cast<double>(total), -kFixedFractionBits) / k;
}

}  // namespace twinvmaf::cambi
#endif
