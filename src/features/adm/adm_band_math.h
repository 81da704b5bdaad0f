// ADM's per-coefficient arithmetic after the wavelet: decouple, CSF
// weighting, masking weights and the cubes that are summed.
//
// Netflix has two precisions with different constants and roundings:
// scale 0 keeps 16-bit coefficients (adm_decouple, adm_csf, adm_cm,
// adm_csf_den_scale), scales 1..3 keep 32-bit ones (adm_decouple_s123,
// i4_adm_csf, i4_adm_cm, adm_csf_den_s123). Scale0Arithmetic and
// ScaleNArithmetic below are those two, with the same interface, so that the
// per-row stages (adm_row_math.h) are written once for both.
//
// Where Netflix's C relies on two's-complement wrap-around (int16 casts of
// out-of-range values, shifts of negative numbers, abs(INT32_MIN)), we compute
// the same bits through unsigned arithmetic, which C++ defines.
#pragma once

#include <cstdint>

#include "core/bit_math.h"
#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// ---- helpers ---------------------------------------------------------------

// abs() as x86 computes it: abs(INT32_MIN) is INT32_MIN.
TV_HD std::int32_t wrapping_abs(std::int32_t x)
{
    const std::uint32_t u = static_cast<std::uint32_t>(x);
    return static_cast<std::int32_t>(x < 0 ? 0u - u : u);
}

TV_HD std::int32_t wrapping_sub(std::int32_t a, std::int32_t b)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

TV_HD std::int32_t wrapping_shl(std::int32_t a, int shift)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) << shift);
}

// v >> shift on a signed 64-bit value (a floor), through an unsigned shift of
// v + 2^63: AVX2 has no 64-bit arithmetic shift, so this form vectorises.
TV_HD std::int64_t floor_shift(std::int64_t v, int shift)
{
    const std::uint64_t bias = std::uint64_t{1} << 63;
    return static_cast<std::int64_t>(((static_cast<std::uint64_t>(v) + bias) >> shift) - (bias >> shift));
}

TV_HD std::int32_t floor_shift(std::int32_t v, int shift) { return v >> shift; }

// ---- decouple ----------------------------------------------------------------

// cos(1 degree)^2, computed by Netflix in double and kept as float.
inline constexpr float kCos1DegSquared = 0x1.ffd814p-1f;

// Whether the reference (oh, ov) and distorted (th, tv) detail vectors point
// within 1 degree of each other: (o.t) >= 0 and (o.t)^2 >= cos^2(1deg)
// |o|^2 |t|^2. Netflix evaluates it from 64-bit integer products through
// float conversions and double products in this order; so do we. `Product`
// holds the integer products exactly: double for 16-bit coefficients (< 2^32,
// and double vectorises), int64 for 32-bit ones.
// The int64 sums wrap as Netflix's do on x86 (where its C overflows only for
// coefficients no frame produces, such as the tests' INT32_MIN): computed
// in uint64, where wrapping is defined, then read back as int64.
TV_HD double dot_sum(double a, double b, double c, double d) { return a * b + c * d; }
TV_HD std::int64_t dot_sum(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d)
{
    using U = std::uint64_t;
    return static_cast<std::int64_t>(U(a) * U(b) + U(c) * U(d));
}

template <class Product>
TV_HD bool within_one_degree(Product oh, Product ov, Product th, Product tv)
{
    const Product dot = dot_sum(oh, th, ov, tv);
    const Product o_squared = dot_sum(oh, oh, ov, ov);
    const Product t_squared = dot_sum(th, th, tv, tv);
    const double d = static_cast<float>(dot) / 4096.0;
    // & rather than &&: both sides are cheap, and no branch is easier to vectorise.
    return (d >= 0.0) & (d * d >= kCos1DegSquared * (static_cast<float>(o_squared) / 4096.0) *
                                      (static_cast<float>(t_squared) / 4096.0));
}

// Netflix divides through a table of 2^30 / i (integer division) for i in
// [1, 32768], negated for negative i. We compute the entry instead: for
// m <= 2^15 the double quotient 2^30 / m is within 2^-22 of the exact one
// while a non-integer exact quotient is at least 1/m >= 2^-15 from the next
// integer, so truncating it gives the integer quotient. (A division
// vectorises; a table lookup next to stores does not, and needs no table on
// a GPU.) m = 0 gives 2^30, which callers never use; m must be <= 2^15.
TV_HD std::uint32_t reciprocal_magnitude(std::uint32_t m)
{
    // Through int32 both ways (the values fit): signed conversions vectorise.
    const std::int32_t divisor = static_cast<std::int32_t>(m > 1u ? m : 1u);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(1073741824.0 / static_cast<double>(divisor)));
}

// The restored coefficient: the reference o scaled by k = clamp(t/o, 0, 1)
// (Q15), and where the angle test passes and k > 0, enhanced by up to
// gain_limit but never past t. The double product and the truncation to an
// integer are Netflix's (its SIMD paths round differently for gain_limit 1.2;
// its C path is the reference). `Wide` holds k * o.
//
// Written without branches: `limited` lies between 0 and t whatever the
// condition, so computing it always is safe, and selecting is cheaper than
// mispredicting on noisy content.
template <class Coef, class Wide>
TV_HD Coef restored_coefficient(Coef o, Coef t, Wide k, bool aligned, double gain_limit)
{
    const Coef r = static_cast<Coef>(floor_shift(k * o + 16384, 15));
    const double enhanced = r * gain_limit;
    const double target = t;
    const double limited = o > 0 ? (enhanced < target ? enhanced : target) : (enhanced > target ? enhanced : target);
    const Coef limited_coef = static_cast<Coef>(static_cast<std::int32_t>(limited));
    const bool enhance = aligned & (k > 0) & (o != 0);
    return enhance ? limited_coef : r;
}

// ---- the two precisions -----------------------------------------------------

// Scale 0: 16-bit coefficients.
struct Scale0Arithmetic {
    using Coef = std::int16_t;
    using Wide = std::int32_t;  // holds gain * coefficient

    TV_HD static bool within_one_degree(Coef oh, Coef ov, Coef th, Coef tv)
    {
        return adm::within_one_degree<double>(oh, ov, th, tv);
    }

    // k = t / o in Q15 clamped to [0, 1]; 32768 where o is 0. Netflix:
    // clamp((r * t + 2^14) >> 15, 0, 2^15) with a 64-bit product, where
    // r = +-floor(2^30 / |o|) (reciprocal_magnitude()). The same in 32 bits,
    // so that it vectorises:
    //   o, t of different signs, or t = 0:  r * t <= -2^15 or 0, so k = 0;
    //   |t| > |o|, same sign:  |r * t| > (2^30/|o| - 1)(|o| + 1) >= 2^30 - 1
    //                          (as |o| <= 2^15), so k = 2^15;
    //   |t| <= |o|, same sign: |r * t| <= 2^30 fits in 32 bits.
    TV_HD static std::int32_t gain(Coef o, Coef t)
    {
        const std::int32_t o32 = o;
        const std::int32_t t32 = t;
        const std::uint32_t o_mag = static_cast<std::uint32_t>(wrapping_abs(o32));
        const std::uint32_t t_mag = static_cast<std::uint32_t>(wrapping_abs(t32));
        const std::uint32_t q = (reciprocal_magnitude(o_mag) * t_mag + 16384u) >> 15;  // wraps only where unused
        // The cases as min/max against 0 or 2^15 rather than selects: then the
        // compiler keeps the division unconditional, and vectorises the loop.
        const std::uint32_t same_sign = ((o32 ^ t32) >= 0) & (t32 != 0);
        const std::uint32_t t_larger = t_mag > o_mag;
        const std::uint32_t o_zero = o32 == 0;
        std::uint32_t k = q < 32768u ? q : 32768u;
        k = k > t_larger * 32768u ? k : t_larger * 32768u;    // |t| > |o|: 2^15
        k = k < same_sign * 32768u ? k : same_sign * 32768u;  // signs differ, t = 0: 0
        k = k > o_zero * 32768u ? k : o_zero * 32768u;        // o = 0: 2^15
        return static_cast<std::int32_t>(k);
    }

    // CSF weighting: weight is Q21 (h, v) or Q23 (d); the result keeps the
    // input's Q format. Netflix rounds d with 65535, not 65536.
    TV_HD static Coef csf(Coef c, std::uint32_t weight, int theta)
    {
        const int shift = theta == 2 ? 17 : 15;
        const std::int32_t add = theta == 2 ? 65535 : 16384;
        const std::int32_t weighted = static_cast<std::int32_t>(weight) * c;
        return static_cast<Coef>((weighted + add) >> shift);
    }

    // 1/30 of |csf| (Q17 reciprocal, Q5 result): a neighbour's share of the
    // masking threshold. Netflix stores it as int16.
    TV_HD static std::int32_t neighbour_weight(Coef csf)
    {
        return static_cast<std::int16_t>((4369 * wrapping_abs(csf) + 2048) >> 12);
    }

    // 1/15 of |csf|: the centre's share of the masking threshold.
    TV_HD static std::int32_t centre_weight(Coef csf)
    {
        return static_cast<std::int16_t>((8738 * wrapping_abs(csf) + 2048) >> 12);
    }

    // One masked cube: max(|c * weight| - threshold, 0)^3 with Netflix's
    // intermediate shifts (the threshold is Q5 against the coefficient's
    // Q21/Q23, hence << 10 and << 12).
    TV_HD static std::int64_t masked_cube(Coef c, std::uint32_t weight, std::int32_t threshold,
                                          const MaskingShifts& shifts, int theta)
    {
        const int threshold_shift = theta == 2 ? 12 : 10;
        const int square_shift = theta == 2 ? 30 : 29;
        const std::int32_t x0 = static_cast<std::int32_t>(weight) * c;
        std::int32_t x = wrapping_sub(wrapping_abs(x0), wrapping_shl(threshold, threshold_shift));
        x = x < 0 ? 0 : x;
        // x >= 0: the square's sum is unsigned (and vectorises as such).
        const std::uint64_t ux = static_cast<std::uint32_t>(x);
        const std::int32_t square =
            static_cast<std::int32_t>((ux * ux + (std::uint64_t{1} << (square_shift - 1))) >> square_shift);
        const int cube_shift = shifts.cube[theta];
        return floor_shift(std::int64_t{square} * x + rounding_addend(cube_shift), cube_shift);
    }

    // One reference cube of the denominator (the row sum is shifted later).
    TV_HD static std::uint64_t reference_cube(Coef c, const DenominatorShifts&)
    {
        const std::uint32_t m = static_cast<std::uint16_t>(wrapping_abs(c));
        return std::uint64_t{m * m} * m;  // m * m < 2^31
    }
};

// Scales 1..3: 32-bit coefficients.
struct ScaleNArithmetic {
    using Coef = std::int32_t;
    using Wide = std::int64_t;

    TV_HD static bool within_one_degree(Coef oh, Coef ov, Coef th, Coef tv)
    {
        return adm::within_one_degree<std::int64_t>(oh, ov, th, tv);
    }

    // As Scale0Arithmetic::gain, for a 32-bit o: o is first rounded to its 15
    // leading bits (Netflix's get_best15_from32) and the shift undone after.
    TV_HD static std::int64_t gain(Coef o, Coef t)
    {
        if (o == 0) return 32768;
        const std::uint32_t magnitude = static_cast<std::uint32_t>(wrapping_abs(o));
        std::uint32_t top_bits = magnitude;
        int shift = 0;
        if (magnitude >= 32768) {
            shift = 17 - count_leading_zeros(magnitude);
            top_bits = (magnitude + (1u << (shift - 1))) >> shift;
        }
        const std::int64_t sign = o < 0 ? -1 : 1;
        const std::int64_t k = ((std::int64_t{reciprocal_magnitude(top_bits)} * t) * sign +
                                (std::int64_t{1} << (14 + shift))) >> (15 + shift);
        return k < 0 ? 0 : (k > 32768 ? 32768 : k);
    }

    // CSF weighting with a Q32 weight, Q28 rounding.
    TV_HD static Coef csf(Coef c, std::uint32_t weight, int /*theta*/)
    {
        return static_cast<Coef>((std::int64_t{weight} * c + (std::int64_t{1} << 27)) >> 28);
    }

    // 1/30 and 1/15 of |csf| in Q32. Netflix's rounding addend is (int32)2^31,
    // i.e. -2^31: these round down by half, and give -1 for 0.
    TV_HD static std::int32_t neighbour_weight(Coef csf)
    {
        return static_cast<std::int32_t>((std::int64_t{143165577} * wrapping_abs(csf) - 2147483648LL) >> 32);
    }

    TV_HD static std::int32_t centre_weight(Coef csf)
    {
        return static_cast<std::int32_t>((std::int64_t{286331153} * wrapping_abs(csf) - 2147483648LL) >> 32);
    }

    TV_HD static std::int64_t masked_cube(Coef c, std::uint32_t weight, std::int32_t threshold,
                                          const MaskingShifts& shifts, int theta)
    {
        const std::int32_t x0 = csf(c, weight, theta);
        std::int32_t x = wrapping_sub(wrapping_abs(x0), threshold);
        if (x < 0) x = 0;
        const std::int32_t square = static_cast<std::int32_t>((std::int64_t{x} * x + (1 << 29)) >> 30);
        const int cube_shift = shifts.cube[theta];
        return (std::int64_t{square} * x + rounding_addend(cube_shift)) >> cube_shift;
    }

    // Netflix rounds the square with the full 2^square (not 2^(square-1)).
    TV_HD static std::uint64_t reference_cube(Coef c, const DenominatorShifts& shifts)
    {
        const std::uint64_t m = static_cast<std::uint32_t>(wrapping_abs(c));
        const std::uint64_t square = (m * m + (std::uint64_t{1} << shifts.square)) >> shifts.square;
        return (square * m + static_cast<std::uint64_t>(rounding_addend(shifts.cube))) >> shifts.cube;
    }
};

}  // namespace twinvmaf::adm
