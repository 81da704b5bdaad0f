// psnr_hvs: Daala's integer DCT against the orthonormal DCT, the score of
// flat blocks in closed form, the block grid (every 7 samples while 8 fit),
// planes too small for a block, and the refusal of 16-bit input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/feature.h"
#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::psnr_hvs;
using twinvmaf::test::random_picture;
using twinvmaf::test::set_sample;

namespace {

Picture flat_picture(const VideoFormat& format, unsigned value)
{
    Picture p(format);
    for (int plane = 0; plane < 3; ++plane)
        for (unsigned y = 0; y < format.plane_height(plane); ++y)
            for (unsigned x = 0; x < format.plane_width(plane); ++x) set_sample(p, plane, x, y, value);
    return p;
}

std::unique_ptr<FeatureExtractor> make_psnr_hvs(const VideoFormat& format)
{
    const FeatureInfo& info = find_feature("psnr_hvs");
    auto extractor = info.create(OptionValues("psnr_hvs", info.options));
    extractor->init(format);
    return extractor;
}

struct Scores {
    double y, cb, cr, all;
};

Scores score(const Picture& ref, const Picture& dis)
{
    auto extractor = make_psnr_hvs(ref.format());
    Collector collector;
    SlotWriter writer(collector, extractor->output_names());
    FrameScores scores;
    extractor->extract(FrameInputs{ref, dis, 0, {}, {}}, scores, nullptr);
    extractor->collect(0, scores, writer);
    auto get = [&](const char* name) { return collector.get(*collector.find(name), 0); };
    return {get("psnr_hvs_y"), get("psnr_hvs_cb"), get("psnr_hvs_cr"), get("psnr_hvs")};
}

}  // namespace

// The lifting DCT is an integer approximation of the orthonormal 8x8
// DCT-II (DC = sum / 8); a flat block has no AC energy.
TEST(PsnrHvs, IntegerDctApproximatesTheOrthonormalDct)
{
    std::mt19937 rng(11);
    int worst = 0;
    for (int trial = 0; trial < 500; ++trial) {
        std::int32_t block[kCoefficients];
        double x[kCoefficients];
        for (int i = 0; i < kCoefficients; ++i) x[i] = block[i] = static_cast<std::int32_t>(rng() % 4096);
        fdct8x8(block);
        for (int u = 0; u < 8; ++u) {
            for (int v = 0; v < 8; ++v) {
                double sum = 0;
                for (int i = 0; i < 8; ++i)
                    for (int j = 0; j < 8; ++j)
                        sum += x[i * 8 + j] * std::cos((2 * i + 1) * u * M_PI / 16) * std::cos((2 * j + 1) * v * M_PI / 16);
                sum *= (u ? std::sqrt(0.25) : std::sqrt(0.125)) * (v ? std::sqrt(0.25) : std::sqrt(0.125));
                worst = std::max(worst, static_cast<int>(std::abs(block[u * 8 + v] - std::lround(sum))));
            }
        }
    }
    EXPECT_LE(worst, 4);
    std::int32_t flat[kCoefficients];
    for (auto& s : flat) s = 4095;
    fdct8x8(flat);
    EXPECT_NEAR(flat[0], 8 * 4095, 1);
    for (int i = 1; i < kCoefficients; ++i) EXPECT_EQ(flat[i], 0) << i;
}

// Flat reference and distorted planes differ only in DC and have no
// masking: every block's error is |DC(a) - DC(b)| csf[0][0] over 64
// coefficients, so PSNR-HVS = -10 log10((|DC(a) - DC(b)| csf00)^2 / 64 / peak^2).
TEST(PsnrHvs, FlatPlanesScoreTheirDcDifference)
{
    for (const unsigned depth : {8u, 10u, 12u}) {
        const VideoFormat format{40, 24, ChromaFormat::k420, depth};
        const unsigned a = 20u << (depth - 8), b = 23u << (depth - 8);
        const Scores s = score(flat_picture(format, a), flat_picture(format, b));
        const double peak = (1 << depth) - 1;
        auto dc = [](unsigned v) {
            std::int32_t block[kCoefficients];
            for (auto& s : block) s = static_cast<std::int32_t>(v);
            fdct8x8(block);
            return block[0];
        };
        const double dc_error = dc(b) - dc(a);
        EXPECT_NEAR(dc_error, 8.0 * (b - a), 1.0);
        auto error = [&](float csf00) { return std::pow(dc_error * csf00, 2) / 64 / (peak * peak); };
        auto expected = [&](float csf00) { return -10 * std::log10(error(csf00)); };
        EXPECT_NEAR(s.y, expected(kCsfY[0][0]), 1e-4) << depth;
        EXPECT_NEAR(s.cb, expected(kCsfCb[0][0]), 1e-4) << depth;
        EXPECT_NEAR(s.cr, expected(kCsfCr[0][0]), 1e-4) << depth;
        const double blend = 0.8 * error(kCsfY[0][0]) + 0.1 * (error(kCsfCb[0][0]) + error(kCsfCr[0][0]));
        EXPECT_NEAR(s.all, -10 * std::log10(blend), 1e-4) << depth;
    }
}

// Blocks start every 7 samples while 8 fit: at width 64 the last block is
// 56..63, at width 63 it is 49..56, so columns 57..62 are never scored.
TEST(PsnrHvs, BlocksStartEverySevenSamplesWhileEightFit)
{
    for (const unsigned width : {63u, 64u}) {
        const VideoFormat format{width, 16, ChromaFormat::k444, 8};
        const Picture ref = random_picture(format, 3);
        Picture dis = random_picture(format, 3);
        EXPECT_EQ(score(ref, dis).y, INFINITY);
        set_sample(dis, 0, 60, 5, test::sample_at(ref, 0, 60, 5) ^ 0x40);
        if (width == 63) EXPECT_EQ(score(ref, dis).y, INFINITY);
        else EXPECT_TRUE(std::isfinite(score(ref, dis).y));
    }
}

// block_count(), which both backends use, counts the starts of Netflix's loop
// `for (y = 0; y < h - 7; y += 7)`.
TEST(PsnrHvs, BlockCountIsNetflixsLoop)
{
    for (int n = 0; n <= 200; ++n) {
        int starts = 0;
        for (int y = 0; y < n - 7; y += kBlockStep) ++starts;
        EXPECT_EQ(block_count(n), starts) << n;
    }
}

// A plane under 8 samples in a direction has no block: 0 / 0, NaN (JSON
// null), as Netflix; the blend is NaN too.
TEST(PsnrHvs, PlanesWithoutABlockScoreNaN)
{
    const VideoFormat format{14, 16, ChromaFormat::k420, 8};  // chroma 7x8
    const Picture ref = random_picture(format, 1);
    const Picture dis = random_picture(format, 2, 5, &ref);
    const Scores s = score(ref, dis);
    EXPECT_TRUE(std::isfinite(s.y));
    EXPECT_TRUE(std::isnan(s.cb));
    EXPECT_TRUE(std::isnan(s.cr));
    EXPECT_TRUE(std::isnan(s.all));
}

// The NaN of a plane without a block has x86's bits on every backend (a
// GPU's 0 / 0 has others, and the sign shows in the output's text).
TEST(PsnrHvs, PlaneWithoutABlockHasTheHostsNaNBits)
{
    EXPECT_EQ(tv::bit_cast<std::uint32_t>(mean_plane_error(0.0f, 0, 8)), 0xFFC00000u);
#if defined(__x86_64__) || defined(__i386__)
    volatile float zero = 0.0f;
    EXPECT_EQ(tv::bit_cast<std::uint32_t>(zero / zero), 0xFFC00000u) << "what the division gave before";
#endif
}

TEST(PsnrHvs, RefusesMoreThanTwelveBits)
{
    try {
        make_psnr_hvs(VideoFormat{16, 16, ChromaFormat::k420, 16});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("psnr_hvs: invalid bit depth 16"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(make_psnr_hvs(VideoFormat{16, 16, ChromaFormat::k422, 12}));
}

TEST(PsnrHvs, NamesAndNoOptions)
{
    const FeatureInfo& info = find_feature("psnr_hvs");
    const std::vector<std::string> names = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};
    EXPECT_TRUE(info.options.empty());
    EXPECT_EQ(info.provided, names);
    EXPECT_EQ(make_psnr_hvs(VideoFormat{8, 8, ChromaFormat::k444, 8})->output_names(), names);
}
