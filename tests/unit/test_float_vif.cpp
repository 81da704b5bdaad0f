// float VIF: options and names, Netflix's log2 approximation, the size
// refusals, and the row-by-row CPU reference against a plain model of
// Netflix's procedure (whole-plane filters, decimation, statistic).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/common/float_picture.h"
#include "features/float_vif/float_vif.h"
#include "features/float_vif/float_vif_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::score_frames;

namespace {

std::unique_ptr<FeatureExtractor> make_float_vif(const OptionList& options = {})
{
    return test::make_extractor("float_vif", options);
}

std::vector<Picture> one(Picture p)
{
    std::vector<Picture> v;
    v.push_back(std::move(p));
    return v;
}

double value(const Collector& c, const std::string& name, std::uint64_t frame = 0)
{
    const auto id = c.find(name);
    EXPECT_TRUE(id) << name;
    return id ? c.get(*id, frame) : NAN;
}

// ---------------------------------------------------------------- plain model

int plain_mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// Netflix's vif_filter1d_s / _sq_s / _xy_s written out plainly: a whole
// vertical pass into a temporary plane, then a whole horizontal pass.
enum class Product { kX, kXX, kXY };
std::vector<float> plain_filter(const std::vector<float>& x, const std::vector<float>& y, int w, int h,
                                const std::vector<float>& f, Product product)
{
    const int n = static_cast<int>(f.size());
    std::vector<float> tmp(static_cast<std::size_t>(w) * h), out(tmp.size());
    for (int i = 0; i < h; ++i)
        for (int j = 0; j < w; ++j) {
            float accum = 0;
            for (int k = 0; k < n; ++k) {
                const std::size_t at = static_cast<std::size_t>(plain_mirror(i - n / 2 + k, h)) * w + j;
                const float v = product == Product::kX ? x[at] : product == Product::kXX ? x[at] * x[at] : x[at] * y[at];
                accum += f[k] * v;
            }
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

struct PlainSums {
    float num[4], den[4];
};

PlainSums plain_vif(std::vector<float> ref, std::vector<float> dis, int w, int h, float kernelscale,
                    const float_vif::StatisticParams& p, int first_scale)
{
    PlainSums out{};
    for (int scale = first_scale; scale < 4; ++scale) {
        const std::vector<float> f = float_filter::vif_filter(scale, kernelscale);
        if (scale > 0) {
            const std::vector<float> mu1 = plain_filter(ref, ref, w, h, f, Product::kX);
            const std::vector<float> mu2 = plain_filter(dis, dis, w, h, f, Product::kX);
            const int nw = w / 2, nh = h / 2;
            ref.assign(static_cast<std::size_t>(nw) * nh, 0);
            dis.assign(ref.size(), 0);
            for (int i = 0; i < nh; ++i)
                for (int j = 0; j < nw; ++j) {
                    ref[static_cast<std::size_t>(i) * nw + j] = mu1[static_cast<std::size_t>(2 * i) * w + 2 * j];
                    dis[static_cast<std::size_t>(i) * nw + j] = mu2[static_cast<std::size_t>(2 * i) * w + 2 * j];
                }
            w = nw;
            h = nh;
        }
        const auto mu1 = plain_filter(ref, ref, w, h, f, Product::kX);
        const auto mu2 = plain_filter(dis, dis, w, h, f, Product::kX);
        const auto xx = plain_filter(ref, ref, w, h, f, Product::kXX);
        const auto yy = plain_filter(dis, dis, w, h, f, Product::kXX);
        const auto xy = plain_filter(ref, dis, w, h, f, Product::kXY);
        float num = 0, den = 0;
        for (int i = 0; i < h; ++i) {
            float row_num = 0, row_den = 0;
            for (int j = 0; j < w; ++j) {
                const std::size_t at = static_cast<std::size_t>(i) * w + j;
                float n, d;
                float_vif::pixel_terms(mu1[at], mu2[at], xx[at], yy[at], xy[at], p, &n, &d);
                row_num += n;
                row_den += d;
            }
            num += row_num;
            den += row_den;
        }
        out.num[scale] = num;
        out.den[scale] = den;
    }
    return out;
}

std::vector<float> luma_floats(const Picture& p)
{
    const PlaneView plane = p.plane(0);
    std::vector<float> out(static_cast<std::size_t>(plane.width) * plane.height);
    float_picture::plane_to_float(plane, p.format().bitdepth, -128.0f, out.data(), plane.width);
    return out;
}

}  // namespace

TEST(FloatVif, OutputNamesInNetflixOrder)
{
    EXPECT_EQ(make_float_vif()->output_names(),
              (std::vector<std::string>{"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"}));
    EXPECT_EQ(make_float_vif({{"debug", "true"}})->output_names(),
              (std::vector<std::string>{"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", "vif", "vif_num",
                                        "vif_den", "vif_num_scale0", "vif_den_scale0", "vif_num_scale1",
                                        "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3",
                                        "vif_den_scale3"}));
    // Suffixes in the alphabetical order of the full option names.
    EXPECT_EQ(make_float_vif({{"vif_enhn_gain_limit", "1.0"}})->output_names()[0], "vif_scale0_egl_1");
    EXPECT_EQ(make_float_vif({{"vif_kernelscale", "0.5"}, {"vif_enhn_gain_limit", "1.5"}})->output_names()[3],
              "vif_scale3_egl_1.5_ks_0.5");
    EXPECT_EQ(make_float_vif({{"vif_prescale", "0.5"}, {"vif_prescale_method", "bicubic"}, {"vif_sigma_nsq", "1"},
                              {"vif_scale2_min_val", "0.5"}, {"vif_skip_scale0", "true"}})
                  ->output_names()[2],
              "vif_scale2_ps_0.5_pm_bicubic_s2miv_0.5_snsq_1_ssclz");
    EXPECT_EQ(make_float_vif({{"vif_enhn_gain_limit", "100"}, {"vif_prescale_method", "nearest"}})->output_names()[0],
              "vif_scale0");
    // The float models name exactly these features.
    const FeatureInfo* provider = find_feature_providing("VMAF_feature_vif_scale2_score");
    ASSERT_NE(provider, nullptr);
    EXPECT_EQ(provider->name, "float_vif");
}

TEST(FloatVif, OptionRangesAndRefusalsAsNetflix)
{
    EXPECT_THROW(make_float_vif({{"vif_enhn_gain_limit", "0.99"}}), Error);
    EXPECT_THROW(make_float_vif({{"vif_kernelscale", "4.5"}}), Error);
    EXPECT_THROW(make_float_vif({{"vif_prescale", "0.05"}}), Error);
    EXPECT_THROW(make_float_vif({{"vif_sigma_nsq", "5.5"}}), Error);
    EXPECT_THROW(make_float_vif({{"vif_scale3_min_val", "1.5"}}), Error);
    EXPECT_THROW(make_float_vif({{"vif_scale0_min_val", "0.5"}}), Error);  // Netflix has none for scale 0
    // In range but not in Netflix's list of kernel scales; an unknown method.
    EXPECT_THROW(make_float_vif({{"vif_kernelscale", "0.9"}}), Error);
    EXPECT_NO_THROW(make_float_vif({{"vif_kernelscale", "0.711111"}}));
    EXPECT_THROW(make_float_vif({{"vif_prescale_method", "area"}}), Error);
    // Bilinear tables of at most 7680 output columns, even unscaled.
    auto bilinear = make_float_vif({{"vif_prescale_method", "bilinear"}});
    EXPECT_THROW(bilinear->init(VideoFormat{7682, 16, ChromaFormat::k420, 8}), Error);
    EXPECT_NO_THROW(bilinear->init(VideoFormat{7680, 16, ChromaFormat::k420, 8}));
}

// Scale s is (w >> s) x (h >> s); its filter's radius must stay inside it.
TEST(FloatVif, SmallestFramesPerKernelScale)
{
    std::string message;
    const auto accepts = [&](const OptionList& options, unsigned w, unsigned h) {
        auto vif = make_float_vif(options);
        try {
            vif->init(VideoFormat{w, h, ChromaFormat::k420, 8});
            return true;
        } catch (const Error& e) {
            message = e.what();
            return false;
        }
    };
    // Default: 17, 9, 5, 3 taps; scale 3 needs 2 samples -> 16.
    EXPECT_TRUE(accepts({}, 16, 16));
    EXPECT_FALSE(accepts({}, 15, 16));
    EXPECT_FALSE(accepts({}, 16, 15));
    EXPECT_EQ(message, "float_vif: frame 16x15 is too small: scale 3 is 2x1 and its 3-tap filter needs at least 2x2 "
                       "(Netflix reads outside its buffers there)");
    // Kernel scale 2: 35, 19, 11, 7 taps -> scale 3 needs 4 samples -> 32.
    EXPECT_TRUE(accepts({{"vif_kernelscale", "2"}}, 32, 40));
    EXPECT_FALSE(accepts({{"vif_kernelscale", "2"}}, 31, 40));
    // Kernel scale 4/3: 23, 13, 7, 5 taps -> scale 3 needs 3 samples -> 24.
    EXPECT_TRUE(accepts({{"vif_kernelscale", "1.33333"}}, 24, 24));
    EXPECT_FALSE(accepts({{"vif_kernelscale", "1.33333"}}, 23, 24));
    // Prescaling first: 30 * 0.5 -> 15 is too small, 32 * 0.5 -> 16 is not.
    EXPECT_FALSE(accepts({{"vif_prescale", "0.5"}}, 30, 32));
    EXPECT_TRUE(accepts({{"vif_prescale", "0.5"}}, 32, 32));
    // A lanczos4 source needs its 4-sample reach mirrored inside it.
    EXPECT_TRUE(accepts({{"vif_prescale", "4"}, {"vif_prescale_method", "lanczos4"}}, 6, 6));
    EXPECT_FALSE(accepts({{"vif_prescale", "4"}, {"vif_prescale_method", "lanczos4"}}, 4, 4));
    EXPECT_NE(message.find("scaling 4x4 to 16x16 with lanczos4 would read outside the source picture"),
              std::string::npos)
        << message;
}

TEST(FloatVif, Log2ApproximationIsNetflixsPolynomial)
{
    // Exact at powers of two (the polynomial's constant term is 0).
    for (int e = -20; e <= 20; ++e) EXPECT_EQ(float_vif::log2f_approx(std::ldexp(1.0f, e)), static_cast<float>(e));
    // Close to log2 elsewhere (a fast approximation, not a rounding of log2).
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> arg(1.0f, 1.0e6f);
    for (int i = 0; i < 10000; ++i) {
        const float x = arg(rng);
        EXPECT_NEAR(float_vif::log2f_approx(x), std::log2(static_cast<double>(x)), 1e-4) << x;
    }
    EXPECT_EQ(float_vif::log2f_approx(0.0f), -INFINITY);
    EXPECT_TRUE(std::isnan(float_vif::log2f_approx(-1.0f)));
    // Every NaN reads as x86's default NaN (mantissa 1.5): 128 + p(0.5).
    float quiet_nan, other_nan;
    const std::uint32_t default_bits = 0xFFC00000u, other_bits = 0x7FFFFFFFu;
    std::memcpy(&quiet_nan, &default_bits, 4);
    std::memcpy(&other_nan, &other_bits, 4);
    const float at_default = float_vif::log2f_approx(quiet_nan);
    EXPECT_EQ(float_vif::log2f_approx(other_nan), at_default);
    EXPECT_NEAR(at_default, 128 + std::log2(1.5), 1e-4);
}

TEST(FloatVif, SumsEqualAPlainModelOfNetflix)
{
    struct Case {
        unsigned w, h, bits;
        OptionList options;
    };
    const std::vector<Case> cases = {
        {16, 16, 8, {}},
        {17, 23, 8, {}},
        {40, 33, 10, {}},
        {64, 18, 8, {{"vif_enhn_gain_limit", "1.0"}}},
        {37, 29, 12, {{"vif_sigma_nsq", "0.7"}}},
        {50, 50, 8, {{"vif_kernelscale", "0.5"}}},
        {48, 41, 8, {{"vif_kernelscale", "1.5"}}},
        {70, 66, 16, {{"vif_kernelscale", "2"}}},
        {33, 31, 8, {{"vif_skip_scale0", "true"}}},
        {45, 20, 10, {{"vif_sigma_nsq", "0"}}},
    };
    std::uint32_t seed = 11;
    for (const Case& c : cases) {
        OptionList options = c.options;
        options.push_back({"debug", "true"});
        auto vif = make_float_vif(options);
        const VideoFormat format{c.w, c.h, ChromaFormat::k420, c.bits};
        vif->init(format);
        const std::vector<Picture> ref = one(random_picture(format, seed));
        const std::vector<Picture> dis = one(random_picture(format, seed + 1, 12 << (c.bits - 8), &ref[0]));
        seed += 2;
        const Collector scored = score_frames(*vif, ref, dis);

        const FeatureInfo& info = find_feature("float_vif");
        OptionValues values("float_vif", info.options);
        values.set_all(options);
        const float_vif::Settings settings = float_vif::Settings::from(values);
        const float_vif::Plan plan = float_vif::Plan::make(settings, c.w, c.h);
        const PlainSums plain = plain_vif(luma_floats(ref[0]), luma_floats(dis[0]), static_cast<int>(c.w),
                                          static_cast<int>(c.h), static_cast<float>(settings.kernelscale),
                                          plan.statistic, settings.first_scale());
        const std::string suffix = values.output_suffix();
        for (int s = settings.first_scale(); s < 4; ++s) {
            const std::string at = std::to_string(s) + suffix;
            EXPECT_EQ(value(scored, "vif_num_scale" + at), static_cast<double>(plain.num[s]))
                << c.w << "x" << c.h << " scale " << s << suffix;
            EXPECT_EQ(value(scored, "vif_den_scale" + at), static_cast<double>(plain.den[s]))
                << c.w << "x" << c.h << " scale " << s << suffix;
        }
        const double scale3 = value(scored, "vif_scale3" + suffix);
        EXPECT_TRUE(std::isfinite(scale3)) << c.w << "x" << c.h << suffix;
    }
}

TEST(FloatVif, SkipScale0AndMinimaAsNetflix)
{
    const VideoFormat format{48, 40, ChromaFormat::k444, 8};
    const std::vector<Picture> ref = one(random_picture(format, 3));
    const std::vector<Picture> dis = one(random_picture(format, 4, 40, &ref[0]));
    auto full = make_float_vif({{"debug", "true"}});
    full->init(format);
    const Collector all = score_frames(*full, ref, dis);
    auto skipping = make_float_vif({{"debug", "true"}, {"vif_skip_scale0", "true"}, {"vif_scale3_min_val", "1"}});
    skipping->init(format);
    const Collector skipped = score_frames(*skipping, ref, dis);
    const std::string sfx = "_s3miv_1_ssclz";
    EXPECT_EQ(value(skipped, "vif_scale0" + sfx), 0.0);
    EXPECT_EQ(value(skipped, "vif_num_scale0" + sfx), 0.0);
    EXPECT_EQ(value(skipped, "vif_den_scale0" + sfx), -1.0);
    EXPECT_EQ(value(skipped, "vif_scale1" + sfx), value(all, "vif_scale1"));
    EXPECT_LT(value(all, "vif_scale3"), 1.0);
    EXPECT_EQ(value(skipped, "vif_scale3" + sfx), 1.0);  // clipped up to the minimum
    // The totals add scales 1..3 as doubles.
    const double num = value(all, "vif_num_scale1") + value(all, "vif_num_scale2") + value(all, "vif_num_scale3");
    const double den = value(all, "vif_den_scale1") + value(all, "vif_den_scale2") + value(all, "vif_den_scale3");
    EXPECT_EQ(value(skipped, "vif_num" + sfx), num);
    EXPECT_EQ(value(skipped, "vif" + sfx), num / den);
}
