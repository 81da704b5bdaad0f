// float_adm on frames under 17 samples: the rule that decides which of them
// we score (float_adm_arena.h), and Netflix's buffer layout against the
// default path. Netflix's values on every size up to 40x40 and every option
// set are in tests/data/size_sweep/netflix.txt (tests/unit/test_size_sweep.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/common/float_picture.h"
#include "features/float_adm/float_adm.h"
#include "features/float_adm/float_adm_arena.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::float_adm;

namespace {

std::string refusal(const VideoFormat& format, const OptionList& options)
{
    try {
        const Picture p = test::constant_picture(format, 1u << (format.bitdepth - 1));
        test::score_one_frame("float_adm", options, p, p);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

}  // namespace

// Which frames under 17 samples we score: those where Netflix's reads past a
// band of 1 find values its frame wrote (the sweep's valgrind runs: 303 of
// the 1071 sizes up to 40x40 with a side of 17 or less are clean, exactly
// these); the rest are refused, naming the read.
TEST(FloatAdmSizeSweep, ScoresExactlyWhereNetflixReadsItsOwnFrame)
{
    int scored = 0, refused = 0;
    for (unsigned w = 1; w <= 40; ++w) {
        for (unsigned h = 1; h <= 40; ++h) {
            if (std::min(w, h) > 17) continue;
            const bool clean = std::min(w, h) == 17 || (w == 15 || w == 16 ? h >= 9 : w >= 17 && h >= 9 && h <= 16);
            const std::string error = refusal(VideoFormat{w, h, ChromaFormat::k420, 8}, {});
            if (clean) {
                EXPECT_EQ(error, "") << w << "x" << h;
                ++scored;
            } else {
                EXPECT_NE(error.find("float_adm: frame " + std::to_string(w) + "x" + std::to_string(h) +
                                     " is too small"),
                          std::string::npos)
                    << w << "x" << h << ": " << error;
                ++refused;
            }
        }
    }
    EXPECT_EQ(scored, 303);
    EXPECT_EQ(refused, 1071 - 303);
    // The bound of 48: scale 0's band of 25 then leaves its first row or
    // column out of the CSF, whose leftovers scale 3 would read.
    EXPECT_EQ(refusal(VideoFormat{16, 48, ChromaFormat::k420, 8}, {}), "");
    EXPECT_EQ(refusal(VideoFormat{48, 16, ChromaFormat::k444, 10}, {}), "");
    EXPECT_NE(refusal(VideoFormat{16, 49, ChromaFormat::k420, 8}, {}), "");
    EXPECT_NE(refusal(VideoFormat{49, 16, ChromaFormat::k420, 8}, {}), "");
    EXPECT_NE(refusal(VideoFormat{1920, 16, ChromaFormat::k420, 8}, {}), "");
    // Without masking windows only the band is read: every frame of at least
    // 9x9; without scale 0 its leftovers are missing: none under 17.
    EXPECT_EQ(refusal(VideoFormat{9, 12, ChromaFormat::k420, 8}, {{"adm_bypass_cm", "1"}}), "");
    EXPECT_NE(refusal(VideoFormat{8, 40, ChromaFormat::k420, 8}, {{"adm_bypass_cm", "1"}}), "");
    EXPECT_NE(refusal(VideoFormat{16, 16, ChromaFormat::k420, 8}, {{"adm_skip_scale0", "true"}}), "");
    const std::string message = refusal(VideoFormat{12, 40, ChromaFormat::k420, 8}, {});
    EXPECT_NE(message.find("scale 3's masking (band 1x3) reads row"), std::string::npos) << message;
    EXPECT_NE(refusal(VideoFormat{1, 1, ChromaFormat::k420, 8}, {}).find("wavelet input is 1x1"), std::string::npos);
}

// Where Netflix reads only its bands, its layout gives the default path's
// bits: frame_sums() against the extractor's sums, on sizes from 17x17 up
// and with every option that changes what is read or summed.
TEST(FloatAdmSizeSweep, NetflixLayoutEqualsTheDefaultPath)
{
    const std::vector<OptionList> cases = {
        {},
        {{"adm_skip_scale0", "true"}},
        {{"adm_bypass_cm", "1"}},
        {{"adm_p_norm", "2.5"}, {"adm_enhn_gain_limit", "1.2"}},
        {{"adm_csf_mode", "2"}, {"adm_f2s3", "0.5"}},
    };
    std::uint32_t seed = 500;
    for (const OptionList& options : cases) {
        for (const auto& [w, h] : std::vector<std::pair<unsigned, unsigned>>{
                 {17, 17}, {18, 33}, {41, 23}, {64, 48}, {97, 71}, {130, 17}, {257, 145}}) {
            const VideoFormat format{w, h, ChromaFormat::k420, 10};
            const Picture ref = test::random_picture(format, ++seed);
            const Picture dis = test::random_picture(format, ++seed, 120, &ref);
            const FeatureInfo& info = find_feature("float_adm");
            OptionValues values("float_adm", info.options);
            values.set_all(options);
            FloatAdmCpu cpu(Settings::from(values));
            cpu.init(format);
            ASSERT_FALSE(cpu.params().netflix_layout);
            FrameScores expected;
            cpu.extract(FrameInputs{ref, dis, 0, {}, {}}, expected, nullptr);

            std::vector<float> planes[2];
            const Picture* pictures[2] = {&ref, &dis};
            for (int side = 0; side < 2; ++side) {
                planes[side].resize(std::size_t(w) * h);
                float_picture::plane_to_float(pictures[side]->plane(0), format.bitdepth, -128.0f,
                                              planes[side].data(), w);
            }
            std::vector<float> memory(static_cast<std::size_t>(arena::layout(w, h).floats()));
            std::vector<float> low(w), high(w);
            ScaleSums sums[kScales];
            arena::frame_sums(planes[0].data(), planes[1].data(), static_cast<int>(w), static_cast<int>(h),
                              cpu.params(), memory.data(), low.data(), high.data(), sums);
            FrameScores ours;
            for (int scale = 0; scale < kScales; ++scale) FloatAdmExtractor::store_sums(scale, sums[scale], ours);
            ASSERT_EQ(ours.size(), expected.size());
            for (std::size_t slot = 0; slot < ours.size(); ++slot) {
                const double a = ours.get(slot), b = expected.get(slot);
                EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0)
                    << format.describe() << " option set " << (&options - cases.data()) << " slot " << slot << ": "
                    << a << " vs " << b;
            }
        }
    }
}
