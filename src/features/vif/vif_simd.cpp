// Highway SIMD of vif's row kernels (vif_kernels.h), compiled once per
// instruction set (HWY_DYNAMIC_DISPATCH). Each kernel returns the bits of the
// reference loop over vif_math.h; the last columns of a row that do not fill
// a vector are left to that reference loop.
//
// The filters are sums of 16-bit taps times 16-bit values, in 32 bits (mod
// 2^32, as the reference's unsigned sums). Here they are pairwise multiply-
// adds of signed 16-bit lanes (x86 pmaddwd): two taps per 32-bit lane. The
// values are made signed without changing the sum mod 2^32:
//  * a 16-bit value v is biased to v - 2^15 (its top bit flipped); the taps
//    sum to 2^16, so the sum gains 2^15 * 2^16 = 2^31, which is added back;
//  * an 8-bit sample r is taken as p = r - 128, and the moments follow from
//    sum(t p), sum(t p^2), sum(t p q) (|p^2|, |p q| <= 2^14 fit 16 bits):
//      sum(t r)   = sum(t p) + 2^23
//      sum(t r^2) = sum(t p^2) + 2^8 sum(t p) + 2^30
//      sum(t r d) = sum(t p q) + 2^7 (sum(t p) + sum(t q)) + 2^30
//  * a tap of 2^15 or more (scale 3's centre, 43728) is t - 2^16 as a signed
//    16-bit number; the missing 2^16 * value is added apart.
// Vertical pairs are two rows' samples interleaved (InterleaveLower/Upper),
// so the sums come out in that interleaved order; ReorderDemote2To packs them
// back into column order (it undoes that interleave). Horizontal pairs are
// adjacent columns, read as one 32-bit lane: a vector loaded at column c
// gives the sums of outputs c, c+2, c+4, ... ("even" outputs) and one loaded
// at c+1 those of c+1, c+3, ... The statistics are integer sums, whose order
// does not matter, so those lanes are never put back in column order.
//
// The statistics (add_sample of vif_math.h) run on 64-bit lanes, in the
// reference's order of double operations; masked-off lanes compute on a safe
// stand-in value so that no table read leaves the table.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/vif/vif_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <utility>

#include "core/simd.h"
#include "core/simd_types-inl.h"
#include "features/vif/vif_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::vif::HWY_NAMESPACE {

// Highway's one-lane fallback (HWY_SCALAR, the baseline of CPUs without
// SIMD it supports) lacks the operations used here: it runs the reference.
#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;

using namespace twinvmaf::simd::HWY_NAMESPACE;  // D16, V16, ... (core/simd_types-inl.h)

// f(std::integral_constant<unsigned, i>) for i = 0 .. N-1, unrolled (the
// taps must be compile-time constants).
template <unsigned N, unsigned I = 0, class F>
HWY_INLINE void unrolled(const F& f)
{
    if constexpr (I < N) {
        f(std::integral_constant<unsigned, I>{});
        unrolled<N, I + 1>(f);
    }
}

// For the lambdas that unrolled() calls: they must inline to unroll.
#define TV_INLINE_LAMBDA __attribute__((always_inline))

// The number of tap pairs of scale Scale's filter.
template <int Scale>
inline constexpr unsigned kTapPairs = (scale_filter(Scale).width + 1) / 2;

// Taps k and k+1 of scale Scale's filter as the two 16-bit halves of a
// 32-bit lane (k+1 past the filter: tap 0).
template <int Scale>
constexpr std::int32_t tap_pair(unsigned k)
{
    constexpr Filter kFilter = scale_filter(Scale);
    const std::uint32_t low = kFilter.taps[k];
    const std::uint32_t high = k + 1 < kFilter.width ? kFilter.taps[k + 1] : 0u;
    return static_cast<std::int32_t>(low | (high << 16));
}

// A running filter sum: sum0/sum1 of ReorderWidenMulAccumulate and, apart,
// the 2^16 * value terms of taps of 2^15 or more.
struct FilterSum {
    V32 sum0, sum1, extra;

    FilterSum()
    {
        const D32 d32;
        sum0 = sum1 = extra = hn::Zero(d32);
    }

    // Adds taps k, k+1 times `pairs` (each 32-bit lane: the value under tap
    // k in its low half, under tap k+1 in its high half).
    template <int Scale, unsigned k>
    HWY_INLINE void add(V16 pairs)
    {
        constexpr Filter kFilter = scale_filter(Scale);
        const D16 d16;
        const D32 d32;
        const V16 taps = hn::BitCast(d16, hn::Set(d32, tap_pair<Scale>(k)));
        sum0 = hn::ReorderWidenMulAccumulate(d32, pairs, taps, sum0, sum1);
        if constexpr (kFilter.taps[k] >= 32768u) extra = hn::Add(extra, hn::ShiftLeft<16>(hn::BitCast(d32, pairs)));
        if constexpr (k + 1 < kFilter.width && kFilter.taps[k + 1] >= 32768u)
            extra = hn::Add(extra, hn::And(hn::BitCast(d32, pairs), hn::Set(d32, static_cast<std::int32_t>(0xffff0000u))));
    }

    // The sum (mod 2^32) plus `offset`, as unsigned lanes.
    HWY_INLINE VU32 total(std::uint32_t offset) const
    {
        const DU32 du32;
        const V32 s = hn::Add(hn::RearrangeToOddPlusEven(sum0, sum1), extra);
        return hn::Add(hn::BitCast(du32, s), hn::Set(du32, offset));
    }
};

// 16-bit values biased into signed lanes: v - 2^15.
HWY_INLINE V16 biased(VU16 v)
{
    const D16 d16;
    const DU16 du16;
    return hn::BitCast(d16, hn::Xor(v, hn::Set(du16, 0x8000)));
}

// round_shift() of vif_math.h on every lane (shift may be 0).
HWY_INLINE VU32 round_shift(VU32 v, unsigned shift)
{
    const DU32 du32;
    if (shift == 0) return v;
    return hn::ShiftRightSame(hn::Add(v, hn::Set(du32, 1u << (shift - 1))), static_cast<int>(shift));
}

// Values in [0, 2^16), in InterleaveLower / InterleaveUpper order, as 16-bit
// lanes in column order.
HWY_INLINE VU16 pack(VU32 lower, VU32 upper)
{
    const D16 d16;
    const DU16 du16;
    const D32 d32;
    const DU32 du32;
    const V32 bias = hn::BitCast(d32, hn::Set(du32, 0x8000u));
    const V16 packed = hn::ReorderDemote2To(d16, hn::Sub(hn::BitCast(d32, lower), bias),
                                            hn::Sub(hn::BitCast(d32, upper), bias));
    return hn::Xor(hn::BitCast(du16, packed), hn::Set(du16, 0x8000));
}

// ---- vertical passes --------------------------------------------------------

// The vertical filter sums of kArrays 16-bit value rows: rows(k, values)
// fills values[a] with array a's (signed) values under tap k for the
// columns of the current vector. lower[a] / upper[a]: the sums (mod 2^32)
// of the lanes that InterleaveLower / InterleaveUpper take.
template <int Scale, std::size_t kArrays, class Rows>
HWY_INLINE void vertical_sums(const Rows& rows, FilterSum (&lower)[kArrays], FilterSum (&upper)[kArrays])
{
    constexpr Filter kFilter = scale_filter(Scale);
    const D16 d16;
    unrolled<kTapPairs<Scale>>([&](auto pair) TV_INLINE_LAMBDA {
        constexpr unsigned k = 2 * pair;
        V16 a[kArrays], b[kArrays];
        rows(k, a);
        if constexpr (k + 1 < kFilter.width) {
            rows(k + 1, b);
        } else {
            for (auto& v : b) v = hn::Zero(d16);
        }
        for (std::size_t i = 0; i < kArrays; ++i) {
            lower[i].template add<Scale, k>(hn::InterleaveLower(d16, a[i], b[i]));
            upper[i].template add<Scale, k>(hn::InterleaveUpper(d16, a[i], b[i]));
        }
    });
}

// Stores a 32-bit moment's two 16-bit halves.
HWY_INLINE void store_halves(VU32 lower, VU32 upper, std::uint16_t* high, std::uint16_t* low)
{
    const DU16 du16;
    const DU32 du32;
    const VU32 mask = hn::Set(du32, 0xffffu);
    hn::StoreU(pack(hn::ShiftRight<16>(lower), hn::ShiftRight<16>(upper)), du16, high);
    hn::StoreU(pack(hn::And(lower, mask), hn::And(upper, mask)), du16, low);
}

// The five moments (mu1, mu2, xx, yy, xy) of the columns at x, in
// InterleaveLower / InterleaveUpper order, into a MomentRow.
HWY_INLINE void store_moments(const VU32 (&lower)[5], const VU32 (&upper)[5], const MomentRow& out, unsigned x)
{
    const DU16 du16;
    hn::StoreU(pack(lower[0], upper[0]), du16, out.mu1 + x);
    hn::StoreU(pack(lower[1], upper[1]), du16, out.mu2 + x);
    store_halves(lower[2], upper[2], out.xx_high + x, out.xx_low + x);
    store_halves(lower[3], upper[3], out.yy_high + x, out.yy_low + x);
    store_halves(lower[4], upper[4], out.xy_high + x, out.xy_low + x);
}

// combine_halves() of vif_math.h on every lane.
HWY_INLINE VU32 combine_halves(VU32 high_sum, VU32 low_sum, unsigned shift)
{
    return hn::Add(hn::ShiftLeftSame(high_sum, static_cast<int>(16 - shift)), round_shift(low_sum, shift));
}

template <int Scale>
void vertical_moments_8bit(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                           VerticalShifts shifts, unsigned width, MomentRow out)
{
    const D16 d16;
    const DU16 du16;
    const hn::Rebind<std::uint8_t, DU16> du8;
    const std::size_t lanes = hn::Lanes(du16);
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        // p = r - 128, q = d - 128 and their products.
        const auto rows = [&](unsigned k, V16(&v)[5]) TV_INLINE_LAMBDA {
            const V16 offset = hn::Set(d16, 128);
            const V16 p = hn::Sub(hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, ref_rows[k] + x))), offset);
            const V16 q = hn::Sub(hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, dis_rows[k] + x))), offset);
            v[0] = p;
            v[1] = q;
            v[2] = hn::Mul(p, p);
            v[3] = hn::Mul(q, q);
            v[4] = hn::Mul(p, q);
        };
        FilterSum lower[5], upper[5];
        vertical_sums<Scale>(rows, lower, upper);
        const auto moments = [&](const FilterSum(&s)[5], VU32(&m)[5]) {
            const VU32 sp = s[0].total(0), sq = s[1].total(0);
            m[0] = round_shift(hn::Add(sp, hn::Set(DU32(), 1u << 23)), shifts.mu);
            m[1] = round_shift(hn::Add(sq, hn::Set(DU32(), 1u << 23)), shifts.mu);
            const VU32 xx = hn::Add(s[2].total(1u << 30), hn::ShiftLeft<8>(sp));
            const VU32 yy = hn::Add(s[3].total(1u << 30), hn::ShiftLeft<8>(sq));
            const VU32 xy = hn::Add(s[4].total(1u << 30), hn::ShiftLeft<7>(hn::Add(sp, sq)));
            // 8-bit products fit 16 bits: the reference's high sums are 0.
            m[2] = combine_halves(hn::Zero(DU32()), xx, shifts.square);
            m[3] = combine_halves(hn::Zero(DU32()), yy, shifts.square);
            m[4] = combine_halves(hn::Zero(DU32()), xy, shifts.square);
        };
        VU32 lo[5], hi[5];
        moments(lower, lo);
        moments(upper, hi);
        store_moments(lo, hi, out, x);
    }
    vif::vertical_moments<Scale, std::uint8_t>(ref_rows, dis_rows, shifts, x, width, out);
}

template <int Scale>
void vertical_moments_16bit(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                            VerticalShifts shifts, unsigned width, MomentRow out)
{
    const DU16 du16;
    const std::size_t lanes = hn::Lanes(du16);
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        // The samples and the 16-bit halves of their products, biased.
        const auto rows = [&](unsigned k, V16(&v)[8]) TV_INLINE_LAMBDA {
            const VU16 r = hn::LoadU(du16, ref_rows[k] + x);
            const VU16 d = hn::LoadU(du16, dis_rows[k] + x);
            v[0] = biased(r);
            v[1] = biased(d);
            v[2] = biased(hn::MulHigh(r, r));
            v[3] = biased(hn::Mul(r, r));
            v[4] = biased(hn::MulHigh(d, d));
            v[5] = biased(hn::Mul(d, d));
            v[6] = biased(hn::MulHigh(r, d));
            v[7] = biased(hn::Mul(r, d));
        };
        FilterSum lower[8], upper[8];
        vertical_sums<Scale>(rows, lower, upper);
        const auto moments = [&](const FilterSum(&s)[8], VU32(&m)[5]) {
            constexpr std::uint32_t kBias = 1u << 31;
            m[0] = round_shift(s[0].total(kBias), shifts.mu);
            m[1] = round_shift(s[1].total(kBias), shifts.mu);
            for (int i = 0; i < 3; ++i)
                m[2 + i] = combine_halves(s[2 + 2 * i].total(kBias), s[3 + 2 * i].total(kBias), shifts.square);
        };
        VU32 lo[5], hi[5];
        moments(lower, lo);
        moments(upper, hi);
        store_moments(lo, hi, out, x);
    }
    vif::vertical_moments<Scale, std::uint16_t>(ref_rows, dis_rows, shifts, x, width, out);
}

template <int Scale, class Sample>
void vertical_lowpass(const Sample* const* ref_rows, const Sample* const* dis_rows, unsigned shift,
                      unsigned width, std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    const D16 d16;
    const DU16 du16;
    const std::size_t lanes = hn::Lanes(du16);
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        const auto rows = [&](unsigned k, V16(&v)[2]) TV_INLINE_LAMBDA {
            if constexpr (sizeof(Sample) == 1) {
                // 8-bit samples are already signed 16-bit values.
                const hn::Rebind<std::uint8_t, DU16> du8;
                v[0] = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, ref_rows[k] + x)));
                v[1] = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, dis_rows[k] + x)));
            } else {
                v[0] = biased(hn::LoadU(du16, ref_rows[k] + x));
                v[1] = biased(hn::LoadU(du16, dis_rows[k] + x));
            }
        };
        FilterSum lower[2], upper[2];
        vertical_sums<Scale>(rows, lower, upper);
        const std::uint32_t bias = sizeof(Sample) == 1 ? 0u : 1u << 31;
        hn::StoreU(pack(round_shift(lower[0].total(bias), shift), round_shift(upper[0].total(bias), shift)), du16,
                   ref_out + x);
        hn::StoreU(pack(round_shift(lower[1].total(bias), shift), round_shift(upper[1].total(bias), shift)), du16,
                   dis_out + x);
    }
    vif::vertical_lowpass<Scale, Sample>(ref_rows, dis_rows, shift, x, width, ref_out, dis_out);
}

// ---- horizontal passes ------------------------------------------------------

// The horizontal filter sum (mod 2^32, unbiased) of padded row `row` at the
// outputs first, first + 2, first + 4, ... (one per 32-bit lane).
template <int Scale>
HWY_INLINE VU32 horizontal_sum(const std::uint16_t* row, std::ptrdiff_t first)
{
    constexpr std::ptrdiff_t kHalf = scale_filter(Scale).half();
    const DU16 du16;
    FilterSum sum;
    unrolled<kTapPairs<Scale>>([&](auto pair) TV_INLINE_LAMBDA {
        constexpr unsigned k = 2 * pair;
        sum.template add<Scale, k>(biased(hn::LoadU(du16, row + first - kHalf + k)));
    });
    return sum.total(1u << 31);
}

template <int Scale>
void horizontal_decimate(const std::uint16_t* ref_in, const std::uint16_t* dis_in, unsigned out_width,
                         std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    const D32 d32;
    const hn::Rebind<std::uint16_t, D32> du16;
    const std::size_t lanes = hn::Lanes(d32);
    unsigned x = 0;
    for (; x + lanes <= out_width; x += static_cast<unsigned>(lanes)) {
        // Output x reads input 2x: lane j of a vector at 2x is output x + j.
        const std::ptrdiff_t first = 2 * static_cast<std::ptrdiff_t>(x);
        const VU32 r = round_shift(horizontal_sum<Scale>(ref_in, first), 16);
        const VU32 d = round_shift(horizontal_sum<Scale>(dis_in, first), 16);
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(d32, r)), du16, ref_out + x);
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(d32, d)), du16, dis_out + x);
    }
    vif::horizontal_lowpass_decimate<Scale>(ref_in, dis_in, x, out_width, ref_out, dis_out);
}

// ---- statistics ---------------------------------------------------------------

// q16 product of vif_math.h's sigmas_from_sums(): (a * b + 2^31) >> 32.
HWY_INLINE VU32 q16_product(VU32 a, VU32 b)
{
    const DU32 du32;
    const DU64 du64;
    const hn::Vec<DU64> round = hn::Set(du64, std::uint64_t{1} << 31);
    const hn::Vec<DU64> even = hn::Add(hn::MulEven(a, b), round);
    const VU32 a_odd = hn::BitCast(du32, hn::ShiftRight<32>(hn::BitCast(du64, a)));
    const VU32 b_odd = hn::BitCast(du32, hn::ShiftRight<32>(hn::BitCast(du64, b)));
    const hn::Vec<DU64> odd = hn::Add(hn::MulEven(a_odd, b_odd), round);
    // Each 64-bit result's high half, put back in its own 32-bit lane.
    return hn::BitCast(du32, hn::Or(hn::ShiftRight<32>(even),
                                    hn::And(odd, hn::Set(du64, std::uint64_t{0xffffffff00000000u}))));
}

// log2_q11() of vif_math.h for 2^15 <= v < 2^53: the exponent of v as a
// double is floor(log2 v) (exact: v converts exactly).
HWY_INLINE V64 log2_q11(V64 v, const std::uint16_t* table)
{
    const D64 d64;
    const DF64 df64;
    const V64 dropped = hn::Sub(hn::ShiftRight<52>(hn::BitCast(d64, hn::ConvertTo(df64, v))), hn::Set(d64, 1023 + 15));
    const V64 index = hn::Sub(hn::Shr(v, dropped), hn::Set(d64, kLog2TableFirst));
    // 8 bytes at entry `index` (the table has padding after its end), low 16 bits.
    const V64 entry = hn::And(hn::GatherOffset(d64, reinterpret_cast<const std::int64_t*>(table), hn::Add(index, index)),
                              hn::Set(d64, 0xffff));
    return hn::Add(entry, hn::ShiftLeft<11>(dropped));
}

struct StatisticSums {
    V64 num_log, den_log, num_non_log, den_non_log;
};

// add_sample() of vif_math.h on every 64-bit lane.
HWY_INLINE void add_samples(V64 sigma1_sq, V64 sigma2_sq, V64 sigma12, const std::uint16_t* table, double gain_limit,
                            StatisticSums& sums)
{
    const D64 d64;
    const DF64 df64;
    const V64 sigma_nsq = hn::Set(d64, kSigmaNsq);
    const V64 zero = hn::Zero(d64);
    sigma2_sq = hn::Max(sigma2_sq, zero);
    const auto non_log = hn::Lt(sigma1_sq, sigma_nsq);
    const auto log = hn::Not(non_log);

    const V64 den_argument = hn::IfThenElse(log, hn::Add(sigma_nsq, sigma1_sq), sigma_nsq);
    sums.den_log = hn::Add(sums.den_log,
                           hn::IfThenElseZero(log, hn::Sub(log2_q11(den_argument, table), hn::Set(d64, 2048 * 17))));

    const auto numerator = hn::And(log, hn::And(hn::Gt(sigma12, zero), hn::Gt(sigma2_sq, zero)));
    const double eps = 65536 * 1.0e-10;
    const auto s1 = hn::ConvertTo(df64, sigma1_sq);
    const auto s12 = hn::ConvertTo(df64, sigma12);
    auto g = hn::Div(s12, hn::Add(s1, hn::Set(df64, eps)));
    const auto sv = hn::Sub(hn::ConvertTo(df64, sigma2_sq), hn::Mul(g, s12));
    const V64 sv_sq = hn::IfThenElseZero(hn::RebindMask(d64, hn::Gt(sv, hn::Zero(df64))), hn::ConvertTo(d64, sv));
    g = hn::Min(g, hn::Set(df64, gain_limit));
    const V64 numer1 = hn::IfThenElse(numerator, hn::Add(sv_sq, sigma_nsq), sigma_nsq);
    const V64 numer1_tmp =
        hn::IfThenElse(numerator, hn::Add(hn::ConvertTo(d64, hn::Mul(hn::Mul(g, g), s1)), numer1), sigma_nsq);
    sums.num_log = hn::Add(sums.num_log, hn::IfThenElseZero(numerator, hn::Sub(log2_q11(numer1_tmp, table),
                                                                               log2_q11(numer1, table))));

    sums.num_non_log = hn::Add(sums.num_non_log, hn::IfThenElseZero(non_log, sigma2_sq));
    sums.den_non_log = hn::Add(sums.den_non_log, hn::IfThenElseZero(non_log, hn::Set(d64, 1)));
}

// The sigmas of the outputs first, first + 2, ... (sigmas_from_sums()) and
// their statistics.
template <int Scale>
HWY_INLINE void statistics_at(const MomentRow& m, std::ptrdiff_t first, const std::uint16_t* table,
                              double gain_limit, StatisticSums& sums)
{
    const D32 d32;
    const DU32 du32;
    const D64 d64;
    const hn::Half<D32> dh32;
    const VU32 mu1 = horizontal_sum<Scale>(m.mu1, first);
    const VU32 mu2 = horizontal_sum<Scale>(m.mu2, first);
    const auto q16_moment = [&](const std::uint16_t* high, const std::uint16_t* low) {
        const VU32 low_sum = horizontal_sum<Scale>(low, first);
        return hn::Add(horizontal_sum<Scale>(high, first),
                       hn::ShiftRight<16>(hn::Add(low_sum, hn::Set(du32, 32768u))));
    };
    const V32 sigma1_sq = hn::BitCast(d32, hn::Sub(q16_moment(m.xx_high, m.xx_low), q16_product(mu1, mu1)));
    const V32 sigma2_sq = hn::BitCast(d32, hn::Sub(q16_moment(m.yy_high, m.yy_low), q16_product(mu2, mu2)));
    const V32 sigma12 = hn::BitCast(d32, hn::Sub(q16_moment(m.xy_high, m.xy_low), q16_product(mu1, mu2)));
    add_samples(hn::PromoteTo(d64, hn::LowerHalf(dh32, sigma1_sq)), hn::PromoteTo(d64, hn::LowerHalf(dh32, sigma2_sq)),
                hn::PromoteTo(d64, hn::LowerHalf(dh32, sigma12)), table, gain_limit, sums);
    add_samples(hn::PromoteTo(d64, hn::UpperHalf(dh32, sigma1_sq)), hn::PromoteTo(d64, hn::UpperHalf(dh32, sigma2_sq)),
                hn::PromoteTo(d64, hn::UpperHalf(dh32, sigma12)), table, gain_limit, sums);
}

template <int Scale>
void row_statistics(const MomentRow& moments, unsigned width, SigmaRow sigmas, const std::uint16_t* log2_table,
                    double gain_limit, ScaleSums& sums)
{
    const D64 d64;
    const DU16 du16;
    // A vector of 16-bit lanes' worth of columns: its even and its odd ones.
    const std::size_t lanes = hn::Lanes(du16);
    StatisticSums s{hn::Zero(d64), hn::Zero(d64), hn::Zero(d64), hn::Zero(d64)};
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        statistics_at<Scale>(moments, x, log2_table, gain_limit, s);
        statistics_at<Scale>(moments, x + 1, log2_table, gain_limit, s);
    }
    sums.num_log += hn::GetLane(hn::SumOfLanes(d64, s.num_log));
    sums.den_log += hn::GetLane(hn::SumOfLanes(d64, s.den_log));
    sums.num_non_log += hn::GetLane(hn::SumOfLanes(d64, s.num_non_log));
    sums.den_non_log += hn::GetLane(hn::SumOfLanes(d64, s.den_non_log));
    if (x < width) {
        horizontal_sigmas<Scale>(moments, x, width, sigmas);
        vif::add_samples(sigmas, x, width, log2_table, gain_limit, sums);
    }
}

}  // namespace

Kernels simd_kernels_here()
{
    return Kernels{
        .vertical_moments_8bit = {vertical_moments_8bit<0>, nullptr, nullptr, nullptr},
        .vertical_moments_16bit = {vertical_moments_16bit<0>, vertical_moments_16bit<1>, vertical_moments_16bit<2>,
                                   vertical_moments_16bit<3>},
        .row_statistics = {row_statistics<0>, row_statistics<1>, row_statistics<2>, row_statistics<3>},
        .vertical_lowpass_8bit = {nullptr, vertical_lowpass<1, std::uint8_t>, nullptr, nullptr},
        .vertical_lowpass_16bit = {nullptr, vertical_lowpass<1, std::uint16_t>, vertical_lowpass<2, std::uint16_t>,
                                   vertical_lowpass<3, std::uint16_t>},
        .horizontal_decimate = {nullptr, horizontal_decimate<1>, horizontal_decimate<2>, horizontal_decimate<3>},
    };
}
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::vif::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::vif {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::vif
#endif
