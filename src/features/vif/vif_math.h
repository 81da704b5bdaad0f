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
// and filter taps may be added in any order, and a GPU may use one thread per
// sample (a column range of one) or per row. The few double operations are
// per sample and their results are truncated to integers before they are
// summed. The row functions are templates on the scale, so that the filter
// taps are constants and the tap loops unroll; the compiler then vectorises
// across columns.
//
// Borders are mirrored without repeating the edge sample (index -1 reads 1,
// index n reads n-2), repeatedly where a scale is narrower than its filter;
// that is what Netflix's in-place padding produces (see mirror_pad_row).
//
// Plain C++17, no library calls: every function compiles for host and device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/bit_math.h"
#include "core/host_device.h"

// VIF_UNROLL_TAPS unrolls a loop over filter taps completely. VIF_COLUMNS_INDEPENDENT tells gcc that a loop over columns
// writes no location that another column reads, which it cannot prove for
// the many row pointers involved.
#if defined(__CUDACC__) || defined(__HIP__)
#define VIF_UNROLL_TAPS _Pragma("unroll")
#define VIF_COLUMNS_INDEPENDENT
#else
#define VIF_UNROLL_TAPS _Pragma("GCC unroll 8")
#define VIF_COLUMNS_INDEPENDENT _Pragma("GCC ivdep")
#endif

namespace twinvmaf::vif {

inline constexpr int kScaleCount = 4;
inline constexpr unsigned kMaxFilterWidth = 17;
inline constexpr unsigned kMaxFilterHalf = kMaxFilterWidth / 2;

// The noise variance sigma_n^2 of the VIF model: 2 (8-bit levels squared),
// in the units of the variances below, 1/65536 of that.
inline constexpr std::int32_t kSigmaNsq = 65536 << 1;

// log2 in Q11 (value * 2048) of every 16-bit mantissa in [32768, 65535];
// entry i is log2 of 32768 + i. Built on the host (log2_table() in vif.cpp)
// and handed to the device as data.
inline constexpr unsigned kLog2TableFirst = 32768;
inline constexpr unsigned kLog2TableSize = 32768;

// One scale's Gaussian: `width` taps (odd), in Q16 (they sum to 65536).
struct Filter {
    std::uint16_t taps[kMaxFilterWidth];
    unsigned width;

    TV_HD constexpr unsigned half() const { return width / 2; }
};

// Netflix's vif_filter1d_table: the filter that computes scale `scale`'s
// statistics and, applied to the pictures of scale - 1, its pictures.
TV_HD constexpr Filter scale_filter(int scale)
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

// sum over the taps k of scale `Scale`'s filter of taps[k] * value(k), for
// value(k) < 2^16: the filtered value of one sample (value(k) is the sample
// under tap k). The filters are symmetric, so the two values under equal
// taps are added before they are multiplied: half the multiplies, and the
// same integer sum (below 2^32: the taps sum to 65536).
template <int Scale, class Value>
TV_HD std::uint32_t filter_sum(const Value& value)
{
    constexpr Filter kFilter = scale_filter(Scale);
    constexpr unsigned kHalf = kFilter.half();
    std::uint32_t sum = kFilter.taps[kHalf] * static_cast<std::uint32_t>(value(kHalf));
    VIF_UNROLL_TAPS
    for (unsigned k = 0; k < kHalf; ++k) {
        static_assert(kFilter.taps[0] == kFilter.taps[kFilter.width - 1], "VIF filters are symmetric");
        sum += kFilter.taps[k] * (static_cast<std::uint32_t>(value(k)) + value(kFilter.width - 1 - k));
    }
    return sum;
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
    // One reflection at most (every index of a picture at least as wide as
    // the filter's half): no division. GPU tiles index every sample this way.
    const int magnitude = i < 0 ? -i : i;
    if (magnitude <= period) return magnitude < period - magnitude ? magnitude : period - magnitude;
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - i;
}

// Fills row[-half .. -1] and row[width .. width+half-1] from the row, in the
// order Netflix's PADDING_SQ_DATA does. For width >= 2 this equals
// reflect_101 at every index; for width == 1 it copies row[1] to row[-1],
// i.e. whatever the caller left in row[1] (see statistics() in vif_cpu.cpp:
// Netflix's buffer holds a value of the previous scale there).
template <class T>
TV_HD void mirror_pad_row(T* row, unsigned width, unsigned half)
{
    const int last = static_cast<int>(width) - 1;
    for (int f = 1; f <= static_cast<int>(half); ++f) {
        row[-f] = row[f];
        row[last + f] = row[last - f];
    }
}

// Rounding bits the vertical pass of a scale's statistics drops from the
// means and from the second moments. At scale 0 the bit depth and
// 2 * (bit depth - 8): that puts every bit depth on the scale of 8-bit
// samples, means in 1/256 of a level and second moments in 1/65536 of a
// level squared. The pictures of later scales are already in 1/256 of a
// level, and 16 and 16 keep those units.
struct VerticalShifts {
    unsigned mu;
    unsigned square;
};

TV_HD VerticalShifts statistics_shifts(int scale, unsigned bitdepth)
{
    if (scale == 0) return {bitdepth, 2 * (bitdepth - 8)};
    return {16, 16};
}

// One row of vertically filtered moments. Every array is addressed by
// column and has kMaxFilterHalf writable samples before and after the row.
// Means are 16-bit; the second moments (up to 32 bits) are kept as their
// high and low 16-bit halves, so that every filter tap is a 16 x 16 -> 32-bit
// multiply-add (one sum per half; see combine_halves).
struct MomentRow {
    std::uint16_t* mu1;
    std::uint16_t* mu2;
    std::uint16_t* xx_high;
    std::uint16_t* xx_low;
    std::uint16_t* yy_high;
    std::uint16_t* yy_low;
    std::uint16_t* xy_high;
    std::uint16_t* xy_low;
};

TV_HD std::uint16_t high_half(std::uint32_t v) { return static_cast<std::uint16_t>(v >> 16); }
TV_HD std::uint16_t low_half(std::uint32_t v) { return static_cast<std::uint16_t>(v); }

// round_shift(sum(tap * v), shift) for 32-bit v and shift <= 16, from the
// sums over v's two halves: high_sum * 2^16 is a multiple of 2^shift, so only
// low_sum is rounded. With taps summing to 65536 each half-sum fits 32 bits;
// the result is Netflix's 64-bit sum shifted and cast to 32 bits (both wrap
// modulo 2^32 where the true value would not fit).
TV_HD std::uint32_t combine_halves(std::uint32_t high_sum, std::uint32_t low_sum, unsigned shift)
{
    return (high_sum << (16 - shift)) + round_shift(low_sum, shift);
}

// The eight vertical moments of one column of scale `Scale`, in MomentRow
// order (mu1, mu2, then the high and low halves of xx, yy, xy): r(k) and
// d(k) are the reference and distorted samples under tap k. Products of
// 8-bit samples fit 16 bits (Netflix's 8-bit path sums them in 32 bits);
// those of 16-bit samples are split in halves (its 16-bit path sums in 64
// bits; both are exact).
inline constexpr unsigned kMomentArrays = 8;

template <int Scale, class Sample, class Ref, class Dis>
TV_HD void column_moments(const Ref& r, const Dis& d, VerticalShifts shifts, std::uint16_t (&m)[kMomentArrays])
{
    constexpr bool kProductsFit16 = sizeof(Sample) == 1;
    m[0] = static_cast<std::uint16_t>(round_shift(filter_sum<Scale>(r), shifts.mu));
    m[1] = static_cast<std::uint16_t>(round_shift(filter_sum<Scale>(d), shifts.mu));
    // A second moment from the sums over the two halves of its products.
    const auto moment = [&](auto product) {
        const std::uint32_t low_sum = filter_sum<Scale>([&](unsigned k) { return low_half(product(k)); });
        std::uint32_t high_sum = 0;
        if constexpr (!kProductsFit16)
            high_sum = filter_sum<Scale>([&](unsigned k) { return high_half(product(k)); });
        return combine_halves(high_sum, low_sum, shifts.square);
    };
    const std::uint32_t xx = moment([&](unsigned k) { return std::uint32_t{r(k)} * r(k); });
    const std::uint32_t yy = moment([&](unsigned k) { return std::uint32_t{d(k)} * d(k); });
    const std::uint32_t xy = moment([&](unsigned k) { return std::uint32_t{r(k)} * d(k); });
    m[2] = high_half(xx);
    m[3] = low_half(xx);
    m[4] = high_half(yy);
    m[5] = low_half(yy);
    m[6] = high_half(xy);
    m[7] = low_half(xy);
}

// Columns [x_begin, x_end) of the vertical moments of one output row of
// scale `Scale`. ref_rows[k] / dis_rows[k] are the picture rows under tap k
// (already mirrored).
template <int Scale, class Sample>
TV_HD void vertical_moments(const Sample* const* ref_rows, const Sample* const* dis_rows, VerticalShifts shifts,
                            unsigned x_begin, unsigned x_end, MomentRow out)
{
    VIF_COLUMNS_INDEPENDENT
    for (unsigned x = x_begin; x < x_end; ++x) {
        std::uint16_t m[kMomentArrays];
        column_moments<Scale, Sample>([&](unsigned k) -> std::uint32_t { return ref_rows[k][x]; },
                                      [&](unsigned k) -> std::uint32_t { return dis_rows[k][x]; }, shifts, m);
        out.mu1[x] = m[0];
        out.mu2[x] = m[1];
        out.xx_high[x] = m[2];
        out.xx_low[x] = m[3];
        out.yy_high[x] = m[4];
        out.yy_low[x] = m[5];
        out.xy_high[x] = m[6];
        out.xy_low[x] = m[7];
    }
}

// One row of local (co)variances, addressed by column.
struct SigmaRow {
    std::int32_t* sigma1_sq;
    std::int32_t* sigma2_sq;
    std::int32_t* sigma12;
};

// One sample's local (co)variances from the horizontal filter sums of its
// eight moment arrays (sums[a]: filter_sum over array a, MomentRow order):
// sigma = E[ab] - E[a]E[b], the filtered product rounded from Q32 to Q16
// minus the product of the means rounded from Q32 to Q16, in 32-bit
// unsigned arithmetic and then read as signed, as Netflix does.
TV_HD void sigmas_from_sums(const std::uint32_t (&sums)[kMomentArrays], std::int32_t& sigma1_sq,
                            std::int32_t& sigma2_sq, std::int32_t& sigma12)
{
    const std::uint32_t mu1 = sums[0], mu2 = sums[1];
    const auto q16_moment = [&](unsigned high) { return combine_halves(sums[high], sums[high + 1], 16); };
    const auto q16_product = [](std::uint32_t a, std::uint32_t b) {
        return static_cast<std::uint32_t>(round_shift(std::uint64_t{a} * b, 32));
    };
    sigma1_sq = static_cast<std::int32_t>(q16_moment(2) - q16_product(mu1, mu1));
    sigma2_sq = static_cast<std::int32_t>(q16_moment(4) - q16_product(mu2, mu2));
    sigma12 = static_cast<std::int32_t>(q16_moment(6) - q16_product(mu1, mu2));
}

// Columns [x_begin, x_end) of the horizontal pass over a padded MomentRow.
template <int Scale>
TV_HD void horizontal_sigmas(const MomentRow& in, unsigned x_begin, unsigned x_end, SigmaRow out)
{
    constexpr std::ptrdiff_t kHalf = scale_filter(Scale).half();
    VIF_COLUMNS_INDEPENDENT
    for (unsigned x = x_begin; x < x_end; ++x) {
        // The input column under tap k is x - kHalf + k (in the padding at the edges).
        const auto filtered = [&](const std::uint16_t* row) {
            const std::uint16_t* first = row + static_cast<std::ptrdiff_t>(x) - kHalf;
            return filter_sum<Scale>([&](unsigned k) { return first[k]; });
        };
        const std::uint32_t sums[kMomentArrays] = {filtered(in.mu1),     filtered(in.mu2),    filtered(in.xx_high),
                                                   filtered(in.xx_low),  filtered(in.yy_high), filtered(in.yy_low),
                                                   filtered(in.xy_high), filtered(in.xy_low)};
        sigmas_from_sums(sums, out.sigma1_sq[x], out.sigma2_sq[x], out.sigma12[x]);
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
};

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

// Columns [x_begin, x_end) of a SigmaRow added to `sums`.
TV_HD void add_samples(const SigmaRow& in, unsigned x_begin, unsigned x_end, const std::uint16_t* log2_table,
                       double gain_limit, ScaleSums& sums)
{
    for (unsigned x = x_begin; x < x_end; ++x)
        add_sample(sums, in.sigma1_sq[x], in.sigma2_sq[x], in.sigma12[x], log2_table, gain_limit);
}

// Rounding bits the decimation filter's vertical pass drops: at scale 1 the
// bit depth, which takes the input samples to 1/256 of an 8-bit level (16
// bits); the later scales are in those units already (16).
TV_HD unsigned lowpass_shift(int scale, unsigned bitdepth) { return scale == 1 ? bitdepth : 16; }

// Columns [x_begin, x_end) of the vertical pass of the filter that makes the
// pictures of scale `Scale` (from rows of scale - 1, as in vertical_moments).
template <int Scale, class Sample>
TV_HD void vertical_lowpass(const Sample* const* ref_rows, const Sample* const* dis_rows, unsigned shift,
                            unsigned x_begin, unsigned x_end, std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    VIF_COLUMNS_INDEPENDENT
    for (unsigned x = x_begin; x < x_end; ++x) {
        const std::uint32_t r = filter_sum<Scale>([&](unsigned k) { return ref_rows[k][x]; });
        const std::uint32_t d = filter_sum<Scale>([&](unsigned k) { return dis_rows[k][x]; });
        ref_out[x] = static_cast<std::uint16_t>(round_shift(r, shift));
        dis_out[x] = static_cast<std::uint16_t>(round_shift(d, shift));
    }
}

// Horizontal pass of that filter over padded rows, evaluated only where the
// result is kept: output column x is input column 2x (Netflix filters every
// column and then keeps the even ones).
template <int Scale>
TV_HD void horizontal_lowpass_decimate(const std::uint16_t* ref_in, const std::uint16_t* dis_in, unsigned x_begin,
                                       unsigned x_end, std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    constexpr std::ptrdiff_t kHalf = scale_filter(Scale).half();
    VIF_COLUMNS_INDEPENDENT
    for (unsigned x = x_begin; x < x_end; ++x) {
        const std::ptrdiff_t first = 2 * static_cast<std::ptrdiff_t>(x) - kHalf;
        const std::uint32_t r = filter_sum<Scale>([&](unsigned k) { return ref_in[first + k]; });
        const std::uint32_t d = filter_sum<Scale>([&](unsigned k) { return dis_in[first + k]; });
        ref_out[x] = static_cast<std::uint16_t>(round_shift(r, 16));
        dis_out[x] = static_cast<std::uint16_t>(round_shift(d, 16));
    }
}

}  // namespace twinvmaf::vif
