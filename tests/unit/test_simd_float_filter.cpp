// The float filter family's SIMD kernels (features/common/float_filter_simd.cpp)
// against the reference ones, for every instruction set this build has:
// random and extreme planes of every width 1..64 and a few wider, every odd
// tap count 3..65 (Netflix's kernel scales give 3..65 taps) with Gaussian
// and with random taps, samples 0..65535 as they are and less 128 (the
// features' offset) and random fractional values as filtered planes hold.
// The whole outputs are compared bitwise, with canaries either side of each.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "features/common/float_filter.h"
#include "features/common/float_filter_kernels.h"
#include "features/float_vif/float_vif_kernels.h"
#include "simd_targets.h"

namespace twinvmaf {
namespace {

using test::fill_name;
using test::fill_samples;
using test::Fill;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

constexpr int kGuard = 16;                    // canary floats either side of an output
constexpr std::uint32_t kCanary = 0x7fc0beefu;  // a NaN no kernel writes

// The input variants: Fill's samples as they are, less 128, or (kFractional)
// random values with fractions over the range a filtered plane holds.
enum class Values { kSamples, kOffset, kFractional };
constexpr Values kValues[] = {Values::kSamples, Values::kOffset, Values::kFractional};

// A float in [0, 1) from 24 random bits (std::uniform_real_distribution is
// slow in the sanitizer build: a long double log per call).
float unit(std::mt19937& rng) { return static_cast<float>(rng() >> 8) * 0x1p-24f; }

std::vector<float> plane(std::size_t count, Fill fill, Values values, std::mt19937& rng)
{
    std::vector<float> out(count);
    if (values == Values::kFractional) {
        for (float& v : out) v = unit(rng) * 140000.0f - 70000.0f;
        return out;
    }
    std::vector<std::uint32_t> samples(count);
    fill_samples(samples, 65535, fill, rng);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = static_cast<float>(samples[i]) - (values == Values::kOffset ? 128.0f : 0.0f);
    return out;
}

// An output buffer: `count` floats with kGuard canaries either side.
std::vector<float> guarded(std::size_t count)
{
    return std::vector<float>(count + 2 * kGuard, std::bit_cast<float>(kCanary));
}

float* inside(std::vector<float>& buffer) { return buffer.data() + kGuard; }

// A buffer's bits, for a bitwise comparison (NaN canaries, -0).
std::vector<std::uint32_t> bits(const std::vector<float>& buffer)
{
    std::vector<std::uint32_t> out(buffer.size());
    for (std::size_t i = 0; i < buffer.size(); ++i) out[i] = std::bit_cast<std::uint32_t>(buffer[i]);
    return out;
}

// Gaussian taps of every odd count 3..65 (vif_filter's, any kernel scale)
// and random taps (negative ones too) of the counts the features use at
// kernel scale 1 (float_vif 17, 9, 5, 3; float_motion 5, 3; SpEED 9, 3)
// and of the largest (65).
std::vector<std::vector<float>> tap_sets(std::mt19937& rng)
{
    std::vector<std::vector<float>> sets;
    for (int n = 3; n <= 65; n += 2) sets.push_back(float_filter::gaussian_taps(n, static_cast<float>(n) / 5.0f));
    for (int n : {3, 5, 9, 17, 33, 65}) {
        std::vector<float> random(static_cast<std::size_t>(n));
        for (float& t : random) t = unit(rng) * 2.0f - 1.0f;
        sets.push_back(random);
    }
    return sets;
}

// Every width 1..64 and the wide ones for the tap counts of kernel scale 1
// (and 33); the others, a few tails and wide rows (keeps the sanitizer
// build's run short).
std::vector<unsigned> widths_for(std::size_t ntaps)
{
    if (ntaps == 3 || ntaps == 5 || ntaps == 9 || ntaps == 17 || ntaps == 33) return test_widths();
    return {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 129, 257};
}

// Every fill for the rows up to 64 wide of kernel scale 1's tap counts;
// random and random extremes for the others and for the wide rows.
std::vector<Fill> fills_for(std::size_t ntaps, unsigned w)
{
    if (w <= 64 && widths_for(ntaps).size() > 64) return {std::begin(kFills), std::end(kFills)};
    return {Fill::kRandom, Fill::kRandomExtremes};
}

// Every SIMD target's table (for_each_simd_target), so that each case's
// inputs and reference outputs are made once and checked against them all.
template <class Kernels, class Get>
std::vector<std::pair<std::string, Kernels>> simd_tables(Get get)
{
    std::vector<std::pair<std::string, Kernels>> tables;
    for_each_simd_target([&] { tables.emplace_back(simd::name(simd::current()), get()); });
    return tables;
}

// One case of the filter tests: a tap set (its index for the trace), a
// width and a fill, with the kind of values that width and fill get.
struct FilterCase {
    const std::vector<float>& taps;
    std::size_t set;
    unsigned width;
    Fill fill;
    Values values;
};

// Calls check(FilterCase) for every tap set of tap_sets(rng), each of its
// widths_for() and each width's fills_for(); check may draw from rng too.
// Stops at the first case whose ASSERT failed (it returns from check only).
template <class Check>
void for_each_filter_case(std::mt19937& rng, Check check)
{
    const auto sets = tap_sets(rng);
    for (std::size_t s = 0; s < sets.size(); ++s)
        for (unsigned w : widths_for(sets[s].size()))
            for (Fill fill : fills_for(sets[s].size(), w)) {
                check(FilterCase{sets[s], s, w, fill, kValues[(w + static_cast<unsigned>(fill)) % 3]});
                if (testing::Test::HasFatalFailure()) return;
            }
}

TEST(SimdFloatFilter, VerticalPassMatchesTheReference)
{
    const float_filter::Kernels reference = float_filter::reference_kernels();
    const auto tables = simd_tables<float_filter::Kernels>(float_filter::simd_kernels);
    std::mt19937 rng(30);
    for_each_filter_case(rng, [&](const FilterCase& c) {
        const int ntaps = static_cast<int>(c.taps.size());
        const int h = ntaps / 2 + 1;
        const unsigned w = c.width;
        SCOPED_TRACE(testing::Message() << ntaps << " taps (set " << c.set << ") width " << w << " "
                                        << fill_name(c.fill) << " values " << static_cast<int>(c.values));
        const auto src = plane(std::size_t{w} * static_cast<std::size_t>(h), c.fill, c.values, rng);
        for (int row : {0, h / 2, h - 1}) {
            auto expected = guarded(w);
            reference.vertical_pass(c.taps.data(), ntaps, src.data(), static_cast<int>(w), h, row, inside(expected));
            for (const auto& [target, simd] : tables) {
                auto actual = guarded(w);
                simd.vertical_pass(c.taps.data(), ntaps, src.data(), static_cast<int>(w), h, row, inside(actual));
                ASSERT_EQ(bits(expected), bits(actual)) << target << " row " << row;
            }
        }
    });
}

TEST(SimdFloatFilter, HorizontalInteriorMatchesTheReference)
{
    const float_filter::Kernels reference = float_filter::reference_kernels();
    const auto tables = simd_tables<float_filter::Kernels>(float_filter::simd_kernels);
    std::mt19937 rng(31);
    for_each_filter_case(rng, [&](const FilterCase& c) {
        const int ntaps = static_cast<int>(c.taps.size());
        const int radius = ntaps / 2;
        // The row is the interior plus the radius either side.
        const int w = static_cast<int>(c.width) + 2 * radius;
        const auto in = plane(static_cast<std::size_t>(w), c.fill, c.values, rng);
        // Step 1 (filter_plane), 2 (float VIF's decimation), 3 and 16 (SpEED's).
        for (int step : {1, 2, 3, 16}) {
            SCOPED_TRACE(testing::Message() << ntaps << " taps (set " << c.set << ") row " << w << " step " << step
                                            << " " << fill_name(c.fill));
            const int lo = (radius + step - 1) / step;
            const int hi = (w - 1 - radius) / step + 1;
            if (hi <= lo) continue;
            auto expected = guarded(static_cast<std::size_t>(hi));
            reference.horizontal_interior(c.taps.data(), ntaps, in.data(), step, lo, hi, inside(expected));
            // Only lo .. hi-1 written.
            for (int j = 0; j < lo; ++j)
                ASSERT_EQ(std::bit_cast<std::uint32_t>(expected[kGuard + j]), kCanary) << j;
            for (const auto& [target, simd] : tables) {
                auto actual = guarded(static_cast<std::size_t>(hi));
                simd.horizontal_interior(c.taps.data(), ntaps, in.data(), step, lo, hi, inside(actual));
                ASSERT_EQ(bits(expected), bits(actual)) << target;
            }
        }
    });
}

TEST(SimdFloatVif, VerticalMomentsMatchTheReference)
{
    const float_vif::Kernels reference = float_vif::reference_kernels();
    const auto tables = simd_tables<float_vif::Kernels>(float_vif::simd_kernels);
    std::mt19937 rng(32);
    // float_vif's filters: scales 0..3 at every kernel scale's width (3..65 taps), and random taps.
    for_each_filter_case(rng, [&](const FilterCase& c) {
        const int ntaps = static_cast<int>(c.taps.size());
        const int h = ntaps / 2 + 1;
        const unsigned w = c.width;
        SCOPED_TRACE(testing::Message() << ntaps << " taps (set " << c.set << ") width " << w << " "
                                        << fill_name(c.fill));
        const std::size_t count = std::size_t{w} * static_cast<std::size_t>(h);
        const auto a = plane(count, c.fill, c.values, rng);
        // dis: the same fill, the opposite extreme or random.
        const auto b = plane(count, c.fill == Fill::kMax ? Fill::kZero : Fill::kRandom, c.values, rng);
        for (int row : {0, h / 2, h - 1}) {
            auto expected = guarded(5 * std::size_t{w});
            reference.vertical_moments(c.taps.data(), ntaps, a.data(), b.data(), static_cast<int>(w), h, row,
                                       inside(expected));
            for (const auto& [target, simd] : tables) {
                auto actual = guarded(5 * std::size_t{w});
                simd.vertical_moments(c.taps.data(), ntaps, a.data(), b.data(), static_cast<int>(w), h, row,
                                      inside(actual));
                ASSERT_EQ(bits(expected), bits(actual)) << target << " row " << row;
            }
        }
    });
}

// A row of five filtered quantities (mu1, mu2, xx, yy, xy) whose statistic
// takes every branch of pixel_terms: negative, zero, tiny and large
// variances, negative covariances, gains above the limit, means of 8- to
// 16-bit samples less 128 (and of flat pictures), and variances of exactly
// (float) sigma_nsq (compared with the double sigma_nsq in pixel_terms).
std::vector<float> moments(unsigned w, double sigma_nsq, std::mt19937& rng)
{
    std::vector<float> row(5 * std::size_t{w});
    auto mean = [](std::mt19937& r) { return unit(r) * 65535.0f - 128.0f; };
    auto variance = [&] {
        switch (rng() % 8) {
        case 0: return 0.0f;
        case 7: return static_cast<float>(sigma_nsq);
        case 1: return -unit(rng) * 10.0f;              // rounding made it negative
        case 2: return unit(rng) * 2e-10f;              // about eps
        case 3: return unit(rng) * 4.0f;                // about sigma_nsq
        case 4: return unit(rng) * 1e4f;
        case 5: return unit(rng) * 1e9f;                // 16-bit extremes
        default: return unit(rng) * 100.0f;
        }
    };
    for (unsigned j = 0; j < w; ++j) {
        const float m1 = (rng() % 3 == 0) ? 0.0f : mean(rng) / ((rng() & 1) ? 1.0f : 256.0f);
        const float m2 = (rng() % 4 == 0) ? (rng() & 1 ? m1 : 0.0f) : mean(rng) / ((rng() & 1) ? 1.0f : 256.0f);
        const float s1 = variance(), s2 = variance();
        float s12 = (rng() % 3 == 0 ? -1.0f : 1.0f) * unit(rng) * (rng() % 2 ? s1 : s2) * 3.0f;
        row[j] = m1;
        row[w + j] = m2;
        row[2 * w + j] = m1 * m1 + s1;
        row[3 * w + j] = m2 * m2 + s2;
        row[4 * w + j] = m1 * m2 + s12;
    }
    return row;
}

TEST(SimdFloatVif, PixelTermsMatchTheReference)
{
    const float_vif::Kernels reference = float_vif::reference_kernels();
    std::mt19937 rng(34);
    for_each_simd_target([&] {
        const float_vif::Kernels simd = float_vif::simd_kernels();
        // vif_sigma_nsq 2 (the default), 0 (inf and NaN log arguments), others
        // of its range 0..5 (0.7 rounds down to float); vif_enhn_gain_limit 100 (default) and 1.
        for (double sigma_nsq : {2.0, 0.0, 5.0, 1e-3, 0.7}) {
            for (float gain_limit : {100.0f, 1.0f}) {
                const float nsq = static_cast<float>(sigma_nsq);
                // As float_vif.cpp's plan computes sigma_max_inv.
                const float sigma_max_inv = static_cast<float>(static_cast<double>(nsq * nsq) / (255.0 * 255.0));
                const float_vif::StatisticParams p{gain_limit, sigma_nsq, sigma_max_inv};
                for (unsigned w : test_widths()) {
                    SCOPED_TRACE(testing::Message() << "sigma_nsq " << sigma_nsq << " gain limit " << gain_limit
                                                    << " width " << w);
                    const auto row = moments(w, sigma_nsq, rng);
                    auto expected_num = guarded(w), expected_den = guarded(w);
                    auto actual_num = expected_num, actual_den = expected_den;
                    reference.pixel_terms_row(row.data(), static_cast<int>(w), p, inside(expected_num),
                                              inside(expected_den));
                    simd.pixel_terms_row(row.data(), static_cast<int>(w), p, inside(actual_num), inside(actual_den));
                    ASSERT_EQ(bits(expected_num), bits(actual_num));
                    ASSERT_EQ(bits(expected_den), bits(actual_den));
                }
            }
        }
    });
}

// The whole filters (edges by the caller, interior by the kernels) against
// float_filter_math.h's per-sample definition, under every target and the
// reference: every output of filter_plane and filter_decimated.
TEST(SimdFloatFilter, WholeFiltersMatchTheDefinition)
{
    std::mt19937 rng(33);
    std::vector<simd::Target> targets = simd::available();
    for (simd::Target target : targets) {
        simd::force(target);
        SCOPED_TRACE("target " + simd::name(target));
        for (int ntaps : {3, 5, 9, 17, 33}) {
            const auto taps = float_filter::gaussian_taps(ntaps, static_cast<float>(ntaps) / 5.0f);
            for (int w : {ntaps / 2 + 1, 31, 64, 67, 130}) {
                const int h = ntaps / 2 + 3;
                const auto src = plane(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), Fill::kRandom,
                                       Values::kOffset, rng);
                std::vector<float> row(static_cast<std::size_t>(w)), dst(src.size());
                float_filter::filter_plane(taps.data(), ntaps, src.data(), w, h, dst.data(), row.data());
                for (int i = 0; i < h; ++i)
                    for (int j = 0; j < w; ++j) {
                        const float want = float_filter::separable_sample(taps.data(), ntaps, src.data(), w, h, i, j);
                        const float got = dst[static_cast<std::size_t>(i * w + j)];
                        ASSERT_EQ(std::bit_cast<std::uint32_t>(want), std::bit_cast<std::uint32_t>(got))
                            << ntaps << " taps " << w << "x" << h << " at " << i << "," << j;
                    }
                for (int step : {2, 3, 16}) {
                    const int out_w = (w + step - 1) / step, out_h = (h + step - 1) / step;
                    std::vector<float> out(static_cast<std::size_t>(out_w * out_h));
                    float_filter::filter_decimated(taps.data(), ntaps, src.data(), w, h, step, out.data(), out_w, out_h,
                                                   row.data());
                    for (int i = 0; i < out_h; ++i)
                        for (int j = 0; j < out_w; ++j) {
                            const int r = i * step, c = j * step;
                            const float want =
                                float_filter::separable_sample(taps.data(), ntaps, src.data(), w, h, r, c);
                            const float got = out[static_cast<std::size_t>(i * out_w + j)];
                            ASSERT_EQ(std::bit_cast<std::uint32_t>(want), std::bit_cast<std::uint32_t>(got))
                                << ntaps << " taps " << w << "x" << h << " step " << step << " at " << i << "," << j;
                        }
                }
            }
        }
    }
    simd::force(-1);
}

}  // namespace
}  // namespace twinvmaf
