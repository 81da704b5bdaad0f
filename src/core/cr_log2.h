// tv::log2_correctly_rounded(double): log2 rounded once, to nearest, from a
// double-double result - the one log2 that the CPU references and their GPU
// twins share (DESIGN.md §1). Only IEEE basic operations (+ - * /, compares)
// and exact bit manipulation; no libm, no fused multiply-add.
//
// Method.
//   x = 2^e * m, m in [1, 2) (subnormals are scaled by 2^54 first).
//   A reduction point c is taken from the top 8 fraction bits of m:
//     m <  1.5: c = 1 + i/256        (the bucket's lower end; c = 1 for i = 0)
//     m >= 1.5: c = 1 + (i+1)/256, and the result is written as
//               (e + 1) + (log2(c) - 1) + log2(m/c)   (c = 2 for the last bucket)
//   so that x near 1 (from either side) uses c = 1 or c = 2 with a table value
//   of exactly 0, and the table value and log2(m/c) have the same sign: there
//   is no cancellation, and the result is accurate relative to its own size.
//   log(m/c) = 2 atanh(s), s = (m - c)/(m + c):
//     m - c is exact (Sterbenz: c/2 <= m <= 2c); m + c is formed exactly as a
//     double-double (two_sum); s is their double-double quotient.
//     |m - c| < 2^-8 and m + c > 2, so |s| < 2^-9 and z = s^2 < 2^-18.
//   atanh(s) = s (1 + z/3 + z^2/5 + ... + z^7/15) + R, |R| < |s| z^8 < |s| 2^-144.
//     1/3 and 1/5 are double-double constants; the tail from 1/7 on is summed
//     in double (its weight is z^3 < 2^-54, so its 2^-52 relative error is
//     below 2^-106 relative to atanh). Everything else is double-double.
//   log2(x) = e' + T[i] + 2 atanh(s) / ln 2, with T[i] = log2(c) (- 1) and
//     1/ln 2 as double-double (tables from tools/gen_cr_log2_table.py, exact
//     to 2^-106 relative each).
//
// Accuracy. Each double-double operation here (Dekker/Knuth two_sum,
// Veltkamp/Dekker two_prod, double-double mul/add/div) has relative error
// below 2^-104; there are fewer than 20 of them in a chain, and the last sums
// add same-signed terms (or e' of magnitude >= 1 to a term of magnitude
// <= log2(1.5), which amplifies absolute error by at most 2.5). So the
// double-double result hi + lo is within 2^-98 |log2 x| of the exact value
// (kErrorBound below, with a margin of 4x over the sum of the bounds).
//
// Rounding. (hi, lo) is normalised, so hi = RN(hi + lo). hi is the correctly
// rounded log2(x) unless the exact value can lie on the other side of a
// rounding boundary of hi, i.e. unless hi + lo lies within the error bound of
// a midpoint hi +- ulp(hi)/2. is_ambiguous() tests exactly that; it never
// fired on the 10^7+ random and boundary arguments of tests/unit/test_speed.cpp
// (expected rate ~2^-45 per random argument). If it fires, the result is
// still hi (faithful: error < 1 ulp), and log2_rounding_is_certain() lets a
// test see it. This is a proof of correct rounding for every argument where
// the test passes, not for all 2^64 arguments: that would need the worst-case
// table of Lefevre & Muller for binary64 log2 and a wider fallback.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/cr_log2_table.h"
#include "core/host_device.h"

namespace tv {

namespace cr_log2_detail {

struct DD {
    double hi, lo;
};

TV_HD DD two_sum(double a, double b)
{
    const double s = a + b;
    const double bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}

// |a| >= |b| (or a == 0).
TV_HD DD fast_two_sum(double a, double b)
{
    const double s = a + b;
    return {s, b - (s - a)};
}

// Veltkamp split into two 26-bit halves; |a| < 2^996, so no overflow.
TV_HD void split(double a, double& hi, double& lo)
{
    const double c = 134217729.0 * a;  // 2^27 + 1
    hi = c - (c - a);
    lo = a - hi;
}

TV_HD DD two_prod(double a, double b)
{
    const double p = a * b;
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

TV_HD DD dd_add(DD x, DD y)
{
    DD s = two_sum(x.hi, y.hi);
    const DD t = two_sum(x.lo, y.lo);
    s.lo += t.hi;
    s = fast_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return fast_two_sum(s.hi, s.lo);
}

TV_HD DD dd_mul(DD x, DD y)
{
    DD p = two_prod(x.hi, y.hi);
    p.lo += x.hi * y.lo + x.lo * y.hi;
    return fast_two_sum(p.hi, p.lo);
}

TV_HD DD dd_mul_d(DD x, double y)
{
    DD p = two_prod(x.hi, y);
    p.lo += x.lo * y;
    return fast_two_sum(p.hi, p.lo);
}

// x / y with three quotient digits (long division).
TV_HD DD dd_div(DD x, DD y)
{
    const double q1 = x.hi / y.hi;
    DD r = dd_add(x, dd_mul_d(y, -q1));
    const double q2 = r.hi / y.hi;
    r = dd_add(r, dd_mul_d(y, -q2));
    const double q3 = r.hi / y.hi;
    const DD q = fast_two_sum(q1, q2);
    return dd_add(q, DD{q3, 0.0});
}

TV_HD std::uint64_t bits_of(double x)
{
    return tv::bit_cast<std::uint64_t>(x);
}

TV_HD double double_of(std::uint64_t u)
{
    return tv::bit_cast<double>(u);
}

// Bound on |exact - (hi + lo)| relative to |hi| (see the header comment).
inline constexpr double kErrorBound = 0x1p-98;

// 1/3 and 1/5 as double-double.
inline constexpr double kThirdHi = 0x1.5555555555555p-2;
inline constexpr double kThirdLo = 0x1.5555555555555p-56;
inline constexpr double kFifthHi = 0x1.999999999999ap-3;
inline constexpr double kFifthLo = -0x1.999999999999ap-57;

// The double-double value of log2(x) for finite x > 0.
TV_HD DD log2_dd(double x)
{
    std::uint64_t u = bits_of(x);
    int e = static_cast<int>((u >> 52) & 0x7ff);
    if (e == 0) {  // subnormal: scale into the normal range, exactly
        u = bits_of(x * 0x1p54);
        e = static_cast<int>((u >> 52) & 0x7ff) - 54;
    }
    e -= 1023;
    const double m = double_of((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    const int i = static_cast<int>((u >> 44) & 0xff);
    double c;
    if (i < 128) {
        c = 1.0 + i * 0x1p-8;
    } else {
        c = 1.0 + (i + 1) * 0x1p-8;
        e += 1;
    }
    const DD num{m - c, 0.0};  // exact
    const DD den = two_sum(m, c);
    const DD s = dd_div(num, den);
    const DD z = dd_mul(s, s);
    // Horner: p = 1 + z/3 + z^2/5 + z^3 (1/7 + z/9 + z^2/11 + z^3/13 + z^4/15)
    const double zh = z.hi;
    const double tail = 1.0 / 7 + zh * (1.0 / 9 + zh * (1.0 / 11 + zh * (1.0 / 13 + zh * (1.0 / 15))));
    DD p = dd_add(DD{kFifthHi, kFifthLo}, dd_mul_d(z, tail));
    p = dd_add(DD{kThirdHi, kThirdLo}, dd_mul(z, p));
    p = dd_add(DD{1.0, 0.0}, dd_mul(z, p));
    const DD atanh_s = dd_mul(s, p);
    // 2 atanh(s) / ln 2 = log2(m / c)
    const DD log2_ratio = dd_mul(DD{2.0 * atanh_s.hi, 2.0 * atanh_s.lo}, DD{kInvLn2Hi, kInvLn2Lo});
    const TablePair& t = log2_point(i);
    const DD frac = dd_add(DD{t.hi, t.lo}, log2_ratio);
    return dd_add(DD{static_cast<double>(e), 0.0}, frac);
}

// Whether hi + lo is too close to a rounding boundary of hi for the error
// bound to decide the rounding.
TV_HD bool is_ambiguous(DD r)
{
    if (r.hi == 0.0) return false;
    const std::uint64_t u = bits_of(r.hi) & 0x7fffffffffffffffULL;
    const double ulp = double_of(u + 1) - double_of(u);  // ulp above |hi|
    const double half = 0.5 * ulp;
    const double lo = r.lo < 0 ? -r.lo : r.lo;
    const double hi_abs = double_of(u);
    const double err = kErrorBound * hi_abs;
    const double gap = lo > half ? lo - half : half - lo;
    // Below a power of two the ulp under |hi| is half as large; be safe.
    const double gap_below = lo > 0.25 * ulp ? lo - 0.25 * ulp : 0.25 * ulp - lo;
    return gap <= err || gap_below <= err;
}

}  // namespace cr_log2_detail

// log2(x) correctly rounded to nearest (see above for the exact claim).
// Special values as IEEE/C99: log2(+-0) = -inf, log2(x < 0) = NaN,
// log2(+inf) = +inf, log2(NaN) = NaN, log2(1) = +0.
TV_HD double log2_correctly_rounded(double x)
{
    using namespace cr_log2_detail;
    const std::uint64_t u = bits_of(x);
    if (x != x) return x;
    if (x == 0.0) return -double_of(0x7ff0000000000000ULL);
    if (u >> 63) return double_of(0x7ff8000000000000ULL);
    if (u == 0x7ff0000000000000ULL) return x;
    // Exact powers of two: e + 0.
    if ((u & 0x000fffffffffffffULL) == 0 && (u >> 52) != 0)
        return static_cast<double>(static_cast<int>(u >> 52) - 1023);
    return log2_dd(x).hi;
}

// For tests: whether the rounding of log2_correctly_rounded(x) is proven by
// the error bound (true for every finite x > 0 we have seen).
inline bool log2_rounding_is_certain(double x)
{
    using namespace cr_log2_detail;
    if (!(x > 0.0) || x == double_of(0x7ff0000000000000ULL)) return true;
    return !is_ambiguous(log2_dd(x));
}

}  // namespace tv
