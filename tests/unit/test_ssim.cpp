// float_ssim and float_ms_ssim against a plain model of Netflix's procedure
// (IQA's whole-map passes, written here without ssim_math.h's functions:
// only its filter taps are shared), every option, the output names and the
// frame sizes that are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "core/feature.h"
#include "features/ssim/ssim.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;

namespace {

// ---- the plain model

struct Image {
    int w = 0, h = 0;
    std::vector<float> v;
    float& at(int x, int y) { return v[static_cast<std::size_t>(y) * w + x]; }
    float at(int x, int y) const { return v[static_cast<std::size_t>(y) * w + x]; }
};

Image luma(const Picture& p)
{
    const VideoFormat& f = p.format();
    Image img{static_cast<int>(f.width), static_cast<int>(f.height), {}};
    img.v.resize(std::size_t{f.width} * f.height);
    const float divisor = static_cast<float>(1u << (f.bitdepth - 8));
    for (int y = 0; y < img.h; ++y)
        for (int x = 0; x < img.w; ++x) {
            const unsigned s = sample_at(p, 0, x, y);
            img.at(x, y) = f.bitdepth == 8 ? static_cast<float>(s) : static_cast<float>(s) / divisor;
        }
    return img;
}

// convolve.c (IQA_CONVOLVE_1D): every row horizontally into a cache, then
// the columns vertically; only where the 11 taps fit.
Image convolve(const Image& in)
{
    constexpr ssim::GaussianTaps kTaps = ssim::gaussian_taps();
    const float* taps = kTaps.tap;
    Image cache{in.w, in.h, std::vector<float>(in.v.size())};
    Image out{in.w - 10, in.h - 10, {}};
    out.v.resize(static_cast<std::size_t>(out.w) * out.h);
    for (int y = 0; y < in.h; ++y)
        for (int x = 0; x < out.w; ++x) {
            double sum = 0;
            for (int u = 0; u < 11; ++u) sum += in.at(x + u, y) * taps[u];
            cache.at(x + 5, y) = static_cast<float>(sum);
        }
    for (int x = 0; x < out.w; ++x)
        for (int y = 0; y < out.h; ++y) {
            double sum = 0;
            for (int v = 0; v < 11; ++v) sum += cache.at(x + 5, y + v) * taps[v];
            out.at(x, y) = static_cast<float>(sum);
        }
    return out;
}

Image product(const Image& a, const Image& b)
{
    Image p = a;
    for (std::size_t i = 0; i < p.v.size(); ++i) p.v[i] = a.v[i] * b.v[i];
    return p;
}

// _iqa_ssim's default path (ssim_tools.c), map by map: its four sums.
ssim::SsimSums plain_ssim_sums(const Image& ref, const Image& dis)
{
    const float C1 = (0.01f * 255) * (0.01f * 255), C2 = (0.03f * 255) * (0.03f * 255), C3 = C2 / 2.0f;
    const Image mu1 = convolve(ref), mu2 = convolve(dis);
    Image s1 = convolve(product(ref, ref)), s2 = convolve(product(dis, dis)), s12 = convolve(product(ref, dis));
    for (std::size_t i = 0; i < mu1.v.size(); ++i) {
        s1.v[i] -= mu1.v[i] * mu1.v[i];
        s2.v[i] -= mu2.v[i] * mu2.v[i];
        s1.v[i] = 0.0 > s1.v[i] ? 0.0f : s1.v[i];  // MAX(0.0, v)
        s2.v[i] = 0.0 > s2.v[i] ? 0.0f : s2.v[i];
        s12.v[i] -= mu1.v[i] * mu2.v[i];
    }
    ssim::SsimSums sums;
    for (std::size_t i = 0; i < mu1.v.size(); ++i) {
        const float sigma = std::sqrt(s1.v[i] * s2.v[i]);  // sqrtf; Netflix: sqrt in double, rounded
        const double l = (2.0 * mu1.v[i] * mu2.v[i] + C1) / (mu1.v[i] * mu1.v[i] + mu2.v[i] * mu2.v[i] + C1);
        const double c = (2.0 * sigma + C2) / (s1.v[i] + s2.v[i] + C2);
        const float cov = s12.v[i] < 0.0f && sigma <= 0.0f ? 0.0f : s12.v[i];
        const double s = (cov + C3) / (sigma + C3);
        sums.ssim += l * c * s;
        sums.l += l;
        sums.c += c;
        sums.s += s;
    }
    return sums;
}

// ... and its results: the means as floats.
ssim::SsimMeans plain_ssim(const Image& ref, const Image& dis)
{
    const ssim::SsimSums sums = plain_ssim_sums(ref, dis);
    const double n = static_cast<double>((ref.w - 10) * (ref.h - 10));
    return {static_cast<float>(sums.ssim / n), static_cast<float>(sums.l / n), static_cast<float>(sums.c / n),
            static_cast<float>(sums.s / n)};
}

// _iqa_decimate through _iqa_filter_pixel, with its edge test and
// KBND_SYMMETRIC; in place like float_ssim's call when `in_place`.
Image plain_decimate(Image img, int factor, int size, const std::vector<float>& kernel, bool in_place)
{
    const int sw = img.w / factor + (img.w & 1), sh = img.h / factor + (img.h & 1);
    const int uc = size / 2, even = size % 2 == 0 ? 1 : 0;
    std::vector<float> out(static_cast<std::size_t>(sw) * sh);
    float* dst = in_place ? img.v.data() : out.data();
    auto symmetric = [&](int x, int y) {
        if (x < 0) x = -1 - x;
        else if (x >= img.w) x = (img.w - (x - img.w)) - 1;
        if (y < 0) y = -1 - y;
        else if (y >= img.h) y = (img.h - (y - img.h)) - 1;
        return img.v[static_cast<std::size_t>(y) * img.w + x];
    };
    for (int y = 0; y < sh; ++y)
        for (int x = 0; x < sw; ++x) {
            const int cx = x * factor, cy = y * factor;
            const bool edge = cx < uc || cy < uc || cx >= img.w - uc || cy >= img.h - uc;
            double sum = 0;
            int k = 0;
            for (int v = -uc; v <= uc - even; ++v)
                for (int u = -uc; u <= uc - even; ++u, ++k)
                    sum += (edge ? symmetric(cx + u, cy + v) : img.at(cx + u, cy + v)) * kernel[k];
            dst[static_cast<std::size_t>(y) * sw + x] = static_cast<float>(sum);
        }
    Image result{sw, sh, in_place ? img.v : out};
    result.v.resize(static_cast<std::size_t>(sw) * sh);
    return result;
}

std::vector<float> box_kernel(int factor) { return std::vector<float>(factor * factor, 1.0f / (factor * factor)); }

std::vector<float> low_pass()
{
    constexpr ssim::LowPassKernel kLowPass = ssim::low_pass_kernel();
    return std::vector<float>(kLowPass.weight, kLowPass.weight + 81);
}

ssim::SsimMeans plain_float_ssim(const Picture& ref, const Picture& dis, int factor)
{
    Image r = luma(ref), d = luma(dis);
    if (factor > 1) {
        r = plain_decimate(r, factor, factor, box_kernel(factor), true);
        d = plain_decimate(d, factor, factor, box_kernel(factor), true);
    }
    return plain_ssim(r, d);
}

std::vector<ssim::SsimMeans> plain_ms_ssim_scales(const Picture& ref, const Picture& dis)
{
    const std::vector<float> kernel = low_pass();
    Image r = luma(ref), d = luma(dis);
    std::vector<ssim::SsimMeans> scales;
    for (int i = 0; i < 5; ++i) {
        if (i) {
            r = plain_decimate(r, 2, 9, kernel, false);
            d = plain_decimate(d, 2, 9, kernel, false);
        }
        scales.push_back(plain_ssim(r, d));
    }
    return scales;
}

double plain_ms_ssim(const std::vector<ssim::SsimMeans>& s)
{
    const float alphas[] = {0, 0, 0, 0, 0.1333f};
    const float betas[] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
    double product = 1.0;
    for (int i = 0; i < 5; ++i)
        product *= std::pow(double{s[i].l}, double{alphas[i]}) * std::pow(double{s[i].c}, double{betas[i]}) *
                   std::pow(double{s[i].s}, double{betas[i]});
    return product;
}

// ---- running the extractors

struct Scored {
    std::vector<std::string> names;
    Collector collector;
};

Scored score(const std::string& feature, const OptionList& options, const Picture& ref, const Picture& dis)
{
    const FeatureInfo& info = find_feature(feature);
    OptionValues values(feature, info.options);
    values.set_all(options);
    auto extractor = info.create(values);
    extractor->init(ref.format());
    Scored run{extractor->output_names(), {}};
    SlotWriter writer(run.collector, run.names);
    auto scratch = extractor->make_scratch();
    FrameScores scores;
    extractor->extract(FrameInputs{ref, dis, 0, {}, {}}, scores, scratch.get());
    extractor->collect(0, scores, writer);
    return run;
}

double value(const Scored& run, const std::string& name)
{
    const auto id = run.collector.find(name);
    EXPECT_TRUE(id) << name;
    return id ? run.collector.get(*id, 0) : NAN;
}

struct Pair {
    Picture ref, dis;
};
Pair noisy_pair(unsigned w, unsigned h, unsigned bitdepth, std::uint32_t seed)
{
    const VideoFormat format{w, h, ChromaFormat::k420, bitdepth};
    Picture ref = random_picture(format, seed);
    Picture dis = random_picture(format, seed + 1, 9 << (bitdepth - 8), &ref);
    return {std::move(ref), std::move(dis)};
}

void init_with(const std::string& feature, const OptionList& options, unsigned w, unsigned h)
{
    const FeatureInfo& info = find_feature(feature);
    OptionValues values(feature, info.options);
    values.set_all(options);
    info.create(values)->init(VideoFormat{w, h, ChromaFormat::k420, 8});
}

double expected_max_db(unsigned bitdepth, unsigned w, unsigned h)
{
    const double peak = std::pow(2.0, bitdepth) - 1;
    return std::ceil(10 * std::log10(peak * peak * 2.0 * w * h));
}

// ---- tests

struct SsimCase {
    unsigned w, h, bitdepth;
    int scale;  // option value; 0: automatic
};

class FloatSsimPlain : public testing::TestWithParam<SsimCase> {};

TEST_P(FloatSsimPlain, EveryOutputEqualsThePlainModel)
{
    const SsimCase c = GetParam();
    const Pair p = noisy_pair(c.w, c.h, c.bitdepth, 11 + c.w);
    const int factor = ssim::decimation_factor(c.scale, c.w, c.h);
    const ssim::SsimMeans expected = plain_float_ssim(p.ref, p.dis, factor);
    const Scored run = score("float_ssim", {{"enable_lcs", "true"}, {"scale", std::to_string(c.scale)}}, p.ref, p.dis);
    EXPECT_EQ(run.names, (std::vector<std::string>{"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"}));
    EXPECT_EQ(value(run, "float_ssim"), expected.ssim);
    EXPECT_EQ(value(run, "float_ssim_l"), expected.l);
    EXPECT_EQ(value(run, "float_ssim_c"), expected.c);
    EXPECT_EQ(value(run, "float_ssim_s"), expected.s);
    EXPECT_GT(expected.ssim, 0.1f);  // a real comparison, not an empty map
    EXPECT_LT(expected.ssim, 1.0f);

    for (bool clip : {false, true}) {
        const Scored db = score("float_ssim",
                             {{"enable_db", "true"}, {"clip_db", clip ? "true" : "false"},
                              {"scale", std::to_string(c.scale)}},
                             p.ref, p.dis);
        EXPECT_EQ(db.names, std::vector<std::string>{"float_ssim"});  // no suffix: not a naming option
        const double max_db = clip ? expected_max_db(c.bitdepth, c.w, c.h) : INFINITY;
        EXPECT_EQ(value(db, "float_ssim"), std::min(-10 * std::log10(1.0 - expected.ssim), max_db));
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, FloatSsimPlain,
                         testing::Values(SsimCase{37, 29, 8, 0}, SsimCase{11, 11, 8, 0}, SsimCase{64, 50, 10, 2},
                                         SsimCase{70, 45, 12, 3}, SsimCase{99, 60, 16, 5},
                                         SsimCase{515, 521, 8, 0} /* automatic: 2 */,
                                         SsimCase{33, 33, 10, 1}, SsimCase{120, 111, 8, 10}));

// Random float pictures in the 8-bit range (plus a flat one: variances 0).
Image random_image(int w, int h, std::uint32_t seed, bool flat = false)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> sample(0.0f, 255.75f);
    Image img{w, h, std::vector<float>(static_cast<std::size_t>(w) * h)};
    const float level = sample(rng);
    for (float& v : img.v) v = flat ? level : sample(rng);
    return img;
}

Image noisy_copy(const Image& base, std::uint32_t seed, float amplitude)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> noise(-amplitude, amplitude);
    Image img = base;
    for (float& v : img.v) v += noise(rng);
    return img;
}

// The sums are compared in double, before Netflix rounds their means to
// float (which would hide most single-position differences).
TEST(SsimStages, SumsEqualThePlainModel)
{
    ssim::SsimWork work;
    int compared = 0;
    for (const auto& [w, h] : {std::pair{11, 11}, {12, 30}, {37, 29}, {64, 17}, {101, 77}}) {
        for (std::uint32_t seed = 1; seed <= 3; ++seed) {
            const Image ref = random_image(w, h, seed * 7 + w, seed == 3);
            for (float amplitude : {0.0f, 0.5f, 8.0f, 100.0f}) {
                const Image dis = noisy_copy(ref, seed + 100, amplitude);
                const ssim::SsimSums expected = plain_ssim_sums(ref, dis);
                const ssim::SsimSums ours = ssim::ssim_sums(ref.v.data(), dis.v.data(), w, h, work);
                EXPECT_EQ(ours.ssim, expected.ssim) << w << "x" << h << " seed " << seed << " noise " << amplitude;
                EXPECT_EQ(ours.l, expected.l) << w << "x" << h << " seed " << seed << " noise " << amplitude;
                EXPECT_EQ(ours.c, expected.c) << w << "x" << h << " seed " << seed << " noise " << amplitude;
                EXPECT_EQ(ours.s, expected.s) << w << "x" << h << " seed " << seed << " noise " << amplitude;
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 60);
}

// Netflix decimates float_ssim's pictures in place; ours writes a new
// buffer. Every sample must be the same, at every factor and parity.
TEST(SsimStages, DecimationEqualsThePlainModel)
{
    std::vector<float> ours;
    for (const auto& [w, h] : {std::pair{110, 111}, {121, 100}, {57, 64}, {200, 190}}) {
        const Image img = random_image(w, h, w * 31 + h);
        for (int factor = 2; factor <= 10; ++factor) {
            if (ssim::decimated_size(w, factor) < 11 || ssim::decimated_size(h, factor) < 11) continue;
            const Image expected = plain_decimate(img, factor, factor, box_kernel(factor), true);
            ssim::decimate_box(img.v.data(), w, h, factor, 1.0f / (factor * factor), ours);
            ASSERT_EQ(ours.size(), expected.v.size()) << factor;
            for (std::size_t i = 0; i < ours.size(); ++i)
                ASSERT_EQ(ours[i], expected.v[i]) << w << "x" << h << " factor " << factor << " sample " << i;
        }
        const Image expected = plain_decimate(img, 2, 9, low_pass(), false);
        ssim::decimate_low_pass(img.v.data(), w, h, ours);
        ASSERT_EQ(ours.size(), expected.v.size());
        for (std::size_t i = 0; i < ours.size(); ++i)
            ASSERT_EQ(ours[i], expected.v[i]) << w << "x" << h << " low-pass sample " << i;
    }
}

TEST(FloatSsim, AutomaticScaleIsNetflixsRounding)
{
    EXPECT_EQ(ssim::decimation_factor(0, 576, 324), 1);
    EXPECT_EQ(ssim::decimation_factor(0, 640, 480), 2);
    EXPECT_EQ(ssim::decimation_factor(0, 1920, 1080), 4);
    EXPECT_EQ(ssim::decimation_factor(0, 3840, 2160), 8);
    EXPECT_EQ(ssim::decimation_factor(0, 383, 900), 1);   // 1.496
    EXPECT_EQ(ssim::decimation_factor(0, 384, 900), 2);   // 1.5: halves go up
    EXPECT_EQ(ssim::decimation_factor(0, 640, 640), 3);   // 2.5
    EXPECT_EQ(ssim::decimation_factor(0, 17, 17), 1);     // at least 1
    EXPECT_EQ(ssim::decimation_factor(7, 1920, 1080), 7);  // explicit wins
}

TEST(FloatSsim, IdenticalPicturesClipAtTheMaximumDb)
{
    const Picture ref = random_picture(VideoFormat{40, 30, ChromaFormat::k420, 8}, 5);
    const Scored raw = score("float_ssim", {}, ref, ref);
    const Scored clipped = score("float_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, ref, ref);
    const double ssim = value(raw, "float_ssim");
    EXPECT_GT(ssim, 0.9999);
    const double db = -10 * std::log10(1 - ssim);
    EXPECT_EQ(value(clipped, "float_ssim"), std::min(db, expected_max_db(8, 40, 30)));
}

TEST(FloatSsim, OptionsAndRanges)
{
    EXPECT_THROW(init_with("float_ssim", {{"scale", "11"}}, 400, 400), Error);
    EXPECT_THROW(init_with("float_ssim", {{"scale", "-1"}}, 400, 400), Error);
    EXPECT_THROW(init_with("float_ms_ssim", {{"scale", "1"}}, 400, 400), Error);  // MS-SSIM has no scale
    EXPECT_NO_THROW(init_with("float_ssim", {{"scale", "10"}}, 110, 110));
    const FeatureInfo& info = find_feature("float_ssim");
    EXPECT_EQ(info.provided, std::vector<std::string>{"float_ssim"});
    EXPECT_EQ(find_feature("float_ms_ssim").provided, std::vector<std::string>{"float_ms_ssim"});
}

// Undecimated, a side under the window leaves Netflix's sums at 0, which it
// divides by its map size (w - 10) * (h - 10) in double: +0, -0, or NaN
// where a side is 10 (valgrind-clean in Netflix; tests/data/size_sweep has
// its values). Decimated, such sizes are refused.
TEST(FloatSsim, EmptyMapsGiveNetflixsQuotientAndDecimatedOnesAreRefused)
{
    EXPECT_NO_THROW(init_with("float_ssim", {}, 11, 11));
    for (const auto& [w, h] : std::vector<std::pair<unsigned, unsigned>>{{10, 40}, {40, 10}, {5, 5}, {5, 12}, {1, 1}}) {
        const Pair p = noisy_pair(w, h, 8, 3);
        const double expected =
            static_cast<float>(0.0 / static_cast<double>((static_cast<int>(w) - 10) * (static_cast<int>(h) - 10)));
        const double ours = value(score("float_ssim", {}, p.ref, p.dis), "float_ssim");
        if (std::isnan(expected)) {
            EXPECT_TRUE(std::isnan(ours)) << w << "x" << h << ": " << ours;
        } else {
            EXPECT_EQ(ours, expected) << w << "x" << h;
            EXPECT_EQ(std::signbit(ours), std::signbit(expected)) << w << "x" << h;
        }
    }
    // Decimated sizes: 21 / 2 + 1 = 11 fits, 20 / 2 = 10 does not.
    EXPECT_NO_THROW(init_with("float_ssim", {{"scale", "2"}}, 21, 21));
    EXPECT_THROW(init_with("float_ssim", {{"scale", "2"}}, 20, 21), Error);
    try {
        init_with("float_ssim", {{"scale", "4"}}, 33, 33);
        ADD_FAILURE() << "33x33 with scale 4 was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("33x33"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("9x9"), std::string::npos) << e.what();
    }
}

TEST(FloatMsSsim, EveryOutputEqualsThePlainModel)
{
    for (unsigned bitdepth : {8u, 10u}) {
        const Pair p = noisy_pair(181, 177, bitdepth, 3);
        const auto scales = plain_ms_ssim_scales(p.ref, p.dis);
        const Scored run = score("float_ms_ssim", {{"enable_lcs", "true"}}, p.ref, p.dis);
        ASSERT_EQ(run.names.size(), 16u);
        EXPECT_EQ(run.names[0], "float_ms_ssim");
        EXPECT_EQ(run.names[1], "float_ms_ssim_l_scale0");
        EXPECT_EQ(run.names[6], "float_ms_ssim_c_scale0");
        EXPECT_EQ(run.names[15], "float_ms_ssim_s_scale4");
        EXPECT_EQ(value(run, "float_ms_ssim"), plain_ms_ssim(scales));
        for (int i = 0; i < 5; ++i) {
            const std::string scale = "_scale" + std::to_string(i);
            EXPECT_EQ(value(run, "float_ms_ssim_l" + scale), scales[i].l) << bitdepth << scale;
            EXPECT_EQ(value(run, "float_ms_ssim_c" + scale), scales[i].c) << bitdepth << scale;
            EXPECT_EQ(value(run, "float_ms_ssim_s" + scale), scales[i].s) << bitdepth << scale;
        }
        const Scored db = score("float_ms_ssim", {{"enable_db", "true"}, {"clip_db", "true"}}, p.ref, p.dis);
        EXPECT_EQ(db.names, std::vector<std::string>{"float_ms_ssim"});
        EXPECT_EQ(value(db, "float_ms_ssim"), std::min(-10 * std::log10(1 - plain_ms_ssim(scales)),
                                                       expected_max_db(bitdepth, 181, 177)));
    }
}

TEST(FloatMsSsim, RefusesFramesBelowFiveScales)
{
    EXPECT_NO_THROW(init_with("float_ms_ssim", {}, 176, 176));
    EXPECT_THROW(init_with("float_ms_ssim", {}, 175, 400), Error);
    EXPECT_THROW(init_with("float_ms_ssim", {}, 400, 175), Error);
    try {
        init_with("float_ms_ssim", {}, 257, 145);
        ADD_FAILURE() << "257x145 was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("176x176"), std::string::npos) << e.what();
    }
}

TEST(FloatMsSsim, AnInfiniteProductIsNoScore)
{
    float l[5] = {1, 1, 1, 1, 1}, c[5] = {1, 1, 1, 1, 1}, s[5] = {1, 1, 1, 1, 1};
    EXPECT_EQ(ssim::ms_ssim_score(l, c, s), 1.0);
    l[0] = -5;  // alpha 0: pow(l, 0) is 1 whatever l is
    EXPECT_EQ(ssim::ms_ssim_score(l, c, s), 1.0);
    c[2] = INFINITY;
    EXPECT_FALSE(ssim::ms_ssim_score(l, c, s).has_value());
}

}  // namespace
