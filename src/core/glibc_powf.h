// glibc's float powf, bit for bit, for host and device: algorithm of glibc
// 2.36's sysdeps/ieee754/flt-32/e_powf.c (fma variant __powf_fma, as built
// for x86-64 and selected there by ifunc on CPUs with FMA and AVX2), with the
// tables of e_powf_log2_data.c and e_exp2f_data.c (TOINT_INTRINSICS = 0,
// POWF_SCALE = 1 on x86-64, so the unscaled variant).
//
// Netflix's ciede (R_T: powf(c, 7)) and float_adm (powf(x, p) and the
// p-norm root) call this glibc function; tv::glibc::powf gives its exact
// bits, including the ones where it is not correctly rounded (its error is
// below 0.82 ulp), so that CPU and GPU twins match Netflix's goldens.
//
// Fused multiply-adds: glibc's binary computes 9 of the source's a*b+c
// fused (GCC -ffp-contract=fast with -mfma; disassembly of __powf_fma):
// 6 in log2_inline (r, y, p, q, q, y) and 3 in exp2_inline (z, y, y); that
// is every a*b+c of the source, and no fusion crosses statements (the
// products r*r, r2*r2, y*logx and y*s stay unfused). They are written as
// fused() below, i.e. tv::fused_multiply_add (one rounding on host and
// device alike, and the one fma the PTX/IR checks accept); every other
// operation is a plain, rounded IEEE operation (our builds use
// -ffp-contract=off on the host, --fmad=false on the device).
//
// Domain: every pair of floats, special cases as glibc on x86-64:
// - NaN results carry x86's bits: a NaN operand is returned quieted (x's
//   first when both are NaN, as SSE's addss/mulss do), with its sign
//   flipped where glibc negates x * x (x a NaN with the sign bit set, y an
//   odd integer); the invalid case (finite x < 0, y not an integer) is
//   x86's default NaN 0xffc00000 (glibc's (x - x) / (x - x)). GPUs would
//   give their own canonical NaN for the same operations, so these are
//   built from bits.
// - Overflow gives +-inf, underflow +-0, and where glibc's y log2 x lies in
//   (-150, -149) (its __math_may_uflowf) the result is +-0x1p-149, as
//   glibc's 0x1.4p-75f * 0x1.4p-75f rounds.
// - Round-to-nearest is assumed (glibc's extra overflow test for directed
//   rounding modes, 1.0f + 0x1p-25f != 1.0f, is false there). errno and
//   floating-point exception flags are not raised.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace tv::glibc {

namespace powf_detail {

// __powf_log2_data.tab: {1/c, log2(c)} for the 16 subintervals of
// [0x3f330000, 2 * 0x3f330000) (as float bits), c near each one's centre.
struct InvcLogc {
    double invc;
    double logc;
};

TV_HD const InvcLogc& log2_table(int i)
{
    static constexpr InvcLogc kTable[16] = {
        {0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2},
        {0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2},
        {0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2},
        {0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2},
        {0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2},
        {0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3},
        {0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3},
        {0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4},
        {0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5},
        {0x1p+0, 0x0p+0},
        {0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4},
        {0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3},
        {0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3},
        {0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2},
        {0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2},
        {0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2},
    };
    return kTable[i];
}

// __powf_log2_data.poly: log1p(r)/ln2 ~ A0 r^5 + A1 r^4 + ... + A4 r.
TV_HD constexpr double log2_poly(int i)
{
    return i == 0   ? 0x1.27616c9496e0bp-2
           : i == 1 ? -0x1.71969a075c67ap-2
           : i == 2 ? 0x1.ec70a6ca7baddp-2
           : i == 3 ? -0x1.7154748bef6c8p-1
                    : 0x1.71547652ab82bp0;
}

// __exp2f_data.tab: bits of 2^(i/32) minus i << 47, so that adding
// k << 47 (k = 32 n + i) puts n into the exponent.
TV_HD std::uint64_t exp2_table(int i)
{
    static constexpr std::uint64_t kTable[32] = {
        0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
        0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
        0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
        0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
        0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
        0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
        0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
        0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
    };
    return kTable[i];
}

// __exp2f_data.shift_scaled (0x1.8p52 / 32) and .poly (2^r ~ C0 r^3 + C1 r^2
// + C2 r + 1).
inline constexpr double kExp2Shift = 0x1.8p+47;
inline constexpr double kExp2C0 = 0x1.c6af84b912394p-5;
inline constexpr double kExp2C1 = 0x1.ebfce50fac4f3p-3;
inline constexpr double kExp2C2 = 0x1.62e42ff0c52d6p-1;

// SIGN_BIAS: added to the exp2 table index k, it lands on the double's sign
// bit (1 << 16 shifted by 47 is bit 63).
inline constexpr std::uint32_t kSignBias = 1u << 16;

// A fused multiply-add of glibc's binary (vfmadd*sd): a * b + c rounded once.
TV_HD double fused(double a, double b, double c) { return tv::fused_multiply_add(a, b, c); }

TV_HD std::uint32_t bits(float x) { return tv::bit_cast<std::uint32_t>(x); }
TV_HD float from_bits(std::uint32_t u) { return tv::bit_cast<float>(u); }

// x86's quiet version of a NaN: the same bits with the quiet bit set.
TV_HD float quieted(float x) { return from_bits(bits(x) | 0x00400000u); }
TV_HD bool is_nan_bits(std::uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

// glibc's x + y where x or y is a NaN, as x86's addss computes it: the
// first NaN operand (x before y), quieted.
TV_HD float nan_sum(float x, float y) { return is_nan_bits(bits(x)) ? quieted(x) : quieted(y); }

// glibc's issignaling(x) for a float on x86 (quiet bit clear, NaN).
TV_HD bool is_signaling(float x) { return 2u * (bits(x) ^ 0x00400000u) > 2u * 0x7fc00000u; }

// e_powf.c's checkint: 0 for a non-integer, 1 for an odd integer, 2 for an
// even one; iy is a finite non-zero float's bits.
TV_HD int checkint(std::uint32_t iy)
{
    const int e = static_cast<int>(iy >> 23 & 0xff);
    if (e < 0x7f) return 0;
    if (e > 0x7f + 23) return 2;
    if (iy & ((1u << (0x7f + 23 - e)) - 1)) return 0;
    if (iy & (1u << (0x7f + 23 - e))) return 1;
    return 2;
}

// e_powf.c's zeroinfnan: the bits are those of +-0, +-inf or a NaN.
TV_HD bool zeroinfnan(std::uint32_t i) { return 2u * i - 1u >= 2u * 0x7f800000u - 1u; }

// e_powf.c's log2_inline: log2 of the float with bits ix (positive; a
// subnormal's bits normalized so that the biased exponent is negative).
TV_HD double log2_inline(std::uint32_t ix)
{
    constexpr std::uint32_t kOff = 0x3f330000u;
    // x = 2^k z with z in [OFF, 2 OFF) (as bits), exact; i picks the
    // subinterval of z.
    const std::uint32_t tmp = ix - kOff;
    const int i = static_cast<int>((tmp >> (23 - 4)) % 16);
    const std::uint32_t top = tmp & 0xff800000u;
    const std::uint32_t iz = ix - top;
    const int k = static_cast<std::int32_t>(top) >> 23;  // arithmetic shift
    const double invc = log2_table(i).invc;
    const double logc = log2_table(i).logc;
    const double z = static_cast<double>(from_bits(iz));

    // log2(x) = log1p(z/c - 1)/ln2 + log2(c) + k. glibc's binary fuses
    // z * invc - 1 (vfmadd132sd).
    const double r = fused(z, invc, -1.0);
    const double y0 = logc + static_cast<double>(k);

    // The pipelined polynomial, each a*b+c fused in glibc's binary.
    const double r2 = r * r;
    double y = fused(log2_poly(0), r, log2_poly(1));
    const double p = fused(log2_poly(2), r, log2_poly(3));
    const double r4 = r2 * r2;
    double q = fused(log2_poly(4), r, y0);
    q = fused(p, r2, q);
    y = fused(y, r4, q);
    return y;
}

// e_powf.c's exp2_inline: 2^xd (|xd| < 150 here) with the sign bit from
// sign_bias, as a double (rounded to float by the caller).
TV_HD double exp2_inline(double xd, std::uint32_t sign_bias)
{
    // xd = k/32 + r, |r| <= 1/64: the shift rounds xd to a multiple of
    // 1/32, whose 32nds land in the low bits of kd's representation.
    double kd = xd + kExp2Shift;
    const std::uint64_t ki = tv::bit_cast<std::uint64_t>(kd);
    kd -= kExp2Shift;
    const double r = xd - kd;

    // 2^xd = 2^(k/32) * 2^r ~ s * (C0 r^3 + C1 r^2 + C2 r + 1); glibc's
    // binary fuses the three a*b+c.
    std::uint64_t t = exp2_table(static_cast<int>(ki % 32));
    const std::uint64_t ski = ki + sign_bias;
    t += ski << (52 - 5);
    const double s = tv::bit_cast<double>(t);
    const double z = fused(kExp2C0, r, kExp2C1);
    const double r2 = r * r;
    double y = fused(kExp2C2, r, 1.0);
    y = fused(z, r2, y);
    y = y * s;
    return y;
}

// glibc's xflowf(sign, v): (sign ? -v : v) * v, for the overflow (2^97),
// underflow (2^-95) and may-underflow (1.25 * 2^-75) values.
TV_HD float xflow(std::uint32_t sign_bias, float v) { return (sign_bias ? -v : v) * v; }

}  // namespace powf_detail

// C's powf(x, y) exactly as glibc 2.36's __powf_fma on x86-64 computes it,
// for every pair of floats (see the notes at the top).
TV_HD float powf(float x, float y)
{
    using namespace powf_detail;
    std::uint32_t sign_bias = 0;
    std::uint32_t ix = bits(x);
    const std::uint32_t iy = bits(y);
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u || zeroinfnan(iy)) {
        // x is subnormal, zero, negative, inf or NaN, or y is zero, inf or
        // NaN.
        if (zeroinfnan(iy)) {
            if (2u * iy == 0) return is_signaling(x) ? nan_sum(x, y) : 1.0f;
            if (ix == 0x3f800000u) return is_signaling(y) ? nan_sum(x, y) : 1.0f;
            if (2u * ix > 2u * 0x7f800000u || 2u * iy > 2u * 0x7f800000u) return nan_sum(x, y);
            if (2u * ix == 2u * 0x3f800000u) return 1.0f;
            // |x| < 1 with y = +inf, or |x| > 1 with y = -inf.
            if ((2u * ix < 2u * 0x3f800000u) == !(iy & 0x80000000u)) return 0.0f;
            return y * y;  // +inf
        }
        if (zeroinfnan(ix)) {
            // x is +-0, +-inf or NaN: x * x (a NaN x quieted, as mulss),
            // negated for a negative x and an odd integer y (a NaN too:
            // glibc negates whatever x * x is).
            std::uint32_t x2_bits =
                is_nan_bits(ix) ? (ix | 0x00400000u) : bits(x * x);
            if ((ix & 0x80000000u) && checkint(iy) == 1) x2_bits ^= 0x80000000u;
            const float x2 = from_bits(x2_bits);
            if (!(iy & 0x80000000u)) return x2;
            // 1 / x2: +-inf for a zero (glibc's __math_divzerof gives the
            // same), +-0 for an infinity, the NaN itself for a NaN.
            if (is_nan_bits(x2_bits)) return x2;
            return 1.0f / x2;
        }
        // x and y are non-zero and finite.
        if (ix & 0x80000000u) {
            // x < 0: only an integer y has a real result.
            const int yint = checkint(iy);
            if (yint == 0) return from_bits(0xffc00000u);  // x86's 0/0
            if (yint == 1) sign_bias = kSignBias;
            ix &= 0x7fffffffu;
        }
        if (ix < 0x00800000u) {
            // Subnormal x: normalize (exactly), leaving a negative biased
            // exponent in the bits.
            ix = bits(from_bits(ix) * 0x1p23f);
            ix &= 0x7fffffffu;
            ix -= 23u << 23;
        }
    }
    const double logx = log2_inline(ix);
    const double ylogx = static_cast<double>(y) * logx;  // cannot overflow
    // |ylogx| >= 126, roughly (sign dropped, exponent and 4 fraction bits).
    if ((tv::bit_cast<std::uint64_t>(ylogx) >> 47 & 0xffff) >= (tv::bit_cast<std::uint64_t>(126.0) >> 47)) {
        if (ylogx > 0x1.fffffffd1d571p+6) return xflow(sign_bias, 0x1p97f);   // overflow: +-inf
        if (ylogx <= -150.0) return xflow(sign_bias, 0x1p-95f);               // underflow: +-0
        if (ylogx < -149.0) return xflow(sign_bias, 0x1.4p-75f);              // +-0x1p-149
    }
    return static_cast<float>(exp2_inline(ylogx, sign_bias));
}

}  // namespace tv::glibc
