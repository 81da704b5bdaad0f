// Double-double arithmetic for the project's correctly rounded libm
// functions (cr_log2.h, cr_libm.h): a value is hi + lo with |lo| <= ulp(hi)/2
// after normalisation. Only IEEE basic operations (+ - * /, compares) and
// exact bit manipulation, no fused multiply-add, so host and device (under
// the strict flags of cmake/gpu.cmake) give the same bits.
//
// Error of each operation, relative to the exact result of its (double-
// double) inputs, with u = 2^-53 (Joldes, Muller & Popescu, "Tight and
// rigorous error bounds for basic building blocks of double-word
// arithmetic", 2017; the algorithms are Dekker's and Knuth's):
//   two_sum, fast_two_sum, two_prod: exact (hi + lo is the exact result),
//   add (the "accurate" sum, two two_sums): < 3u^2,
//   mul (hi*hi exact, cross terms in double): < 7u^2 (their DWTimesDW1 is 7u^2),
//   mul_d (double-double times double): < 3u^2,
//   div (three quotient digits): < 15u^2 (a conservative count).
// The functions that use them state their bound in units of 2^-106 = u^2
// summed over their chain of operations, with a margin.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace tv::dd {

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

// a * b exactly (no underflow: |a b| >= 2^-969 or a b == 0).
TV_HD DD two_prod(double a, double b)
{
    const double p = a * b;
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}

TV_HD DD neg(DD x) { return {-x.hi, -x.lo}; }

TV_HD DD add(DD x, DD y)
{
    DD s = two_sum(x.hi, y.hi);
    const DD t = two_sum(x.lo, y.lo);
    s.lo += t.hi;
    s = fast_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return fast_two_sum(s.hi, s.lo);
}

TV_HD DD mul(DD x, DD y)
{
    DD p = two_prod(x.hi, y.hi);
    p.lo += x.hi * y.lo + x.lo * y.hi;
    return fast_two_sum(p.hi, p.lo);
}

TV_HD DD mul_d(DD x, double y)
{
    DD p = two_prod(x.hi, y);
    p.lo += x.lo * y;
    return fast_two_sum(p.hi, p.lo);
}

// x / y with three quotient digits (long division).
TV_HD DD div(DD x, DD y)
{
    const double q1 = x.hi / y.hi;
    DD r = add(x, mul_d(y, -q1));
    const double q2 = r.hi / y.hi;
    r = add(r, mul_d(y, -q2));
    const double q3 = r.hi / y.hi;
    const DD q = fast_two_sum(q1, q2);
    return add(q, DD{q3, 0.0});
}

TV_HD std::uint64_t bits_of(double x) { return tv::bit_cast<std::uint64_t>(x); }

TV_HD double double_of(std::uint64_t u) { return tv::bit_cast<double>(u); }

// 2^e as a double, for -1074 <= e <= 1023 (exact; subnormal below -1022).
TV_HD double pow2(int e)
{
    if (e >= -1022) return double_of(static_cast<std::uint64_t>(e + 1023) << 52);
    return double_of(1ULL << (e + 1074));
}

// Whether the exact value v, known to satisfy |v - (r.hi + r.lo)| <=
// rel_bound * |r.hi|, could round to nearest to something other than r.hi,
// i.e. whether hi + lo lies within the bound of a rounding boundary of hi
// (hi +- half its ulp; below a power of two the ulp under |hi| is half as
// large, so the quarter-ulp point is tested too, conservatively). r must be
// normalised (hi = RN(hi + lo)) and hi normal.
TV_HD bool rounding_is_ambiguous(DD r, double rel_bound)
{
    if (r.hi == 0.0) return false;
    const std::uint64_t u = bits_of(r.hi) & 0x7fffffffffffffffULL;
    const double ulp = double_of(u + 1) - double_of(u);  // ulp above |hi|
    const double half = 0.5 * ulp;
    const double lo = r.lo < 0 ? -r.lo : r.lo;
    const double err = rel_bound * double_of(u);
    const double gap = lo > half ? lo - half : half - lo;
    const double gap_below = lo > 0.25 * ulp ? lo - 0.25 * ulp : 0.25 * ulp - lo;
    return gap <= err || gap_below <= err;
}

}  // namespace tv::dd
