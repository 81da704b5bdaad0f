// tv::glibc::exp and tv::glibc::pow (core/glibc_exp_pow.h) against the live
// glibc exp and pow, bit for bit (NaN payloads included), on ciede's domains,
// the general domain and special values. glibc's x86-64 libm runs its fma
// variant (__exp_fma, __pow_fma) only on CPUs with FMA and AVX2, the variant
// that the header reproduces; elsewhere the comparisons are skipped.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

#include "core/glibc_exp_pow.h"
#include "glibc_live.h"

namespace {

using namespace twinvmaf::test;

// Through volatile pointers, so that the compiler neither folds nor inlines
// its builtins: these are the functions of the libm that is loaded.
double (*volatile glibc_exp)(double) = ::exp;
double (*volatile glibc_pow)(double, double) = ::pow;




#define SKIP_WITHOUT_FMA_VARIANT()                                                                   \
    if (!glibc_runs_its_fma_variants())                                                               \
    GTEST_SKIP() << "this CPU lacks FMA or AVX2: glibc runs its sse2 variant, which "                \
                    "core/glibc_exp_pow.h does not reproduce"

class Arguments {
public:
    explicit Arguments(std::uint64_t seed) : rng_(seed) {}
    double uniform(double a, double b) { return a + (b - a) * (static_cast<double>(rng_() >> 11) * 0x1p-53); }
    float uniform_float(float a, float b) { return static_cast<float>(uniform(a, b)); }
    std::uint64_t bits() { return rng_(); }
    std::int64_t integer(std::int64_t lo, std::int64_t hi)
    {
        return lo + static_cast<std::int64_t>(rng_() % static_cast<std::uint64_t>(hi - lo + 1));
    }

private:
    std::mt19937_64 rng_;
};

// Counts the arguments on which ours and glibc's bits differ; reports the
// first few.
class Compare {
public:
    explicit Compare(const char* name) : name_(name) {}
    ~Compare()
    {
        std::cout << "[ glibc_exp_pow ] " << name_ << ": " << count_ << " arguments, " << differ_ << " differ\n";
        EXPECT_EQ(differ_, 0u) << name_;
    }
    void exp(double x)
    {
        ++count_;
        const double ours = tv::glibc::exp(x), theirs = glibc_exp(x);
        if (bits_of(ours) != bits_of(theirs) && ++differ_ <= 5)
            ADD_FAILURE() << std::hexfloat << name_ << ": exp(" << x << ") ours " << ours << ", glibc " << theirs;
    }
    void pow(double x, double y)
    {
        ++count_;
        const double ours = tv::glibc::pow(x, y), theirs = glibc_pow(x, y);
        if (bits_of(ours) != bits_of(theirs) && ++differ_ <= 5)
            ADD_FAILURE() << std::hexfloat << name_ << ": pow(" << x << ", " << y << ") ours " << ours << ", glibc "
                          << theirs;
    }

private:
    const char* name_;
    std::size_t count_ = 0, differ_ = 0;
};

std::vector<double> special_values()
{
    std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 2.4, 1.0 / 3.0, 7.0, -7.0,
                             INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 0x1p-1074, -0x1p-1074,
                             0x0.fffffffffffffp-1022, 0x1.8p-1070, 0x1p-54, -0x1p-54, 0x1p-55, 0x1p-65, -0x1p-65,
                             0x1p-66, 0x1p63, -0x1p63, 0x1.fffffffffffffp62, 0x1p53 + 2, 0x1p53 - 1, -(0x1p53 - 1),
                             512.0, -512.0, 1024.0, -1024.0, 709.782712893384, 709.7827128933841,
                             -708.3964185322641, -745.1332191019411, -745.1332191019412, 1.0000000000000002,
                             0.99999999999999989, -1.0000000000000002, 1e300, 1e-300, 1075.0, -1075.0, 0.1, -0.1};
    for (std::uint64_t u : {0x7ff8000000000000ULL, 0xfff8000000000000ULL, 0x7ff0000000000001ULL,
                            0xfff4000000000123ULL, 0x7ffc0000deadbeefULL})
        v.push_back(double_of(u));
    return v;
}

// Values that hold on any CPU (they are ours, not a comparison).
TEST(GlibcExpPow, KnownValues)
{
    EXPECT_EQ(tv::glibc::exp(0.0), 1.0);
    EXPECT_EQ(tv::glibc::exp(-0.0), 1.0);
    EXPECT_EQ(tv::glibc::exp(1.0), 0x1.5bf0a8b145769p+1);
    EXPECT_EQ(tv::glibc::exp(710.0), INFINITY);
    EXPECT_EQ(bits_of(tv::glibc::exp(-INFINITY)), bits_of(0.0));
    EXPECT_EQ(tv::glibc::exp(-745.0), 0x1p-1074);  // subnormal result through specialcase
    EXPECT_EQ(bits_of(tv::glibc::exp(double_of(0x7ff0000000000001ULL))), 0x7ff8000000000001ULL);  // quieted

    EXPECT_EQ(tv::glibc::pow(2.0, 0.5), M_SQRT2);
    EXPECT_EQ(tv::glibc::pow(-2.0, 3.0), -8.0);
    EXPECT_EQ(tv::glibc::pow(-2.0, -1075.0), -0.0);
    EXPECT_EQ(bits_of(tv::glibc::pow(-2.0, -1075.0)), bits_of(-0.0));
    EXPECT_EQ(tv::glibc::pow(-0.0, -3.0), -INFINITY);
    EXPECT_EQ(tv::glibc::pow(0.0, -2.4), INFINITY);
    EXPECT_EQ(tv::glibc::pow(NAN, 0.0), 1.0);
    EXPECT_EQ(tv::glibc::pow(1.0, NAN), 1.0);
    EXPECT_EQ(tv::glibc::pow(-1.0, INFINITY), 1.0);
    EXPECT_EQ(bits_of(tv::glibc::pow(-1.5, 2.4)), 0xfff8000000000000ULL);  // x86's default NaN
    EXPECT_EQ(tv::glibc::pow(0x1p-1074, 0.5), 0x1p-537);
    EXPECT_EQ(tv::glibc::pow(10.0, 400.0), INFINITY);
}

TEST(GlibcExpPow, SpecialValuesEqualGlibc)
{
    SKIP_WITHOUT_FMA_VARIANT();
    Compare c("special values (exp of each, pow of each pair)");
    const std::vector<double> s = special_values();
    for (double x : s) {
        c.exp(x);
        for (double y : s) c.pow(x, y);
    }
}

TEST(GlibcExpPow, CiedeDomainsEqualGlibc)
{
    SKIP_WITHOUT_FMA_VARIANT();
    Arguments g(20260301);
    {
        // R_T's exp(-(d d)), d a float in [-11.1, 11.1]: the product in double
        // (a superset of ciede's float product) and in float.
        Compare c("exp(-(d*d)), d float in [-11.1, 11.1]");
        for (int i = 0; i < 600000; ++i) {
            const float d = g.uniform_float(-11.1f, 11.1f);
            c.exp(-(static_cast<double>(d) * static_cast<double>(d)));
            c.exp(-static_cast<double>(d * d));
        }
    }
    {
        Compare c("pow(x, 2.4), x in (0.0392, 1.3)");
        for (int i = 0; i < 500000; ++i) c.pow((g.uniform(10.0 / 255.0, 1.3) + 0.055) * (1.0 / 1.055), 2.4);
    }
    {
        Compare c("pow(t, 1/3), t in (216/24389, 1.2)");
        for (int i = 0; i < 500000; ++i) c.pow(g.uniform(216.0 / 24389.0, 1.2), 1.0 / 3.0);
    }
    {
        Compare c("pow(c, 7), c float in [0, 300]");
        for (int i = 0; i < 500000; ++i) c.pow(g.uniform_float(0.0f, 300.0f), 7.0);
    }
}

TEST(GlibcExpPow, GeneralDomainEqualsGlibc)
{
    SKIP_WITHOUT_FMA_VARIANT();
    Arguments g(20260302);
    {
        Compare c("exp: uniform in [-745, 710], overflow and underflow ranges, random bits");
        for (int i = 0; i < 300000; ++i) {
            c.exp(g.uniform(-745.0, 710.0));
            c.exp(g.uniform(-746.0, -708.0));
            c.exp(g.uniform(708.0, 710.0));
            c.exp(double_of(g.bits()));
        }
    }
    {
        Compare c("pow: x > 0 in [0.01, 100] and random bits, y in [-50, 50]");
        for (int i = 0; i < 200000; ++i) {
            c.pow(std::exp(g.uniform(-4.6, 4.6)), g.uniform(-50.0, 50.0));
            c.pow(double_of(g.bits() >> 1), g.uniform(-50.0, 50.0));
        }
    }
    {
        Compare c("pow: results near overflow and underflow (subnormal), either sign");
        for (int i = 0; i < 100000; ++i) {
            const double x = std::exp(g.uniform(-3.0, 3.0));
            const double h = (i & 1) ? g.uniform(-1080.0, -1015.0) : g.uniform(1015.0, 1025.0);
            const double y = h / std::log2(x);
            c.pow(x, y);
            c.pow(-x, std::nearbyint(y));
        }
    }
    {
        Compare c("pow: x < 0 with integer y, and with non-integer y");
        for (int i = 0; i < 150000; ++i) {
            c.pow(-std::exp(g.uniform(-7.0, 7.0)), static_cast<double>(g.integer(-60, 60)));
            c.pow(-g.uniform(0.0, 10.0), g.uniform(-50.0, 50.0));
        }
    }
    {
        Compare c("pow: random bits, subnormal x, x near 1 with tiny or huge y");
        for (int i = 0; i < 150000; ++i) {
            c.pow(double_of(g.bits()), double_of(g.bits()));
            c.pow(double_of(g.bits() & 0x800fffffffffffffULL), g.uniform(-2.0, 2.0));
            c.pow(1.0 + g.uniform(-1e-6, 1e-6), std::ldexp(g.uniform(-1.0, 1.0), static_cast<int>(g.integer(-75, 74))));
        }
    }
}

}  // namespace
