// float_ssim's and float_ms_ssim's SIMD kernels against the reference ones
// (ssim_kernels.h), for every instruction set this build has: the horizontal
// pass, the vertical pass with each position's terms, and the decimations
// (float_ssim's boxes of every factor 2..10 and MS-SSIM's low-pass), at every
// width 1..64 and a few wider, on samples of every bit depth as the features
// scale them (0..255 and fractions of 1/256 for 16-bit), random and extreme
// (zero, maximum, alternating), plus moments drawn independently (negative
// variances, negative covariances, flat windows: every clamp of lcs_terms).
// The whole output buffers, canaries after each row included, are compared
// bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "features/common/float_picture.h"
#include "features/ssim/ssim_kernels.h"
#include "simd_targets.h"

namespace twinvmaf::ssim {
namespace {

using test::Fill;
using test::fill_samples;
using test::for_each_simd_target;
using test::kFills;
using test::test_widths;

constexpr int kCanaries = 7;
constexpr float kCanary = -12345.5f;

// n samples of `bitdepth` bits as the features see them (float_picture.h).
std::vector<float> samples(std::size_t n, unsigned bitdepth, Fill fill, std::mt19937& rng)
{
    std::vector<std::uint32_t> raw(n);
    fill_samples(raw, (std::uint64_t{1} << bitdepth) - 1, fill, rng);
    std::vector<float> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = bitdepth == 8 ? static_cast<float>(raw[i])
                               : static_cast<float>(raw[i]) / float_picture::high_bitdepth_scaler(bitdepth);
    return out;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(T) * a.size()) == 0;
}

// Five maps of `width` outputs plus canaries, as one buffer.
struct MapRows {
    explicit MapRows(int width) : stride(width + kCanaries), data(kMomentMaps * stride, kCanary)
    {
        for (int m = 0; m < kMomentMaps; ++m) row[m] = data.data() + m * stride;
    }
    std::size_t stride;
    std::vector<float> data;
    float* row[kMomentMaps];
};

TEST(SimdSsim, HorizontalRowMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(70);
        for (unsigned width : test_widths())
            for (unsigned bitdepth : {8u, 10u, 16u})
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << "width " << width << " bitdepth " << bitdepth << " fill "
                                                    << test::fill_name(fill));
                    const int w = static_cast<int>(width);
                    const std::vector<float> ref = samples(width + kWindow - 1, bitdepth, fill, rng);
                    const std::vector<float> dis = samples(width + kWindow - 1, bitdepth, Fill::kRandom, rng);
                    MapRows expected(w), actual(w);
                    reference.horizontal_row(ref.data(), dis.data(), w, expected.row);
                    simd.horizontal_row(ref.data(), dis.data(), w, actual.row);
                    ASSERT_TRUE(same_bytes(expected.data, actual.data));
                }
    });
}

// The terms of one map row from `rows` (5 maps x kWindow rows of width).
std::vector<LcsTerms> terms_of(const Kernels& kernels, const std::vector<float>& rows, int width)
{
    const float* r[kMomentMaps][kWindow];
    for (int m = 0; m < kMomentMaps; ++m)
        for (int k = 0; k < kWindow; ++k) r[m][k] = rows.data() + (m * kWindow + k) * static_cast<std::size_t>(width);
    MapRows moments(width);
    std::vector<LcsTerms> terms(width + kCanaries, LcsTerms{-1.5, 2.5, -3.5});
    kernels.terms_row(r, width, moments.row, terms.data());
    return terms;
}

bool same_terms(const std::vector<LcsTerms>& a, const std::vector<LcsTerms>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(LcsTerms) * a.size()) == 0;
}

TEST(SimdSsim, TermsRowMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(71);
        for (unsigned width : test_widths()) {
            const int w = static_cast<int>(width);
            const std::size_t n = static_cast<std::size_t>(width);
            // Moments of real pictures: the horizontal pass of kWindow rows.
            for (unsigned bitdepth : {8u, 16u})
                for (Fill fill : kFills) {
                    SCOPED_TRACE(testing::Message() << "width " << width << " bitdepth " << bitdepth << " fill "
                                                    << test::fill_name(fill));
                    std::vector<float> rows(kMomentMaps * kWindow * n);
                    for (int k = 0; k < kWindow; ++k) {
                        const std::vector<float> ref = samples(n + kWindow - 1, bitdepth, fill, rng);
                        // The distorted row: the same, another fill, or random.
                        const std::vector<float> dis =
                            k % 3 == 0 ? ref : samples(n + kWindow - 1, bitdepth, kFills[rng() % 5], rng);
                        float* out[kMomentMaps];
                        for (int m = 0; m < kMomentMaps; ++m) out[m] = rows.data() + (m * kWindow + k) * n;
                        reference.horizontal_row(ref.data(), dis.data(), w, out);
                    }
                    ASSERT_TRUE(same_terms(terms_of(reference, rows, w), terms_of(simd, rows, w)));
                }
            // Moments drawn independently: variances and covariances of any
            // sign, zeros and equal values, so that every clamp is taken.
            for (int round = 0; round < 4; ++round) {
                SCOPED_TRACE(testing::Message() << "width " << width << " independent moments, round " << round);
                std::vector<float> rows(kMomentMaps * kWindow * n);
                std::uniform_real_distribution<float> mean(0.0f, 256.0f), square(0.0f, 65536.0f);
                for (std::size_t i = 0; i < rows.size(); ++i) {
                    const int map = static_cast<int>(i / (kWindow * n));
                    const unsigned kind = rng() % 6;
                    rows[i] = kind == 0 ? 0.0f
                              : kind == 1 ? 255.0f
                              : map <= kMuDis ? mean(rng)
                                              : (kind == 2 ? 65025.0f : square(rng));
                }
                ASSERT_TRUE(same_terms(terms_of(reference, rows, w), terms_of(simd, rows, w)));
            }
        }
    });
}

// Every decimation the features make: boxes of factor 2..10 (float_ssim's
// scale, weight 1 / factor^2) and the 9x9 low-pass with factor 2.
struct Decimation {
    int factor, size;
    std::vector<float> weights;
};
std::vector<Decimation> decimations()
{
    std::vector<Decimation> all;
    for (int f = 2; f <= 10; ++f)
        all.push_back({f, f, std::vector<float>(static_cast<std::size_t>(f) * f, 1.0f / static_cast<float>(f * f))});
    const LowPassKernel low_pass = low_pass_kernel();
    all.push_back({2, kLowPassSize, std::vector<float>(low_pass.weight, low_pass.weight + kLowPassSize * kLowPassSize)});
    return all;
}

TEST(SimdSsim, DecimateMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    const std::vector<Decimation> all = decimations();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(72);
        for (const Decimation& dec : all) {
            // Every output width 1..64 and wider (an input of at least half
            // the kernel, as the features' size checks guarantee); the
            // factors of the gathered path (not 2 or 4) fewer of them.
            const bool interleaved = dec.factor == 2 || dec.factor == 4;
            std::vector<int> widths;
            for (unsigned out_w : test_widths())
                for (int w : {static_cast<int>(out_w) * dec.factor - 1, static_cast<int>(out_w) * dec.factor})
                    if (w >= dec.size / 2 + 1 && (interleaved || out_w <= 20 || out_w % 16 == 1)) widths.push_back(w);
            for (int w : widths)
                for (int h : {dec.size / 2 + 1, 2 * dec.size + 3}) {
                    const Fill fill = kFills[rng() % 5];
                    const unsigned bitdepth = rng() % 2 ? 8u : 16u;
                    SCOPED_TRACE(testing::Message() << "factor " << dec.factor << " size " << dec.size << " " << w
                                                    << "x" << h << " bitdepth " << bitdepth << " fill "
                                                    << test::fill_name(fill));
                    const std::vector<float> in =
                        samples(static_cast<std::size_t>(w) * h, bitdepth, fill, rng);
                    const std::size_t out_n =
                        static_cast<std::size_t>(decimated_size(w, dec.factor)) * decimated_size(h, dec.factor);
                    std::vector<float> expected(out_n + kCanaries, kCanary), actual = expected;
                    reference.decimate(in.data(), w, h, dec.factor, dec.size, dec.weights.data(), expected.data());
                    simd.decimate(in.data(), w, h, dec.factor, dec.size, dec.weights.data(), actual.data());
                    ASSERT_TRUE(same_bytes(expected, actual));
                }
        }
    });
}

// The reference kernels are the math header's functions.
TEST(SimdSsim, ReferenceKernelsAreTheMathHeader)
{
    const int w = 3;
    std::vector<float> ref(w + kWindow - 1), dis(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
        ref[i] = static_cast<float>(i * 7 % 256);
        dis[i] = static_cast<float>(i * 13 % 256);
    }
    MapRows out(w);
    reference_kernels().horizontal_row(ref.data(), dis.data(), w, out.row);
    for (int x = 0; x < w; ++x) {
        EXPECT_EQ(out.row[kMuRef][x], horizontal_window<kMuRef>(ref.data(), dis.data(), x));
        EXPECT_EQ(out.row[kRefDis][x], horizontal_window<kRefDis>(ref.data(), dis.data(), x));
    }
}

}  // namespace
}  // namespace twinvmaf::ssim
