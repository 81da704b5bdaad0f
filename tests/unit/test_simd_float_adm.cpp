// float_adm's SIMD row kernels against the reference ones
// (float_adm_kernels.h), for every instruction set this build has: the
// wavelet's vertical and horizontal passes, decouple with the CSF, and the
// masked and reference row sums, on rows of every width 1..64 and a few
// wider, with values in the range of every scale's coefficients (the
// picture's -128..127 grows about twofold per scale; decouple and the sums
// take the smallest and the largest range, to keep the sanitizer build's
// run short), extremes (zeros of
// both signs, the range's ends, alternating signs), and a "wide" fill of
// magnitudes from subnormals to near FLT_MAX (Intel's reciprocal's every
// exponent case, products that overflow). Decouple runs with distorted
// coefficients near multiples of the reference's (so that the angle test
// and the enhancement limit both ways happen), several gain limits and CSF
// weights; the sums with adm_p_norm 3 (the cube) and 2.5 (powf terms), with
// and without adm_bypass_cm, on bands of 1 and 3 rows (mirrored rows).
// Output buffers are compared whole and bit for bit, canaries after them
// included, so a kernel that writes outside its columns fails too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include "features/float_adm/float_adm_kernels.h"
#include "simd_targets.h"

namespace twinvmaf::float_adm {
namespace {

using test::for_each_simd_target;
using test::test_widths;

constexpr int kSlack = 70;
constexpr float kCanary = -1234.5f;

enum class Values { kRandom, kZero, kExtremes, kAlternating, kWide };
constexpr Values kAllValues[] = {Values::kRandom, Values::kZero, Values::kExtremes, Values::kAlternating,
                                 Values::kWide};

const char* values_name(Values v)
{
    switch (v) {
    case Values::kRandom: return "random";
    case Values::kZero: return "zeros";
    case Values::kExtremes: return "extremes";
    case Values::kAlternating: return "alternating";
    default: return "wide";
    }
}

// `n` coefficients of a scale whose magnitudes reach `range`.
std::vector<float> coefficients(std::size_t n, float range, Values kind, std::mt19937& rng)
{
    std::uniform_real_distribution<float> any(-range, range);
    std::uniform_real_distribution<float> exponent(-149.0f, 127.9f);
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
        case Values::kRandom: v[i] = any(rng); break;
        case Values::kZero: v[i] = rng() & 1 ? 0.0f : -0.0f; break;
        case Values::kExtremes: {
            const float choices[] = {0.0f, -0.0f, range, -range, 1e-30f, -1e-30f, 1.0f, any(rng)};
            v[i] = choices[rng() % 8];
            break;
        }
        case Values::kAlternating: v[i] = (i & 1) ? range : -range; break;
        default: v[i] = (rng() & 1 ? 1.0f : -1.0f) * std::exp2(exponent(rng)); break;
        }
    }
    return v;
}

float range_of(int scale) { return 128.0f * static_cast<float>(1 << scale); }

std::vector<float> canaried(std::size_t n) { return std::vector<float>(n + kSlack, kCanary); }

void expect_same(const std::vector<float>& expected, const std::vector<float>& actual)
{
    ASSERT_EQ(expected.size(), actual.size());
    ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), sizeof(float) * expected.size()));
}

std::vector<unsigned> widths() { return test_widths(); }

TEST(SimdFloatAdm, VerticalPassMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const auto targets = for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(70);
        for (unsigned w : widths()) {
            for (int scale = 0; scale < kScales; ++scale) {
                for (Values kind : kAllValues) {
                    SCOPED_TRACE(testing::Message() << "width " << w << " scale " << scale << " " << values_name(kind));
                    std::vector<float> input[4];
                    const float* rows[4];
                    for (int k = 0; k < 4; ++k) {
                        input[k] = coefficients(w, range_of(scale), kind, rng);
                        rows[k] = input[k].data();
                    }
                    auto low = canaried(w), high = canaried(w), low2 = low, high2 = high;
                    reference.vertical(rows, static_cast<int>(w), low.data(), high.data());
                    simd.vertical(rows, static_cast<int>(w), low2.data(), high2.data());
                    expect_same(low, low2);
                    expect_same(high, high2);
                }
            }
        }
    });
    std::cout << "SIMD targets checked:";
    for (const auto& name : targets) std::cout << " " << name;
    std::cout << "\n";
}

TEST(SimdFloatAdm, HorizontalPassMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(71);
        for (unsigned input_width : widths()) {
            const unsigned w = (input_width + 1) / 2;
            for (int scale = 0; scale < kScales; ++scale) {
                for (Values kind : kAllValues) {
                    for (bool approx_only : {false, true}) {
                        SCOPED_TRACE(testing::Message() << "input width " << input_width << " scale " << scale << " "
                                                        << values_name(kind) << (approx_only ? " a only" : ""));
                        const auto low = coefficients(input_width, range_of(scale), kind, rng);
                        const auto high = coefficients(input_width, range_of(scale), kind, rng);
                        std::vector<float> expected[4], actual[4];
                        for (int b = 0; b < 4; ++b) expected[b] = actual[b] = canaried(w);
                        const auto run = [&](const Kernels& k, std::vector<float>* out) {
                            k.horizontal(low.data(), high.data(), static_cast<int>(input_width), static_cast<int>(w),
                                         out[0].data(), approx_only ? nullptr : out[1].data(),
                                         approx_only ? nullptr : out[2].data(), approx_only ? nullptr : out[3].data());
                        };
                        run(reference, expected);
                        run(simd, actual);
                        for (int b = 0; b < 4; ++b) expect_same(expected[b], actual[b]);
                    }
                }
            }
        }
    });
}

// Distorted coefficients: independent of the reference's, or near a
// multiple of it (the angle test passes; the factor > 1 or < 0 brings the
// enhancement limit or the clamp in), or equal.
std::vector<float> distorted(const std::vector<float>& o, float range, Values kind, std::mt19937& rng)
{
    std::vector<float> t = coefficients(o.size(), range, kind, rng);
    std::uniform_real_distribution<float> factor(-0.5f, 3.0f), noise(-1e-3f, 1e-3f);
    for (std::size_t i = 0; i < o.size(); ++i) {
        switch (rng() % 4) {
        case 0: break;
        case 1: t[i] = o[i] * factor(rng) + noise(rng); break;
        case 2: t[i] = o[i] * 1.0001f; break;
        default: t[i] = o[i]; break;
        }
    }
    return t;
}

TEST(SimdFloatAdm, DecoupleMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const double cos_1deg = std::cos(1.0 * 3.14159265358979323846 / 180.0);
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(72);
        for (unsigned w : widths()) {
            for (int scale : {0, kScales - 1}) {  // the smallest and largest ranges
                for (Values kind : kAllValues) {
                    for (double gain : {1.0, 1.5, 100.0}) {
                        SCOPED_TRACE(testing::Message() << "width " << w << " scale " << scale << " "
                                                        << values_name(kind) << " gain " << gain);
                        DecoupleParams params;
                        params.enhancement_gain_limit = gain;
                        params.cos_1deg_squared = static_cast<float>(cos_1deg * cos_1deg);
                        std::uniform_real_distribution<float> any_weight(0.0f, 1.0f);
                        const float weight[kOrientations] = {any_weight(rng), rng() % 4 ? any_weight(rng) : 0.0f,
                                                             rng() % 4 ? any_weight(rng) : 10.0f};
                        std::vector<float> o[kOrientations], t[kOrientations];
                        std::vector<float> expected[2][2][kOrientations], actual[2][2][kOrientations];
                        DecoupleRow e_row, a_row;
                        for (int theta = 0; theta < kOrientations; ++theta) {
                            o[theta] = coefficients(w, range_of(scale), kind, rng);
                            t[theta] = distorted(o[theta], range_of(scale), kind, rng);
                            e_row.o[theta] = a_row.o[theta] = o[theta].data();
                            e_row.t[theta] = a_row.t[theta] = t[theta].data();
                            for (int plane = 0; plane < 2; ++plane) {
                                for (int part = 0; part < 2; ++part) {
                                    expected[plane][part][theta] = actual[plane][part][theta] = canaried(w);
                                }
                            }
                            for (int part = 0; part < 2; ++part) {
                                e_row.weighted[part][theta] = expected[0][part][theta].data();
                                e_row.masking[part][theta] = expected[1][part][theta].data();
                                a_row.weighted[part][theta] = actual[0][part][theta].data();
                                a_row.masking[part][theta] = actual[1][part][theta].data();
                            }
                        }
                        // The whole row, and columns [1, w - 1) as a region.
                        const int left = (w > 2 && rng() % 2) ? 1 : 0;
                        const int right = static_cast<int>(w) - left;
                        reference.decouple(e_row, left, right, params, weight);
                        simd.decouple(a_row, left, right, params, weight);
                        for (int plane = 0; plane < 2; ++plane)
                            for (int part = 0; part < 2; ++part)
                                for (int theta = 0; theta < kOrientations; ++theta)
                                    expect_same(expected[plane][part][theta], actual[plane][part][theta]);
                    }
                }
            }
        }
    });
}

// Scored regions of a w x h band: the whole band, and with borders.
std::vector<Region> regions(int w, int h)
{
    std::vector<Region> out = {{0, h, 0, w}};
    if (w > 2 && h > 2) out.push_back({1, h - 1, 1, w - 1});
    if (w > 7) out.push_back({0, h, w / 10 + 1, w - w / 10 - 2});
    return out;
}

TEST(SimdFloatAdm, MaskedRowSumsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(73);
        for (unsigned w : widths()) {
            for (int h : {1, 3}) {  // one row mirrored onto itself; an inner row and both edges
                for (int scale : {0, kScales - 1}) {  // the smallest and largest ranges
                    for (Values kind : kAllValues) {
                        const std::size_t size = std::size_t(w) * h;
                        std::vector<float> weighted[kOrientations], masking[kOrientations], measured[kOrientations];
                        CsfPlanes other;
                        other.stride = static_cast<int>(w);
                        for (int theta = 0; theta < kOrientations; ++theta) {
                            weighted[theta] = coefficients(size, range_of(scale), kind, rng);
                            masking[theta] = coefficients(size, range_of(scale), kind, rng);
                            // Mostly as the CSF makes them (1/30 of the magnitude).
                            for (std::size_t i = 0; i < size; ++i)
                                if (rng() % 4) masking[theta][i] = masking_part(weighted[theta][i]);
                            measured[theta] = coefficients(size, range_of(scale), kind, rng);
                            other.weighted[theta] = weighted[theta].data();
                            other.masking[theta] = masking[theta].data();
                        }
                        for (const Region& scored : regions(static_cast<int>(w), h)) {
                            for (int y = scored.top; y < scored.bottom; ++y) {
                                for (double p_norm : {3.0, 2.5}) {
                                    for (bool bypass : {false, true}) {
                                        // The powf terms and the bypass: the first row is enough.
                                        if ((p_norm != 3.0 || bypass) && y != scored.top) continue;
                                        SCOPED_TRACE(testing::Message()
                                                     << "band " << w << "x" << h << " scale " << scale << " "
                                                     << values_name(kind) << " columns " << scored.left << ".."
                                                     << scored.right << " row " << y << " p " << p_norm
                                                     << (bypass ? " bypass" : ""));
                                        const float* rows[kOrientations];
                                        for (int theta = 0; theta < kOrientations; ++theta)
                                            rows[theta] = measured[theta].data() + std::size_t(y) * w;
                                        auto threshold = canaried(w), terms = canaried(kOrientations * w);
                                        auto threshold2 = threshold, terms2 = terms;
                                        float sums[kOrientations], sums2[kOrientations];
                                        reference.masked_row_sums(other, static_cast<int>(w), h, y, rows, scored,
                                                                  bypass, p_norm, threshold.data(), terms.data(),
                                                                  sums);
                                        simd.masked_row_sums(other, static_cast<int>(w), h, y, rows, scored, bypass,
                                                             p_norm, threshold2.data(), terms2.data(), sums2);
                                        ASSERT_EQ(0, std::memcmp(sums, sums2, sizeof sums));
                                        expect_same(threshold, threshold2);
                                        for (std::size_t i = kOrientations * w; i < terms2.size(); ++i)
                                            ASSERT_EQ(kCanary, terms2[i]) << "terms written at " << i;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    });
}

TEST(SimdFloatAdm, ReferenceRowSumsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(74);
        for (unsigned w : widths()) {
            for (int scale = 0; scale < kScales; ++scale) {
                for (Values kind : kAllValues) {
                    std::vector<float> rows[kOrientations];
                    const float* row_pointers[kOrientations];
                    float weight[kOrientations];
                    for (int theta = 0; theta < kOrientations; ++theta) {
                        rows[theta] = coefficients(w, range_of(scale), kind, rng);
                        row_pointers[theta] = rows[theta].data();
                        weight[theta] = std::uniform_real_distribution<float>(0.0f, 10.0f)(rng);
                    }
                    for (const Region& scored : regions(static_cast<int>(w), 1)) {
                        for (double p_norm : {3.0, 2.5}) {
                            SCOPED_TRACE(testing::Message() << "width " << w << " scale " << scale << " "
                                                            << values_name(kind) << " columns " << scored.left
                                                            << ".." << scored.right << " p " << p_norm);
                            auto terms = canaried(kOrientations * w), terms2 = terms;
                            float expected[kOrientations], actual[kOrientations];
                            reference.reference_row_sums(row_pointers, weight, scored, p_norm, terms.data(),
                                                         expected);
                            simd.reference_row_sums(row_pointers, weight, scored, p_norm, terms2.data(), actual);
                            ASSERT_EQ(0, std::memcmp(expected, actual, sizeof expected));
                            for (std::size_t i = kOrientations * w; i < terms2.size(); ++i)
                                ASSERT_EQ(kCanary, terms2[i]) << "terms written at " << i;
                        }
                    }
                }
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf::float_adm
