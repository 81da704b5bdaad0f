// ciede's SIMD batch kernels against the reference ones, for every
// instruction set this build has: the lane-wise Lab conversion on random and
// extreme sample triples at every bit depth (both thresholds' neighbourhoods
// included), and the lane-wise pow on ciede's arguments, random ones, the
// special cases and arguments whose fast phase is not decided (they take the
// scalar pow). Whole output buffers are compared bytewise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/cr_libm.h"
#include "features/ciede/ciede_kernels.h"
#include "simd_targets.h"

namespace twinvmaf {
namespace {

using test::for_each_simd_target;

struct Triples {
    std::vector<double> y, u, v;
    void add(double a, double b, double c)
    {
        y.push_back(a);
        u.push_back(b);
        v.push_back(c);
    }
};

// Every sample at 0 and max, the nominal range's ends, random triples, and
// a dense block around black and neutral chroma: there linear_from_gamma's
// threshold (y' near 10/255) and lab_f's (Y near 216/24389) are crossed.
Triples triples_for(unsigned bitdepth, std::mt19937& rng)
{
    Triples t;
    const unsigned max = (1u << bitdepth) - 1, s = 1u << (bitdepth - 8);
    const unsigned corners[] = {0, max, 16 * s, 235 * s, 128 * s, 240 * s, 1, max - 1};
    for (unsigned y : corners)
        for (unsigned u : corners)
            for (unsigned v : corners) t.add(y, u, v);
    const unsigned step = s > 4 ? s / 4 : 1;  // about 100 luma levels at any depth
    for (unsigned y = 8 * s; y <= 40 * s; y += step)
        for (unsigned u = 120 * s; u <= 136 * s; u += 2 * s)
            for (unsigned v = 120 * s; v <= 136 * s; v += 2 * s) t.add(y, u, v);
    std::uniform_int_distribution<unsigned> sample(0, max);
    for (int i = 0; i < 6000; ++i) t.add(sample(rng), sample(rng), sample(rng));
    return t;
}

void expect_same_labs(const ciede::Kernels& reference, const ciede::Kernels& simd, const Triples& t, std::size_t n,
                      unsigned bitdepth)
{
    // One canary past the end.
    std::vector<ciede::Lab> expected(n + 1, ciede::Lab{-7.f, -7.f, -7.f}), actual = expected;
    reference.lab_batch(t.y.data(), t.u.data(), t.v.data(), n, bitdepth, expected.data());
    simd.lab_batch(t.y.data(), t.u.data(), t.v.data(), n, bitdepth, actual.data());
    for (std::size_t i = 0; i <= n; ++i) {
        ASSERT_EQ(std::memcmp(&expected[i], &actual[i], sizeof(ciede::Lab)), 0)
            << "triple " << i << " of " << n << ": (" << t.y[i] << ", " << t.u[i] << ", " << t.v[i] << ") L "
            << expected[i].l << " / " << actual[i].l << " a " << expected[i].a << " / " << actual[i].a << " b "
            << expected[i].b << " / " << actual[i].b;
    }
}

TEST(SimdCiede, LabBatchMatchesTheReference)
{
    const ciede::Kernels reference = ciede::reference_kernels();
    for_each_simd_target([&] {
        const ciede::Kernels simd = ciede::simd_kernels();
        std::mt19937 rng(16);
        for (unsigned bitdepth : {8u, 10u, 12u, 16u}) {
            SCOPED_TRACE(testing::Message() << bitdepth << "-bit");
            const Triples t = triples_for(bitdepth, rng);
            for (std::size_t n = 0; n <= 17; ++n) expect_same_labs(reference, simd, t, n, bitdepth);  // partial vectors
            expect_same_labs(reference, simd, t, t.y.size() - 1, bitdepth);
        }
    });
}

// Whether pow_impl's fast phase leaves (x, y) to the double-double path.
bool fast_phase_undecided(double x, double y)
{
    namespace detail = tv::cr_libm_detail;
    double h_abs;
    const tv::dd::DD fast = detail::pow_fast_dd(x, y, h_abs);
    return !(h_abs <= 950.0) ||
           tv::dd::rounding_is_ambiguous(fast, detail::kPowFastBound * (1.0 + std::fabs(y)) + 0x1p-98 * h_abs);
}

TEST(SimdCiede, PowBatchMatchesTheReference)
{
    std::mt19937_64 rng(7);
    std::vector<double> x, y;
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    // ciede's: gamma bases (c + 0.055) / 1.055 for c in (10/255, 1.2], lab_f's t in (216/24389, 1.2].
    for (int i = 0; i < 4000; ++i) {
        x.push_back((10. / 255. + 1.2 * unit(rng) + 0.055) * (1.0 / 1.055));
        y.push_back(2.4);
        x.push_back(216.0 / 24389.0 + 1.2 * unit(rng));
        y.push_back(1.0 / 3.0);
    }
    // Anything: x log-uniform over most of the normal range, y in [-20, 20].
    for (int i = 0; i < 4000; ++i) {
        x.push_back(std::exp2(-600.0 + 1200.0 * unit(rng)));
        y.push_back(-20.0 + 40.0 * unit(rng));
    }
    // Special cases (the scalar code's: each lane must take it).
    const double inf = INFINITY, nan = NAN;
    const double xs[] = {1.0, 0.0, -0.0, -2.0, inf, -inf, nan, 0x1p-1074, 0x1p-1030, 0x1.8p-1023, 0x1p1023, 2.0};
    const double ys[] = {0.0, -0.0, 1.0, -1.0, 2.4, 1.0 / 3.0, inf, -inf, nan, 1000.0, -1000.0, 0.5};
    for (double a : xs)
        for (double b : ys) {
            x.push_back(a);
            y.push_back(b);
        }
    std::size_t undecided = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (x[i] > 0 && x[i] < inf && y[i] == y[i] && std::fabs(y[i]) < inf && y[i] != 0 && x[i] != 1.0)
            undecided += fast_phase_undecided(x[i], y[i]);
    EXPECT_GT(undecided, 20u) << "no arguments that need pow's slow path";

    const ciede::Kernels reference = ciede::reference_kernels();
    for_each_simd_target([&] {
        const ciede::Kernels simd = ciede::simd_kernels();
        for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{7}, x.size()}) {
            std::vector<double> expected(n + 1, -7.0), actual = expected;
            reference.pow_batch(x.data(), y.data(), n, expected.data());
            simd.pow_batch(x.data(), y.data(), n, actual.data());
            for (std::size_t i = 0; i <= n; ++i)
                ASSERT_EQ(std::memcmp(&expected[i], &actual[i], sizeof(double)), 0)
                    << "pow(" << x[i] << ", " << y[i] << "): " << expected[i] << " / " << actual[i];
        }
    });
}

// Lab pairs: random, realistic (from sample triples), neutral colours and
// zero chroma on either side, b = 0 with a' of either sign (atan2's special
// cases), hues about pi apart (hue_difference's and mean_hue's branches),
// equal colours, tiny and subnormal components.
void lab_pairs(std::vector<ciede::Lab>& first, std::vector<ciede::Lab>& second, std::mt19937& rng)
{
    std::uniform_real_distribution<float> lightness(0.f, 100.f), axis(-128.f, 128.f), unit(0.f, 1.f);
    const auto add = [&](ciede::Lab a, ciede::Lab b) {
        first.push_back(a);
        second.push_back(b);
    };
    const auto random_lab = [&] { return ciede::Lab{lightness(rng), axis(rng), axis(rng)}; };
    for (int i = 0; i < 6000; ++i) add(random_lab(), random_lab());
    std::uniform_int_distribution<unsigned> sample(0, 255);
    for (int i = 0; i < 3000; ++i) {
        const ciede::Lab a = ciede::lab_from_yuv(sample(rng), sample(rng), sample(rng), 8);
        const unsigned y = sample(rng), u = sample(rng), v = sample(rng);
        add(a, ciede::lab_from_yuv(y, u, v, 8));
        add(a, ciede::lab_from_yuv(y, 128, 128, 8));  // a neutral one
        add(a, a);
    }
    const float specials[] = {0.f, -0.f, 1e-40f, -1e-40f, 1e-20f, 3.f, -3.f, 127.f, -127.f};
    for (float a : specials)
        for (float b : specials) {
            add(ciede::Lab{50.f, a, b}, ciede::Lab{50.f, 0.f, 0.f});
            add(ciede::Lab{20.f, a, b}, ciede::Lab{70.f, b, a});
            add(ciede::Lab{20.f, a, b}, random_lab());
        }
    for (int i = 0; i < 3000; ++i) {  // hues pi +- a little apart
        const float radius1 = 100.f * unit(rng), radius2 = 100.f * unit(rng);
        const double h = 6.3 * unit(rng), gap = 3.14159265358979 + 0.01 * (unit(rng) - 0.5);
        add(ciede::Lab{lightness(rng), radius1 * static_cast<float>(std::cos(h)), radius1 * static_cast<float>(std::sin(h))},
            ciede::Lab{lightness(rng), radius2 * static_cast<float>(std::cos(h + gap)),
                       radius2 * static_cast<float>(std::sin(h + gap))});
    }
}

TEST(SimdCiede, DeltaEBatchMatchesTheReference)
{
    std::mt19937 rng(2000);
    std::vector<ciede::Lab> first, second;
    lab_pairs(first, second, rng);
    const ciede::Kernels reference = ciede::reference_kernels();
    for_each_simd_target([&] {
        const ciede::Kernels simd = ciede::simd_kernels();
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{9}, first.size()}) {
            std::vector<float> expected(n + 1, -7.f), actual = expected;
            reference.delta_e_batch(first.data(), second.data(), n, ciede::kNetflixWeights, expected.data());
            simd.delta_e_batch(first.data(), second.data(), n, ciede::kNetflixWeights, actual.data());
            for (std::size_t i = 0; i <= n; ++i)
                ASSERT_EQ(std::memcmp(&expected[i], &actual[i], sizeof(float)), 0)
                    << "pair " << i << ": (" << first[i].l << ", " << first[i].a << ", " << first[i].b << ") ("
                    << second[i].l << ", " << second[i].a << ", " << second[i].b << "): " << expected[i] << " / "
                    << actual[i];
        }
    });
}

}  // namespace
}  // namespace twinvmaf
