// Integer VIF arithmetic shared by the CPU reference and its GPU twins.
//
// Netflix libvmaf's integer VIF (integer_vif.c) works on luma at four scales.
// At each scale it
//   1. filters the reference and distorted pictures, their squares and their
//      product with a separable Gaussian (vertical pass, then horizontal pass;
//      fixed-point taps that sum to 65536) into local means mu1, mu2 and
//      second moments xx, yy, xy,
//   2. turns each sample's sigma1^2 = xx - mu1^2, sigma2^2 = yy - mu2^2 and
//      sigma12 = xy - mu1*mu2 into a log2-domain contribution (looked up in a
//      Q11 log2 table) or a linear one, summed as four int64 counters
//      (ScaleSums), and
//   3. low-passes the two pictures with the next scale's filter and keeps
//      every second row and column: the next scale's pictures.
//
// Every sum here is an integer, so it is exact and order-free: rows, columns
// and filter taps may be added in any order (the CPU runs taps in the outer
// loop so that gcc vectorises across columns; a GPU may use one thread per
// sample or per row). The few double operations are per sample and their
// results are truncated to integers before they are summed.
//
// Borders are mirrored without repeating the edge sample (index -1 reads 1,
// index n reads n-2), repeatedly where a scale is narrower than its filter;
// that is what Netflix's in-place padding produces (see mirror_pad_row).
//
// Plain C++17, no library calls: every function compiles for host and device.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::vif {

inline constexpr int kScaleCount = 4;
inline constexpr unsigned kMaxFilterWidth = 17;
inline constexpr unsigned kMaxFilterHalf = kMaxFilterWidth / 2;

// The noise variance sigma_n^2 = 2 of the VIF model, in Q16 (16-bit samples).
inline constexpr std::int32_t kSigmaNsq = 65536 << 1;

// log2 in Q11 (value * 2048) of every 16-bit mantissa in [32768, 65535];
// entry i is log2 of 32768 + i. Built on the host (build_log2_table in
// vif.cpp) and handed to the device as data.
inline constexpr unsigned kLog2TableFirst = 32768;
inline constexpr unsigned kLog2TableSize = 32768;

// One scale's Gaussian: `width` taps (odd), in Q16.
struct Filter {
    std::uint16_t taps[kMaxFilterWidth];
    unsigned width;

    TV_HD unsigned half() const { return width / 2; }
};

// Netflix's vif_filter1d_table: the filter that computes scale `scale`'s
// statistics and, applied to scale-1's pictures, its decimated pictures.
TV_HD Filter scale_filter(int scale)
{
    switch (scale) {
    case 0:
        return {{489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640,
                 935, 489},
                17};
    case 1: return {{1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244}, 9};
    case 2: return {{3571, 16004, 26386, 16004, 3571}, 5};
    default: return {{10904, 43728, 10904}, 3};
    }
}

// `(value + half of 2^shift) >> shift`, Netflix's rounding right shift.
TV_HD std::uint32_t round_shift(std::uint32_t value, unsigned shift)
{
    return shift ? (value + (1u << (shift - 1))) >> shift : value;
}
TV_HD std::uint64_t round_shift(std::uint64_t value, unsigned shift)
{
    return shift ? (value + (std::uint64_t{1} << (shift - 1))) >> shift : value;
}

// Mirror index without repeating the edge, periodic where n is smaller than
// the reach of a filter: 0 1 .. n-1 n-2 .. 1 0 1 .. (n >= 2).
TV_HD int reflect_101(int i, int n)
{
    const int period = 2 * (n - 1);
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
}

// Fills row[-half .. -1] and row[width .. width+half-1] from the row, in the
// order Netflix's PADDING_SQ_DATA does. For width >= 2 this equals
// reflect_101 at every index; for width == 1 it copies row[1] to row[-1],
// i.e. whatever the caller left in row[1] (see VifCpu: Netflix's buffer
// holds a value of the previous scale there).
template <class T>
TV_HD void mirror_pad_row(T* row, unsigned width, unsigned half)
{
    const int last = static_cast<int>(width) - 1;
    for (int f = 1; f <= static_cast<int>(half); ++f) {
        row[-f] = row[f];
        row[last + f] = row[last - f];
    }
}

// Vertical pass of a scale's statistics for one row: Netflix keeps mu1, mu2
// with `mu_shift` rounding bits dropped and xx, yy, xy with `square_shift`
// (scale 0: bit depth and 2 * (bit depth - 8), which brings every bit depth
// to the same Q16 range; other scales: 16 and 16).
struct VerticalShifts {
    unsigned mu;
    unsigned square;
};

TV_HD VerticalShifts statistics_shifts(int scale, unsigned bitdepth)
{
    if (scale == 0) return {bitdepth, 2 * (bitdepth - 8)};
    return {16, 16};
}

// One row of vertically filtered moments; each array is addressed by column
// and has kMaxFilterHalf writable samples before and after the row.
struct MomentRow {
    std::uint32_t* mu1;
    std::uint32_t* mu2;
    std::uint32_t* xx;
    std::uint32_t* yy;
    std::uint32_t* xy;
};

// Columns [x_begin, x_end) of the vertical moments of one output row.
// ref_rows[k] / dis_rows[k] are the picture rows under tap k (already
// mirrored). Netflix's 8-bit path accumulates in 32 bits, its 16-bit path
// in 64 bits; both are exact for in-range samples, and so is this.
template <class Sample>
TV_HD void vertical_moments(const Sample* const* ref_rows, const Sample* const* dis_rows, const Filter& filter,
                            VerticalShifts shifts, unsigned x_begin, unsigned x_end, MomentRow out)
{
    for (unsigned x = x_begin; x < x_end; ++x) {
        std::uint32_t mu1 = 0, mu2 = 0;
        std::uint64_t xx = 0, yy = 0, xy = 0;
        for (unsigned k = 0; k < filter.width; ++k) {
            const std::uint32_t r = ref_rows[k][x];
            const std::uint32_t d = dis_rows[k][x];
            const std::uint32_t fr = filter.taps[k] * r;
            const std::uint32_t fd = filter.taps[k] * d;
            mu1 += fr;
            mu2 += fd;
            xx += std::uint64_t{fr} * r;
            yy += std::uint64_t{fd} * d;
            xy += std::uint64_t{fr} * d;
        }
        out.mu1[x] = static_cast<std::uint16_t>(round_shift(mu1, shifts.mu));
        out.mu2[x] = static_cast<std::uint16_t>(round_shift(mu2, shifts.mu));
        out.xx[x] = static_cast<std::uint32_t>(round_shift(xx, shifts.square));
        out.yy[x] = static_cast<std::uint32_t>(round_shift(yy, shifts.square));
        out.xy[x] = static_cast<std::uint32_t>(round_shift(xy, shifts.square));
    }
}

// The four counters of one scale. Netflix's score is
//   num = num_log / 2048 + den_non_log - num_non_log / 16384 / 65025
//   den = den_log / 2048 + den_non_log
// (see scale_num_den in vif.cpp).
struct ScaleSums {
    std::int64_t num_log = 0;
    std::int64_t den_log = 0;
    std::int64_t num_non_log = 0;
    std::int64_t den_non_log = 0;

    TV_HD void add(const ScaleSums& other)
    {
        num_log += other.num_log;
        den_log += other.den_log;
        num_non_log += other.num_non_log;
        den_non_log += other.den_non_log;
    }
};

TV_HD int count_leading_zeros(std::uint32_t v)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clz(static_cast<int>(v));
#else
    return __builtin_clz(v);
#endif
}

TV_HD int count_leading_zeros(std::uint64_t v)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clzll(static_cast<long long>(v));
#else
    return __builtin_clzll(v);
#endif
}

// log2(v) in Q11 from the table, for v >= 2^15: the 16 leading bits index
// the table, the dropped bits add 2048 each (Netflix's log2_32 / log2_64).
TV_HD std::int32_t log2_q11(const std::uint16_t* log2_table, std::uint32_t v)
{
    const int dropped = 16 - count_leading_zeros(v);
    return log2_table[(v >> dropped) - kLog2TableFirst] + 2048 * dropped;
}
TV_HD std::int32_t log2_q11(const std::uint16_t* log2_table, std::uint64_t v)
{
    const int dropped = 48 - count_leading_zeros(v);
    return log2_table[(v >> dropped) - kLog2TableFirst] + 2048 * dropped;
}

// One sample's contribution, in Netflix's order of operations. The local
// variance sigma1_sq selects the log-domain branch (information of the
// reference vs. what survives in the distorted picture) or the linear branch
// used for flat areas.
TV_HD void add_sample(ScaleSums& sums, std::int32_t sigma1_sq, std::int32_t sigma2_sq, std::int32_t sigma12,
                      const std::uint16_t* log2_table, double gain_limit)
{
    if (sigma2_sq < 0) sigma2_sq = 0;
    if (sigma1_sq >= kSigmaNsq) {
        // log2(1 + sigma1^2 / sigma_n^2) = log2(sigma_n^2 + sigma1^2) - 17.
        sums.den_log += log2_q11(log2_table, static_cast<std::uint32_t>(kSigmaNsq) +
                                                 static_cast<std::uint32_t>(sigma1_sq)) -
                        2048 * 17;
        if (sigma12 > 0 && sigma2_sq > 0) {
            const double eps = 65536 * 1.0e-10;
            double g = sigma12 / (sigma1_sq + eps);
            // Netflix truncates to int32 and then clamps at 0; clamping first
            // gives the same value and never converts an out-of-range double.
            const double sv = sigma2_sq - g * sigma12;
            const std::int32_t sv_sq = sv > 0 ? static_cast<std::int32_t>(sv) : 0;
            if (g > gain_limit) g = gain_limit;
            const std::uint32_t numer1 = static_cast<std::uint32_t>(sv_sq) + static_cast<std::uint32_t>(kSigmaNsq);
            const std::int64_t numer1_tmp = static_cast<std::int64_t>(g * g * sigma1_sq) + numer1;
            sums.num_log += log2_q11(log2_table, static_cast<std::uint64_t>(numer1_tmp)) -
                            log2_q11(log2_table, static_cast<std::uint64_t>(numer1));
        }
    } else {
        sums.num_non_log += sigma2_sq;
        sums.den_non_log += 1;
    }
}

// Columns [x_begin, x_end) of the horizontal pass over a padded MomentRow and
// each sample's contribution to `sums`.
TV_HD void horizontal_moments_and_sums(const MomentRow& in, const Filter& filter, unsigned x_begin, unsigned x_end,
                                       const std::uint16_t* log2_table, double gain_limit, ScaleSums& sums)
{
    const int half = static_cast<int>(filter.half());
    for (unsigned x = x_begin; x < x_end; ++x) {
        std::uint32_t mu1 = 0, mu2 = 0;
        std::uint64_t xx = 0, yy = 0, xy = 0;
        for (unsigned k = 0; k < filter.width; ++k) {
            const int i = static_cast<int>(x) - half + static_cast<int>(k);
            const std::uint32_t tap = filter.taps[k];
            mu1 += tap * in.mu1[i];
            mu2 += tap * in.mu2[i];
            xx += std::uint64_t{tap} * in.xx[i];
            yy += std::uint64_t{tap} * in.yy[i];
            xy += std::uint64_t{tap} * in.xy[i];
        }
        // mu^2 in Q32 -> Q16, rounded; xx, yy, xy in Q32 -> Q16, rounded.
        const auto q32_product = [](std::uint32_t a, std::uint32_t b) {
            return static_cast<std::uint32_t>((std::uint64_t{a} * b + 2147483648u) >> 32);
        };
        const std::uint32_t mu1_sq = q32_product(mu1, mu1);
        const std::uint32_t mu2_sq = q32_product(mu2, mu2);
        const std::uint32_t mu1_mu2 = q32_product(mu1, mu2);
        const std::uint32_t xx_filt = static_cast<std::uint32_t>(round_shift(xx, 16));
        const std::uint32_t yy_filt = static_cast<std::uint32_t>(round_shift(yy, 16));
        const std::uint32_t xy_filt = static_cast<std::uint32_t>(round_shift(xy, 16));
        add_sample(sums, static_cast<std::int32_t>(xx_filt - mu1_sq), static_cast<std::int32_t>(yy_filt - mu2_sq),
                   static_cast<std::int32_t>(xy_filt - mu1_mu2), log2_table, gain_limit);
    }
}

// Vertical pass of the decimation filter for columns [x_begin, x_end) of one
// row; `shift` is the bit depth at scale 0 (samples -> Q16), else 16.
template <class Sample>
TV_HD void vertical_lowpass(const Sample* const* ref_rows, const Sample* const* dis_rows, const Filter& filter,
                            unsigned shift, unsigned x_begin, unsigned x_end, std::uint16_t* ref_out,
                            std::uint16_t* dis_out)
{
    for (unsigned x = x_begin; x < x_end; ++x) {
        std::uint32_t r = 0, d = 0;
        for (unsigned k = 0; k < filter.width; ++k) {
            r += filter.taps[k] * static_cast<std::uint32_t>(ref_rows[k][x]);
            d += filter.taps[k] * static_cast<std::uint32_t>(dis_rows[k][x]);
        }
        ref_out[x] = static_cast<std::uint16_t>(round_shift(r, shift));
        dis_out[x] = static_cast<std::uint16_t>(round_shift(d, shift));
    }
}

// Horizontal pass of the decimation filter, evaluated only at even columns:
// output column x is input column 2x (Netflix filters every column and then
// keeps the even ones). Inputs are padded rows.
TV_HD void horizontal_lowpass_decimate(const std::uint16_t* ref_in, const std::uint16_t* dis_in,
                                       const Filter& filter, unsigned x_begin, unsigned x_end,
                                       std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    const int half = static_cast<int>(filter.half());
    for (unsigned x = x_begin; x < x_end; ++x) {
        std::uint32_t r = 0, d = 0;
        for (unsigned k = 0; k < filter.width; ++k) {
            const int i = 2 * static_cast<int>(x) - half + static_cast<int>(k);
            r += filter.taps[k] * static_cast<std::uint32_t>(ref_in[i]);
            d += filter.taps[k] * static_cast<std::uint32_t>(dis_in[i]);
        }
        ref_out[x] = static_cast<std::uint16_t>(round_shift(r, 16));
        dis_out[x] = static_cast<std::uint16_t>(round_shift(d, 16));
    }
}

}  // namespace twinvmaf::vif
