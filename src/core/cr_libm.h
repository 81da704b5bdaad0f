// Correctly rounded exp, pow, powf, sin, cos and atan2 (and exact integer
// powers c^7 of floats) for host and device: the libm functions that ciede
// (and float_adm: powf with adm_p_norm != 3) calls per pixel, so that a CPU
// reference and its GPU twin give the same bits (DESIGN.md §1; the device's
// own libm is not glibc's, nor is either correctly rounded). Only IEEE basic
// operations (sqrt included) and exact bit manipulation; no other libm, no
// fused multiply-add. Double-double arithmetic from
// core/double_double.h (errors in units of u^2 = 2^-106 below), log2 from
// core/cr_log2.h, constants and tables from tools/gen_cr_libm_table.py.
//
// The claim, as for cr_log2.h: each function computes a double-double
// (hi, lo) with a proven relative error bound, and hi = RN(hi + lo) is the
// correctly rounded result unless hi + lo lies within that bound of a
// rounding boundary; *_rounding_is_certain() tests exactly that (for the
// unit tests: it never failed on their millions of arguments; the expected
// rate is about bound / 2^-53, below 2^-45 per random argument). Where it
// would fail the result is still faithful (error < 1 ulp). pow_7 and powf_7
// are exact integer arithmetic and always correctly rounded.
//
// Functions, methods, bounds, domains (outside a domain the result is a
// quiet NaN: a hard, visible error on host and device alike, never a
// silently different rounding; ciede's arguments are inside by
// construction, see ciede_math.h):
//
// exp2_dd(h) (internal): 2^h for a double-double h, |h| <= 960 (so that
//   lo stays normal).
//   h = N/64 + g with N = round(64 h) (h.hi - N/64 is exact, Sterbenz), so
//   |g| <= 2^-7 (+ |h.lo|). 2^h = 2^n * 2^(j/64) * exp(g ln 2), N = 64 n + j;
//   2^(j/64) from a table, exp(u), u = g ln 2, |u| < 0.0055, by its Taylor
//   series to u^11 (truncation < 2^-119): terms 0..5 in double-double, the
//   tail 6..11 in double (its weight u^6/720 < 2^-54, so its rounding is
//   below 2^-106). Error: u 8u^2 relative (ln 2's pair, one mul) -> 0.05u^2,
//   tail 0.7u^2, Horner's last steps 3.1u^2, table 1u^2, final mul 7u^2:
//   12u^2 < kExp2Bound = 2^-100.
// exp_correctly_rounded(x): |x| <= 665 (larger: +inf above 710, +0 below
//   -746, NaN between). h = x / ln 2 as mul_d(1/ln 2, x): 4u^2 |h|, i.e.
//   2.8u^2 |h| relative in the result; bound 2^-100 + 2^-103 |h|. First
//   pow's fast 2^h (exp2_fast, < 2^-68), tested with 2^-63 + 2^-98 |h|.
// pow_correctly_rounded(x, y): x > 0 finite, y finite, |y log2 x| <= 1000
//   (2^h overflowing gives +inf, underflowing below 2^-1075 gives +0; the
//   rest of |h| > 960 is NaN, as is y infinite). Special cases as C99 for x = 0, 1,
//   y = 0 and NaN; x < 0 gives NaN (ciede's pow has x > 0). h = y log2(x)
//   with cr_log2's log2_dd (error 2^-98 |log2 x|) and one mul_d:
//   |dh| < 2^-97.9 |h|; bound 2^-100 + 2^-98 |h| relative in the result.
//   A cheaper first phase (pow_fast_dd, bound 2^-63 (1 + |y|)) answers
//   whenever its rounding test passes; the double-double path only where
//   it does not.
// sin_correctly_rounded(x), cos_correctly_rounded(x): |x| <= 128.
//   k = round(x 2/pi), r = x - k pi/2 with pi/2 in four chunks of 46 bits
//   (k C0 and k C1 exact for |k| < 128; x - k C0 exact by Sterbenz; the
//   omitted chunks < 2^-181): r carries 6.2u^2 |r| + 2^-181 of error, and
//   |r| >= 2^-62 for every double (the closest binary64 number to a multiple
//   of pi/2, Muller, "Elementary Functions", ch. 11), so < 6.3u^2 |r|.
//   |r| <= pi/4: sin r = r S(r^2), cos r = C(r^2) by their Taylor series to
//   r^29 / r^30 (truncation < 2^-118), the terms from z^9 (z = r^2) on in
//   double (weight < 2^-62). Error 18u^2 (sin), 16u^2 (cos) relative
//   (cos r >= 0.7): < kTrigBound = 2^-100. |x| < 2^-27: sin x = x, cos x = 1
//   (the Taylor remainder is below half an ulp of the result). A cheaper
//   first phase (sin_cos_fast, tables of sin and cos at i/64, bound 2^-61)
//   answers whenever its rounding test passes (about 99 % of arguments).
// atan2_correctly_rounded(y, x): finite y, x, not both zero with magnitudes
//   in {0} u [2^-400, 2^400] (every pair of floats is inside); zeros and
//   signs as C99. t = min/max of |y|, |x| as a double-double quotient
//   (15u^2), atan(t) = atan(i/64) + atan(s), s = (t - c)/(1 + t c),
//   c = i/64 the nearest: |s| < 2^-6.9, atan(s) by its series to s^17
//   (truncation < 2^-128; terms from s^9 in double, weight < 2^-56).
//   t's absolute error passes into s unamplified and atan(t) >= t pi/4,
//   so about 40u^2 relative; pi/2 - a and pi - a add no cancellation
//   (a <= pi/4, pi/2). Bound kAtanBound = 2^-99. A cheaper first phase
//   (atan2_fast: no double-double division, bound 2^-64) answers whenever its
//   rounding test passes.
// powf_correctly_rounded(x, y): C99's powf for every pair of floats,
//   rounded once to float (nearest even, subnormals and overflow as IEEE);
//   special values (NaN, +-0, +-inf, x < 0 with an integer y or not) as
//   C99 F.9.4.4. Finite x > 0, x != 1, y != 0: h = y log2 x as in pow;
//   |h| >= 200 is +inf or +0. The float rounding is decided directly from
//   the double-double value and its bound (round_to_float: on which side of
//   the float midpoint m between RN(hi) and its neighbour hi + lo lies, and
//   whether by more than the bound), never by rounding a rounded double to
//   float (that double rounding goes wrong where the double lands on m and
//   the exact value does not). First pow's fast phase (bound kPowFastBound
//   (1 + |y|) + 2^-98 |h|, |h| < 200), then the double-double path (bound
//   2^-100 + 2^-98 |h| < 2^-90.3). Where neither decides, x^y lies within
//   2^-90.3 of m, and powf_exact_is() tests, in exact integer arithmetic,
//   whether x^y == m: then it is a tie, rounded to even (the exact cases
//   are dyadic x^y: y = n 2^-k needs x an exact 2^k-th power, and q^n of at
//   most 25 bits, e.g. (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24). So the result is
//   correctly rounded unless a non-exact x^y lies within the bound of a
//   float midpoint; for the 2^64 pairs that is about 2^64 * 2^-65.3 < 1
//   expected case (not an exhaustive proof), and none occurred in the unit
//   tests (tests/unit/test_cr_powf.cpp: 1.4 million random pairs against
//   binary128, 6358 exact and midpoint cases against exact products).
// pow_7(c), powf_7(c): c^7 for a float c (C's pow(c, 7) and powf(c, 7.0f)):
//   the mantissa's 7th power (< 2^168) in 32-bit limbs, rounded once to 53
//   or 24 bits (nearest even, with subnormal results and overflow as IEEE).
//   Exact for every float.
#pragma once

#include <math.h>

#include <cstdint>

#include "core/cr_libm_table.h"
#include "core/cr_log2.h"
#include "core/double_double.h"
#include "core/host_device.h"

namespace tv {

namespace cr_libm_detail {

using dd::DD;

inline constexpr double kExp2Bound = 0x1p-100;
inline constexpr double kTrigBound = 0x1p-100;
inline constexpr double kAtanBound = 0x1p-99;

TV_HD double quiet_nan() { return dd::double_of(0x7ff8000000000000ULL); }
TV_HD double infinity() { return dd::double_of(0x7ff0000000000000ULL); }
TV_HD double abs_of(double x) { return x < 0 ? -x : x; }

// Nearest integer (ties away from zero) of |t| < 2^62.
TV_HD long long nearest_integer(double t) { return static_cast<long long>(t + (t >= 0 ? 0.5 : -0.5)); }

// 2^h, |h.hi| <= 960, h normalised.
TV_HD DD exp2_dd(DD h)
{
    const long long big_n = nearest_integer(h.hi * 64.0);
    const double g_hi = h.hi - static_cast<double>(big_n) * 0x1p-6;  // exact (Sterbenz, or N = 0)
    const DD g = dd::two_sum(g_hi, h.lo);
    const int j = static_cast<int>(big_n & 63);  // N mod 64 in [0, 63], also for N < 0
    const int n = static_cast<int>((big_n - j) / 64);
    const DD u = dd::mul(g, ln2());
    const double uh = u.hi;
    const double tail =
        inv_fact6().hi +
        uh * (inv_fact7().hi + uh * (inv_fact8().hi + uh * (inv_fact9().hi + uh * (inv_fact10().hi + uh * inv_fact11().hi))));
    DD p = dd::add(inv_fact5(), dd::mul_d(u, tail));
    p = dd::add(inv_fact4(), dd::mul(u, p));
    p = dd::add(inv_fact3(), dd::mul(u, p));
    p = dd::add(DD{0.5, 0.0}, dd::mul(u, p));
    p = dd::add(DD{1.0, 0.0}, dd::mul(u, p));
    p = dd::add(DD{1.0, 0.0}, dd::mul(u, p));
    const DD r = dd::mul(exp2_point(j), p);
    const double scale = dd::pow2(n);
    return {r.hi * scale, r.lo * scale};
}

// 2^h as a double; h's own error adds h_rel_bound * |h| to the result's
// relative error bound. `certain` reports the rounding test.
TV_HD double exp2_rounded(DD h, double h_rel_bound, bool& certain)
{
    certain = true;
    if (h.hi != h.hi) return quiet_nan();
    if (h.hi >= 1024.0) return infinity();
    if (h.hi < -1075.5) return 0.0;
    if (abs_of(h.hi) > 960.0) return quiet_nan();  // outside the domain
    const DD r = exp2_dd(h);
    certain = !dd::rounding_is_ambiguous(r, kExp2Bound + h_rel_bound * abs_of(h.hi));
    return r.hi;
}


// 2^h for |h.hi| <= 960: the fast phase's half of pow (see pow_fast_dd),
// relative error < 2^-68 beyond h's own.
TV_HD DD exp2_fast(DD h)
{
    const long long big_n = nearest_integer(h.hi * 128.0);
    const double g = h.hi - static_cast<double>(big_n) * 0x1p-7;  // exact (Sterbenz, or N = 0)
    const int j = static_cast<int>(big_n & 127);
    const int n = static_cast<int>((big_n - j) / 128);
    DD v = dd::two_prod(g, ln2().hi);
    v.lo += g * ln2().lo + h.lo * ln2().hi;
    const double vh = v.hi;
    const double q = 0.5 + vh * (1.0 / 6 + vh * (1.0 / 24 + vh * (1.0 / 120 + vh * (1.0 / 720 + vh * (1.0 / 5040)))));
    DD ex = dd::fast_two_sum(1.0, vh);
    // exp(vh + vl) = (1 + vh + vh^2 q)(1 + vl + ...): |vl| reaches 2^-51.5
    // (h.lo of an h near 950), so its product with vh (and vh^2 / 2) stays.
    ex.lo += v.lo + (vh * vh) * q + v.lo * (vh * (1.0 + 0.5 * vh));
    const DD rr = dd::mul(exp2_fine_point(j), ex);
    const double scale = dd::pow2(n);
    return {rr.hi * scale, rr.lo * scale};
}

// pow's fast phase (x > 0 finite, y finite): about 1.1 x 10^-20 relative
// instead of 10^-30, with tables of 128 and no double-double division, so
// that the full double-double path above runs only where the fast result's
// rounding is not proven (about 1 % of ciede's calls).
//   log2 x = e + log2(1/v) + log1p(r)/ln 2, v = pow_inv_centre(i) ~ 1/c for
//   the bucket of m's top 7 fraction bits, r = m v - 1 exact (two_prod, and
//   m v - 1 by Sterbenz), |r| < 2^-8 + 2^-52; log1p(r) = r + r^2 P(r) with
//   P to r^6 (truncation r^9/9 < 2^-75) in double: absolute error of
//   log1p < 2^-67 (r^2 P: 2^-68, dropping r's low part 2^-69, the sum
//   2^-70), of log2 x after the dd combination < 2^-66 + 2^-102 |log2 x|.
//   h = y log2 x (mul_d): error < |y| 2^-66 + 2^-101 |h|.
//   2^h = 2^n 2^(j/128) exp(u), u = g ln 2, |g| <= 2^-8 (+ h.lo), u as a
//   double-double (two_prod); exp(u) = 1 + u + u^2 Q(u) with Q to u^5 in
//   double, plus u.lo (1 + u.hi + u.hi^2/2) (|u.lo| < 2^-51.5, |u.hi| <
//   2^-8.5: dropping u.lo u.hi^3/6 costs 2^-79): error < 2^-68; the table's
//   product (7u^2) and pair (1u^2).
//   Result: relative error < 2^-66.5 |y| + 2^-68 + 2^-101.5 |h|, tested with
//   kPowFastBound (1 + |y|) + 2^-98 |h|, kPowFastBound = 2^-63 (8x margin).
inline constexpr double kPowFastBound = 0x1p-63;

TV_HD DD pow_fast_dd(double x, double y, double& h_abs)
{
    std::uint64_t u = dd::bits_of(x);
    int e = static_cast<int>((u >> 52) & 0x7ff);
    if (e == 0) {  // subnormal: scale into the normal range, exactly
        u = dd::bits_of(x * 0x1p54);
        e = static_cast<int>((u >> 52) & 0x7ff) - 54;
    }
    e -= 1023;
    const double m = dd::double_of((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    const int i = static_cast<int>((u >> 45) & 127);
    const DD p = dd::two_prod(m, pow_inv_centre(i));
    const DD r = dd::two_sum(p.hi - 1.0, p.lo);  // m v - 1, exactly
    const double rh = r.hi;
    const double poly =
        -0.5 + rh * (1.0 / 3 + rh * (-0.25 + rh * (0.2 + rh * (-1.0 / 6 + rh * (1.0 / 7 + rh * -0.125)))));
    const double b = r.lo + (rh * rh) * poly;
    // (rh + b) / ln 2 as a double-double.
    DD t = dd::two_prod(rh, cr_log2_detail::kInvLn2Hi);
    t.lo += rh * cr_log2_detail::kInvLn2Lo + b * cr_log2_detail::kInvLn2Hi;
    const DD& c = pow_log2_of_centre(i);
    const DD head = dd::two_sum(static_cast<double>(e), c.hi);
    const DD l = dd::add(DD{head.hi, head.lo + c.lo}, t);
    const DD h = dd::mul_d(l, y);
    h_abs = abs_of(h.hi);
    if (!(h_abs <= 950.0)) return DD{0.0, 0.0};  // the caller takes the full path
    return exp2_fast(h);
}

TV_HD double exp_impl(double x, bool& certain)
{
    certain = true;
    if (x != x) return x;
    if (x > 710.0) return infinity();
    if (x < -746.0) return 0.0;
    if (abs_of(x) > 665.0) return quiet_nan();
    const DD h = dd::mul_d(DD{cr_log2_detail::kInvLn2Hi, cr_log2_detail::kInvLn2Lo}, x);
    const DD fast = exp2_fast(h);  // |h| < 960
    if (!dd::rounding_is_ambiguous(fast, kPowFastBound + 0x1p-98 * abs_of(h.hi))) return fast.hi;
    return exp2_rounded(dd::mul_d(DD{cr_log2_detail::kInvLn2Hi, cr_log2_detail::kInvLn2Lo}, x), 0x1p-103, certain);
}

TV_HD double pow_impl(double x, double y, bool& certain)
{
    certain = true;
    if (y == 0.0) return 1.0;
    if (x == 1.0) return 1.0;
    if (x != x || y != y) return x + y;
    if (x < 0.0 || abs_of(y) == infinity()) return quiet_nan();
    if (x == 0.0) return y > 0 ? 0.0 : infinity();
    if (x == infinity()) return y > 0 ? infinity() : 0.0;
    double h_abs;
    const DD fast = pow_fast_dd(x, y, h_abs);
    if (h_abs <= 950.0 && !dd::rounding_is_ambiguous(fast, kPowFastBound * (1.0 + abs_of(y)) + 0x1p-98 * h_abs))
        return fast.hi;
    const DD l = cr_log2_detail::log2_dd(x);
    return exp2_rounded(dd::mul_d(l, y), 0x1p-98, certain);
}

// x - k pi/2 for |x| <= 128, k = round(x 2/pi) (returned mod 4).
TV_HD DD reduce_half_pi(double x, int& quadrant)
{
    const long long k = nearest_integer(x * 0x1.45f306dc9c883p-1);  // 2/pi
    quadrant = static_cast<int>(k & 3);
    if (k == 0) return DD{x, 0.0};
    const double kd = static_cast<double>(k);
    const double a = x - kd * kHalfPiChunk0;  // exact
    DD r = dd::two_sum(a, -(kd * kHalfPiChunk1));
    r = dd::add(r, DD{-(kd * kHalfPiChunk2), 0.0});
    return dd::add(r, DD{-(kd * kHalfPiChunk3), 0.0});
}

// sin r, |r| <= pi/4 (+ tiny).
TV_HD DD sin_dd(DD r)
{
    const DD z = dd::mul(r, r);
    const double zh = z.hi;
    // Terms z^9 .. z^14 (signs alternate; z^9's is -).
    const double tail =
        -inv_fact19().hi +
        zh * (inv_fact21().hi - zh * (inv_fact23().hi - zh * (inv_fact25().hi - zh * (inv_fact27().hi - zh * inv_fact29().hi))));
    DD p = dd::add(inv_fact17(), dd::mul_d(z, tail));
    p = dd::add(dd::neg(inv_fact15()), dd::mul(z, p));
    p = dd::add(inv_fact13(), dd::mul(z, p));
    p = dd::add(dd::neg(inv_fact11()), dd::mul(z, p));
    p = dd::add(inv_fact9(), dd::mul(z, p));
    p = dd::add(dd::neg(inv_fact7()), dd::mul(z, p));
    p = dd::add(inv_fact5(), dd::mul(z, p));
    p = dd::add(dd::neg(inv_fact3()), dd::mul(z, p));
    p = dd::add(DD{1.0, 0.0}, dd::mul(z, p));
    return dd::mul(r, p);
}

// cos r, |r| <= pi/4 (+ tiny).
TV_HD DD cos_dd(DD r)
{
    const DD z = dd::mul(r, r);
    const double zh = z.hi;
    // Terms z^9 .. z^15 (z^9's sign is -).
    const double tail =
        -inv_fact18().hi +
        zh * (inv_fact20().hi -
              zh * (inv_fact22().hi - zh * (inv_fact24().hi - zh * (inv_fact26().hi - zh * (inv_fact28().hi - zh * inv_fact30().hi)))));
    DD p = dd::add(inv_fact16(), dd::mul_d(z, tail));
    p = dd::add(dd::neg(inv_fact14()), dd::mul(z, p));
    p = dd::add(inv_fact12(), dd::mul(z, p));
    p = dd::add(dd::neg(inv_fact10()), dd::mul(z, p));
    p = dd::add(inv_fact8(), dd::mul(z, p));
    p = dd::add(dd::neg(inv_fact6()), dd::mul(z, p));
    p = dd::add(inv_fact4(), dd::mul(z, p));
    p = dd::add(DD{-0.5, 0.0}, dd::mul(z, p));
    return dd::add(DD{1.0, 0.0}, dd::mul(z, p));
}

// sin and cos's fast phase, |x| in [2^-27, 128]: the reduction without its
// last chunk (r = rh + rl, error < 2^-70 |r|: the omitted k C3 < 2^-134 and
// rl's rounding < 2^-133 against |r| >= 2^-62, or 2^-106 |r|), then
// r = a + b with a = i/64 (sin a, cos a from tables, double-double),
// |b| <= 2^-7: sin b - b and cos b - 1 by Taylor to b^9 / b^8 in double
// (truncation < 2^-100; roundings < 2^-66 absolute, against results of at
// least sin a or 0.7), rl's first-order terms kept (b rl reaches 2^-61).
// sin(a + b) = sa + sa (cos b - 1) + ca sin b, cos(a + b) = ca + ca (cos b - 1)
// - sa sin b, with sa b or ca b as exact products: relative error < 2^-64,
// tested with kTrigFastBound = 2^-61.
inline constexpr double kTrigFastBound = 0x1p-61;

TV_HD DD sin_cos_fast(double x, bool cosine)
{
    const long long k = nearest_integer(x * 0x1.45f306dc9c883p-1);  // 2/pi
    int quadrant = static_cast<int>(k & 3);
    double rh = x, rl = 0.0;
    if (k != 0) {
        const double kd = static_cast<double>(k);
        const DD r = dd::two_sum(x - kd * kHalfPiChunk0, -(kd * kHalfPiChunk1));  // exact
        rh = r.hi;
        rl = r.lo - kd * kHalfPiChunk2;
    }
    if (cosine) quadrant = (quadrant + 1) & 3;  // cos x = sin(x + pi/2)
    const bool negative = rh < 0;
    if (negative) {
        rh = -rh;
        rl = -rl;
    }
    const int i = static_cast<int>(rh * 64.0 + 0.5);
    const double bh = rh - i * 0x1p-6;  // exact (Sterbenz, or i = 0)
    const double z = bh * bh;
    const double sin_tail = bh * z * (-inv_fact3().hi + z * (inv_fact5().hi + z * (-inv_fact7().hi + z * inv_fact9().hi)));
    const double cos_tail = z * (-0.5 + z * (inv_fact4().hi + z * (-inv_fact6().hi + z * inv_fact8().hi))) - bh * rl;
    const DD& sa = sin_point(i);
    const DD& ca = cos_point(i);
    DD v;
    if (quadrant & 1) {  // cos r
        DD t = dd::two_prod(sa.hi, bh);
        t.lo += sa.lo * bh;
        v = dd::add(ca, dd::neg(t));
        v.lo += ca.hi * cos_tail - sa.hi * (rl + sin_tail);
    } else {  // sin |r|
        DD t = dd::two_prod(ca.hi, bh);
        t.lo += ca.lo * bh;
        v = dd::add(sa, t);
        v.lo += sa.hi * cos_tail + ca.hi * (rl + sin_tail);
    }
    v = dd::fast_two_sum(v.hi, v.lo);
    bool flip = (quadrant & 2) != 0;
    if (!(quadrant & 1) && negative) flip = !flip;
    return flip ? dd::neg(v) : v;
}

// sin (cosine = false) or cos of x.
TV_HD double sin_cos_impl(double x, bool cosine, bool& certain)
{
    certain = true;
    if (!(abs_of(x) <= 128.0)) return quiet_nan();  // NaN, infinities and the rest of the range
    if (abs_of(x) < 0x1p-27) return cosine ? 1.0 : x;
    const DD fast = sin_cos_fast(x, cosine);
    if (!dd::rounding_is_ambiguous(fast, kTrigFastBound)) return fast.hi;
    int quadrant;
    const DD r = reduce_half_pi(x, quadrant);
    if (cosine) quadrant = (quadrant + 1) & 3;  // cos x = sin(x + pi/2)
    DD v = (quadrant & 1) ? cos_dd(r) : sin_dd(r);
    if (quadrant & 2) v = dd::neg(v);
    certain = !dd::rounding_is_ambiguous(v, kTrigBound);
    return v.hi;
}

// atan t for t in (0, 1] (double-double).
TV_HD DD atan_dd(DD t)
{
    const int i = static_cast<int>(t.hi * 64.0 + 0.5);
    DD s = t;
    if (i != 0) {
        const double c = i * 0x1p-6;
        s = dd::div(dd::add(t, DD{-c, 0.0}), dd::add(DD{1.0, 0.0}, dd::mul_d(t, c)));
    }
    const DD z = dd::mul(s, s);
    const double zh = z.hi;
    // Terms z^4 .. z^8 of atan(s)/s.
    const double tail = 1.0 / 9 - zh * (1.0 / 11 - zh * (1.0 / 13 - zh * (1.0 / 15 - zh * (1.0 / 17))));
    DD p = dd::add(dd::neg(inv7()), dd::mul_d(z, tail));
    p = dd::add(inv5(), dd::mul(z, p));
    p = dd::add(dd::neg(inv3()), dd::mul(z, p));
    p = dd::add(DD{1.0, 0.0}, dd::mul(z, p));
    const DD a = dd::mul(s, p);
    return i == 0 ? a : dd::add(atan_point(i), a);
}

// atan2's fast phase, for ay, ax in [2^-400, 2^400]: atan of t = min/max
// without double-double divisions. t = q + (num - q den)/den (the
// remainder exact by two_prod and Sterbenz): 2^-104 relative. For c = i/64
// nearest t, s = (t - c)/(1 + t c) as sh + sl, sh = (t - c)/d1 rounded and sl
// from the exact remainder: error 2^-100 |s| plus t's, which passes into s
// unamplified against atan(t) >= t pi/4. atan s = sh + sl + sh z P(z),
// z = sh^2 < 2^-14, P to z^4 in double (truncation 2^-81, roundings 2^-75
// absolute), and sl (1 - z). atan(c) from the table (2^-106), pi/2 - a and pi - a in double-
// double: relative error < 2^-66, tested with kAtanFastBound = 2^-64.
inline constexpr double kAtanFastBound = 0x1p-64;

TV_HD DD atan2_fast(double ay, double ax, bool swapped, bool x_negative)
{
    const double num = swapped ? ax : ay, den = swapped ? ay : ax;
    const double q = num / den;
    const DD p = dd::two_prod(q, den);
    const double tl = ((num - p.hi) - p.lo) / den;  // num - p.hi exact
    const int i = static_cast<int>(q * 64.0 + 0.5);
    double sh = q, sl = tl;
    if (i != 0) {
        const double c = i * 0x1p-6;
        const double nh = q - c;  // exact (Sterbenz)
        const DD tc = dd::two_prod(q, c);
        DD d = dd::fast_two_sum(1.0, tc.hi);  // q c <= 1
        d.lo += tc.lo + tl * c;
        sh = nh / d.hi;
        const DD sd = dd::two_prod(sh, d.hi);
        sl = (((nh - sd.hi) - sd.lo) + tl - sh * d.lo) / d.hi;  // nh - sd.hi exact
    }
    const double z = sh * sh;
    const double tail = sh * z * (-inv3().hi + z * (inv5().hi + z * (-inv7().hi + z * (1.0 / 9 + z * (-1.0 / 11)))));
    // sl reaches 2^-58.8 (t's and d's low parts), so its first-order term
    // in s^3/3 (-z sl, 2^-72.8) stays.
    DD a = dd::fast_two_sum(sh, sl * (1.0 - z) + tail);
    if (i != 0) a = dd::add(atan_point(i), a);
    if (swapped) a = dd::add(half_pi(), dd::neg(a));
    if (x_negative) a = dd::add(pi(), dd::neg(a));
    return a;
}

TV_HD double atan2_impl(double y, double x, bool& certain)
{
    certain = true;
    if (y != y || x != x) return y + x;
    const bool y_negative = dd::bits_of(y) >> 63;
    const bool x_negative = dd::bits_of(x) >> 63;
    const double ay = abs_of(y), ax = abs_of(x);
    if (ay == 0.0) return x_negative ? (y_negative ? -pi().hi : pi().hi) : y;  // +-0 or +-pi
    if (ax == 0.0) return y_negative ? -half_pi().hi : half_pi().hi;
    const double lo_bound = 0x1p-400, hi_bound = 0x1p400;
    if (ay < lo_bound || ay > hi_bound || ax < lo_bound || ax > hi_bound) return quiet_nan();
    const bool swapped = ay > ax;
    const DD fast = atan2_fast(ay, ax, swapped, x_negative);
    if (!dd::rounding_is_ambiguous(fast, kAtanFastBound)) return y_negative ? -fast.hi : fast.hi;
    const DD t = swapped ? dd::div(DD{ax, 0.0}, DD{ay, 0.0}) : dd::div(DD{ay, 0.0}, DD{ax, 0.0});
    DD a = atan_dd(t);
    if (swapped) a = dd::add(half_pi(), dd::neg(a));
    if (x_negative) a = dd::add(pi(), dd::neg(a));
    certain = !dd::rounding_is_ambiguous(a, kAtanBound);
    return y_negative ? -a.hi : a.hi;
}

// --- c^7 of a float, exactly --------------------------------------------------

// A 192-bit unsigned integer, 32-bit limbs, least significant first.
struct Wide {
    std::uint32_t limb[6];
};

TV_HD unsigned bit_at(const Wide& w, int i) { return (w.limb[i >> 5] >> (i & 31)) & 1u; }

TV_HD std::uint64_t limb_or_zero(const Wide& w, int i) { return i < 6 ? w.limb[i] : 0u; }

// Bits pos .. pos + 63 of w (0 above its top), pos >= 0.
TV_HD std::uint64_t window64(const Wide& w, int pos)
{
    const int i = pos >> 5, shift = pos & 31;
    const std::uint64_t low = limb_or_zero(w, i) | (limb_or_zero(w, i + 1) << 32);
    const std::uint64_t high = limb_or_zero(w, i + 2);
    return shift ? (low >> shift) | (high << (64 - shift)) : low;
}

// Whether any of bits 0 .. n-1 is set.
TV_HD bool any_below(const Wide& w, int n)
{
    for (int i = 0; i < 6 && i * 32 < n; ++i) {
        const int bits = n - i * 32;
        const std::uint32_t mask = bits >= 32 ? 0xffffffffu : ((1u << bits) - 1u);
        if (w.limb[i] & mask) return true;
    }
    return false;
}

// Index of the highest set bit of v != 0.
TV_HD int top_bit_of(std::uint32_t v)
{
    int b = 0;
    if (v >> 16) v >>= 16, b += 16;
    if (v >> 8) v >>= 8, b += 8;
    if (v >> 4) v >>= 4, b += 4;
    if (v >> 2) v >>= 2, b += 2;
    if (v >> 1) b += 1;
    return b;
}

TV_HD int top_bit(const Wide& w)
{
    for (int i = 5; i >= 0; --i)
        if (w.limb[i]) return i * 32 + top_bit_of(w.limb[i]);
    return -1;
}

// m^7, m < 2^24 (after k products, 24 (k + 1) bits: only those limbs).
TV_HD Wide seventh_power(std::uint32_t m)
{
    Wide w{{m, 0, 0, 0, 0, 0}};
    for (int k = 1; k < 7; ++k) {
        std::uint64_t carry = 0;
        const int limbs = (24 * (k + 1) + 31) / 32;
        for (int i = 0; i < limbs; ++i) {
            const std::uint64_t p = static_cast<std::uint64_t>(w.limb[i]) * m + carry;
            w.limb[i] = static_cast<std::uint32_t>(p);
            carry = p >> 32;
        }
    }
    return w;
}

// M 2^e0 (M > 0) rounded to nearest even in a binary format of p bits whose
// normal numbers have leading exponents emin .. emax; the result is exact
// as a double (p <= 53, lsb >= -1074), +inf on overflow.
TV_HD double round_wide(const Wide& m, int e0, int p, int emin, int emax)
{
    const int top = top_bit(m);
    const int leading = top + e0;
    if (leading > emax) return infinity();
    int lsb = leading - p + 1;
    if (lsb < emin - p + 1) lsb = emin - p + 1;
    const int shift = lsb - e0;  // bits of M below the result's last place
    if (shift <= 0) return static_cast<double>(window64(m, 0)) * dd::pow2(e0);  // M < 2^p: exact
    std::uint64_t q = shift <= top ? window64(m, shift) : 0;  // at most p bits
    const unsigned round = shift - 1 <= top ? bit_at(m, shift - 1) : 0u;
    const bool sticky = any_below(m, shift - 1);
    if (round && (sticky || (q & 1u))) ++q;
    return static_cast<double>(q) * dd::pow2(lsb);  // q <= 2^p: exact (or overflow to inf)
}

// c^7 with c a float, in a format of p bits (see round_wide).
TV_HD double float_seventh_power(float c, int p, int emin, int emax)
{
    const std::uint32_t u = tv::bit_cast<std::uint32_t>(c);
    const bool negative = u >> 31;
    const std::uint32_t biased = (u >> 23) & 0xffu, fraction = u & 0x7fffffu;
    double v;
    if (biased == 0xffu) {
        return static_cast<double>(c);  // inf^7 = inf (sign kept), NaN
    } else if (biased == 0 && fraction == 0) {
        v = 0.0;
    } else if (biased == 0) {
        v = round_wide(seventh_power(fraction), 7 * -149, p, emin, emax);
    } else {
        v = round_wide(seventh_power(fraction | 0x800000u), 7 * (static_cast<int>(biased) - 150), p, emin, emax);
    }
    return negative ? -v : v;
}


// ---- powf: x^y for floats, correctly rounded to float ----

// The float nearest to an exact value v > 0 known as a double-double r
// (normalised, 2^-152 <= r.hi < 2^128) with |v - (r.hi + r.lo)| <=
// rel_bound r.hi, rel_bound <= 2^-28. c = RN(r.hi) and its neighbour on
// r.hi's side bracket v (v cannot pass c's other midpoint: that lies at
// least a quarter of c's float ulp, 2^-26 c, from r.hi); the midpoint m
// between them is exact in double, r.hi - m exact by two_sum, so
// d = (r.hi - m) + r.lo carries less than 2^-104 r.hi + 2^-52 |d| of error,
// and |d| > (rel_bound + 2^-100) r.hi (1 + 2^-50) puts v on d's side of m:
// `certain`. Otherwise v may be m itself (an exact case, see
// powf_exact_is()) or near it: the caller decides; the value returned is
// then d's side (m's even neighbour for d = 0), at most 1 ulp off.
// Subnormal floats are steps of 2^-149 like any other (m = 2^-150 between
// 0 and 2^-149); above FLT_MAX the next step is 2^128, i.e. +inf, and the
// tie at FLT_MAX + 2^103 goes to it (its bit pattern is the even one), as
// IEEE's overflow rule says.
struct FloatRounding {
    float value;
    bool certain;
    double midpoint;     // m, when not certain
    float below, above;  // m's neighbours
};

TV_HD double float_step_value(std::uint32_t bits)
{
    return bits == 0x7f800000u ? 0x1p128 : static_cast<double>(tv::bit_cast<float>(bits));
}

TV_HD FloatRounding round_to_float(DD r, double rel_bound)
{
    const float c = static_cast<float>(r.hi);
    const std::uint32_t cb = tv::bit_cast<std::uint32_t>(c);
    const double cd = float_step_value(cb);
    if (cd == r.hi) return {c, true, 0.0, c, c};
    const std::uint32_t nb = r.hi > cd ? cb + 1 : cb - 1;
    const std::uint32_t lb = nb < cb ? nb : cb, ub = nb < cb ? cb : nb;
    const float lower = tv::bit_cast<float>(lb), upper = tv::bit_cast<float>(ub);
    const double m = (float_step_value(lb) + float_step_value(ub)) * 0.5;  // exact: 26 bits
    const DD t = dd::two_sum(r.hi, -m);
    const double d = t.hi + (t.lo + r.lo);
    const bool certain = abs_of(d) > (rel_bound + 0x1p-100) * r.hi * (1.0 + 0x1p-50);
    const float even = (lb & 1u) ? upper : lower;
    return {d > 0 ? upper : d < 0 ? lower : even, certain, m, lower, upper};
}

// Whether x^y == m exactly, for a finite float x > 0, x != 1, finite y != 0
// and a double m > 0 with at most 25 significant bits in [2^-151, 2^128]
// (a float midpoint). y = n 2^-k with n odd: x^y is dyadic only if x is an
// exact 2^k-th power (k exact square roots, each checked by an exact
// square; x's odd part has at most 24 bits and its exponent at most 149 in
// magnitude, so an x != 1 has no more than 7 of them) and then r^n with
// r = x^(1/2^k) = q 2^e (q odd) is dyadic only for n > 0 or q = 1, with
// q^n of at most 25 bits. Exact arithmetic throughout.
TV_HD bool powf_exact_is(float x, float y, double m)
{
    // y = n 2^t, n odd.
    const std::uint32_t yb = tv::bit_cast<std::uint32_t>(y);
    const int y_biased = static_cast<int>((yb >> 23) & 0xffu);
    std::uint32_t y_odd = (yb & 0x7fffffu) | (y_biased ? 0x800000u : 0u);
    int t = (y_biased ? y_biased : 1) - 150;
    if (y_odd == 0) return false;  // y = 0: outside the precondition
    while ((y_odd & 1u) == 0) {
        y_odd >>= 1;
        ++t;
    }
    double r = x;
    for (int k = t; k < 0; ++k) {
        const double s = sqrt(r);  // an IEEE basic operation: correctly rounded
        const DD sq = dd::two_prod(s, s);
        if (sq.hi != r || sq.lo != 0.0) return false;
        r = s;
    }
    if (t >= 10) return false;  // |n 2^t| >= 1024 with r != 1: far outside [2^-151, 2^128] or > 25 bits
    const long long n = static_cast<long long>(y_odd) << (t > 0 ? t : 0);
    const bool negative = y < 0;
    // r = q 2^e, q odd (r is a normal double: a float's root).
    const std::uint64_t rb = dd::bits_of(r);
    std::uint64_t q = (rb & 0x000fffffffffffffULL) | 0x0010000000000000ULL;
    long long e = static_cast<long long>((rb >> 52) & 0x7ff) - 1075;
    while ((q & 1u) == 0) {
        q >>= 1;
        ++e;
    }
    if (negative && q != 1) return false;  // 1 / q^n is not dyadic
    std::uint64_t power = 1;
    for (long long i = 0; q != 1 && i < n; ++i) {  // q >= 3: at most 16 steps
        power *= q;  // < 2^25 * 2^24 before the check
        if (power > (1u << 25)) return false;
    }
    const long long exponent = (negative ? -e : e) * n;
    if (exponent < -200 || exponent > 200) return false;
    return static_cast<double>(power) * dd::pow2(static_cast<int>(exponent)) == m;
}

// x^y for finite x > 0, x != 1, finite y != 0; `certain` as for the others.
// Fast phase: pow_fast_dd (bound kPowFastBound (1 + |y|) + 2^-98 |h|);
// where its float rounding is not proven, the double-double path
// (log2_dd, mul_d, exp2_dd: bound kExp2Bound + 2^-98 |h|); where that is
// not proven either, the exactness test.
TV_HD float powf_positive(float x, float y, bool& certain)
{
    certain = true;
    const double xd = x, yd = y;
    // The sign of h = y log2 x, for the results far outside float's range.
    const bool h_positive = (xd > 1.0) == (yd > 0.0);
    // The fast phase's h: absolute error < 2^-66 |y| + 2^-101 |h| (see
    // pow_fast_dd), and |log2 x| >= 2^-23.4 for a float x != 1, so below
    // 2^-42 |h| in all: |h| >= 200 is decided (far beyond float's range),
    // and for |h| < 200 (|y| < 2^31.1) the result's relative error is below
    // 2^-33, so that beyond 2^128 (the overflow threshold is 2^128 - 2^103)
    // and below 2^-152 (half the least subnormal is 2^-150) it is decided too.
    double h_abs;
    const DD fast = pow_fast_dd(xd, yd, h_abs);
    if (!(h_abs <= 950.0) || h_abs >= 200.0) return h_positive ? static_cast<float>(infinity()) : 0.0f;
    if (fast.hi >= 0x1p128) return static_cast<float>(infinity());
    if (fast.hi < 0x1p-152) return 0.0f;
    const FloatRounding first = round_to_float(fast, kPowFastBound * (1.0 + abs_of(yd)) + 0x1p-98 * h_abs);
    if (first.certain) return first.value;
    const DD h = dd::mul_d(cr_log2_detail::log2_dd(xd), yd);
    const DD r = exp2_dd(h);  // |h| < 200 (+ 2^-42 |h|)
    if (r.hi >= 0x1p128) return static_cast<float>(infinity());
    if (r.hi < 0x1p-152) return 0.0f;
    const FloatRounding second = round_to_float(r, kExp2Bound + 0x1p-98 * abs_of(h.hi));
    if (second.certain) return second.value;
    if (powf_exact_is(x, y, second.midpoint)) {
        const std::uint32_t below = tv::bit_cast<std::uint32_t>(second.below);
        return (below & 1u) ? second.above : second.below;  // a tie: to even
    }
    certain = false;
    return second.value;
}

// Whether the float y is an integer, and if so whether it is odd.
TV_HD bool float_is_integer(float y, bool& odd)
{
    const std::uint32_t b = tv::bit_cast<std::uint32_t>(y) & 0x7fffffffu;
    const int biased = static_cast<int>(b >> 23);
    odd = false;
    if (biased >= 150) return true;  // |y| >= 2^23: every float is an even integer
    if (biased < 127) return b == 0;  // |y| < 1
    const int fraction_bits = 150 - biased;  // 1..23 bits below the units place
    const std::uint32_t m = (b & 0x7fffffu) | 0x800000u;
    if (m & ((1u << fraction_bits) - 1u)) return false;
    odd = (m >> fraction_bits) & 1u;
    return true;
}

TV_HD float powf_impl(float x, float y, bool& certain)
{
    certain = true;
    const float inf = static_cast<float>(infinity());
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (x != x || y != y) return x + y;
    const float ax = x < 0 ? -x : x;
    if (y == inf || y == -inf) {
        if (ax == 1.0f) return 1.0f;
        return (ax < 1.0f) == (y > 0) ? 0.0f : inf;
    }
    bool odd;
    const bool integer = float_is_integer(y, odd);
    const bool negative = tv::bit_cast<std::uint32_t>(x) >> 31;  // includes -0
    if (x < 0 && x != -inf && !integer) return static_cast<float>(quiet_nan());
    const bool flip = negative && odd;
    float v;
    if (ax == 0.0f)
        v = y > 0 ? 0.0f : inf;
    else if (ax == inf)
        v = y > 0 ? inf : 0.0f;
    else
        v = powf_positive(ax, y, certain);
    return flip ? -v : v;
}

}  // namespace cr_libm_detail

TV_HD double exp_correctly_rounded(double x)
{
    bool certain;
    return cr_libm_detail::exp_impl(x, certain);
}

TV_HD double pow_correctly_rounded(double x, double y)
{
    bool certain;
    return cr_libm_detail::pow_impl(x, y, certain);
}

TV_HD double sin_correctly_rounded(double x)
{
    bool certain;
    return cr_libm_detail::sin_cos_impl(x, false, certain);
}

TV_HD double cos_correctly_rounded(double x)
{
    bool certain;
    return cr_libm_detail::sin_cos_impl(x, true, certain);
}

TV_HD double atan2_correctly_rounded(double y, double x)
{
    bool certain;
    return cr_libm_detail::atan2_impl(y, x, certain);
}

// C's pow(c, 7) for a float c promoted to double, correctly rounded.
TV_HD double pow_7(float c) { return cr_libm_detail::float_seventh_power(c, 53, -1022, 1023); }

// C's powf(c, 7.0f), correctly rounded.
TV_HD float powf_7(float c) { return static_cast<float>(cr_libm_detail::float_seventh_power(c, 24, -126, 127)); }

// C's powf(x, y), correctly rounded (see powf_correctly_rounded above).
TV_HD float powf_correctly_rounded(float x, float y)
{
    bool certain;
    return cr_libm_detail::powf_impl(x, y, certain);
}

// For tests: whether the rounding test proved the result (see above).
namespace cr_libm_detail {
template <class Evaluate>
inline bool certain_for(Evaluate evaluate)
{
    bool certain = false;
    evaluate(certain);
    return certain;
}
}  // namespace cr_libm_detail
inline bool exp_rounding_is_certain(double x)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::exp_impl(x, c); });
}
inline bool pow_rounding_is_certain(double x, double y)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::pow_impl(x, y, c); });
}
inline bool powf_rounding_is_certain(float x, float y)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::powf_impl(x, y, c); });
}
inline bool sin_rounding_is_certain(double x)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::sin_cos_impl(x, false, c); });
}
inline bool cos_rounding_is_certain(double x)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::sin_cos_impl(x, true, c); });
}
inline bool atan2_rounding_is_certain(double y, double x)
{
    return cr_libm_detail::certain_for([&](bool& c) { cr_libm_detail::atan2_impl(y, x, c); });
}

}  // namespace tv
