// Highway SIMD of adm's row kernels (adm_kernels.h), compiled once per
// instruction set (HWY_DYNAMIC_DISPATCH). Each kernel returns the bits of its
// reference row function; the columns that do not fill a whole vector (and
// the mirrored edges of the wavelet) run that reference's per-column code.
//
// The wavelet's 4-tap filters are pairwise multiply-adds of signed 16-bit
// lanes (x86 pmaddwd), two taps per 32-bit lane, lanes in column order:
//  * scale 0's samples are centred (s - 2^(bpc-1), a signed 16-bit value)
//    and the sum is the reference's exactly: sum(t (s - half)) + half is
//    what the reference's wrapping sum with its offset gives.
//  * 32-bit coefficients c (scales 1..3) are split into c = 2^16 h + l with
//    h = c >> 16 and l = (c & 0xffff) - 2^15 + 2^15, both signed 16-bit:
//    sum(t c) = 2^16 sum(t h) + sum(t l') + 2^15 sum(t), each partial sum
//    below 2^31 in magnitude. The rounding shift s <= 16 of the 64-bit
//    reference sum is then done exactly in 32 bits:
//      floor((2^16 A + B + C) / 2^s) = 2^(16-s) A + (C >> s) + ((B + (C mod 2^s)) >> s)
//    and the reference's cast to int32 is that value mod 2^32.
// Decouple, CSF and masking keep the reference's integer arithmetic lane by
// lane (32-bit lanes, or 64-bit lanes where the reference has 64-bit
// products), and its double operations in double lanes in the same order:
//  * the angle test's integer products are exact in double (16-bit
//    coefficients always, 32-bit ones while |c| < 2^26; other blocks of
//    columns run the reference), so one rounding to float gives the
//    reference's float of its integer sum;
//  * the gain's 2^30 / m is the reference's double division;
//  * the enhanced coefficient trunc(min(r g, t)) (o > 0; max for o < 0) is
//    min(trunc(r g), t): truncation is monotonic and t is an integer.
// Every row sum is an integer sum (wrapping as the reference's), whose order
// does not matter.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/adm/adm_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "core/simd_lane_sum-inl.h"
#include "core/simd_types-inl.h"
#include "features/adm/adm_kernels.h"
#include "features/adm/adm_row_math.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::adm::HWY_NAMESPACE {

// Highway's one-lane fallback (HWY_SCALAR) lacks operations used here: it
// runs the reference.
#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;

using namespace twinvmaf::simd::HWY_NAMESPACE;  // D16, V16, ... (core/simd_types-inl.h)

// Partial vectors: one lane per 32-bit lane of a full vector (D?x32), or per
// 64-bit lane (D?x64).
using D16x32 = hn::Rebind<std::int16_t, D32>;
using DU8x32 = hn::Rebind<std::uint8_t, D32>;
using D16x64 = hn::Rebind<std::int16_t, D64>;
using D32x64 = hn::Rebind<std::int32_t, D64>;
using DU32x64 = hn::Rebind<std::uint32_t, D64>;
using DU8x64 = hn::Rebind<std::uint8_t, D64>;
using DF32x64 = hn::Rebind<float, D64>;

template <class D>
int lanes(D d)
{
    return static_cast<int>(hn::Lanes(d));
}

// ---- pairwise multiply-adds ---------------------------------------------------

// Per 32-bit lane j: a[2j] b[2j] + a[2j+1] b[2j+1] + c[2j] d[2j] + c[2j+1] d[2j+1]
// of 16-bit lanes (mod 2^32).
HWY_INLINE V32 dot_pairs(V16 a, V16 b, V16 c, V16 d)
{
    const D32 d32;
    V32 odd = hn::Zero(d32);
    V32 even = hn::ReorderWidenMulAccumulate(d32, a, b, hn::Zero(d32), odd);
    even = hn::ReorderWidenMulAccumulate(d32, c, d, even, odd);
    return hn::RearrangeToOddPlusEven(even, odd);
}

// Taps t0, t1 as the low and high 16-bit halves of every 32-bit lane.
HWY_INLINE V16 tap_pair(std::int32_t t0, std::int32_t t1)
{
    const std::uint32_t bits = (static_cast<std::uint32_t>(t0) & 0xffffu) | (static_cast<std::uint32_t>(t1) << 16);
    return hn::BitCast(D16(), hn::Set(DU32(), bits));
}

// The low 16 bits of x and of y as a pair in each 32-bit lane.
HWY_INLINE V16 pair_low(VU32 x, VU32 y)
{
    const DU32 du32;
    return hn::BitCast(D16(), hn::Or(hn::And(x, hn::Set(du32, 0xffffu)), hn::ShiftLeft<16>(y)));
}

// The high 16 bits of x and of y as a pair in each 32-bit lane.
HWY_INLINE V16 pair_high(VU32 x, VU32 y)
{
    const DU32 du32;
    return hn::BitCast(D16(), hn::Or(hn::ShiftRight<16>(x), hn::And(y, hn::Set(du32, 0xffff0000u))));
}

// A filter's four taps as two tap pairs.
struct TapPairs {
    V16 t01, t23;
};

HWY_INLINE TapPairs tap_pairs(DwtFilter f) { return {tap_pair(f.tap[0], f.tap[1]), tap_pair(f.tap[2], f.tap[3])}; }

// Signed 32-bit lanes' low 16 bits, sign-extended (the reference's int16 casts).
HWY_INLINE V32 wrap16(V32 v) { return hn::ShiftRight<16>(hn::ShiftLeft<16>(v)); }

// ---- scale 0's wavelet ------------------------------------------------------------

// N16 samples of a row as 16-bit lanes, less `half` (signed 16-bit values),
// seen as 32-bit lanes: column 2j in the low half of lane j, 2j+1 in the high.
template <class Sample>
HWY_INLINE VU32 centred_samples(const Sample* p, VU16 half)
{
    const DU16 du16;
    VU16 v;
    if constexpr (sizeof(Sample) == 1) {
        v = hn::PromoteTo(du16, hn::LoadU(hn::Rebind<std::uint8_t, DU16>(), p));
    } else {
        v = hn::LoadU(du16, p);
    }
    return hn::BitCast(DU32(), hn::Sub(v, half));
}

template <class Sample>
void dwt0_vertical(const Sample* const rows[4], int width, int bitdepth, std::int16_t* low, std::int16_t* high)
{
    const D32 d32;
    const D16x32 d16;
    const int n = lanes(d32);  // outputs of each parity per step
    const int evens = (width + 1) / 2;
    const std::int32_t half = std::int32_t{1} << (bitdepth - 1);
    const VU16 half16 = hn::Set(DU16(), static_cast<std::uint16_t>(half));
    const V32 round = hn::Set(d32, half);
    const TapPairs lo = tap_pairs(low_pass()), hi = tap_pairs(high_pass());
    int i = 0;
    for (; 2 * (i + n) <= width; i += n) {
        VU32 s[4];
        for (int k = 0; k < 4; ++k) s[k] = centred_samples(rows[k] + 2 * i, half16);
        const auto filter = [&](V16 p01, V16 p23, std::int16_t* low_out, std::int16_t* high_out) {
            const V32 l = hn::ShiftRightSame(hn::Add(dot_pairs(p01, lo.t01, p23, lo.t23), round), bitdepth);
            const V32 h = hn::ShiftRightSame(hn::Add(dot_pairs(p01, hi.t01, p23, hi.t23), round), bitdepth);
            hn::StoreU(hn::DemoteTo(d16, l), d16, low_out);
            hn::StoreU(hn::DemoteTo(d16, h), d16, high_out);
        };
        filter(pair_low(s[0], s[1]), pair_low(s[2], s[3]), low + i, high + i);                      // even columns
        filter(pair_high(s[0], s[1]), pair_high(s[2], s[3]), low + evens + i, high + evens + i);  // odd columns
    }
    for (int j = i; j < evens; ++j) dwt0_vertical_column(rows, 2 * j, bitdepth, low[j], high[j]);
    for (int j = i; j < width / 2; ++j)
        dwt0_vertical_column(rows, 2 * j + 1, bitdepth, low[evens + j], high[evens + j]);
}

// Where dwt_horizontal_row() reads its 4 columns without mirroring: outputs
// [1, interior_end).
HWY_INLINE int interior_end(int input_width, int output_width)
{
    int end = (input_width - 1) / 2;
    if (end > output_width) end = output_width;
    return end < 1 ? 1 : end;
}

void dwt0_horizontal(const std::int16_t* split, int input_width, int output_width, std::int16_t* low_out,
                     std::int16_t* high_out)
{
    const D32 d32;
    const D16x32 d16;
    const int n = lanes(d32);
    const std::int16_t* even = split;
    const std::int16_t* odd = split + (input_width + 1) / 2;
    const int end = interior_end(input_width, output_width);
    const TapPairs lo = tap_pairs(low_pass()), hi = tap_pairs(high_pass());
    const V32 round = hn::Set(d32, 32768);
    const auto load = [&](const std::int16_t* p) { return hn::BitCast(DU32(), hn::PromoteTo(d32, hn::LoadU(d16, p))); };
    if (output_width > 0) dwt_horizontal_at(split, input_width, 0, Dwt0Horizontal{}, low_out, high_out);
    int x = 1;
    for (; x + n <= end; x += n) {
        const V16 p01 = pair_low(load(odd + x - 1), load(even + x));
        const V16 p23 = pair_low(load(odd + x), load(even + x + 1));
        const V32 l = hn::ShiftRight<16>(hn::Add(dot_pairs(p01, lo.t01, p23, lo.t23), round));
        hn::StoreU(hn::DemoteTo(d16, l), d16, low_out + x);
        if (high_out) {
            const V32 h = hn::ShiftRight<16>(hn::Add(dot_pairs(p01, hi.t01, p23, hi.t23), round));
            hn::StoreU(hn::DemoteTo(d16, h), d16, high_out + x);
        }
    }
    for (; x < output_width; ++x) dwt_horizontal_at(split, input_width, x, Dwt0Horizontal{}, low_out, high_out);
}

// ---- scales 1..3's wavelet ------------------------------------------------------

// 32-bit coefficients of 4 columns (or rows) split into 16-bit pairs: the
// high halves and the low halves made signed (l - 2^15).
struct SplitCoefs {
    V16 high01, high23, low01, low23;
};

HWY_INLINE SplitCoefs split_coefs(V32 c0, V32 c1, V32 c2, V32 c3)
{
    const DU32 du32;
    const D16 d16;
    const VU32 u0 = hn::BitCast(du32, c0), u1 = hn::BitCast(du32, c1);
    const VU32 u2 = hn::BitCast(du32, c2), u3 = hn::BitCast(du32, c3);
    const V16 sign = hn::Set(d16, static_cast<std::int16_t>(-32768));
    return {pair_high(u0, u1), pair_high(u2, u3), hn::Xor(pair_low(u0, u1), sign), hn::Xor(pair_low(u2, u3), sign)};
}

// A filter with its rounding: C = 2^15 sum(taps) + add = high 2^shift + low.
struct FilterRounding {
    TapPairs taps;
    int shift;
    std::int32_t high, low;
};

HWY_INLINE FilterRounding filter_rounding(DwtFilter f, DwtRounding r)
{
    const std::int64_t c = std::int64_t{32768} * (f.tap[0] + f.tap[1] + f.tap[2] + f.tap[3]) + r.add;
    const std::int64_t high = c >> r.shift;
    return {tap_pairs(f), r.shift, static_cast<std::int32_t>(high),
            static_cast<std::int32_t>(c - (high << r.shift))};
}

// dwt_filter() of adm_dwt_math.h on every lane (rounding shift <= 16).
HWY_INLINE V32 filter_32bit(const SplitCoefs& s, const FilterRounding& f)
{
    const D32 d32;
    const V32 a = dot_pairs(s.high01, f.taps.t01, s.high23, f.taps.t23);
    const V32 b = dot_pairs(s.low01, f.taps.t01, s.low23, f.taps.t23);
    const V32 low_part = hn::ShiftRightSame(hn::Add(b, hn::Set(d32, f.low)), f.shift);
    return hn::Add(hn::Add(hn::ShiftLeftSame(a, 16 - f.shift), low_part), hn::Set(d32, f.high));
}

// Scale 1's vertical pass from 16-bit coefficients: the sums fit 32 bits.
void dwt_vertical_16bit(const std::int16_t* const rows[4], int width, DwtRounding rounding, std::int32_t* low,
                        std::int32_t* high)
{
    if (rounding.add > (1 << 28) || rounding.shift > 31) return dwt_vertical_row(rows, width, rounding, low, high);
    const D32 d32;
    const D16 d16;
    const int n = lanes(d32);
    const int evens = (width + 1) / 2;
    const TapPairs lo = tap_pairs(low_pass()), hi = tap_pairs(high_pass());
    const V32 add = hn::Set(d32, static_cast<std::int32_t>(rounding.add));
    int i = 0;
    for (; 2 * (i + n) <= width; i += n) {
        VU32 s[4];
        for (int k = 0; k < 4; ++k) s[k] = hn::BitCast(DU32(), hn::LoadU(d16, rows[k] + 2 * i));
        const auto filter = [&](V16 p01, V16 p23, std::int32_t* low_out, std::int32_t* high_out) {
            hn::StoreU(hn::ShiftRightSame(hn::Add(dot_pairs(p01, lo.t01, p23, lo.t23), add), rounding.shift), d32,
                       low_out);
            hn::StoreU(hn::ShiftRightSame(hn::Add(dot_pairs(p01, hi.t01, p23, hi.t23), add), rounding.shift), d32,
                       high_out);
        };
        filter(pair_low(s[0], s[1]), pair_low(s[2], s[3]), low + i, high + i);
        filter(pair_high(s[0], s[1]), pair_high(s[2], s[3]), low + evens + i, high + evens + i);
    }
    for (int j = i; j < evens; ++j) dwt_vertical_column(rows, 2 * j, rounding, low[j], high[j]);
    for (int j = i; j < width / 2; ++j) dwt_vertical_column(rows, 2 * j + 1, rounding, low[evens + j], high[evens + j]);
}

void dwt_vertical_32bit(const std::int32_t* const rows[4], int width, DwtRounding rounding, std::int32_t* low,
                        std::int32_t* high)
{
    if (rounding.shift > 16) return dwt_vertical_row(rows, width, rounding, low, high);
    const D32 d32;
    const int n = lanes(d32);
    const int evens = (width + 1) / 2;
    const FilterRounding lo = filter_rounding(low_pass(), rounding), hi = filter_rounding(high_pass(), rounding);
    int i = 0;
    for (; 2 * (i + n) <= width; i += n) {
        V32 even[4], odd[4];
        for (int k = 0; k < 4; ++k) {
            const V32 first = hn::LoadU(d32, rows[k] + 2 * i), second = hn::LoadU(d32, rows[k] + 2 * i + n);
            even[k] = hn::ConcatEven(d32, second, first);
            odd[k] = hn::ConcatOdd(d32, second, first);
        }
        const SplitCoefs e = split_coefs(even[0], even[1], even[2], even[3]);
        const SplitCoefs o = split_coefs(odd[0], odd[1], odd[2], odd[3]);
        hn::StoreU(filter_32bit(e, lo), d32, low + i);
        hn::StoreU(filter_32bit(e, hi), d32, high + i);
        hn::StoreU(filter_32bit(o, lo), d32, low + evens + i);
        hn::StoreU(filter_32bit(o, hi), d32, high + evens + i);
    }
    for (int j = i; j < evens; ++j) dwt_vertical_column(rows, 2 * j, rounding, low[j], high[j]);
    for (int j = i; j < width / 2; ++j) dwt_vertical_column(rows, 2 * j + 1, rounding, low[evens + j], high[evens + j]);
}

void dwt_horizontal(const std::int32_t* split, int input_width, int output_width, DwtRounding rounding,
                    std::int32_t* low_out, std::int32_t* high_out)
{
    const DwtHorizontal bands{rounding};
    if (rounding.shift > 16) return dwt_horizontal_row(split, input_width, output_width, bands, low_out, high_out);
    const D32 d32;
    const int n = lanes(d32);
    const std::int32_t* even = split;
    const std::int32_t* odd = split + (input_width + 1) / 2;
    const int end = interior_end(input_width, output_width);
    const FilterRounding lo = filter_rounding(low_pass(), rounding), hi = filter_rounding(high_pass(), rounding);
    if (output_width > 0) dwt_horizontal_at(split, input_width, 0, bands, low_out, high_out);
    int x = 1;
    for (; x + n <= end; x += n) {
        const SplitCoefs s = split_coefs(hn::LoadU(d32, odd + x - 1), hn::LoadU(d32, even + x),
                                         hn::LoadU(d32, odd + x), hn::LoadU(d32, even + x + 1));
        hn::StoreU(filter_32bit(s, lo), d32, low_out + x);
        if (high_out) hn::StoreU(filter_32bit(s, hi), d32, high_out + x);
    }
    for (; x < output_width; ++x) dwt_horizontal_at(split, input_width, x, bands, low_out, high_out);
}

// ---- lanes of 64 bits -------------------------------------------------------------

// N64 coefficients as int32 lanes of a partial vector.
template <class Coef>
HWY_INLINE hn::Vec<D32x64> load_narrow(const Coef* p)
{
    if constexpr (sizeof(Coef) == 2) {
        return hn::PromoteTo(D32x64(), hn::LoadU(D16x64(), p));
    } else {
        return hn::LoadU(D32x64(), p);
    }
}

// N64 coefficients as int64 lanes.
template <class Coef>
HWY_INLINE V64 load_wide(const Coef* p)
{
    return hn::PromoteTo(D64(), load_narrow(p));
}

// The low 32 bits of every 64-bit lane, stored as N64 int32 values.
HWY_INLINE void store_low32(V64 v, std::int32_t* p)
{
    const DU32x64 du32;
    hn::StoreU(hn::BitCast(D32x64(), hn::TruncateTo(du32, hn::BitCast(DU64(), v))), D32x64(), p);
}

// Exact doubles of integers |v| < 2^51 (through the bits of 2^52 + 2^51 + v).
HWY_INLINE VF64 exact_double(V64 v)
{
    const D64 d64;
    const DF64 df64;
    const std::int64_t magic = 0x4338000000000000;  // the bits of 2^52 + 2^51
    return hn::Sub(hn::BitCast(df64, hn::Add(v, hn::Set(d64, magic))), hn::Set(df64, 6755399441055744.0));
}

// The low 32-bit halves of 64-bit lanes, as D32 / DU32 vectors (for MulEven).
HWY_INLINE V32 low32(V64 v) { return hn::BitCast(D32(), v); }
HWY_INLINE VU32 low32u(V64 v) { return hn::BitCast(DU32(), v); }
HWY_INLINE VU32 low32u(VU64 v) { return hn::BitCast(DU32(), v); }

// trunc(v * gain_limit), clamped to int32 (which changes nothing where the
// reference uses it), as int64 lanes.
HWY_INLINE V64 truncated_product(V64 v, double gain_limit)
{
    const DF64 df64;
    VF64 e = hn::Mul(exact_double(v), hn::Set(df64, gain_limit));
    e = hn::Min(hn::Max(e, hn::Set(df64, -2147483648.0)), hn::Set(df64, 2147483647.0));
    return hn::PromoteTo(D64(), hn::DemoteTo(D32x64(), e));
}

// ---- the angle test -------------------------------------------------------------

// Whether every coefficient of the 4 rows at x is below 2^26 in magnitude
// (then the angle test's products and sums are exact in double).
template <class Coef>
HWY_INLINE bool doubles_exact(const Coef* const (&rows)[4], int x)
{
    if constexpr (sizeof(Coef) == 2) {
        return true;
    } else {
        const DU32x64 du32;
        const D32x64 d32;
        auto ok = hn::Lt(hn::BitCast(du32, hn::Add(hn::LoadU(d32, rows[0] + x), hn::Set(d32, 1 << 26))),
                         hn::Set(du32, 1u << 27));
        for (int k = 1; k < 4; ++k) {
            ok = hn::And(ok, hn::Lt(hn::BitCast(du32, hn::Add(hn::LoadU(d32, rows[k] + x), hn::Set(d32, 1 << 26))),
                                    hn::Set(du32, 1u << 27)));
        }
        return hn::AllTrue(du32, ok);
    }
}

template <class Arith>
void angle_test(const typename Arith::Coef* ref_h, const typename Arith::Coef* ref_v,
                const typename Arith::Coef* dis_h, const typename Arith::Coef* dis_v, int begin, int end,
                std::uint8_t* aligned)
{
    using Coef = typename Arith::Coef;
    const DF64 df64;
    const DU8x64 du8;
    const int n = lanes(df64);
    const Coef* const rows[4] = {ref_h, ref_v, dis_h, dis_v};
    const auto as_double = [](const Coef* p) { return hn::PromoteTo(DF64(), load_narrow(p)); };
    // The reference's float of an (exact) integer, back in double, / 4096.
    const auto scaled_float = [](VF64 v) {
        return hn::Mul(hn::PromoteTo(DF64(), hn::DemoteTo(DF32x64(), v)), hn::Set(DF64(), 1.0 / 4096.0));
    };
    int x = begin;
    for (; x + n <= end; x += n) {
        if (!doubles_exact(rows, x)) {
            angle_test_row<Arith>(ref_h, ref_v, dis_h, dis_v, x, x + n, aligned);
            continue;
        }
        const VF64 oh = as_double(ref_h + x), ov = as_double(ref_v + x);
        const VF64 th = as_double(dis_h + x), tv = as_double(dis_v + x);
        const VF64 d = scaled_float(hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv)));
        const VF64 o_squared = scaled_float(hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov)));
        const VF64 t_squared = scaled_float(hn::Add(hn::Mul(th, th), hn::Mul(tv, tv)));
        const VF64 bound = hn::Mul(hn::Mul(hn::Set(df64, static_cast<double>(kCos1DegSquared)), o_squared), t_squared);
        const auto pass = hn::And(hn::Ge(d, hn::Zero(df64)), hn::Ge(hn::Mul(d, d), bound));
        const auto flag = hn::DemoteTo(D32x64(), hn::IfThenElseZero(pass, hn::Set(df64, 1.0)));
        hn::StoreU(hn::DemoteTo(du8, flag), du8, aligned + x);
    }
    angle_test_row<Arith>(ref_h, ref_v, dis_h, dis_v, x, end, aligned);
}

// ---- decouple ---------------------------------------------------------------------

// trunc(2^30 / max(m, 1)) per 32-bit lane (m <= 2^15): reciprocal_magnitude().
HWY_INLINE V32 reciprocals(V32 m)
{
    const D32 d32;
    const hn::Half<D32> dh;
    const hn::Rebind<double, hn::Half<D32>> df;
    const auto numerator = hn::Set(df, 1073741824.0);
    const V32 divisor = hn::Max(m, hn::Set(d32, 1));
    const auto lower = hn::DemoteTo(dh, hn::Div(numerator, hn::PromoteTo(df, hn::LowerHalf(dh, divisor))));
    const auto upper = hn::DemoteTo(dh, hn::Div(numerator, hn::PromoteTo(df, hn::UpperHalf(dh, divisor))));
    return hn::Combine(d32, upper, lower);
}

// trunc(v * gain_limit) per 32-bit lane, clamped to int32.
HWY_INLINE V32 truncated_products(V32 v, double gain_limit)
{
    const D32 d32;
    const hn::Half<D32> dh;
    const hn::Rebind<double, hn::Half<D32>> df;
    const auto product = [&](hn::Vec<hn::Half<D32>> half) {
        auto e = hn::Mul(hn::PromoteTo(df, half), hn::Set(df, gain_limit));
        e = hn::Min(hn::Max(e, hn::Set(df, -2147483648.0)), hn::Set(df, 2147483647.0));
        return hn::DemoteTo(dh, e);
    };
    return hn::Combine(d32, product(hn::UpperHalf(dh, v)), product(hn::LowerHalf(dh, v)));
}

void decouple_scale0(const std::int16_t* ref, const std::int16_t* dis, const std::uint8_t* aligned, int begin,
                     int end, double gain_limit, std::int32_t* gain, std::int16_t* restored, std::int16_t* additive)
{
    const D32 d32;
    const DU32 du32;
    const D16x32 d16;
    const int n = lanes(d32);
    const V32 zero = hn::Zero(d32);
    const VU32 one = hn::Set(du32, 32768);
    int x = begin;
    for (; x + n <= end; x += n) {
        const V32 o = hn::PromoteTo(d32, hn::LoadU(d16, ref + x));
        const V32 t = hn::PromoteTo(d32, hn::LoadU(d16, dis + x));
        const V32 o_mag = hn::Abs(o), t_mag = hn::Abs(t);
        // Scale0Arithmetic::gain()
        const VU32 q = hn::ShiftRight<15>(
            hn::Add(hn::BitCast(du32, hn::Mul(reciprocals(o_mag), t_mag)), hn::Set(du32, 16384u)));
        VU32 k = hn::Min(q, one);
        k = hn::IfThenElse(hn::RebindMask(du32, hn::Gt(t_mag, o_mag)), one, k);
        k = hn::IfThenElseZero(hn::RebindMask(du32, hn::And(hn::Gt(hn::Xor(o, t), hn::Set(d32, -1)), hn::Ne(t, zero))), k);
        k = hn::IfThenElse(hn::RebindMask(du32, hn::Eq(o, zero)), one, k);
        const V32 gains = hn::BitCast(d32, k);
        // restored_coefficient()
        const V32 r = hn::ShiftRight<15>(hn::Add(hn::Mul(gains, o), hn::Set(d32, 16384)));
        const V32 enhanced = truncated_products(r, gain_limit);
        const V32 limited = hn::IfThenElse(hn::Gt(o, zero), hn::Min(enhanced, t), hn::Max(enhanced, t));
        const V32 flag = hn::BitCast(d32, hn::PromoteTo(du32, hn::LoadU(DU8x32(), aligned + x)));
        const auto enhance = hn::And(hn::Ne(flag, zero), hn::And(hn::Gt(gains, zero), hn::Ne(o, zero)));
        const V32 rest = hn::IfThenElse(enhance, limited, r);
        hn::StoreU(hn::DemoteTo(d16, rest), d16, restored + x);
        hn::StoreU(hn::DemoteTo(d16, wrap16(hn::Sub(t, rest))), d16, additive + x);
    }
    decouple_orientation_row<Scale0Arithmetic>(ref, dis, aligned, x, end, gain_limit, gain, restored, additive);
}

// ScaleNArithmetic::gain() on 64-bit lanes of o and t (int32 values).
HWY_INLINE V64 gains_scale_n(V64 o, V64 t)
{
    const D64 d64;
    const DU64 du64;
    const V64 zero = hn::Zero(d64);
    const V64 o_mag = hn::Abs(o), t_mag = hn::Abs(t);
    // The shift that keeps o's 15 leading bits: floor(log2 |o|) - 14 from the
    // exponent of |o| as a double (exact), 0 below 2^15.
    const V64 exponent = hn::Sub(hn::ShiftRight<52>(hn::BitCast(d64, exact_double(o_mag))), hn::Set(d64, 1023));
    const VU64 shift = hn::BitCast(
        du64, hn::IfThenElseZero(hn::Gt(o_mag, hn::Set(d64, 32767)), hn::Sub(exponent, hn::Set(d64, 14))));
    const VU64 magnitude = hn::BitCast(du64, o_mag);
    const VU64 round = hn::ShiftRight<1>(hn::Shl(hn::Set(du64, 1), shift));  // 2^(shift-1), 0 for shift 0
    const VU64 top_bits = hn::Max(hn::Shr(hn::Add(magnitude, round), shift), hn::Set(du64, 1));
    const VF64 quotient = hn::Div(hn::Set(DF64(), 1073741824.0), exact_double(hn::BitCast(d64, top_bits)));
    const V64 reciprocal = hn::PromoteTo(d64, hn::DemoteTo(D32x64(), quotient));
    // Where o and t have one sign: (r |t| + 2^(14+shift)) >> (15+shift);
    // elsewhere the reference's clamp gives 0.
    const VU64 product = hn::MulEven(low32u(reciprocal), low32u(t_mag));
    const VU64 k = hn::Min(hn::Shr(hn::Add(product, hn::Shl(hn::Set(du64, 16384), shift)),
                                   hn::Add(shift, hn::Set(du64, 15))),
                           hn::Set(du64, 32768));
    V64 gains = hn::IfThenElseZero(hn::And(hn::Gt(hn::Xor(o, t), hn::Set(d64, -1)), hn::Ne(t, zero)), hn::BitCast(d64, k));
    return hn::IfThenElse(hn::Eq(o, zero), hn::Set(d64, 32768), gains);
}

void decouple_scale_n(const std::int32_t* ref, const std::int32_t* dis, const std::uint8_t* aligned, int begin,
                      int end, double gain_limit, std::int32_t* gain, std::int32_t* restored,
                      std::int32_t* additive)
{
    const D64 d64;
    const int n = lanes(d64);
    const V64 zero = hn::Zero(d64);
    int x = begin;
    for (; x + n <= end; x += n) {
        const V64 o = load_wide(ref + x), t = load_wide(dis + x);
        const V64 gains = gains_scale_n(o, t);
        // restored_coefficient(): floor((k o + 2^14) / 2^15), then enhanced.
        const V64 r = hn::ShiftRight<15>(hn::Add(hn::MulEven(low32(gains), low32(o)), hn::Set(d64, 16384)));
        const V64 enhanced = truncated_product(r, gain_limit);
        const V64 limited = hn::IfThenElse(hn::Gt(o, zero), hn::Min(enhanced, t), hn::Max(enhanced, t));
        const V64 flag =
            hn::BitCast(d64, hn::PromoteTo(DU64(), hn::PromoteTo(DU32x64(), hn::LoadU(DU8x64(), aligned + x))));
        const auto enhance = hn::And(hn::Ne(flag, zero), hn::And(hn::Gt(gains, zero), hn::Ne(o, zero)));
        const V64 rest = hn::IfThenElse(enhance, limited, r);
        store_low32(rest, restored + x);
        store_low32(hn::Sub(t, rest), additive + x);
    }
    decouple_orientation_row<ScaleNArithmetic>(ref, dis, aligned, x, end, gain_limit, gain, restored, additive);
}

// ---- masking weights ---------------------------------------------------------------

void add_masking_weights_scale0(const std::int16_t* masker, std::uint32_t csf_weight, int theta, bool first,
                                int begin, int end, std::int32_t* neighbour, std::int32_t* centre)
{
    const D32 d32;
    const D16x32 d16;
    const int n = lanes(d32);
    const int shift = theta == 2 ? 17 : 15;
    const V32 add = hn::Set(d32, theta == 2 ? 65535 : 16384);
    const V32 weight = hn::Set(d32, static_cast<std::int32_t>(csf_weight));
    const V32 rounding = hn::Set(d32, 2048);
    int x = begin;
    for (; x + n <= end; x += n) {
        const V32 c = hn::PromoteTo(d32, hn::LoadU(d16, masker + x));
        const V32 csf = hn::Abs(wrap16(hn::ShiftRightSame(hn::Add(hn::Mul(weight, c), add), shift)));
        V32 n_weight = wrap16(hn::ShiftRight<12>(hn::Add(hn::Mul(csf, hn::Set(d32, 4369)), rounding)));
        V32 c_weight = wrap16(hn::ShiftRight<12>(hn::Add(hn::Mul(csf, hn::Set(d32, 8738)), rounding)));
        if (!first) {
            n_weight = hn::Add(n_weight, hn::LoadU(d32, neighbour + x));
            c_weight = hn::Add(c_weight, hn::LoadU(d32, centre + x));
        }
        hn::StoreU(n_weight, d32, neighbour + x);
        hn::StoreU(c_weight, d32, centre + x);
    }
    add_masking_weights_row<Scale0Arithmetic>(masker, csf_weight, theta, first, x, end, neighbour, centre);
}

// ScaleNArithmetic::csf() in the low 32 bits of each 64-bit lane of c:
// (weight c + 2^27) >> 28 from the unsigned product weight |c|.
HWY_INLINE V64 csf_scale_n(V64 c, std::uint32_t weight)
{
    const D64 d64;
    const DU64 du64;
    const VU64 magnitude = hn::MulEven(low32u(hn::Abs(c)), low32u(hn::Set(du64, weight)));
    const VU64 product = hn::IfThenElse(hn::RebindMask(du64, hn::Lt(c, hn::Zero(d64))),
                                        hn::Sub(hn::Zero(du64), magnitude), magnitude);
    return hn::BitCast(d64, hn::ShiftRight<28>(hn::Add(product, hn::Set(du64, std::uint64_t{1} << 27))));
}

// (factor |csf| - 2^31) >> 32 of ScaleNArithmetic's weights, in the low 32
// bits of each lane (|csf| as wrapping_abs() gives it).
HWY_INLINE V64 weight_scale_n(V32 csf_magnitude, std::int32_t factor)
{
    const D64 d64;
    const V64 product = hn::MulEven(csf_magnitude, hn::Set(D32(), factor));
    return hn::BitCast(d64, hn::ShiftRight<32>(hn::BitCast(DU64(), hn::Sub(product, hn::Set(d64, 2147483648LL)))));
}

void add_masking_weights_scale_n(const std::int32_t* masker, std::uint32_t csf_weight, int theta, bool first,
                                 int begin, int end, std::int32_t* neighbour, std::int32_t* centre)
{
    const D64 d64;
    const D32x64 d32;
    const int n = lanes(d64);
    int x = begin;
    for (; x + n <= end; x += n) {
        const V32 csf = hn::Abs(low32(csf_scale_n(load_wide(masker + x), csf_weight)));
        V64 n_weight = weight_scale_n(csf, 143165577);
        V64 c_weight = weight_scale_n(csf, 286331153);
        if (!first) {
            n_weight = hn::Add(n_weight, hn::PromoteTo(d64, hn::LoadU(d32, neighbour + x)));
            c_weight = hn::Add(c_weight, hn::PromoteTo(d64, hn::LoadU(d32, centre + x)));
        }
        store_low32(n_weight, neighbour + x);
        store_low32(c_weight, centre + x);
    }
    add_masking_weights_row<ScaleNArithmetic>(masker, csf_weight, theta, first, x, end, neighbour, centre);
}

// ---- the masking threshold -----------------------------------------------------------

void masking_thresholds(const std::int32_t* above, const std::int32_t* row, const std::int32_t* below,
                        const std::int32_t* centre, int width, int begin, int end, std::int32_t* column_sums,
                        std::int32_t* threshold)
{
    const D32 d32;
    const int n = lanes(d32);
    const int first = begin > 0 ? begin - 1 : 0;
    const int last = end < width ? end + 1 : width;
    int x = first;
    for (; x + n <= last; x += n) {
        const V32 sum = hn::Add(hn::Add(hn::LoadU(d32, above + x), hn::LoadU(d32, row + x)), hn::LoadU(d32, below + x));
        hn::StoreU(sum, d32, column_sums + x);
    }
    for (; x < last; ++x) column_sums[x] = masking_column_sum(above[x], row[x], below[x]);

    const auto one = [&](int i) {
        threshold[i] = adm::masking_threshold(column_sums[mirror(i - 1, width)], column_sums[i],
                                         column_sums[mirror(i + 1, width)], row[i], centre[i]);
    };
    x = begin;
    if (x == 0 && x < end) one(x++);
    const int interior_end = end < width - 1 ? end : width - 1;
    for (; x + n <= interior_end; x += n) {
        const V32 window = hn::Add(hn::Add(hn::LoadU(d32, column_sums + x - 1), hn::LoadU(d32, column_sums + x)),
                                   hn::LoadU(d32, column_sums + x + 1));
        hn::StoreU(hn::Add(hn::Sub(window, hn::LoadU(d32, row + x)), hn::LoadU(d32, centre + x)), d32, threshold + x);
    }
    for (; x < end; ++x) one(x);
}

// ---- the sums ------------------------------------------------------------------------

// floor(v / 2^shift) of int64 lanes.
HWY_INLINE V64 floor_shift(V64 v, int shift) { return hn::ShiftRightSame(v, shift); }

std::uint64_t masked_cube_scale0(const std::int16_t* source, std::uint32_t csf_weight, const std::int32_t* threshold,
                                 int begin, int end, const MaskingShifts& shifts, int theta)
{
    const D64 d64;
    const DU64 du64;
    const D32 d32;
    const int n = lanes(d64);
    const int threshold_shift = theta == 2 ? 12 : 10;
    const int square_shift = theta == 2 ? 30 : 29;
    const int cube_shift = shifts.cube[theta];
    const V32 weight = hn::Set(d32, static_cast<std::int32_t>(csf_weight));
    const VU64 square_round = hn::Set(du64, std::uint64_t{1} << (square_shift - 1));
    const V64 cube_round = hn::Set(d64, rounding_addend(cube_shift));
    VU64 sum = hn::Zero(du64);
    int x = begin;
    for (; x + n <= end; x += n) {
        // Scale0Arithmetic::masked_cube(), in the low 32 bits of each lane.
        const V32 x0 = low32(hn::MulEven(low32(load_wide(source + x)), weight));
        const V32 thresh = hn::ShiftLeftSame(low32(load_wide(threshold + x)), threshold_shift);
        const V32 excess = hn::Max(hn::Sub(hn::Abs(x0), thresh), hn::Zero(d32));
        const VU64 ux = hn::And(hn::BitCast(du64, excess), hn::Set(du64, 0xffffffffu));
        const VU64 square = hn::ShiftRightSame(hn::Add(hn::MulEven(low32u(ux), low32u(ux)), square_round), square_shift);
        const V64 cube = hn::MulEven(hn::BitCast(d32, square), hn::BitCast(d32, ux));
        sum = hn::Add(sum, hn::BitCast(du64, floor_shift(hn::Add(cube, cube_round), cube_shift)));
    }
    return simd::HWY_NAMESPACE::wrapping_lane_sum(du64, sum) +
           masked_cube_row<Scale0Arithmetic>(source, csf_weight, threshold, x, end, shifts, theta);
}

std::uint64_t masked_cube_scale_n(const std::int32_t* source, std::uint32_t csf_weight,
                                  const std::int32_t* threshold, int begin, int end, const MaskingShifts& shifts,
                                  int theta)
{
    const D64 d64;
    const DU64 du64;
    const D32 d32;
    const int n = lanes(d64);
    const int cube_shift = shifts.cube[theta];
    const V64 cube_round = hn::Set(d64, rounding_addend(cube_shift));
    VU64 sum = hn::Zero(du64);
    int x = begin;
    for (; x + n <= end; x += n) {
        // ScaleNArithmetic::masked_cube(), in the low 32 bits of each lane.
        const V32 x0 = low32(csf_scale_n(load_wide(source + x), csf_weight));
        const V32 excess = hn::Max(hn::Sub(hn::Abs(x0), low32(load_wide(threshold + x))), hn::Zero(d32));
        const VU64 ux = hn::And(hn::BitCast(du64, excess), hn::Set(du64, 0xffffffffu));
        const VU64 square =
            hn::ShiftRight<30>(hn::Add(hn::MulEven(low32u(ux), low32u(ux)), hn::Set(du64, std::uint64_t{1} << 29)));
        const V64 cube = hn::MulEven(hn::BitCast(d32, square), hn::BitCast(d32, ux));
        sum = hn::Add(sum, hn::BitCast(du64, floor_shift(hn::Add(cube, cube_round), cube_shift)));
    }
    return simd::HWY_NAMESPACE::wrapping_lane_sum(du64, sum) +
           masked_cube_row<ScaleNArithmetic>(source, csf_weight, threshold, x, end, shifts, theta);
}

std::uint64_t reference_cube_scale0(const std::int16_t* band, int begin, int end, const DenominatorShifts& shifts)
{
    const DU64 du64;
    const int n = lanes(du64);
    VU64 sum = hn::Zero(du64);
    int x = begin;
    for (; x + n <= end; x += n) {
        const VU64 m = hn::BitCast(du64, hn::Abs(load_wide(band + x)));
        sum = hn::Add(sum, hn::MulEven(low32u(hn::MulEven(low32u(m), low32u(m))), low32u(m)));
    }
    return simd::HWY_NAMESPACE::wrapping_lane_sum(du64, sum) + reference_cube_row<Scale0Arithmetic>(band, x, end, shifts);
}

std::uint64_t reference_cube_scale_n(const std::int32_t* band, int begin, int end, const DenominatorShifts& shifts)
{
    const DU64 du64;
    const int n = lanes(du64);
    const VU64 square_round = hn::Set(du64, std::uint64_t{1} << shifts.square);
    const VU64 cube_round = hn::Set(du64, static_cast<std::uint64_t>(rounding_addend(shifts.cube)));
    VU64 sum = hn::Zero(du64);
    int x = begin;
    for (; x + n <= end; x += n) {
        const VU64 m = hn::BitCast(du64, hn::Abs(load_wide(band + x)));
        const VU64 square = hn::ShiftRightSame(hn::Add(hn::MulEven(low32u(m), low32u(m)), square_round), shifts.square);
        // square (up to 33 bits) times m: its two 32-bit halves apart.
        const VU64 cube = hn::Add(hn::MulEven(low32u(square), low32u(m)),
                                  hn::ShiftLeft<32>(hn::MulEven(low32u(hn::ShiftRight<32>(square)), low32u(m))));
        sum = hn::Add(sum, hn::ShiftRightSame(hn::Add(cube, cube_round), shifts.cube));
    }
    return simd::HWY_NAMESPACE::wrapping_lane_sum(du64, sum) + reference_cube_row<ScaleNArithmetic>(band, x, end, shifts);
}

}  // namespace

Kernels simd_kernels_here()
{
    return Kernels{
        .dwt0_vertical_8bit = dwt0_vertical<std::uint8_t>,
        .dwt0_vertical_16bit = dwt0_vertical<std::uint16_t>,
        .dwt0_horizontal = dwt0_horizontal,
        .dwt_vertical_16bit = dwt_vertical_16bit,
        .dwt_vertical_32bit = dwt_vertical_32bit,
        .dwt_horizontal = dwt_horizontal,
        .scale0 = {.angle_test = angle_test<Scale0Arithmetic>,
                   .decouple = decouple_scale0,
                   .add_masking_weights = add_masking_weights_scale0,
                   .masked_cube = masked_cube_scale0,
                   .reference_cube = reference_cube_scale0},
        .scale_n = {.angle_test = angle_test<ScaleNArithmetic>,
                    .decouple = decouple_scale_n,
                    .add_masking_weights = add_masking_weights_scale_n,
                    .masked_cube = masked_cube_scale_n,
                    .reference_cube = reference_cube_scale_n},
        .masking_threshold = masking_thresholds,
    };
}
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::adm::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::adm {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::adm
#endif
