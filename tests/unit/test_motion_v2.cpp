// motion_v2 (the lusoris/vmaf fork's integer_motion_v2): its SAD against a
// naive computation of the blur of the frame difference, motion2 / motion3
// from the per-frame scores, option names, and the fork's refusals (frames
// under 3x3, motion_five_frame_window). The fork's own values on the
// fixtures are checked by test_fork_golden.cpp.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/feature.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;
using twinvmaf::test::series;
using twinvmaf::test::series_names;

namespace {

const char* const kMotionV2Sad = "VMAF_integer_feature_motion_v2_sad_score";
const char* const kMotion2 = "VMAF_integer_feature_motion2_v2_score";
const char* const kMotion3 = "VMAF_integer_feature_motion3_v2_score";

// The fork's mirror (reflect once, no edge repeat; defined from 3 samples).
int fork_mirror(int i, int size) { return i < 0 ? -i : i >= size ? 2 * size - i - 2 : i; }

// The fork's pipeline written plainly: vertical 5-tap blur of prev - cur
// (rounded by bitdepth bits), horizontal blur (rounded by 16), |.| summed.
double naive_score(const Picture& prev, const Picture& cur)
{
    static const std::int64_t taps[5] = {3571, 16004, 26386, 16004, 3571};
    const int w = static_cast<int>(cur.format().width), h = static_cast<int>(cur.format().height);
    const unsigned bits = cur.format().bitdepth;
    std::vector<std::int64_t> row(static_cast<std::size_t>(w));
    std::uint64_t sad = 0;
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int k = 0; k < 5; ++k) {
                const unsigned r = static_cast<unsigned>(fork_mirror(y - 2 + k, h));
                sum += taps[k] * (std::int64_t{sample_at(prev, 0, x, r)} - std::int64_t{sample_at(cur, 0, x, r)});
            }
            row[x] = (sum + (std::int64_t{1} << (bits - 1))) >> bits;
        }
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int k = 0; k < 5; ++k) sum += taps[k] * row[fork_mirror(x - 2 + k, w)];
            sad += static_cast<std::uint64_t>(std::llabs((sum + (1 << 15)) >> 16));
        }
    }
    return static_cast<double>(sad) / 256. / (cur.format().width * cur.format().height);
}

std::vector<Picture> motion_v2_sequence(const VideoFormat& format, int frames, std::uint32_t seed)
{
    std::vector<Picture> pictures;
    pictures.push_back(random_picture(format, seed));
    for (int i = 1; i < frames; ++i)
        pictures.push_back(random_picture(format, seed + i, (8 + 4 * (i % 3)) << (format.bitdepth - 8), &pictures.back()));
    return pictures;
}

Collector run_v2(const OptionList& options, const std::vector<Picture>& frames)
{
    auto extractor = twinvmaf::test::make_extractor("motion_v2", options);
    extractor->init(frames.at(0).format());
    return twinvmaf::test::score_frames(*extractor, frames, frames);
}

class MotionV2Random : public testing::TestWithParam<VideoFormat> {};

TEST_P(MotionV2Random, SadMatchesNaiveDefinitionAndMotion2IsTheForks)
{
    const VideoFormat format = GetParam();
    const std::vector<Picture> frames = motion_v2_sequence(format, 5, 7);
    const Collector c = run_v2({}, frames);
    const std::vector<double> sad = series(c, kMotionV2Sad), motion2 = series(c, kMotion2), motion3 = series(c, kMotion3);
    ASSERT_EQ(sad.size(), 5u);
    EXPECT_EQ(sad[0], 0.0);
    for (int i = 1; i < 5; ++i) EXPECT_EQ(sad[i], naive_score(frames[i - 1], frames[i])) << i;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(motion2[i], std::min(sad[i], sad[i + 1])) << i;
    EXPECT_EQ(motion2[4], sad[4]);
    EXPECT_EQ(motion3[0], sad[1]);
    for (int i = 1; i < 5; ++i) EXPECT_EQ(motion3[i], motion2[i]) << i;
    EXPECT_EQ(series_names(c), (std::vector<std::string>{kMotionV2Sad, kMotion2, kMotion3}));
}

INSTANTIATE_TEST_SUITE_P(Formats, MotionV2Random,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{3, 3, ChromaFormat::k420, 8},
                                         VideoFormat{3, 17, ChromaFormat::k444, 10},
                                         VideoFormat{19, 3, ChromaFormat::k422, 12},
                                         VideoFormat{33, 9, ChromaFormat::k420, 16},
                                         VideoFormat{301, 7, ChromaFormat::k420, 10}));

TEST(MotionV2, OptionsNameTheOutputsAndActOnTheScores)
{
    const VideoFormat format{40, 30, ChromaFormat::k420, 8};
    const std::vector<Picture> frames = motion_v2_sequence(format, 4, 3);
    const std::vector<double> plain = series(run_v2({}, frames), kMotionV2Sad);
    const Collector c = run_v2({{"motion_fps_weight", "2"}, {"motion_blend_factor", "0.25"},
                                {"motion_blend_offset", "1.5"}, {"motion_max_val", "20"},
                                {"motion_moving_average", "true"}},
                               frames);
    const std::string suffix = "_mbf_0.25_mbo_1.5_mfw_2_mmxv_20_mma";
    const std::vector<double> sad = series(c, kMotionV2Sad + suffix);
    const std::vector<double> motion2 = series(c, kMotion2 + suffix);
    const std::vector<double> motion3 = series(c, kMotion3 + suffix);
    auto blend = [](double m) { return std::min(m * 0.25 + 0.75 * std::min(1.5, m), 20.0); };
    for (int i = 1; i < 4; ++i) EXPECT_EQ(sad[i], std::min(plain[i] * 2, 20.0)) << i;
    EXPECT_EQ(motion3[0], blend(sad[1]));
    double previous = motion3[0];
    for (int i = 1; i < 4; ++i) {
        EXPECT_EQ(motion3[i], (blend(motion2[i]) + previous) / 2.0) << i;
        previous = blend(motion2[i]);
    }
    const Collector zero = run_v2({{"motion_force_zero", "true"}}, frames);
    for (double v : series(zero, std::string(kMotionV2Sad) + "_force_0")) EXPECT_EQ(v, 0.0);
}

TEST(MotionV2, RefusesWhatTheForkRefuses)
{
    for (const VideoFormat& format : {VideoFormat{2, 9, ChromaFormat::k420, 8}, VideoFormat{9, 2, ChromaFormat::k444, 10},
                                      VideoFormat{1, 1, ChromaFormat::k420, 8}}) {
        auto extractor = twinvmaf::test::make_extractor("motion_v2");
        EXPECT_THROW(extractor->init(format), Error) << format.width << "x" << format.height;
    }
    auto extractor = twinvmaf::test::make_extractor("motion_v2", {{"motion_five_frame_window", "true"}});
    EXPECT_THROW(extractor->init(VideoFormat{64, 48, ChromaFormat::k420, 8}), Error);
    EXPECT_THROW(twinvmaf::test::make_extractor("motion_v2", {{"debug", "true"}}), Error);  // motion's, not v2's
}

}  // namespace
