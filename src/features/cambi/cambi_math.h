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

#include "core/bit_math.h"
#include "core/host_device.h"

namespace twinvmaf::cambi {

inline constexpr int kScales = 5;
inline constexpr int kScaleWeights[kScales] = {16, 8, 4, 2, 1};
// Netflix's suprathreshold contrast response, indexed by contrast step - 1.
inline constexpr int kMaxDiffs = 32;
inline constexpr int kContrastWeights[kMaxDiffs] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                                    8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
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
            const int product = kContrastWeights[d] * static_cast<int>(p0) * static_cast<int>(pm);
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

}  // namespace twinvmaf::cambi
