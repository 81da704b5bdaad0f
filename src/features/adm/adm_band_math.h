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

// Number of leading zero bits of a nonzero 32-bit value.
TV_HD int count_leading_zeros(std::uint32_t x)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clz(static_cast<int>(x));
#else
    return __builtin_clz(x);
#endif
}

// ---- decouple ----------------------------------------------------------------

// cos(1 degree)^2, computed by Netflix in double and kept as float.
inline constexpr float kCos1DegSquared = 0x1.ffd814p-1f;

// Whether the reference (oh, ov) and distorted (th, tv) detail vectors point
// within 1 degree of each other: (o.t) >= 0 and (o.t)^2 >= cos^2(1deg)
// |o|^2 |t|^2. Netflix evaluates it through float conversions and double
// products in this order; so do we.
TV_HD bool within_one_degree(std::int64_t oh, std::int64_t ov, std::int64_t th, std::int64_t tv)
{
    const std::int64_t dot = oh * th + ov * tv;
    const std::int64_t o_squared = oh * oh + ov * ov;
    const std::int64_t t_squared = th * th + tv * tv;
    const double d = static_cast<float>(dot) / 4096.0;
    return d >= 0.0 && d * d >= kCos1DegSquared * (static_cast<float>(o_squared) / 4096.0) *
                                    (static_cast<float>(t_squared) / 4096.0);
}

// Netflix divides by table: reciprocal[32768 + i] = 2^30 / i (truncated) for
// i in [-32768, 32768], 0 at i = 0. 65537 entries; the host fills it once.
inline constexpr int kReciprocalTableSize = 65537;

TV_HD std::int32_t reciprocal_entry(int index)
{
    const int i = index - 32768;
    if (i == 0) return 0;
    const std::int32_t r = static_cast<std::int32_t>(1073741824 / (i < 0 ? -i : i));
    return i < 0 ? -r : r;
}

// The restored coefficient: the reference o scaled by k = clamp(t/o, 0, 1)
// (Q15), and where the angle test passes and k > 0, enhanced by up to
// gain_limit but never past t. The double product and the truncation to an
// integer are Netflix's (its SIMD paths round differently for gain_limit 1.2;
// its C path is the reference).
template <class Coef>
TV_HD Coef restored_coefficient(Coef o, Coef t, std::int64_t k, bool aligned, double gain_limit)
{
    Coef r = static_cast<Coef>((k * o + 16384) >> 15);
    if (aligned && k > 0 && o != 0) {
        const double enhanced = r * gain_limit;
        const double target = t;
        const double limited = o > 0 ? (enhanced < target ? enhanced : target)
                                     : (enhanced > target ? enhanced : target);
        r = static_cast<Coef>(static_cast<std::int32_t>(limited));
    }
    return r;
}

// ---- the two precisions -----------------------------------------------------

// Scale 0: 16-bit coefficients.
struct Scale0Arithmetic {
    using Coef = std::int16_t;

    // k = t / o in Q15 clamped to [0, 1]; 32768 where o is 0.
    TV_HD static std::int64_t gain(Coef o, Coef t, const std::int32_t* reciprocal)
    {
        if (o == 0) return 32768;
        const std::int64_t k = (std::int64_t{reciprocal[o + 32768]} * t + 16384) >> 15;
        return k < 0 ? 0 : (k > 32768 ? 32768 : k);
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
        if (x < 0) x = 0;
        const std::int32_t square = static_cast<std::int32_t>(
            (std::int64_t{x} * x + (std::int64_t{1} << (square_shift - 1))) >> square_shift);
        const int cube_shift = shifts.cube[theta];
        return (std::int64_t{square} * x + rounding_addend(cube_shift)) >> cube_shift;
    }

    // One reference cube of the denominator (the row sum is shifted later).
    TV_HD static std::uint64_t reference_cube(Coef c, const DenominatorShifts&)
    {
        const std::uint64_t m = static_cast<std::uint16_t>(wrapping_abs(c));
        return m * m * m;
    }
};

// Scales 1..3: 32-bit coefficients.
struct ScaleNArithmetic {
    using Coef = std::int32_t;

    // As Scale0Arithmetic::gain, for a 32-bit o: o is first rounded to its 15
    // leading bits (Netflix's get_best15_from32) and the shift undone after.
    TV_HD static std::int64_t gain(Coef o, Coef t, const std::int32_t* reciprocal)
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
        const std::int64_t k = ((std::int64_t{reciprocal[top_bits + 32768]} * t) * sign +
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
