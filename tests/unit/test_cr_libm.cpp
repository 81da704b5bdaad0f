// The correctly rounded exp, pow, sin, cos, atan2 and c^7 of core/cr_libm.h
// against binary128 (libquadmath), an independent higher-precision
// computation, on millions of random and boundary arguments; their special
// values and domains; and how often glibc's own functions differ (reported,
// not asserted: glibc is not correctly rounded).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#if defined(TWINVMAF_HAVE_QUADMATH)
#include <quadmath.h>
#endif

#include "core/cr_libm.h"

namespace {

std::uint64_t to_bits(double x)
{
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

float float_from_bits(std::uint32_t u)
{
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

bool same(double a, double b) { return to_bits(a) == to_bits(b) || (std::isnan(a) && std::isnan(b)); }

TEST(CrLibm, SpecialValuesAndDomains)
{
    EXPECT_EQ(tv::exp_correctly_rounded(0.0), 1.0);
    EXPECT_EQ(tv::exp_correctly_rounded(-0.0), 1.0);
    EXPECT_EQ(tv::exp_correctly_rounded(1.0), 0x1.5bf0a8b145769p+1);  // e
    EXPECT_EQ(tv::exp_correctly_rounded(800.0), INFINITY);
    EXPECT_EQ(tv::exp_correctly_rounded(-800.0), 0.0);
    EXPECT_TRUE(std::isnan(tv::exp_correctly_rounded(700.0)));  // outside the domain, inside the range
    EXPECT_TRUE(std::isnan(tv::exp_correctly_rounded(NAN)));

    EXPECT_EQ(tv::pow_correctly_rounded(2.0, 0.0), 1.0);
    EXPECT_EQ(tv::pow_correctly_rounded(1.0, 2.4), 1.0);
    EXPECT_EQ(tv::pow_correctly_rounded(0.0, 2.4), 0.0);
    EXPECT_EQ(tv::pow_correctly_rounded(0.0, -2.4), INFINITY);
    EXPECT_EQ(tv::pow_correctly_rounded(4.0, 0.5), 2.0);
    EXPECT_EQ(tv::pow_correctly_rounded(8.0, 1.0 / 3.0), 2.0);  // 2^(1 - 2^-54), 0.3 ulp below 2
    EXPECT_TRUE(std::isnan(tv::pow_correctly_rounded(-1.5, 2.4)));
    EXPECT_TRUE(std::isnan(tv::pow_correctly_rounded(2.0, INFINITY)));

    EXPECT_EQ(to_bits(tv::sin_correctly_rounded(-0.0)), to_bits(-0.0));
    EXPECT_EQ(tv::sin_correctly_rounded(0x1p-30), 0x1p-30);
    EXPECT_EQ(tv::cos_correctly_rounded(0.0), 1.0);
    EXPECT_EQ(tv::sin_correctly_rounded(1.0), 0x1.aed548f090ceep-1);
    EXPECT_EQ(tv::cos_correctly_rounded(1.0), 0x1.14a280fb5068cp-1);
    EXPECT_TRUE(std::isnan(tv::sin_correctly_rounded(129.0)));
    EXPECT_TRUE(std::isnan(tv::cos_correctly_rounded(INFINITY)));

    EXPECT_EQ(to_bits(tv::atan2_correctly_rounded(0.0, 1.0)), to_bits(0.0));
    EXPECT_EQ(to_bits(tv::atan2_correctly_rounded(-0.0, 1.0)), to_bits(-0.0));
    EXPECT_EQ(tv::atan2_correctly_rounded(0.0, -1.0), M_PI);
    EXPECT_EQ(tv::atan2_correctly_rounded(-0.0, -0.0), -M_PI);
    EXPECT_EQ(tv::atan2_correctly_rounded(2.0, 0.0), M_PI_2);
    EXPECT_EQ(tv::atan2_correctly_rounded(-2.0, 0.0), -M_PI_2);
    EXPECT_EQ(tv::atan2_correctly_rounded(1.0, 1.0), M_PI_4);
    EXPECT_EQ(tv::atan2_correctly_rounded(-1.0, -1.0), -3 * M_PI_4);
    EXPECT_TRUE(std::isnan(tv::atan2_correctly_rounded(1.0, 0x1p-500)));

    EXPECT_EQ(tv::pow_7(-2.0f), -128.0);
    EXPECT_EQ(to_bits(tv::pow_7(-0.0f)), to_bits(-0.0));
    EXPECT_EQ(tv::pow_7(0x1p-149f), 0x1p-1043);                  // a subnormal double, exact
    EXPECT_EQ(tv::pow_7(0x1p127f), 0x1p889);                     // no float overflows c^7 in double
    EXPECT_EQ(tv::powf_7(0x1p-20f), 0x1p-140f);                  // a subnormal float, exact
    EXPECT_EQ(tv::powf_7(0x1p-22f), 0.0f);                       // 2^-154: below half the least subnormal
    EXPECT_EQ(tv::powf_7(1e6f), INFINITY);
    EXPECT_EQ(tv::powf_7(25.0f), 6103515625.0f);
    EXPECT_TRUE(std::isnan(tv::powf_7(NAN)));
    EXPECT_EQ(tv::powf_7(-INFINITY), -INFINITY);
}

#if defined(TWINVMAF_HAVE_QUADMATH)

// The binary128 value rounded to double, and whether that rounding is
// decided: libquadmath's functions are accurate to about 1 ulp of 113 bits,
// so a value within 2^-100 (relative) of a double midpoint is left out.
struct Reference {
    double value;
    bool decisive;
};

Reference reference(__float128 q)
{
    const double d = static_cast<double>(q);
    if (!std::isfinite(d) || q == 0) return {d, true};
    const double toward = std::nextafter(d, q > static_cast<__float128>(d) ? INFINITY : -INFINITY);
    const __float128 mid = (static_cast<__float128>(d) + static_cast<__float128>(toward)) / 2;
    return {d, fabsq(q - mid) > fabsq(q) * static_cast<__float128>(0x1p-100)};
}

struct Tally {
    std::size_t arguments = 0, wrong = 0, undecided = 0, uncertain = 0, glibc_differs = 0;
};

// Runs ours, the binary128 reference and glibc on every argument.
template <class Args, class Ours, class Quad, class Glibc, class Certain>
Tally compare(const char* name, const std::vector<Args>& args, Ours ours, Quad quad, Glibc glibc, Certain certain)
{
    Tally t;
    for (const Args& a : args) {
        ++t.arguments;
        const double mine = std::apply(ours, a);
        const Reference ref = reference(std::apply(quad, a));
        if (!ref.decisive) {
            ++t.undecided;
        } else if (!same(mine, ref.value)) {
            if (++t.wrong <= 5) ADD_FAILURE() << std::hexfloat << name << " at " << std::get<0>(a) << ": ours " << mine
                                              << ", binary128 " << ref.value;
        }
        if (!std::apply(certain, a)) ++t.uncertain;
        if (!same(std::apply(glibc, a), mine)) ++t.glibc_differs;
    }
    std::cout << "[ cr_libm ] " << name << ": " << t.arguments << " arguments, " << t.wrong << " differ from binary128, "
              << t.undecided << " undecided by it, " << t.uncertain << " with an uncertain rounding test; glibc differs on "
              << t.glibc_differs << " (" << 100.0 * static_cast<double>(t.glibc_differs) / static_cast<double>(t.arguments)
              << " %)\n";
    EXPECT_EQ(t.wrong, 0u) << name;
    EXPECT_EQ(t.uncertain, 0u) << name;
    return t;
}

class Arguments {
public:
    double uniform(double a, double b) { return a + (b - a) * ((rng_() >> 11) * 0x1p-53); }
    // log-uniform magnitude in [2^lo, 2^hi), random sign if asked.
    double scaled(int lo, int hi, bool sign)
    {
        const double m = std::ldexp(1.0 + (rng_() >> 12) * 0x1p-52, lo + static_cast<int>(rng_() % (hi - lo)));
        return sign && (rng_() & 1) ? -m : m;
    }
    double as_float(double x) { return static_cast<float>(x); }
    std::uint64_t bits() { return rng_(); }

private:
    std::mt19937_64 rng_{20261201};
};

constexpr int kRandom = 1000000;

TEST(CrLibm, PowEqualsBinary128)
{
    Arguments g;
    // ciede: x^2.4 for x in (0.089, 3), t^(1/3) for t in (0.0088, 5); then
    // any positive double with y in [-4, 4] (|y log2 x| <= 960).
    std::vector<std::tuple<double, double>> args;
    for (double x : {0x1p-1000, 0.5, 1.0, 2.0, 0x1.fffffffffffffp-1, 0x1.0000000000001p0, 10.0 / 255.0, 0.0893})
        args.emplace_back(x, 2.4), args.emplace_back(x, 1.0 / 3.0);
    for (int i = 0; i < kRandom / 2; ++i) args.emplace_back(g.uniform(0.089, 3.0), 2.4);
    for (int i = 0; i < kRandom / 2; ++i) args.emplace_back(g.uniform(216.0 / 24389.0, 5.0), 1.0 / 3.0);
    for (int i = 0; i < kRandom / 2; ++i) {
        const double x = g.scaled(-230, 230, false), y = g.uniform(-4, 4);
        args.emplace_back(x, y);
    }
    compare(
        "pow", args, [](double x, double y) { return tv::pow_correctly_rounded(x, y); },
        [](double x, double y) { return powq(x, y); }, [](double x, double y) { return std::pow(x, y); },
        [](double x, double y) { return tv::pow_rounding_is_certain(x, y); });
}

// pow's fast phase within the error its analysis states (cr_libm.h,
// pow_fast_dd: 2^-66.5 |y| + 2^-68 + 2^-101.5 |h|), 8x under the bound its
// rounding test uses; and how often it hands over to the full path.
TEST(CrLibm, PowFastPhaseWithinItsAnalysis)
{
    Arguments g;
    double worst = 0;
    std::size_t handed_over = 0, count = 0;
    for (int i = 0; i < kRandom / 2; ++i) {
        const int kind = i % 3;
        const double x = kind == 0 ? g.uniform(0.089, 3.0) : kind == 1 ? g.uniform(0.0088, 5.0) : g.scaled(-230, 230, false);
        const double y = kind == 0 ? 2.4 : kind == 1 ? 1.0 / 3.0 : g.uniform(-4, 4);
        double h;
        const tv::dd::DD fast = tv::cr_libm_detail::pow_fast_dd(x, y, h);
        if (!(h <= 950.0)) continue;
        ++count;
        const __float128 exact = powq(x, y);
        const double rel = static_cast<double>(fabsq((static_cast<__float128>(fast.hi) + fast.lo - exact) / exact));
        const double analysis = std::ldexp(std::fabs(y), -66) * M_SQRT1_2 + 0x1p-68 + std::ldexp(h, -101) * M_SQRT1_2;
        worst = std::max(worst, rel / analysis);
        if (tv::dd::rounding_is_ambiguous(fast, tv::cr_libm_detail::kPowFastBound * (1.0 + std::fabs(y)) + 0x1p-98 * h))
            ++handed_over;
    }
    EXPECT_LT(worst, 1.0);
    std::cout << "[ cr_libm ] pow fast phase: " << count << " arguments, worst error " << worst
              << " of its analysis; " << handed_over << " handed to the full path\n";
}

// The other fast phases within their stated errors (cr_libm.h): exp's
// 2^h (2^-68 + 2^-103 |h|), sin and cos (2^-64), atan2 (2^-66), on ciede's
// ranges, the whole domains and near multiples of pi/2.
TEST(CrLibm, FastPhasesWithinTheirAnalysis)
{
    namespace d = tv::cr_libm_detail;
    Arguments g;
    double worst_exp = 0, worst_trig = 0, worst_atan = 0;
    for (int i = 0; i < kRandom / 4; ++i) {
        const double x = i % 2 ? g.uniform(-122, 0) : g.uniform(-665, 665);
        const tv::dd::DD h = tv::dd::mul_d(tv::dd::DD{tv::cr_log2_detail::kInvLn2Hi, tv::cr_log2_detail::kInvLn2Lo}, x);
        const tv::dd::DD e = d::exp2_fast(h);
        const __float128 exact = expq(x);
        const double rel = static_cast<double>(fabsq((static_cast<__float128>(e.hi) + e.lo - exact) / exact));
        worst_exp = std::max(worst_exp, rel / (0x1p-68 + std::ldexp(std::fabs(h.hi), -103)));
    }
    for (int i = 0; i < kRandom / 4; ++i) {
        const int kind = i % 3;
        const double x = kind == 0 ? g.uniform(-128, 128)
                         : kind == 1 ? g.uniform(-2, 2)
                                     : (i % 163 - 81) * M_PI_2 + std::ldexp(g.uniform(-0.5, 0.5), -static_cast<int>(i % 50));
        if (std::fabs(x) < 0x1p-27) continue;
        for (bool cosine : {false, true}) {
            const tv::dd::DD v = d::sin_cos_fast(x, cosine);
            const __float128 exact = cosine ? cosq(x) : sinq(x);
            const double rel = static_cast<double>(fabsq((static_cast<__float128>(v.hi) + v.lo - exact) / exact));
            worst_trig = std::max(worst_trig, rel / 0x1p-64);
        }
    }
    for (int i = 0; i < kRandom / 4; ++i) {
        const double y = i % 2 ? g.as_float(g.uniform(-130, 130)) : g.scaled(-300, 300, true);
        const double x = i % 2 ? g.as_float(g.uniform(-200, 200)) : g.scaled(-300, 300, true);
        const double ay = std::fabs(y), ax = std::fabs(x);
        if (ay == 0 || ax == 0) continue;
        const tv::dd::DD a = d::atan2_fast(ay, ax, ay > ax, std::signbit(x));
        const __float128 exact = atan2q(ay, x);
        const double rel = static_cast<double>(fabsq((static_cast<__float128>(a.hi) + a.lo - exact) / exact));
        worst_atan = std::max(worst_atan, rel / 0x1p-66);
    }
    EXPECT_LT(worst_exp, 1.0);
    EXPECT_LT(worst_trig, 1.0);
    EXPECT_LT(worst_atan, 1.0);
    std::cout << "[ cr_libm ] fast phases, worst error as a share of the analysis: exp " << worst_exp << ", sin/cos "
              << worst_trig << ", atan2 " << worst_atan << "\n";
}

TEST(CrLibm, ExpEqualsBinary128)
{
    Arguments g;
    std::vector<std::tuple<double>> args;
    for (double x : {-665.0, 665.0, 0x1p-60, -0x1p-60, 0x1p-30, 1e-10, -1.0, 0.5, 0x1.62e42fefa39efp-1})
        args.emplace_back(x);
    // ciede: -(d * d) for a float d in [-11, 11]; then the whole domain.
    for (int i = 0; i < kRandom / 2; ++i) {
        const float d = static_cast<float>(g.uniform(-11, 11));
        args.emplace_back(-static_cast<double>(d * d));
    }
    for (int i = 0; i < kRandom / 2; ++i) args.emplace_back(g.uniform(-665, 665));
    for (int i = 0; i < kRandom / 4; ++i) args.emplace_back(g.scaled(-60, 9, true));
    compare(
        "exp", args, [](double x) { return tv::exp_correctly_rounded(x); }, [](double x) { return expq(x); },
        [](double x) { return std::exp(x); }, [](double x) { return tv::exp_rounding_is_certain(x); });
}

std::vector<std::tuple<double>> trig_arguments()
{
    Arguments g;
    std::vector<std::tuple<double>> args;
    // Near multiples of pi/2 (the reduction's hard cases) and the edges.
    for (int k = -81; k <= 81; ++k) {
        const double x = k * M_PI_2;
        args.emplace_back(x), args.emplace_back(std::nextafter(x, INFINITY)), args.emplace_back(std::nextafter(x, -INFINITY));
    }
    for (double x : {128.0, -128.0, 0x1p-27, -0x1p-27, 0x1.fffffffffffffp-28, M_PI_4, 0.8}) args.emplace_back(x);
    // ciede's arguments: the cosines' h - pi/6, 2h, 3h + pi/30, 4h - 7pi/20
    // for a float hue h in [0, 3 pi]; the sines' float angles.
    constexpr double kPi = 3.14159265358979323846;
    for (int i = 0; i < kRandom / 4; ++i) {
        const double h = g.as_float(g.uniform(0, 3 * kPi));
        switch (i & 3) {
        case 0: args.emplace_back(h - kPi / 6.0); break;
        case 1: args.emplace_back(2.0 * h); break;
        case 2: args.emplace_back(3.0 * h + kPi / 30.0); break;
        default: args.emplace_back(4.0 * h - 7.0 * kPi / 20.0); break;
        }
    }
    for (int i = 0; i < kRandom / 4; ++i) args.emplace_back(g.as_float(g.uniform(-kPi, kPi)) / 2.0);
    for (int i = 0; i < kRandom / 4; ++i) args.emplace_back(g.uniform(-128, 128));
    for (int i = 0; i < kRandom / 4; ++i) args.emplace_back(g.scaled(-40, 7, true));
    return args;
}

TEST(CrLibm, SinEqualsBinary128)
{
    compare(
        "sin", trig_arguments(), [](double x) { return tv::sin_correctly_rounded(x); }, [](double x) { return sinq(x); },
        [](double x) { return std::sin(x); }, [](double x) { return tv::sin_rounding_is_certain(x); });
}

TEST(CrLibm, CosEqualsBinary128)
{
    compare(
        "cos", trig_arguments(), [](double x) { return tv::cos_correctly_rounded(x); }, [](double x) { return cosq(x); },
        [](double x) { return std::cos(x); }, [](double x) { return tv::cos_rounding_is_certain(x); });
}

TEST(CrLibm, Atan2EqualsBinary128)
{
    Arguments g;
    std::vector<std::tuple<double, double>> args;
    for (double y : {1.0, -1.0, 0x1p-149, 3.0, -0x1p127})
        for (double x : {1.0, -1.0, 0x1p-149, 1e-3, -7.0, 0x1p127}) args.emplace_back(y, x);
    // ciede: b and a' are floats (Lab's b in about [-130, 130], a' in about
    // [-200, 200], small ones common); then floats of any size.
    for (int i = 0; i < kRandom / 2; ++i) args.emplace_back(g.as_float(g.uniform(-130, 130)), g.as_float(g.uniform(-200, 200)));
    for (int i = 0; i < kRandom / 4; ++i) args.emplace_back(g.as_float(g.scaled(-30, 8, true)), g.as_float(g.scaled(-30, 8, true)));
    for (int i = 0; i < kRandom / 4; ++i)
        args.emplace_back(g.as_float(g.scaled(-149, 127, true)), g.as_float(g.scaled(-149, 127, true)));
    compare(
        "atan2", args, [](double y, double x) { return tv::atan2_correctly_rounded(y, x); },
        [](double y, double x) { return atan2q(y, x); }, [](double y, double x) { return std::atan2(y, x); },
        [](double y, double x) { return tv::atan2_rounding_is_certain(y, x); });
}

// c^7 in binary128 from c^3 and c^4 (both exact there: 72 and 96 bits), one
// rounding to 113 bits: decisive unless that lands on a midpoint exactly.
TEST(CrLibm, SeventhPowersEqualBinary128)
{
    Arguments g;
    std::vector<float> cs = {0.0f, 1.0f, 25.0f, 0x1p-149f, 0x1.fffffep127f, 0x1.6a09e6p18f, 0x1.2p-21f, -3.5f};
    for (int i = 0; i < kRandom; ++i) cs.push_back(static_cast<float>(g.uniform(0, 200)));  // ciede's chroma means
    for (int i = 0; i < kRandom; ++i) {
        const float c = float_from_bits(static_cast<std::uint32_t>(g.bits()));
        if (std::isfinite(c)) cs.push_back(c);
    }
    std::size_t wrong = 0, wrong_f = 0, undecided = 0, glibc = 0, glibc_f = 0;
    for (float c : cs) {
        const __float128 q = c, c3 = q * q * q, c4 = c3 * q;
        const __float128 c7 = c3 * c4;
        const double d = static_cast<double>(c7);
        const bool decisive = c7 == 0 || !std::isfinite(d) || reference(c7).decisive;
        const float f_ref = static_cast<float>(c7);
        if (!decisive) {
            ++undecided;
            continue;
        }
        if (!same(tv::pow_7(c), d) && ++wrong <= 5)
            ADD_FAILURE() << std::hexfloat << "pow_7(" << c << "): " << tv::pow_7(c) << " vs " << d;
        if (!same(tv::powf_7(c), f_ref) && ++wrong_f <= 5)
            ADD_FAILURE() << std::hexfloat << "powf_7(" << c << "): " << tv::powf_7(c) << " vs " << f_ref;
        if (!same(std::pow(static_cast<double>(c), 7.0), tv::pow_7(c))) ++glibc;
        if (!same(std::pow(c, 7.0f), tv::powf_7(c))) ++glibc_f;
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(wrong_f, 0u);
    std::cout << "[ cr_libm ] c^7: " << cs.size() << " floats, " << undecided << " undecided by binary128; glibc pow(c, 7) "
              << "differs on " << glibc << ", powf(c, 7) on " << glibc_f << "\n";
}

#endif

}  // namespace
