// float_ansnr against a plain model of Netflix's procedure (ansnr.c: whole
// filtered planes, 2-D loops with its mirror written out) on random pictures
// of every depth and of sizes from the smallest accepted, flat pictures, and
// the size refusal.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/feature.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::constant_picture;
using twinvmaf::test::frame_value;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;
using twinvmaf::test::score_one_frame;

namespace {

// Luma as Netflix's floats, offset -128 (every step is exact in double).
std::vector<float> luma_floats(const Picture& p)
{
    const VideoFormat& f = p.format();
    std::vector<float> out(std::size_t{f.width} * f.height);
    for (unsigned y = 0; y < f.height; ++y)
        for (unsigned x = 0; x < f.width; ++x)
            out[y * f.width + x] = static_cast<float>(
                std::ldexp(double(sample_at(p, 0, x, y)), 8 - static_cast<int>(f.bitdepth)) - 128.0);
    return out;
}

// Netflix's 2-D filter: a float sum per kernel row, the row sums added up;
// taps outside the plane read -k -> k and n-1+k -> n-k.
std::vector<float> filter(const std::vector<float>& src, int w, int h, const std::vector<double>& taps, int n)
{
    std::vector<float> dst(src.size());
    auto reflect = [](int i, int size) { return i < 0 ? -i : (i >= size ? 2 * size - i - 1 : i); };
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            float accum = 0;
            for (int fi = 0; fi < n; ++fi) {
                float inner = 0;
                for (int fj = 0; fj < n; ++fj)
                    inner += static_cast<float>(taps[fi * n + fj]) *
                             src[reflect(i - n / 2 + fi, h) * w + reflect(j - n / 2 + fj, w)];
                accum += inner;
            }
            dst[i * w + j] = accum;
        }
    return dst;
}

struct Expected {
    double ansnr, anpsnr;
};

Expected plain_ansnr(const Picture& ref, const Picture& dis)
{
    const VideoFormat& f = ref.format();
    const int w = static_cast<int>(f.width), h = static_cast<int>(f.height);
    std::vector<double> ref_taps = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    for (double& t : ref_taps) t /= 16.0;
    std::vector<double> dis_taps = {2,  7,  12, 7,  2,  7,  31, 52, 31, 7,  12, 52, 127,
                                    52, 12, 7,  31, 52, 31, 7,  2,  7,  12, 7,  2};
    for (double& t : dis_taps) t /= 571.0;
    const std::vector<float> r = filter(luma_floats(ref), w, h, ref_taps, 3);
    const std::vector<float> d = filter(luma_floats(dis), w, h, dis_taps, 5);
    float sig = 0, noise = 0;
    for (int i = 0; i < h; ++i) {
        float sig_row = 0, noise_row = 0;
        for (int j = 0; j < w; ++j) {
            const float a = r[i * w + j], b = d[i * w + j];
            sig_row += a * a;
            noise_row += (a - b) * (a - b);
        }
        sig += sig_row;
        noise += noise_row;
    }
    const double peak = double(f.max_sample()) / double(1u << (f.bitdepth - 8));
    const double cap = 6.0 * f.bitdepth + 12;
    const double ansnr = noise == 0 ? cap : 10.0 * std::log10(static_cast<double>(sig / noise));  // C log10: double
    const double anpsnr = std::min(10 * std::log10(peak * peak * w * h / std::max<double>(noise, 1e-10)), cap);
    return {ansnr, anpsnr};
}

class FloatAnsnrRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(FloatAnsnrRandom, MatchesAPlainModelOfNetflix)
{
    const VideoFormat format = GetParam();
    const Picture ref = random_picture(format, 31);
    const Picture dis = random_picture(format, 32, 20 << (format.bitdepth - 8), &ref);
    const Collector c = score_one_frame("float_ansnr", {}, ref, dis);
    ASSERT_EQ(c.series().size(), 2u);
    EXPECT_EQ(c.series()[0].name, "float_ansnr");
    EXPECT_EQ(c.series()[1].name, "float_anpsnr");
    const Expected e = plain_ansnr(ref, dis);
    EXPECT_EQ(frame_value(c, "float_ansnr"), e.ansnr);
    EXPECT_EQ(frame_value(c, "float_anpsnr"), e.anpsnr);
}

INSTANTIATE_TEST_SUITE_P(Formats, FloatAnsnrRandom,
                         testing::Values(VideoFormat{3, 3, ChromaFormat::k444, 8},
                                         VideoFormat{4, 5, ChromaFormat::k420, 8},
                                         VideoFormat{5, 3, ChromaFormat::k420, 10},
                                         VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{17, 19, ChromaFormat::k422, 10},
                                         VideoFormat{33, 9, ChromaFormat::k420, 12},
                                         VideoFormat{9, 33, ChromaFormat::k444, 16}));

TEST(FloatAnsnr, FlatMidGreyHasNoNoiseAndGivesTheCap)
{
    // 128 is 0 after the offset: both filtered planes are 0, noise is 0.
    const VideoFormat format{16, 8, ChromaFormat::k420, 8};
    const Picture grey = constant_picture(format, 128);
    const Collector c = score_one_frame("float_ansnr", {}, grey, grey);
    EXPECT_EQ(frame_value(c, "float_ansnr"), 60.0);
    EXPECT_EQ(frame_value(c, "float_anpsnr"), 60.0);
}

TEST(FloatAnsnr, RefusesPlanesUnder3x3)
{
    for (const auto& [w, h] : {std::pair{2u, 8u}, {8u, 2u}, {1u, 1u}}) {
        const VideoFormat format{w, h, ChromaFormat::k444, 8};
        const Picture p = random_picture(format, 1);
        try {
            score_one_frame("float_ansnr", {}, p, p);
            ADD_FAILURE() << w << "x" << h << " was not refused";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("float_ansnr: frame " + std::to_string(w) + "x" +
                                                 std::to_string(h) + " is too small"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(FloatAnsnr, NoOptions)
{
    const FeatureInfo& info = find_feature("float_ansnr");
    EXPECT_TRUE(info.options.empty());
    EXPECT_EQ(info.provided, std::vector<std::string>{"float_ansnr"});
}

}  // namespace
