// core/cr_libm.h's powf_correctly_rounded against independent references:
// C99's special values; exact and midpoint cases (x^y exactly a float or
// exactly halfway between two, the cases where rounding a nearby double to
// float goes wrong) against exact binary128 products rounded once by
// libgcc's conversion; random arguments in float_adm's range and over all
// floats against libquadmath's powq, left out where that is within 2^-100 of
// a float midpoint. How often glibc's powf differs is reported, not asserted.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#if defined(TWINVMAF_HAVE_QUADMATH)
#include <quadmath.h>
#endif

#include "core/cr_libm.h"

namespace {

std::uint32_t bits_of(float x)
{
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

float float_of(std::uint32_t u)
{
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

bool same(float a, float b) { return bits_of(a) == bits_of(b) || (std::isnan(a) && std::isnan(b)); }

float cr(float x, float y) { return tv::powf_correctly_rounded(x, y); }

TEST(CrPowf, SpecialValuesAsC99)
{
    const float inf = INFINITY;
    EXPECT_EQ(cr(NAN, 0.0f), 1.0f);
    EXPECT_EQ(cr(NAN, -0.0f), 1.0f);
    EXPECT_EQ(cr(1.0f, NAN), 1.0f);
    EXPECT_EQ(cr(-1.0f, inf), 1.0f);
    EXPECT_EQ(cr(-1.0f, -inf), 1.0f);
    EXPECT_TRUE(std::isnan(cr(NAN, 2.0f)));
    EXPECT_TRUE(std::isnan(cr(2.0f, NAN)));
    EXPECT_TRUE(std::isnan(cr(-2.0f, 2.5f)));
    EXPECT_EQ(bits_of(cr(0.0f, 2.5f)), bits_of(0.0f));
    EXPECT_EQ(bits_of(cr(-0.0f, 3.0f)), bits_of(-0.0f));
    EXPECT_EQ(bits_of(cr(-0.0f, 2.0f)), bits_of(0.0f));
    EXPECT_EQ(bits_of(cr(-0.0f, 2.5f)), bits_of(0.0f));
    EXPECT_EQ(cr(0.0f, -2.5f), inf);
    EXPECT_EQ(cr(-0.0f, -3.0f), -inf);
    EXPECT_EQ(cr(-0.0f, -2.0f), inf);
    EXPECT_EQ(cr(0.5f, inf), 0.0f);
    EXPECT_EQ(cr(0.5f, -inf), inf);
    EXPECT_EQ(cr(-2.0f, inf), inf);
    EXPECT_EQ(cr(2.0f, -inf), 0.0f);
    EXPECT_EQ(cr(inf, 2.5f), inf);
    EXPECT_EQ(cr(inf, -2.5f), 0.0f);
    EXPECT_EQ(cr(-inf, 3.0f), -inf);
    EXPECT_EQ(cr(-inf, 2.0f), inf);
    EXPECT_EQ(bits_of(cr(-inf, -3.0f)), bits_of(-0.0f));
    EXPECT_EQ(bits_of(cr(-inf, -2.5f)), bits_of(0.0f));
    EXPECT_EQ(cr(-2.0f, 3.0f), -8.0f);
    EXPECT_EQ(cr(-2.0f, -2.0f), 0.25f);
    EXPECT_EQ(cr(-3.0f, 0x1p24f), cr(3.0f, 0x1p24f));  // even: every float >= 2^24
    // Overflow and underflow, including the ties at both ends of the range.
    EXPECT_EQ(cr(1e20f, 2.0f), inf);
    EXPECT_EQ(cr(2.0f, 128.0f), inf);
    EXPECT_EQ(cr(2.0f, 127.0f), 0x1p127f);
    EXPECT_EQ(cr(2.0f, -149.0f), 0x1p-149f);
    EXPECT_EQ(cr(0x1p-100f, 1.5f), 0.0f);     // 2^-150: halfway to 2^-149, ties to 0 (even)
    EXPECT_EQ(cr(0x1.2p-97f, 1.5f), 14 * 0x1p-149f);  // (3 2^-50)^3 = 13.5 2^-149: a tie, to even
    EXPECT_EQ(cr(0x1p-76f, 2.0f), 0.0f);      // 2^-152
    EXPECT_EQ(cr(0x1.8p-75f, 2.0f), 0x1p-149f);  // 2.25 * 2^-150
    EXPECT_EQ(cr(0x1.000002p-75f, 2.0f), 0x1p-149f);
    EXPECT_EQ(cr(20.0f, 1.0f), 20.0f);
    EXPECT_EQ(cr(2.0f, 0.5f), std::sqrt(2.0f));  // sqrtf is IEEE: correctly rounded
    EXPECT_EQ(cr(16.0f, 0.25f), 2.0f);
    EXPECT_EQ(cr(0x1p-149f, 0.5f), float(0x1.6a09e667f3bcdp-75));
}

#if defined(TWINVMAF_HAVE_QUADMATH)

// The float that the exact binary128 value q rounds to (libgcc's soft-float
// conversion: one rounding, ties to even, subnormals and overflow as IEEE).
float to_float(__float128 q) { return static_cast<float>(q); }

// Whether q (with libquadmath's ~1 ulp of 113 bits) is far enough from a
// float midpoint for its rounding to be decided.
bool decisive(__float128 q)
{
    const float f = to_float(q);
    if (q == 0 || (std::isinf(f) && q > static_cast<__float128>(0x1p128))) return true;
    const __float128 fq = std::isinf(f) ? static_cast<__float128>(0x1p128) : static_cast<__float128>(f);
    float toward = std::nextafter(std::isinf(f) ? FLT_MAX : f, q > fq ? INFINITY : 0.0f);
    if (std::isinf(f) && q <= fq) toward = FLT_MAX;
    const __float128 tq = std::isinf(toward) ? static_cast<__float128>(0x1p128) : static_cast<__float128>(toward);
    const __float128 mid = (fq + tq) / 2;
    return fabsq(q - mid) > fabsq(q) * static_cast<__float128>(0x1p-100);
}

struct Tally {
    std::size_t arguments = 0, undecided = 0, wrong = 0, uncertain = 0, glibc_differs = 0;
};

void check(const char* name, const std::vector<std::pair<float, float>>& args)
{
    Tally t;
    for (auto [x, y] : args) {
        ++t.arguments;
        const float mine = cr(x, y);
        const __float128 q = powq(x, y);
        if (!decisive(q)) {
            ++t.undecided;
        } else if (!same(mine, to_float(q)) && ++t.wrong <= 5) {
            ADD_FAILURE() << std::hexfloat << name << ": powf(" << x << ", " << y << ") = " << mine << ", binary128 "
                          << to_float(q);
        }
        if (!tv::powf_rounding_is_certain(x, y)) ++t.uncertain;
        if (!same(std::pow(x, y), mine)) ++t.glibc_differs;
    }
    std::cout << "[ cr_powf ] " << name << ": " << t.arguments << " arguments, " << t.wrong << " differ from binary128, "
              << t.undecided << " undecided by it, " << t.uncertain << " uncertain; glibc powf differs on "
              << t.glibc_differs << "\n";
    EXPECT_EQ(t.wrong, 0u) << name;
    EXPECT_EQ(t.uncertain, 0u) << name;
}

class Arguments {
public:
    float uniform(float a, float b) { return static_cast<float>(a + (b - a) * ((rng_() >> 11) * 0x1p-53)); }
    // log-uniform magnitude in [2^lo, 2^hi).
    float scaled(int lo, int hi)
    {
        return static_cast<float>(std::ldexp(1.0 + (rng_() >> 12) * 0x1p-52, lo + static_cast<int>(rng_() % (hi - lo))));
    }
    std::uint32_t bits() { return static_cast<std::uint32_t>(rng_()); }
    std::uint64_t next() { return rng_(); }

private:
    std::mt19937_64 rng_{20261202};
};

constexpr int kRandom = 40000;

// float_adm's terms: |coefficient| (minus a threshold) in about [0, 1000]
// (and tiny differences near 0), to the power (float)adm_p_norm, p in
// [1, 20]; its fixtures' p = 2, 2.5, 4 and a few others.
TEST(CrPowf, EqualsBinary128OnFloatAdmRange)
{
    Arguments g;
    std::vector<std::pair<float, float>> args;
    const float ys[] = {1.0f, 1.5f, 2.0f, 2.2f, 2.5f, 3.0f, 4.0f, 1.0f / 3, 0.5f, 7.3f, 20.0f};
    for (float y : ys) {
        for (int i = 0; i < kRandom; ++i) args.emplace_back(g.uniform(0, 64), y);
        for (int i = 0; i < kRandom; ++i) args.emplace_back(g.scaled(-40, 10), y);
    }
    for (int i = 0; i < 4 * kRandom; ++i) args.emplace_back(g.scaled(-30, 10), g.uniform(1, 20));
    check("float_adm's range", args);
}

TEST(CrPowf, EqualsBinary128OnAllFloats)
{
    Arguments g;
    std::vector<std::pair<float, float>> args;
    while (args.size() < 8 * kRandom) {
        const float x = float_of(g.bits() & 0x7fffffffu);
        const float y = float_of(g.bits());
        if (!std::isfinite(x) || !std::isfinite(y) || x == 0 || x == 1 || y == 0) continue;
        // Keep about half the pairs inside the float range (|y log2 x| < 160).
        if ((args.size() & 1) && std::fabs(static_cast<double>(y) * std::log2(static_cast<double>(x))) > 160) continue;
        args.emplace_back(x, y);
    }
    // Near 1, where h = y log2 x is small and y may be large.
    for (int i = 0; i < kRandom; ++i) {
        const float x = float_of(bits_of(1.0f) + static_cast<std::uint32_t>(g.next() % 4096) - 2048);
        args.emplace_back(x, g.scaled(-20, 30) * ((g.next() & 1) ? 1.0f : -1.0f));
    }
    check("all floats", args);
}

// Near-ties: 24-bit m in [2^23.5, 2^24) whose square's low 24 bits (those
// rounded off) lie within 2^12 units of half (2^23), found by search; x^2 is
// then within 2^-36 ulp of a float midpoint but not on it (exact in
// binary128: 48 bits), the cases a powf with a looser error gets wrong.
// (The argument x is a float, the reference x * x in binary128: exact.)
TEST(CrPowf, NearTiesOfSquaresRoundToTheirSide)
{
    std::size_t count = 0, wrong = 0, glibc_differs = 0;
    volatile float glibc_two = 2.0f;  // a constant 2 would fold powf(x, 2) into x * x
    for (std::uint64_t m = 11863285; m < (1u << 24); m += 2) {  // the odd m above 2^23.5
        const std::int64_t low = static_cast<std::int64_t>((m * m) & 0xffffffu) - (1 << 23);
        if (low == 0 || low < -4096 || low > 4096) continue;
        const float x = std::ldexp(static_cast<float>(m), -24 + static_cast<int>(m % 41) - 20);
        const __float128 exact = static_cast<__float128>(x) * x;
        const float expected = to_float(exact);
        ++count;
        if (!same(cr(x, 2.0f), expected) && ++wrong <= 5)
            ADD_FAILURE() << std::hexfloat << "powf(" << x << ", 2) = " << cr(x, 2.0f) << ", exactly " << expected;
        if (!same(std::pow(x, glibc_two), expected)) ++glibc_differs;
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(count, 500u);
    std::cout << "[ cr_powf ] near-ties of squares: " << count << " pairs; glibc powf differs on " << glibc_differs << "\n";
}

// x = (q 2^e)^(2^k), y = n / 2^k for odd q: x^y = q^n 2^(e n) exactly. With
// q^n of 25 bits that is a float midpoint, of at most 24 bits a float.
struct ExactCase {
    float x, y;
    __float128 value;
};

__float128 power_of(std::uint64_t q, int n)
{
    __float128 v = 1;
    for (int i = 0; i < n; ++i) v *= q;  // exact: below 2^113 for the cases here
    return v;
}

std::vector<ExactCase> exact_cases(Arguments& g)
{
    std::vector<ExactCase> cases;
    auto add = [&](std::uint64_t q, int e, int k, int n) {
        const __float128 base = ldexpq(static_cast<__float128>(q), e);
        const __float128 x = power_of(q, 1 << k) * ldexpq(1, e << k);
        const float xf = to_float(x);
        if (static_cast<__float128>(xf) != x || xf == 0 || std::isinf(xf)) return;  // x itself not a float
        (void)base;
        cases.push_back({xf, std::ldexp(static_cast<float>(n), -k), power_of(q, n) * ldexpq(1, e * n)});
    };
    // y = 2: 13-bit odd q gives 25-bit squares (midpoints), 12-bit q floats;
    // e = -75 puts q^2 2^-150 on subnormal midpoints.
    for (std::uint64_t q = 2049; q < 5793; q += 2) add(q, -12 + static_cast<int>(g.next() % 40) - 20, 0, 2);
    for (std::uint64_t q = 1; q < 4096; q += 2) add(q, -75, 0, 2);
    // y = 4 (q^4 of 25 bits: q in 65..75), 3 (q in 257..321).
    for (std::uint64_t q = 3; q < 77; q += 2) add(q, static_cast<int>(g.next() % 20) - 10, 0, 4);
    for (std::uint64_t q = 201; q < 323; q += 2) add(q, static_cast<int>(g.next() % 20) - 10, 0, 3);
    // y = 1.5, 2.5, 0.5, 0.25, 1.25 (x a perfect square or fourth power).
    for (std::uint64_t q = 201; q < 323; q += 2) add(q, static_cast<int>(g.next() % 20) - 10, 1, 3);
    for (std::uint64_t q = 3; q < 33; q += 2) add(q, static_cast<int>(g.next() % 20) - 10, 1, 5);
    for (std::uint64_t q = 1; q < 4096; q += 2) add(q, static_cast<int>(g.next() % 60) - 30, 1, 1);
    for (std::uint64_t q = 1; q < 64; q += 2) add(q, static_cast<int>(g.next() % 40) - 20, 2, 1);
    for (std::uint64_t q = 1; q < 64; q += 2) add(q, static_cast<int>(g.next() % 40) - 20, 2, 5);
    // Powers of two to subnormal ties: 2^-150 = (2^-100)^1.5, and odd
    // multiples of 2^-150 from y = 1.5.
    add(1, -50, 1, 3);
    for (std::uint64_t q = 1; q < 300; q += 2) add(q, -50, 1, 3);
    // The named case: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24, halfway between
    // 1 + 2^-11 and its successor.
    add(4097, -12, 0, 2);
    return cases;
}

TEST(CrPowf, ExactAndMidpointCasesRoundOnceToEven)
{
    Arguments g;
    const std::vector<ExactCase> cases = exact_cases(g);
    std::size_t wrong = 0, uncertain = 0, midpoints = 0, glibc_differs = 0, glibc_midpoints_differ = 0;
    for (const ExactCase& c : cases) {
        const float expected = to_float(c.value);
        const float mine = cr(c.x, c.y);
        const bool midpoint = static_cast<__float128>(expected) != c.value;
        midpoints += midpoint;
        if (!same(mine, expected) && ++wrong <= 5)
            ADD_FAILURE() << std::hexfloat << "powf(" << c.x << ", " << c.y << ") = " << mine << ", exactly rounded "
                          << expected;
        if (!tv::powf_rounding_is_certain(c.x, c.y)) ++uncertain;
        if (!same(std::pow(c.x, c.y), expected)) {
            ++glibc_differs;
            glibc_midpoints_differ += midpoint;
        }
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(uncertain, 0u);
    EXPECT_GT(midpoints, 3000u);  // the generator makes what it says
    EXPECT_EQ(cr(0x1.001p0f, 2.0f), 0x1.002p0f);  // the tie to even of (1 + 2^-12)^2
    std::cout << "[ cr_powf ] exact cases: " << cases.size() << " (" << midpoints << " float midpoints); glibc powf "
              << "differs on " << glibc_differs << " (" << glibc_midpoints_differ << " of them midpoints)\n";
}

#endif

}  // namespace
