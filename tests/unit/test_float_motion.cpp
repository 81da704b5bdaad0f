// float motion against a plain computation written from Netflix's
// procedure (whole-plane blur, SAD), motion2 / motion3 from the per-frame
// scores, every option, output names and key order, and the size refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/common/float_picture.h"
#include "features/float_motion/float_motion.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::series;
using twinvmaf::test::series_names;

namespace {

std::unique_ptr<FeatureExtractor> make_motion(const OptionList& options = {})
{
    return test::make_extractor("float_motion", options);
}

Collector run_motion(const OptionList& options, const std::vector<Picture>& frames)
{
    auto extractor = make_motion(options);
    extractor->init(frames.at(0).format());
    return test::score_frames(*extractor, frames, frames);
}

std::vector<Picture> sequence(const VideoFormat& format, int frames, std::uint32_t seed)
{
    std::vector<Picture> pictures;
    pictures.push_back(random_picture(format, seed));
    for (int i = 1; i < frames; ++i)
        pictures.push_back(random_picture(format, seed + i, (8 + 8 * (i % 3)) << (format.bitdepth - 8), &pictures.back()));
    return pictures;
}

// ---------------------------------------------------------------- plain model

int plain_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

std::vector<float> plain_blur(const PlaneView& plane, unsigned bitdepth, const std::vector<float>& f)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height), n = static_cast<int>(f.size());
    std::vector<float> x(static_cast<std::size_t>(w) * h), tmp(x.size()), out(x.size());
    float_picture::plane_to_float(plane, bitdepth, -128.0f, x.data(), static_cast<std::size_t>(w));
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            float accum = 0;
            for (int k = 0; k < n; ++k) accum += f[k] * x[static_cast<std::size_t>(plain_mirror(i - n / 2 + k, h)) * w + j];
            tmp[static_cast<std::size_t>(i) * w + j] = accum;
        }
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            float accum = 0;
            for (int k = 0; k < n; ++k) accum += f[k] * tmp[static_cast<std::size_t>(i) * w + plain_mirror(j - n / 2 + k, w)];
            out[static_cast<std::size_t>(i) * w + j] = accum;
        }
    return out;
}

// Netflix's vmaf_image_sad_c (scale 0): float row sums, rows in order.
float plain_sad(const std::vector<float>& a, const std::vector<float>& b, int w, int h)
{
    float accum = 0;
    for (int i = 0; i < h; ++i) {
        float line = 0;
        for (int j = 0; j < w; ++j) line += std::fabs(a[static_cast<std::size_t>(i) * w + j] - b[static_cast<std::size_t>(i) * w + j]);
        accum += line;
    }
    return accum / static_cast<float>(w * h);
}

const std::vector<float> kFilter5 = {0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f};

}  // namespace

TEST(FloatMotion, OutputNamesAndOptionsAsNetflix)
{
    EXPECT_EQ(make_motion()->output_names(), (std::vector<std::string>{"motion2", "motion3", "motion"}));
    EXPECT_EQ(make_motion({{"debug", "false"}})->output_names(), (std::vector<std::string>{"motion2", "motion3"}));
    EXPECT_EQ(make_motion({{"motion_force_zero", "true"}})->output_names()[0], "motion2_force_0");
    EXPECT_EQ(make_motion({{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}, {"motion_filter_size", "3"},
                           {"motion_fps_weight", "2"}, {"motion_max_val", "20"}, {"motion_blend_factor", "0.5"},
                           {"motion_blend_offset", "10"}})
                  ->output_names()[1],
              "motion3_mdc_mau_mbf_0.5_mbo_10_mfs_3_mfw_2_mmxv_20");
    EXPECT_THROW(make_motion({{"motion_filter_size", "10"}}), Error);
    EXPECT_THROW(make_motion({{"motion_fps_weight", "5.5"}}), Error);
    EXPECT_THROW(make_motion({{"motion_blend_factor", "1.5"}}), Error);
    EXPECT_THROW(make_motion({{"motion_five_frame_window", "true"}}), Error);  // the integer motion's
    const FeatureInfo* provider = find_feature_providing("VMAF_feature_motion2_score");
    ASSERT_NE(provider, nullptr);
    EXPECT_EQ(provider->name, "float_motion");
}

TEST(FloatMotion, ScoresEqualAPlainModelOfNetflix)
{
    for (const VideoFormat format : {VideoFormat{33, 21, ChromaFormat::k420, 8}, VideoFormat{40, 17, ChromaFormat::k444, 10},
                                     VideoFormat{3, 3, ChromaFormat::k420, 12}}) {
        const std::vector<Picture> frames = sequence(format, 5, format.width);
        const Collector c = run_motion({}, frames);
        const int w = static_cast<int>(format.width), h = static_cast<int>(format.height);
        std::vector<double> score(frames.size(), 0.0);
        for (std::size_t i = 1; i < frames.size(); ++i)
            score[i] = plain_sad(plain_blur(frames[i - 1].plane(0), format.bitdepth, kFilter5),
                                 plain_blur(frames[i].plane(0), format.bitdepth, kFilter5), w, h);
        const std::vector<double> motion = series(c, "motion"), motion2 = series(c, "motion2"),
                                  motion3 = series(c, "motion3");
        ASSERT_EQ(motion.size(), frames.size());
        for (std::size_t i = 0; i < frames.size(); ++i) {
            EXPECT_EQ(motion[i], score[i]) << format.describe() << " frame " << i;
            // motion2: the smaller of this frame and the next (0 for frame 0,
            // the last frame's own); motion3 = motion2 at the default blend,
            // but frame 0's is frame 1's score.
            const double expected2 = i == 0 ? 0.0 : i + 1 == frames.size() ? score[i] : std::min(score[i], score[i + 1]);
            EXPECT_EQ(motion2[i], expected2) << format.describe() << " frame " << i;
            EXPECT_EQ(motion3[i], i == 0 ? score[1] : expected2) << format.describe() << " frame " << i;
        }
        EXPECT_GT(score[2], 0.0);
    }
}

TEST(FloatMotion, FpsWeightBlendAndClip)
{
    const VideoFormat format{24, 20, ChromaFormat::k420, 8};
    const std::vector<Picture> frames = sequence(format, 4, 3);
    const Collector plain = run_motion({}, frames);
    const Collector c = run_motion(
        {{"motion_fps_weight", "2"}, {"motion_blend_factor", "0.25"}, {"motion_blend_offset", "3"}, {"motion_max_val", "9"}},
        frames);
    const std::string sfx = "_mbf_0.25_mbo_3_mfw_2_mmxv_9";
    const std::vector<double> m = series(plain, "motion"), m2 = series(plain, "motion2");
    const std::vector<double> w = series(c, "motion" + sfx), w2 = series(c, "motion2" + sfx), w3 = series(c, "motion3" + sfx);
    for (std::size_t i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(w[i], std::min(m[i] * 2, 9.0));
        EXPECT_EQ(w2[i], std::min(m2[i] * 2, 9.0));
        const double base = i == 0 ? m[1] * 2 : m2[i] * 2;
        EXPECT_EQ(w3[i], std::min(base * 0.25 + 0.75 * std::min(3.0, base), 9.0)) << i;
    }
}

TEST(FloatMotion, ForceZeroWritesZerosInNetflixsOrder)
{
    const VideoFormat format{24, 20, ChromaFormat::k420, 8};
    const Collector c = run_motion({{"motion_force_zero", "true"}}, sequence(format, 3, 5));
    EXPECT_EQ(series_names(c), (std::vector<std::string>{"motion2_force_0", "motion3_force_0", "motion_force_0"}));
    for (const auto& s : c.series())
        for (double v : s.values) EXPECT_EQ(v, 0.0) << s.name;
}

TEST(FloatMotion, FilterSizesAndTheNoOpFilter)
{
    const VideoFormat format{20, 18, ChromaFormat::k420, 8};
    const std::vector<Picture> frames = sequence(format, 3, 8);
    // Size 1 is a 5-tap identity: the SAD of the unblurred pictures.
    const Collector none = run_motion({{"motion_filter_size", "1"}}, frames);
    std::vector<float> a(20 * 18), b(20 * 18);
    float_picture::plane_to_float(frames[0].plane(0), 8, -128.0f, a.data(), 20);
    float_picture::plane_to_float(frames[1].plane(0), 8, -128.0f, b.data(), 20);
    EXPECT_EQ(series(none, "motion_mfs_1")[1], static_cast<double>(plain_sad(a, b, 20, 18)));
    // Every size but 1 and 3 is the 5-tap filter (the default 5 included).
    EXPECT_EQ(series(run_motion({{"motion_filter_size", "7"}}, frames), "motion_mfs_7"),
              series(run_motion({}, frames), "motion"));
    EXPECT_NE(series(run_motion({{"motion_filter_size", "3"}}, frames), "motion_mfs_3")[1],
              series(run_motion({}, frames), "motion")[1]);
}

TEST(FloatMotion, RefusesPlanesWithinTheBlursReach)
{
    const auto accepts = [](const OptionList& options, unsigned w, unsigned h, ChromaFormat chroma) {
        auto m = make_motion(options);
        try {
            m->init(VideoFormat{w, h, chroma, 8});
            return true;
        } catch (const Error&) {
            return false;
        }
    };
    EXPECT_TRUE(accepts({}, 3, 3, ChromaFormat::k420));
    EXPECT_FALSE(accepts({}, 2, 8, ChromaFormat::k420));
    EXPECT_FALSE(accepts({}, 8, 2, ChromaFormat::k420));
    EXPECT_TRUE(accepts({{"motion_filter_size", "3"}}, 2, 8, ChromaFormat::k420));
    EXPECT_TRUE(accepts({{"motion_force_zero", "true"}}, 1, 1, ChromaFormat::k420));  // nothing computed
    EXPECT_FALSE(accepts({{"motion_add_uv", "true"}}, 5, 8, ChromaFormat::k420));   // chroma 2 wide
    EXPECT_TRUE(accepts({{"motion_add_uv", "true"}}, 6, 6, ChromaFormat::k420));
    // add_uv with add_scale1: only where the chroma row stride equals the luma's.
    const OptionList both = {{"motion_add_uv", "true"}, {"motion_add_scale1", "true"}};
    EXPECT_FALSE(accepts(both, 16, 16, ChromaFormat::k420));
    EXPECT_FALSE(accepts(both, 16, 16, ChromaFormat::k422));
    EXPECT_TRUE(accepts(both, 8, 12, ChromaFormat::k420));
    EXPECT_TRUE(accepts(both, 640, 480, ChromaFormat::k444));
    EXPECT_FALSE(accepts({{"motion_add_scale1", "true"}}, 15362, 16, ChromaFormat::k444));
    EXPECT_TRUE(accepts({{"motion_add_scale1", "true"}}, 15360, 16, ChromaFormat::k444));
}

// A one-frame run: Netflix writes motion3 only at its flush, after the
// frame's other features; the collector moves it to the end.
TEST(FloatMotion, OneFrameWritesMotion3AtFlush)
{
    const VideoFormat format{24, 20, ChromaFormat::k420, 8};
    const Collector c = run_motion({}, sequence(format, 1, 2));
    EXPECT_EQ(series_names(c), (std::vector<std::string>{"motion2", "motion", "motion3"}));
    EXPECT_EQ(series(c, "motion3"), std::vector<double>{0.0});
}
