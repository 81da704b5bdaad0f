// float_moment against a plain double computation on random pictures (its
// sums are exact there, so every moment must be the identical double), and
// on constant pictures.
#include <gtest/gtest.h>

#include <cmath>

#include "core/feature.h"
#include "test_support.h"

using namespace twinvmaf;
using twinvmaf::test::constant_picture;
using twinvmaf::test::frame_value;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;
using twinvmaf::test::score_one_frame;

namespace {

const char* const kNames[4] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                               "float_moment_dis2nd"};

class FloatMomentRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(FloatMomentRandom, MatchesAPlainComputation)
{
    const VideoFormat format = GetParam();
    const Picture ref = random_picture(format, 21);
    const Picture dis = random_picture(format, 22);
    const Collector c = score_one_frame("float_moment", {}, ref, dis);
    ASSERT_EQ(c.series().size(), 4u);
    const double pixels = double(format.width) * format.height;
    const Picture* pictures[2] = {&ref, &dis};
    for (int p = 0; p < 2; ++p) {
        double sum = 0, squares = 0;
        for (unsigned y = 0; y < format.height; ++y)
            for (unsigned x = 0; x < format.width; ++x) {
                const double v = std::ldexp(double(sample_at(*pictures[p], 0, x, y)),
                                            8 - static_cast<int>(format.bitdepth));
                sum += v;
                squares += static_cast<float>(v * v);  // Netflix squares in float
            }
        EXPECT_EQ(c.series()[p].name, kNames[p]);
        EXPECT_EQ(c.series()[2 + p].name, kNames[2 + p]);
        EXPECT_EQ(frame_value(c, kNames[p]), sum / pixels) << p;
        EXPECT_EQ(frame_value(c, kNames[2 + p]), squares / pixels) << p;
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, FloatMomentRandom,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{1, 1, ChromaFormat::k420, 8},
                                         VideoFormat{19, 23, ChromaFormat::k420, 10},
                                         VideoFormat{16, 9, ChromaFormat::k444, 12},
                                         VideoFormat{7, 5, ChromaFormat::k422, 16}));

TEST(FloatMoment, ConstantPictures)
{
    // 10-bit 700 is 175 on the 8-bit scale; 16-bit 1000 is 3.90625.
    const VideoFormat ten{12, 10, ChromaFormat::k420, 10};
    const VideoFormat sixteen{12, 10, ChromaFormat::k420, 16};
    Collector c = score_one_frame("float_moment", {}, constant_picture(ten, 700), constant_picture(ten, 4));
    EXPECT_EQ(frame_value(c, "float_moment_ref1st"), 175.0);
    EXPECT_EQ(frame_value(c, "float_moment_ref2nd"), 175.0 * 175.0);
    EXPECT_EQ(frame_value(c, "float_moment_dis1st"), 1.0);
    c = score_one_frame("float_moment", {}, constant_picture(sixteen, 1000), constant_picture(sixteen, 0));
    EXPECT_EQ(frame_value(c, "float_moment_ref2nd"), 3.90625 * 3.90625);
    EXPECT_EQ(frame_value(c, "float_moment_dis2nd"), 0.0);
}

}  // namespace
