// PSNR against an independent, naive computation on random pictures, and
// every option's effect.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/feature.h"
#include "features/psnr/psnr.h"
#include "test_support.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;

namespace {

// Naive SSE over the scored part of a plane.
double naive_sse(const Picture& a, const Picture& b, int plane)
{
    const PlaneView pa = a.plane(plane), pb = b.plane(plane);
    double sse = 0;
    for (unsigned y = 0; y < pa.height; ++y)
        for (unsigned x = 0; x < pa.width; ++x) {
            const double va = a.format().bitdepth > 8 ? pa.row<std::uint16_t>(y)[x] : pa.row<std::uint8_t>(y)[x];
            const double vb = b.format().bitdepth > 8 ? pb.row<std::uint16_t>(y)[x] : pb.row<std::uint8_t>(y)[x];
            sse += (va - vb) * (va - vb);
        }
    return sse;
}

Collector score(const OptionList& options, const Picture& ref, const Picture& dis, int frames = 1)
{
    const FeatureInfo& info = find_feature("psnr");
    OptionValues values("psnr", info.options);
    values.set_all(options);
    auto extractor = info.create(values);
    extractor->init(ref.format());
    Collector collector;
    SlotWriter writer(collector, extractor->output_names());
    for (int i = 0; i < frames; ++i) {
        FrameScores scores;
        const FrameInputs inputs{ref, dis, static_cast<std::uint64_t>(i), {}, {}};
        extractor->extract(inputs, scores, nullptr);
        extractor->collect(i, scores, writer);
    }
    extractor->flush(collector);
    return collector;
}

double value(const Collector& c, const std::string& name, std::uint64_t frame = 0)
{
    const auto id = c.find(name);
    EXPECT_TRUE(id) << name;
    return id ? c.get(*id, frame) : NAN;
}

struct Case {
    VideoFormat format;
};

class PsnrRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(PsnrRandom, MatchesNaiveFormula)
{
    const VideoFormat format = GetParam();
    const Picture ref = random_picture(format, 1);
    const Picture dis = random_picture(format, 2, 3 << (format.bitdepth - 8), &ref);
    const Collector c = score({{"enable_mse", "true"}}, ref, dis);
    const double peak = format.bitdepth == 8 ? 255.0 : static_cast<double>(format.max_sample());
    const char* psnr_names[] = {"psnr_y", "psnr_cb", "psnr_cr"};
    const char* mse_names[] = {"mse_y", "mse_cb", "mse_cr"};
    for (int p = 0; p < 3; ++p) {
        const double pixels = double(format.plane_width(p)) * format.plane_height(p);
        const double mse = naive_sse(ref, dis, p) / pixels;
        EXPECT_EQ(value(c, mse_names[p]), mse) << p;
        const double expected = std::min(10 * std::log10(peak * peak / std::max(mse, 1e-16)),
                                         6.0 * format.bitdepth + 12);
        EXPECT_NEAR(value(c, psnr_names[p]), expected, 1e-12) << p;
    }
    ASSERT_EQ(c.series().size(), 6u);
    EXPECT_EQ(c.series()[1].name, "mse_y");  // Netflix's order: psnr_y, mse_y, psnr_cb, ...
}

INSTANTIATE_TEST_SUITE_P(Formats, PsnrRandom,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{17, 19, ChromaFormat::k420, 8},
                                         VideoFormat{33, 9, ChromaFormat::k422, 10},
                                         VideoFormat{16, 16, ChromaFormat::k444, 12},
                                         VideoFormat{7, 5, ChromaFormat::k420, 16}));

TEST(Psnr, IdenticalPicturesGiveTheCap)
{
    for (unsigned bits : {8u, 10u, 12u, 16u}) {
        const VideoFormat format{32, 32, ChromaFormat::k420, bits};
        const Picture ref = random_picture(format, 7);
        const Collector c = score({}, ref, ref);
        EXPECT_EQ(value(c, "psnr_y"), 6.0 * bits + 12) << bits;
    }
}

TEST(Psnr, EnableChromaFalseWritesLumaOnly)
{
    const VideoFormat format{32, 32, ChromaFormat::k420, 8};
    const Picture ref = random_picture(format, 1), dis = random_picture(format, 2);
    const Collector c = score({{"enable_chroma", "false"}}, ref, dis);
    ASSERT_EQ(c.series().size(), 1u);
    EXPECT_EQ(c.series()[0].name, "psnr_y");
}

TEST(Psnr, MinSseSetsTheCap)
{
    // psnr_max = ceil(10*log10(peak^2 / (min_sse / pixels))).
    const VideoFormat format{32, 32, ChromaFormat::k420, 10};
    const Picture ref = random_picture(format, 7);
    const Collector c = score({{"min_sse", "0.5"}}, ref, ref);
    EXPECT_EQ(value(c, "psnr_y"), std::ceil(10 * std::log10(1023.0 * 1023.0 / (0.5 / 1024))));
    EXPECT_EQ(value(c, "psnr_cb"), std::ceil(10 * std::log10(1023.0 * 1023.0 / (0.5 / 256))));
}

TEST(Psnr, ReducedHbdPeakUses255TimesScale)
{
    const VideoFormat format{32, 32, ChromaFormat::k444, 10};
    const Picture ref = random_picture(format, 1);
    const Picture dis = random_picture(format, 2, 12, &ref);
    const double mse = naive_sse(ref, dis, 0) / 1024;
    const Collector c = score({{"reduced_hbd_peak", "true"}}, ref, dis);
    EXPECT_NEAR(value(c, "psnr_y"), 10 * std::log10(1020.0 * 1020.0 / mse), 1e-12);
}

TEST(Psnr, ApsnrAggregatesOverFrames)
{
    const VideoFormat format{32, 32, ChromaFormat::k420, 8};
    const Picture ref = random_picture(format, 1);
    const Picture dis = random_picture(format, 2, 4, &ref);
    const Collector c = score({{"enable_apsnr", "true"}}, ref, dis, 3);
    ASSERT_EQ(c.aggregates().size(), 3u);
    EXPECT_EQ(c.aggregates()[0].name, "apsnr_y");
    const double sse = 3 * naive_sse(ref, dis, 0);
    EXPECT_NEAR(c.aggregates()[0].value, 10 * std::log10(255.0 * 255.0 * 3 * 1024 / sse), 1e-12);
}

TEST(Psnr, ApsnrOfDisabledChromaIsMinusInfinityAsNetflix)
{
    const VideoFormat format{32, 32, ChromaFormat::k420, 8};
    const Picture ref = random_picture(format, 1), dis = random_picture(format, 2);
    const Collector c = score({{"enable_apsnr", "true"}, {"enable_chroma", "false"}}, ref, dis);
    ASSERT_EQ(c.aggregates().size(), 3u);
    EXPECT_TRUE(std::isinf(c.aggregates()[1].value) && c.aggregates()[1].value < 0);
}

}  // namespace

namespace {

// Largest possible differences on wide rows: the 12-bit path sums squares in
// 32-bit chunks, the 16-bit path in 64 bits; both must stay exact.
TEST(Psnr, ExtremeDifferencesOnWideRowsAreExact)
{
    for (unsigned bits : {10u, 12u, 16u}) {
        const VideoFormat format{1000, 3, ChromaFormat::k444, bits};
        Picture ref(format), dis(format);
        const std::size_t n = format.frame_bytes() / 2;
        for (std::size_t i = 0; i < n; ++i) {
            reinterpret_cast<std::uint16_t*>(ref.bytes())[i] = static_cast<std::uint16_t>(format.max_sample());
            reinterpret_cast<std::uint16_t*>(dis.bytes())[i] = 0;
        }
        const Collector c = score({{"enable_mse", "true"}}, ref, dis);
        const double max = format.max_sample();
        EXPECT_EQ(value(c, "mse_y"), max * max) << bits;
    }
}

}  // namespace
