// Integer motion against a naive computation written from the definition,
// motion2 / motion3 from the per-frame scores, every option, output names, and
// every small or odd frame size (run these under the sanitizer build too).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "core/feature.h"
#include "features/motion/motion.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::series;
using twinvmaf::test::series_names;
using twinvmaf::test::sample_at;

namespace {

// Reflect into [0, size) without repeating the edge sample, as often as needed.
int naive_mirror(int i, int size)
{
    if (size == 1) return 0;
    while (i < 0 || i >= size) i = i < 0 ? -i : 2 * size - i - 2;
    return i;
}

std::int64_t floor_shift(std::int64_t value, unsigned bits)
{
    return (value + (std::int64_t{1} << (bits - 1))) >> bits;
}

// The luma SAD of `current` against `earlier`: the difference blurred by the
// 5-tap filter down the columns (rounded by bitdepth bits), then along the
// rows (rounded by 16 bits), absolute values summed.
std::uint64_t naive_sad(const Picture& earlier, const Picture& current)
{
    static const std::int64_t taps[5] = {3571, 16004, 26386, 16004, 3571};
    const int w = static_cast<int>(current.format().width);
    const int h = static_cast<int>(current.format().height);
    const unsigned bits = current.format().bitdepth;
    std::vector<std::int64_t> vertical(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int k = 0; k < 5; ++k) {
                const unsigned row = static_cast<unsigned>(naive_mirror(y - 2 + k, h));
                sum += taps[k] * (std::int64_t{sample_at(earlier, 0, x, row)} -
                                  std::int64_t{sample_at(current, 0, x, row)});
            }
            vertical[y * w + x] = floor_shift(sum, bits);
        }
    std::uint64_t sad = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::int64_t sum = 0;
            for (int k = 0; k < 5; ++k) sum += taps[k] * vertical[y * w + naive_mirror(x - 2 + k, w)];
            sad += static_cast<std::uint64_t>(std::llabs(floor_shift(sum, 16)));
        }
    return sad;
}

double sad_score(std::uint64_t sad, const VideoFormat& format)
{
    return static_cast<double>(sad) / 256. / (format.width * format.height);
}

// Runs motion over the reference pictures `frames` (the distorted side is
// the same pictures: motion reads only the reference) as the pipeline does.
Collector run_motion(const OptionList& options, const std::vector<Picture>& frames)
{
    auto extractor = twinvmaf::test::make_extractor("motion", options);
    extractor->init(frames.at(0).format());
    return twinvmaf::test::score_frames(*extractor, frames, frames);
}

// A moving sequence: each frame is the previous one plus some noise.
std::vector<Picture> sequence(const VideoFormat& format, int frames, std::uint32_t seed)
{
    std::vector<Picture> pictures;
    pictures.push_back(random_picture(format, seed));
    for (int i = 1; i < frames; ++i) {
        const int delta = (1 + i % 3) << (format.bitdepth - 8);
        pictures.push_back(random_picture(format, seed + i, delta * 8, &pictures.back()));
    }
    return pictures;
}

// Independent random pictures, one per seed.
std::vector<Picture> random_frames(const VideoFormat& format, std::initializer_list<std::uint32_t> seeds)
{
    std::vector<Picture> pictures;
    for (std::uint32_t seed : seeds) pictures.push_back(random_picture(format, seed));
    return pictures;
}

const char* const kSad = "VMAF_integer_feature_motion_sad_score";

class MotionRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(MotionRandom, MatchesNaiveDefinition)
{
    const VideoFormat format = GetParam();
    const std::vector<Picture> frames = sequence(format, 4, 11);
    const std::vector<double> sad = series(run_motion({}, frames), kSad);
    ASSERT_EQ(sad.size(), 4u);
    EXPECT_EQ(sad[0], 0.0);
    for (int i = 1; i < 4; ++i) EXPECT_EQ(sad[i], sad_score(naive_sad(frames[i - 1], frames[i]), format)) << i;

    // Full-range noise against its inverse: the largest sums the filter sees.
    std::vector<Picture> noise_and_inverse = random_frames(format, {3, 3});
    Picture& inverse = noise_and_inverse[1];
    const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
    for (std::size_t i = 0; i < samples; ++i) {
        if (format.bitdepth > 8) {
            auto* s = reinterpret_cast<std::uint16_t*>(inverse.bytes());
            s[i] = static_cast<std::uint16_t>(format.max_sample() - s[i]);
        } else {
            inverse.bytes()[i] = static_cast<std::uint8_t>(255 - inverse.bytes()[i]);
        }
    }
    const std::vector<double> extreme = series(run_motion({}, noise_and_inverse), kSad);
    EXPECT_EQ(extreme[1], sad_score(naive_sad(noise_and_inverse[0], inverse), format));
}

INSTANTIATE_TEST_SUITE_P(Formats, MotionRandom,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{17, 19, ChromaFormat::k420, 8},
                                         VideoFormat{33, 9, ChromaFormat::k422, 10},
                                         VideoFormat{16, 16, ChromaFormat::k444, 12},
                                         VideoFormat{7, 5, ChromaFormat::k420, 16},
                                         VideoFormat{301, 7, ChromaFormat::k420, 16},
                                         // The smallest size scored (below 3 samples
                                         // Netflix reads outside its picture: refused).
                                         VideoFormat{3, 3, ChromaFormat::k420, 8},
                                         VideoFormat{3, 9, ChromaFormat::k444, 8},
                                         VideoFormat{9, 3, ChromaFormat::k422, 12}));

TEST(Motion, Motion2IsTheSmallerOfThisAndTheNextFrame)
{
    const VideoFormat format{32, 24, ChromaFormat::k420, 8};
    const Collector c = run_motion({}, sequence(format, 6, 5));
    const std::vector<double> sad = series(c, kSad);
    const std::vector<double> motion2 = series(c, "integer_motion2");
    const std::vector<double> motion3 = series(c, "integer_motion3");
    ASSERT_EQ(motion2.size(), 6u);
    EXPECT_EQ(motion2[0], 0.0);
    for (int i = 1; i < 5; ++i) EXPECT_EQ(motion2[i], std::min(sad[i], sad[i + 1])) << i;
    EXPECT_EQ(motion2[5], sad[5]);
    // Default blend (factor 1) and clip (10000) leave motion2 unchanged; the
    // first frame takes frame 1's score.
    EXPECT_EQ(motion3[0], sad[1]);
    for (int i = 1; i < 6; ++i) EXPECT_EQ(motion3[i], motion2[i]) << i;
    EXPECT_EQ(series_names(c), (std::vector<std::string>{kSad, "integer_motion2", "integer_motion3"}));
}

TEST(Motion, FiveFrameWindowComparesTwoFramesBackAndAveragesMotion3)
{
    const VideoFormat format{32, 24, ChromaFormat::k420, 10};
    const std::vector<Picture> frames = sequence(format, 7, 9);
    const Collector c = run_motion({{"motion_five_frame_window", "true"}, {"motion_moving_average", "true"}},
                                   frames);
    const std::vector<double> sad = series(c, "VMAF_integer_feature_motion_sad_score_mffw_mma");
    const std::vector<double> motion2 = series(c, "integer_motion2_mffw_mma");
    const std::vector<double> motion3 = series(c, "integer_motion3_mffw_mma");
    ASSERT_EQ(sad.size(), 7u);
    EXPECT_EQ(sad[0], 0.0);
    EXPECT_EQ(sad[1], 0.0);
    for (int i = 2; i < 7; ++i) EXPECT_EQ(sad[i], sad_score(naive_sad(frames[i - 2], frames[i]), format)) << i;
    EXPECT_EQ(motion2[0], 0.0);
    EXPECT_EQ(motion2[1], 0.0);
    EXPECT_EQ(motion2[2], sad[3]);  // no scored frame before it
    for (int i = 3; i < 6; ++i) EXPECT_EQ(motion2[i], std::min(sad[i - 1], sad[i + 1])) << i;
    EXPECT_EQ(motion2[6], sad[6]);
    EXPECT_EQ(motion3[0], sad[2]);
    EXPECT_EQ(motion3[1], sad[2]);
    EXPECT_EQ(motion3[2], (motion2[2] + sad[2]) / 2.0);
    for (int i = 3; i < 7; ++i) EXPECT_EQ(motion3[i], (motion2[i] + motion2[i - 1]) / 2.0) << i;
}

TEST(Motion, BlendFpsWeightAndClip)
{
    const VideoFormat format{40, 30, ChromaFormat::k420, 8};
    const std::vector<Picture> frames = sequence(format, 4, 21);
    const std::vector<double> plain = series(run_motion({}, frames), kSad);
    ASSERT_GT(plain[1], 2.0);

    const Collector c = run_motion({{"motion_fps_weight", "2"},
                                    {"motion_blend_factor", "0.25"},
                                    {"motion_blend_offset", "1.5"},
                                    {"motion_max_val", "20"}},
                                   frames);
    const std::string suffix = "_mbf_0.25_mbo_1.5_mfw_2_mmxv_20";
    const std::vector<double> sad = series(c, kSad + suffix);
    const std::vector<double> motion2 = series(c, "integer_motion2" + suffix);
    const std::vector<double> motion3 = series(c, "integer_motion3" + suffix);
    for (int i = 1; i < 4; ++i) EXPECT_EQ(sad[i], std::min(plain[i] * 2, 20.0)) << i;
    for (int i = 1; i < 4; ++i) {
        const double blended = motion2[i] * 0.25 + (1 - 0.25) * std::min(1.5, motion2[i]);
        EXPECT_EQ(motion3[i], std::min(blended, 20.0)) << i;
    }

    const std::vector<double> clipped = series(run_motion({{"motion_max_val", "0.5"}}, frames),
                                               kSad + std::string("_mmxv_0.5"));
    for (int i = 1; i < 4; ++i) EXPECT_EQ(clipped[i], 0.5) << i;
}

TEST(Motion, ForceZeroWritesZeros)
{
    const Collector c = run_motion({{"motion_force_zero", "true"}},
                                   sequence(VideoFormat{32, 24, ChromaFormat::k420, 8}, 4, 1));
    EXPECT_EQ(series_names(c), (std::vector<std::string>{kSad + std::string("_force_0"), "integer_motion2_force_0",
                                                  "integer_motion3_force_0"}));
    for (const auto& s : c.series())
        for (double v : s.values) EXPECT_EQ(v, 0.0) << s.name;
}

TEST(Motion, DebugAddsIntegerMotionWithoutRenaming)
{
    const std::vector<Picture> frames = sequence(VideoFormat{32, 24, ChromaFormat::k444, 12}, 3, 4);
    const Collector c = run_motion({{"debug", "true"}}, frames);
    EXPECT_EQ(series_names(c), (std::vector<std::string>{kSad, "integer_motion", "integer_motion2", "integer_motion3"}));
    EXPECT_EQ(series(c, "integer_motion"), series(c, kSad));
}

TEST(Motion, ReadsOnlyTheReference)
{
    const VideoFormat format{32, 24, ChromaFormat::k420, 8};
    const std::vector<Picture> frames = sequence(format, 2, 8);
    const Picture other = random_picture(format, 99);
    const FeatureInfo& info = find_feature("motion");
    auto extractor = info.create(OptionValues("motion", info.options));
    extractor->init(format);
    auto scratch = extractor->make_scratch();
    const Picture* previous[] = {&frames[0]};
    FrameScores with_same, with_other;
    extractor->extract({frames[1], frames[1], 1, previous, previous}, with_same, scratch.get());
    const Picture* other_previous[] = {&other};
    extractor->extract({frames[1], other, 1, previous, other_previous}, with_other, scratch.get());
    EXPECT_EQ(with_same.get_integer(0), with_other.get_integer(0));
}

TEST(Motion, OptionsHaveNetflixRanges)
{
    const FeatureInfo& info = find_feature("motion");
    OptionValues values("motion", info.options);
    EXPECT_THROW(values.set("motion_blend_factor", "1.5"), Error);
    EXPECT_THROW(values.set("motion_blend_offset", "1001"), Error);
    EXPECT_THROW(values.set("motion_fps_weight", "5.5"), Error);
    EXPECT_THROW(values.set("motion_max_val", "10001"), Error);
    EXPECT_THROW(values.set("motion_max_val", "-1"), Error);
    EXPECT_NO_THROW(values.set("motion_max_val", "10000"));
    EXPECT_EQ(values.output_suffix(), "");  // the default value adds no suffix
    EXPECT_EQ(info.provided, (std::vector<std::string>{
                                 "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
                                 "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score"}));
    EXPECT_EQ(find_feature_providing("VMAF_integer_feature_motion2_score"), &info);
}

// Every frame size from 1x1 to 33x33 and a few odd ones, in every chroma
// format and bit depth: a side under 3 is refused (Netflix's blur reads
// outside its picture there) unless motion_force_zero, which scores every
// size; every value written is finite. Under the sanitizer build this also
// shows that no size reads outside a picture.
TEST(Motion, EverySmallAndOddSizeRefusesOrGivesFiniteScores)
{
    std::vector<std::pair<unsigned, unsigned>> sizes = {{257, 145}, {19, 23}, {35, 1}, {1, 40}, {3, 40}, {40, 3}};
    for (unsigned w = 1; w <= 33; ++w)
        for (unsigned h = 1; h <= 33; ++h) sizes.emplace_back(w, h);
    for (const auto& [w, h] : sizes)
        for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444})
            for (unsigned bits : {8u, 10u, 12u, 16u}) {
                const VideoFormat format{w, h, chroma, bits};
                if (w < 3 || h < 3) {
                    try {
                        run_motion({}, random_frames(format, {1, 2}));
                        ADD_FAILURE() << format.describe() << " was scored";
                    } catch (const Error& e) {
                        EXPECT_NE(std::string(e.what()).find("motion: frame " + std::to_string(w) + "x" +
                                                             std::to_string(h) + " is too small"),
                                  std::string::npos)
                            << e.what();
                    }
                    const Collector zero = run_motion({{"motion_force_zero", "true"}}, random_frames(format, {1, 2}));
                    for (const auto& s : zero.series())
                        for (double v : s.values) ASSERT_EQ(v, 0.0) << format.describe() << " " << s.name;
                    continue;
                }
                const Collector c =
                    run_motion({{"motion_five_frame_window", "true"}}, random_frames(format, {1, 2, 3}));
                ASSERT_EQ(c.series().size(), 3u);
                for (const auto& s : c.series())
                    for (double v : s.values) ASSERT_TRUE(std::isfinite(v)) << format.describe() << " " << s.name;
                const Collector plain = run_motion({}, random_frames(format, {1, 2}));
                for (const auto& s : plain.series())
                    for (double v : s.values) ASSERT_TRUE(std::isfinite(v)) << format.describe() << " " << s.name;
            }
}

}  // namespace
