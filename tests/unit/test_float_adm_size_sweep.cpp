// float_adm on frames under 17 samples against Netflix, and the rule that
// decides which of them we score (float_adm_arena.h).
//
// tests/data/size_sweep/float_adm_netflix.txt holds Netflix's values (libvmaf
// 3.2.0, its vmaf CLI, %.17g) for clips that tools/float_adm_size_sweep.py
// makes from splitmix64 (its README: the commands); frame_luma() below makes
// the same luma planes. The data file is found beside this source file
// (__FILE__), so the test needs no build setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
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

std::uint64_t splitmix64(std::uint64_t& state)
{
    state += 0x9E3779B97F4A7C15u;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

// The sweep's clip_luma(): ref uniform in [0, max], dis = ref + uniform
// noise in [-24, 24] << (bitdepth - 8), clipped; chroma at mid-grey.
std::pair<Picture, Picture> frame_pair(const VideoFormat& format, unsigned frame)
{
    const unsigned max = format.max_sample(), mid = 1u << (format.bitdepth - 1);
    const std::int64_t amp = std::int64_t{24} << (format.bitdepth - 8);
    Picture ref = test::constant_picture(format, mid), dis = test::constant_picture(format, mid);
    std::uint64_t state = (std::uint64_t{format.width} << 40) ^ (std::uint64_t{format.height} << 24) ^
                          (std::uint64_t{format.bitdepth} << 16) ^ frame;
    for (unsigned y = 0; y < format.height; ++y) {
        for (unsigned x = 0; x < format.width; ++x) {
            const std::uint64_t r = splitmix64(state);
            const std::int64_t value = static_cast<std::int64_t>(r % (max + 1));
            const std::int64_t noise = static_cast<std::int64_t>((r >> 32) % (2 * amp + 1)) - amp;
            test::set_sample(ref, 0, x, y, static_cast<unsigned>(value));
            test::set_sample(dis, 0, x, y,
                             static_cast<unsigned>(std::clamp<std::int64_t>(value + noise, 0, max)));
        }
    }
    return {std::move(ref), std::move(dis)};
}

// The sweep's option sets (tools/float_adm_size_sweep.py, OPTION_SETS) and
// the output-name suffix each gives.
struct OptionSet {
    OptionList options;
    std::string suffix;
};

OptionSet option_set(const std::string& name)
{
    if (name == "default") return {{{"debug", "true"}}, ""};
    if (name == "egl1") return {{{"debug", "true"}, {"adm_enhn_gain_limit", "1.0"}}, "_egl_1"};
    if (name == "egl1.2") return {{{"debug", "true"}, {"adm_enhn_gain_limit", "1.2"}}, "_egl_1.2"};
    if (name == "csf2")
        return {{{"debug", "true"},
                 {"adm_csf_mode", "2"},
                 {"adm_min_val", "0.5"},
                 {"adm_dlm_weight", "0.7"},
                 {"adm_noise_weight", "0.02"}},
                "_csf_2_dlmw_0.7_min_0.5_nw_0.02"};
    if (name == "ssz") return {{{"debug", "true"}, {"adm_skip_scale0", "true"}}, "_ssz"};
    if (name == "bcm") return {{{"debug", "true"}, {"adm_bypass_cm", "1"}}, "_bcm_1"};
    if (name == "apn2.5") return {{{"debug", "true"}, {"adm_p_norm", "2.5"}}, "_apn_2.5"};
    ADD_FAILURE() << "unknown option set " << name;
    return {};
}

const char* const kKeys[] = {"adm2",           "aim",            "adm3",           "adm_scale0",     "adm_scale1",
                             "adm_scale2",     "adm_scale3",     "adm",            "adm_num",        "adm_den",
                             "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1", "adm_num_scale2",
                             "adm_den_scale2", "adm_num_scale3", "adm_den_scale3"};

VideoFormat format_of(const std::string& format, const std::string& size)
{
    const unsigned w = std::stoul(size.substr(0, size.find('x')));
    const unsigned h = std::stoul(size.substr(size.find('x') + 1));
    const ChromaFormat chroma = format.rfind("420", 0) == 0   ? ChromaFormat::k420
                                : format.rfind("422", 0) == 0 ? ChromaFormat::k422
                                                              : ChromaFormat::k444;
    return VideoFormat{w, h, chroma, static_cast<unsigned>(std::stoul(format.substr(4)))};
}

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

// Every value of every line of Netflix's file, at %.17g (the doubles).
TEST(FloatAdmSizeSweep, EqualsNetflixOnSmallFrames)
{
    const std::filesystem::path data =
        std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "size_sweep" / "float_adm_netflix.txt";
    std::ifstream in(data);
    ASSERT_TRUE(in) << "cannot read " << data;
    int lines = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        std::istringstream fields(line);
        std::string format_name, size, set_name;
        unsigned frame = 0;
        fields >> format_name >> size >> set_name >> frame;
        ASSERT_TRUE(fields) << line;
        const VideoFormat format = format_of(format_name, size);
        const OptionSet set = option_set(set_name);
        const auto [ref, dis] = frame_pair(format, frame);
        const Collector c = test::score_one_frame("float_adm", set.options, ref, dis);
        for (const char* key : kKeys) {
            std::string expected;
            fields >> expected;
            ASSERT_FALSE(expected.empty()) << line;
            const std::string name = std::string(key) == "adm" ? key : key + set.suffix;
            const double ours = test::frame_value(c, name);
            char text[32];
            std::snprintf(text, sizeof text, "%.17g", ours);
            EXPECT_EQ(expected, std::isfinite(ours) ? std::string(text) : std::string("null"))
                << format.describe() << " " << set_name << " frame " << frame << " " << name;
        }
        ++lines;
    }
    EXPECT_EQ(lines, 18);
}

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
