// tv::glibc::atan2 (core/glibc_atan2.h) against the live glibc atan2, bit
// for bit: ciede's domain (float pairs in [-200, 200], small and zero
// components), the general domain (all finite floats, random double bit
// patterns, ratios near 2^k and near the table rows), and the special values
// (zeros, infinities, NaNs, subnormals) crossed with each other. glibc runs
// its fma variant (__ieee754_atan2_fma) only on CPUs with FMA and AVX2;
// elsewhere its other variants give other bits, so the comparisons are
// skipped there.
#include <gtest/gtest.h>

#include <math.h>

#include <cstdint>
#include <vector>

#include "core/glibc_atan2.h"
#include "glibc_live.h"

namespace {

using namespace twinvmaf::test;

using BinaryFn = double (*)(double, double);
// Through a volatile pointer: GCC must neither fold nor inline its builtin.
volatile BinaryFn glibc_atan2 = &::atan2;






// The argument stream, with the distributions this test draws.
class Atan2Arguments : public SplitMix64 {
public:
    using SplitMix64::SplitMix64;
    // A float uniform in [-200, 200] (ciede's Lab b and a').
    float lab() { return static_cast<float>(-200.0 + 400.0 * unit()); }
    // A float of log-uniform magnitude in [1e-6, 200], random sign.
    float small()
    {
        const float m = static_cast<float>(::exp(::log(1e-6) + unit() * (::log(200.0) - ::log(1e-6))));
        return (next() & 1) ? -m : m;
    }
};

// Bit for bit, NaN payloads included.
void compare_atan2(DifferCount& c, double y, double x)
{
    const double ours = tv::glibc::atan2(y, x);
    const double ref = glibc_atan2(y, x);
    ++c.n;
    if (bits_of(ours) != bits_of(ref)) {
        if (c.differ < 5)
            ADD_FAILURE() << "atan2(" << std::hexfloat << y << ", " << x << "): ours " << ours << ", glibc " << ref;
        ++c.differ;
    }
}

TEST(GlibcAtan2, SpecialValues)
{
    // C99 F.9.1.4's cases, glibc's values.
    const double pi = 0x1.921fb54442d18p+1;
    EXPECT_EQ(bits_of(tv::glibc::atan2(0.0, 1.0)), bits_of(0.0));
    EXPECT_EQ(bits_of(tv::glibc::atan2(-0.0, 1.0)), bits_of(-0.0));
    EXPECT_EQ(tv::glibc::atan2(0.0, -0.0), pi);
    EXPECT_EQ(tv::glibc::atan2(-0.0, -0.0), -pi);
    EXPECT_EQ(bits_of(tv::glibc::atan2(0.0, 0.0)), bits_of(0.0));
    EXPECT_EQ(tv::glibc::atan2(1.0, 0.0), pi / 2);
    EXPECT_EQ(tv::glibc::atan2(-1.0, -0.0), -pi / 2);
    EXPECT_EQ(tv::glibc::atan2(INFINITY, INFINITY), pi / 4);
    EXPECT_EQ(tv::glibc::atan2(-INFINITY, -INFINITY), -0x1.2d97c7f3321d2p+1);
    EXPECT_EQ(bits_of(tv::glibc::atan2(-5.0, INFINITY)), bits_of(-0.0));
    EXPECT_EQ(tv::glibc::atan2(5.0, -INFINITY), pi);
    EXPECT_EQ(tv::glibc::atan2(1.0, 1.0), pi / 4);
    EXPECT_TRUE(isnan(tv::glibc::atan2(NAN, 1.0)));
    EXPECT_TRUE(isnan(tv::glibc::atan2(1.0, NAN)));

    SKIP_UNLESS_GLIBC_FMA_VARIANT("atan2");
    std::vector<double> v = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, double_of(0x7ff0000000000001ull),
                             double_of(0xfff4000000000000ull), double_of(0x7ff8000000000123ull), 0x1p-1074,
                             -0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, 1.0, -1.0,
                             0x1p-4, 0x1p-500, 0x1p+500, 0x1.0000000000001p-500, 0x1.fffffffffffffp+499};
    // Powers of two (and their neighbours) over the whole exponent range:
    // every exponent gap, below and above 57 and +-500's scaling.
    for (int e = -1074; e <= 1023; e += 7)
        for (double m : {1.0, 0x1.fffffffffffffp0}) {
            const double d = ::ldexp(m, e);
            if (isfinite(d) && d != 0) {
                v.push_back(d);
                v.push_back(-d);
            }
        }
    DifferCount c;
    for (double y : v)
        for (double x : v) compare_atan2(c, y, x);
    EXPECT_EQ(c.differ, 0u) << "of " << c.n;
}

TEST(GlibcAtan2, CiedeDomain)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("atan2");
    Atan2Arguments rng(0xc1ede2000ull);
    DifferCount c;
    // ciede's hue angle: atan2(b, a') on floats promoted to double.
    for (int i = 0; i < 800000; ++i) compare_atan2(c, rng.lab(), rng.lab());
    for (int i = 0; i < 200000; ++i) {
        compare_atan2(c, rng.small(), rng.lab());
        compare_atan2(c, rng.lab(), rng.small());
        compare_atan2(c, rng.small(), rng.small());
    }
    // Exact zeros of either sign against every kind of the other component.
    for (int i = 0; i < 20000; ++i) {
        const double z = (rng.next() & 1) ? -0.0 : 0.0;
        const double w = (rng.next() & 1) ? rng.lab() : rng.small();
        compare_atan2(c, z, w);
        compare_atan2(c, w, z);
    }
    // Near-equal magnitudes (u = 1, the last table row), u near 1/16 (the
    // polynomial / table switch) and near the midpoints between table rows.
    for (int i = 0; i < 200000; ++i) {
        const float x = rng.lab();
        const unsigned r = static_cast<unsigned>(rng.next() % 3);
        const double t = r == 0 ? 1.0 : r == 1 ? 0.0625 : (static_cast<double>(rng.next() % 241 + 16) + 0.5) / 256.0;
        const std::uint32_t yb = bits_of(static_cast<float>(x * t));
        const float y = float_of(yb + static_cast<std::uint32_t>(rng.next() % 5) - 2u);
        compare_atan2(c, y, x);
        compare_atan2(c, x, -y);
    }
    EXPECT_EQ(c.differ, 0u) << "of " << c.n;
}

TEST(GlibcAtan2, GeneralDomain)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("atan2");
    Atan2Arguments rng(0xa7a2ull);
    DifferCount c;
    // Every finite float pair.
    for (int i = 0; i < 300000; ++i) {
        std::uint32_t a, b;
        do a = static_cast<std::uint32_t>(rng.next()); while ((a & 0x7f800000u) == 0x7f800000u);
        do b = static_cast<std::uint32_t>(rng.next()); while ((b & 0x7f800000u) == 0x7f800000u);
        compare_atan2(c, float_of(a), float_of(b));
    }
    // Random double bit patterns (NaNs, infinities and subnormals included).
    for (int i = 0; i < 300000; ++i) compare_atan2(c, double_of(rng.next()), double_of(rng.next()));
    // Exponents within 64 of each other: the main path, both scalings.
    for (int i = 0; i < 300000; ++i) {
        const int ea = static_cast<int>(rng.next() % 2047);
        int eb = ea + static_cast<int>(rng.next() % 129) - 64;
        eb = eb < 0 ? 0 : eb > 2046 ? 2046 : eb;
        const double y = double_of((rng.next() & 0x800fffffffffffffull) | (static_cast<std::uint64_t>(ea) << 52));
        const double x = double_of((rng.next() & 0x800fffffffffffffull) | (static_cast<std::uint64_t>(eb) << 52));
        compare_atan2(c, y, x);
    }
    // y / x near 2^k (k in [-70, 70]) and near the table rows, a few ulps off.
    for (int i = 0; i < 300000; ++i) {
        const double x =
            double_of((rng.next() & 0x800fffffffffffffull) | (static_cast<std::uint64_t>(rng.next() % 2046 + 1) << 52));
        const double t = (rng.next() & 1) ? ::ldexp(1.0, static_cast<int>(rng.next() % 141) - 70)
                                          : (static_cast<double>(rng.next() % 241 + 16) + 0.5) / 256.0;
        const double y = double_of(bits_of(x * t) + rng.next() % 9 - 4);
        compare_atan2(c, y, x);
        compare_atan2(c, x, -y);
    }
    // u = min / max on (or next to) a table row's x0: t3 = u - x0 is zero or
    // tiny, and EADD's |t3| > |du| test goes either way.
    for (int i = 0; i < 200000; ++i) {
        const double x0 = tv::glibc::atan2_detail::cij(static_cast<int>(rng.next() % 241), 0);
        const double m =
            double_of((rng.next() & 0x000fffffffffffffull) | (static_cast<std::uint64_t>(rng.next() % 1600 + 200) << 52));
        const double n = double_of(bits_of(x0 * m) + rng.next() % 5 - 2);
        compare_atan2(c, n, m);
        compare_atan2(c, -m, n);
    }
    EXPECT_EQ(c.differ, 0u) << "of " << c.n;
}

}  // namespace
