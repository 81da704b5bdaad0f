// tv::glibc::sin and cos (core/glibc_sin_cos.h) against the live glibc sin
// and cos, bit for bit: ciede's argument ranges, the general range, random
// bit patterns, every branch boundary of s_sin.c and the special values.
// glibc runs its fma variant (__sin_fma, __cos_fma) only on CPUs with FMA and
// AVX2; elsewhere its other variants give other bits, so the comparisons
// are skipped there.
#include <gtest/gtest.h>

#include <math.h>

#include <cstdint>
#include <iostream>

#include "core/glibc_sin_cos.h"
#include "glibc_live.h"

namespace {

using namespace twinvmaf::test;

using UnaryFn = double (*)(double);
// Through volatile pointers: GCC must neither fold nor inline its builtins.
volatile UnaryFn glibc_sin = &::sin;
volatile UnaryFn glibc_cos = &::cos;





// The argument stream, with the distributions this test draws.
class SinCosArguments : public SplitMix64 {
public:
    using SplitMix64::SplitMix64;
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
};

bool in_branred_range(double x)
{
    const std::uint32_t k = static_cast<std::uint32_t>(bits_of(x) >> 32) & 0x7fffffffu;
    return k >= 0x419921fbu && k < 0x7ff00000u;
}

void compare_sin_cos(DifferCount& c, bool is_sin, double x)
{
    const double ours = is_sin ? tv::glibc::sin(x) : tv::glibc::cos(x);
    const double ref = is_sin ? glibc_sin(x) : glibc_cos(x);
    ++c.n;
    if (bits_of(ours) != bits_of(ref)) {
        if (c.differ < 5)
            ADD_FAILURE() << (is_sin ? "sin(" : "cos(") << std::hexfloat << x << "): ours " << ours << ", glibc "
                          << ref << std::defaultfloat;
        ++c.differ;
    }
}

template <class Gen>
void compare_range(const char* name, bool is_sin, std::size_t n, std::uint64_t seed, Gen gen)
{
    DifferCount c;
    SinCosArguments rng(seed);
    for (std::size_t i = 0; i < n; ++i) compare_sin_cos(c, is_sin, gen(rng));
    std::cout << "[ glibc sin/cos ] " << name << ": " << c.n << " arguments, " << c.differ << " differ\n";
    EXPECT_EQ(c.differ, 0u) << name;
}

constexpr double kPi = 3.141592653589793;

TEST(GlibcSinCos, SpecialValues)
{
    // These hold whatever glibc variant runs.
    EXPECT_EQ(bits_of(tv::glibc::sin(0.0)), bits_of(0.0));
    EXPECT_EQ(bits_of(tv::glibc::sin(-0.0)), bits_of(-0.0));
    EXPECT_EQ(tv::glibc::cos(0.0), 1.0);
    EXPECT_EQ(tv::glibc::cos(-0.0), 1.0);
    EXPECT_EQ(tv::glibc::sin(0x1p-30), 0x1p-30);
    EXPECT_EQ(tv::glibc::sin(double_of(1)), double_of(1));
    EXPECT_EQ(tv::glibc::cos(0x1p-28), 1.0);
    EXPECT_TRUE(std::isnan(tv::glibc::sin(NAN)));
    EXPECT_TRUE(std::isnan(tv::glibc::cos(NAN)));
    EXPECT_TRUE(std::isnan(tv::glibc::sin(INFINITY)));
    EXPECT_TRUE(std::isnan(tv::glibc::cos(-INFINITY)));
    // Outside the domain (glibc's __branred range, |x| >= 0x1.921fbp+26 =
    // 105414336): the documented quiet NaN.
    for (double x : {0x1.921fbp+26, -0x1.921fbp+26, 105414350.0, 1e9, -1e300, 0x1.fffffffffffffp+1023}) {
        EXPECT_EQ(bits_of(tv::glibc::sin(x)), 0x7ff8000000000000u) << x;
        EXPECT_EQ(bits_of(tv::glibc::cos(x)), 0x7ff8000000000000u) << x;
    }

    SKIP_UNLESS_GLIBC_FMA_VARIANT("sin/cos");
    DifferCount c;
    for (double x : {0.0, -0.0, double(NAN), -double(NAN), double(INFINITY), -double(INFINITY), double_of(1), 0x1p-1022, 0x1p-26, 0x1p-27, 0.126,
                     0.855469, 2.426265, 1.0, -1.0, kPi / 2, kPi, 105414335.0, 0x1.921faffffffffp+26})
        for (bool is_sin : {true, false}) compare_sin_cos(c, is_sin, x);
    EXPECT_EQ(c.differ, 0u);
}

TEST(GlibcSinCos, CiedeDomainsMatchGlibc)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("sin/cos");
    // ciede_math.h: sines of [-pi/2, 1.05], cosines of [-0.6, 38].
    compare_range("sin on [-pi/2, 1.05]", true, 1000000, 101, [](SinCosArguments& r) { return r.uniform(-kPi / 2, 1.05); });
    compare_range("cos on [-0.6, 38]", false, 1000000, 102, [](SinCosArguments& r) { return r.uniform(-0.6, 38.0); });
}

TEST(GlibcSinCos, GeneralDomainMatchesGlibc)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("sin/cos");
    compare_range("sin on [-1e5, 1e5]", true, 400000, 201, [](SinCosArguments& r) { return r.uniform(-1e5, 1e5); });
    compare_range("cos on [-1e5, 1e5]", false, 400000, 202, [](SinCosArguments& r) { return r.uniform(-1e5, 1e5); });
    compare_range("sin on [-1e8, 1e8]", true, 200000, 203, [](SinCosArguments& r) { return r.uniform(-1e8, 1e8); });
    compare_range("cos on [-1e8, 1e8]", false, 200000, 204, [](SinCosArguments& r) { return r.uniform(-1e8, 1e8); });
    // Random bit patterns below 0x1.921fbp+26: every binade alike, tiny ones too.
    auto bits_below = [](SinCosArguments& r) {
        for (;;) {
            const double x = double_of(r.next());
            if (!in_branred_range(x) && std::isfinite(x)) return x;
        }
    };
    compare_range("sin on random bits", true, 200000, 205, bits_below);
    compare_range("cos on random bits", false, 200000, 206, bits_below);
}

TEST(GlibcSinCos, BranchBoundariesMatchGlibc)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("sin/cos");
    DifferCount c;
    auto around = [&c](double x, int radius) {
        for (double sign : {1.0, -1.0}) {
            const std::uint64_t b = bits_of(sign * std::fabs(x));
            for (int d = -radius; d <= radius; ++d) {
                const std::uint64_t u = b + static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
                if ((u ^ b) >> 63) continue;  // crossed zero
                const double y = double_of(u);
                if (in_branred_range(y)) {
                    EXPECT_EQ(bits_of(tv::glibc::sin(y)), 0x7ff8000000000000u);
                    continue;
                }
                compare_sin_cos(c, true, y);
                compare_sin_cos(c, false, y);
            }
        }
    };
    // s_sin.c's thresholds on the high word: 2^-27 (cos), 2^-26 (sin),
    // 0.855469, 2.426265, 0x1.921fbp+26 (its comments' "105414350"); do_sin's
    // |x| < 0.126; pi/2 (sin's middle range reaches t = 0), pi/2 -+ 0.126
    // (cos's middle range crosses do_sin's threshold).
    for (std::uint32_t hw : {0x3e400000u, 0x3e500000u, 0x3feb6000u, 0x400368fdu, 0x419921fbu})
        around(double_of(static_cast<std::uint64_t>(hw) << 32), 2000);
    for (double x : {0.126, 0.855469, 2.426265, 105414350.0, kPi / 2, kPi / 2 - 0.126, kPi / 2 + 0.126}) around(x, 2000);
    // Table rows: big + |x| rounds to a multiple of 1/128, ties at odd 1/256.
    for (int i = 0; i < 112; ++i) around((i + 0.5) / 128.0, 8);
    // Multiples of pi/2, where the reduction cancels most.
    for (int k = 1; k < 2000; ++k) around(static_cast<double>(static_cast<long double>(k) * 1.5707963267948966192313216916397514L), 2);
    std::cout << "[ glibc sin/cos ] branch boundaries: " << c.n << " arguments, " << c.differ << " differ\n";
    EXPECT_EQ(c.differ, 0u);
}

}  // namespace
