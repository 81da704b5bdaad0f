// float_psnr against a plain double computation on random pictures (the sum
// of squares is exact there, so the score must be the identical double), its
// caps per bit depth, and its names and (absent) options.
#include <gtest/gtest.h>

#include <cmath>

#include "core/feature.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::frame_value;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;
using twinvmaf::test::score_one_frame;

namespace {

class FloatPsnrRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(FloatPsnrRandom, MatchesAPlainComputation)
{
    const VideoFormat format = GetParam();
    const Picture ref = random_picture(format, 11);
    const Picture dis = random_picture(format, 12, 9 << (format.bitdepth - 8), &ref);
    // Samples on the 8-bit scale, squares rounded to float as Netflix's are
    // (exact below 16 bits), summed in double.
    double noise = 0;
    for (unsigned y = 0; y < format.height; ++y)
        for (unsigned x = 0; x < format.width; ++x) {
            const double d = std::ldexp(double(sample_at(ref, 0, x, y)) - double(sample_at(dis, 0, x, y)),
                                        8 - static_cast<int>(format.bitdepth));
            noise += static_cast<float>(d * d);
        }
    const double peak = double(format.max_sample()) / double(1u << (format.bitdepth - 8));
    const double cap = 6.0 * format.bitdepth + 12;
    const double mse = noise / (double(format.width) * format.height);
    const double expected = std::min(10 * std::log10(peak * peak / std::max(mse, 1e-10)), cap);
    EXPECT_EQ(frame_value(score_one_frame("float_psnr", {}, ref, dis), "float_psnr"), expected);
}

INSTANTIATE_TEST_SUITE_P(Formats, FloatPsnrRandom,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{17, 19, ChromaFormat::k420, 8},
                                         VideoFormat{1, 1, ChromaFormat::k444, 8},
                                         VideoFormat{33, 9, ChromaFormat::k422, 10},
                                         VideoFormat{16, 16, ChromaFormat::k444, 12},
                                         VideoFormat{7, 5, ChromaFormat::k420, 16}));

TEST(FloatPsnr, IdenticalPicturesGiveTheCap)
{
    for (unsigned bits : {8u, 10u, 12u, 16u}) {
        const VideoFormat format{24, 16, ChromaFormat::k420, bits};
        const Picture ref = random_picture(format, 3);
        EXPECT_EQ(frame_value(score_one_frame("float_psnr", {}, ref, ref), "float_psnr"), 6.0 * bits + 12) << bits;
    }
}

TEST(FloatPsnr, NamesAndNoOptions)
{
    const FeatureInfo& info = find_feature("float_psnr");
    EXPECT_TRUE(info.options.empty());
    EXPECT_EQ(info.provided, std::vector<std::string>{"float_psnr"});
    OptionValues values("float_psnr", info.options);
    EXPECT_THROW(values.set("enable_chroma", "true"), Error);
    const VideoFormat format{8, 8, ChromaFormat::k420, 8};
    const Collector c = score_one_frame("float_psnr", {}, random_picture(format, 1), random_picture(format, 2));
    ASSERT_EQ(c.series().size(), 1u);
    EXPECT_EQ(c.series()[0].name, "float_psnr");
}

}  // namespace
