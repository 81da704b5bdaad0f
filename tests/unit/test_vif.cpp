// Integer VIF: options and names, the log2 table, every small frame size, and
// the optimised CPU reference against a plain model of Netflix's procedure.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/feature.h"
#include "features/vif/vif.h"
#include "features/vif/vif_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::score_frames;

namespace {

// A smooth random picture (so that both the log and the linear branch of VIF
// occur) or, with `base`, that picture plus noise of +-`noise` samples.
Picture random_picture(const VideoFormat& format, std::uint32_t seed, const Picture* base = nullptr, int noise = 3)
{
    Picture p(format);
    std::mt19937 rng(seed);
    const int max = static_cast<int>(format.max_sample());
    const std::size_t samples = format.frame_bytes() / format.bytes_per_sample();
    const auto get = [&](const Picture& pic, std::size_t i) -> int {
        return format.bitdepth > 8 ? reinterpret_cast<const std::uint16_t*>(pic.bytes())[i] : pic.bytes()[i];
    };
    const auto put = [&](std::size_t i, int v) {
        v = std::clamp(v, 0, max);
        if (format.bitdepth > 8) reinterpret_cast<std::uint16_t*>(p.bytes())[i] = static_cast<std::uint16_t>(v);
        else p.bytes()[i] = static_cast<std::uint8_t>(v);
    };
    int previous = max / 2;
    for (std::size_t i = 0; i < samples; ++i) {
        if (base) {
            const int scale = 1 << (format.bitdepth - 8);
            put(i, get(*base, i) + (static_cast<int>(rng() % (2 * noise + 1)) - noise) * scale);
        } else {
            // A random walk with occasional jumps: flat runs and edges.
            previous = rng() % 8 == 0 ? static_cast<int>(rng() % (max + 1)) : previous + static_cast<int>(rng() % 9) - 4;
            previous = std::clamp(previous, 0, max);
            put(i, previous);
        }
    }
    return p;
}

std::unique_ptr<FeatureExtractor> make_vif(const OptionList& options = {})
{
    return test::make_extractor("vif", options);
}

TEST(Vif, OutputNamesInNetflixOrder)
{
    EXPECT_EQ(make_vif()->output_names(),
              (std::vector<std::string>{"integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
                                        "integer_vif_scale3"}));
    EXPECT_EQ(make_vif({{"debug", "true"}})->output_names(),
              (std::vector<std::string>{
                  "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
                  "integer_vif", "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0",
                  "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
                  "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3",
                  "integer_vif_den_scale3"}));
    // Naming options, in the alphabetical order of their full names; debug
    // does not name.
    EXPECT_EQ(make_vif({{"vif_enhn_gain_limit", "1.0"}})->output_names()[0], "integer_vif_scale0_egl_1");
    EXPECT_EQ(make_vif({{"vif_enhn_gain_limit", "1.5"}})->output_names()[3], "integer_vif_scale3_egl_1.5");
    EXPECT_EQ(make_vif({{"vif_skip_scale0", "true"}, {"vif_enhn_gain_limit", "2"}, {"debug", "true"}})
                  ->output_names()[14],
              "integer_vif_den_scale3_egl_2_ssclz");
    EXPECT_EQ(make_vif({{"vif_enhn_gain_limit", "100"}})->output_names()[0], "integer_vif_scale0");
}

TEST(Vif, OptionRangesAsNetflix)
{
    EXPECT_THROW(make_vif({{"vif_enhn_gain_limit", "0.99"}}), Error);
    EXPECT_THROW(make_vif({{"vif_enhn_gain_limit", "100.5"}}), Error);
    EXPECT_NO_THROW(make_vif({{"vif_enhn_gain_limit", "1"}}));
    EXPECT_THROW(make_vif({{"vif_kernelscale", "2"}}), Error);  // float_vif's option, not integer vif's
}

TEST(Vif, SkipScale0WritesNetflixsPlaceholders)
{
    const VideoFormat format{64, 48, ChromaFormat::k420, 8};
    std::vector<Picture> ref, dis;
    ref.push_back(random_picture(format, 1));
    dis.push_back(random_picture(format, 2, &ref[0]));
    auto full = make_vif({{"debug", "true"}});
    full->init(format);
    const Collector all = score_frames(*full, ref, dis);
    auto skipping = make_vif({{"debug", "true"}, {"vif_skip_scale0", "true"}});
    skipping->init(format);
    const Collector skipped = score_frames(*skipping, ref, dis);

    const auto value = [](const Collector& c, const std::string& name) { return c.get(*c.find(name), 0); };
    EXPECT_EQ(value(skipped, "integer_vif_scale0_ssclz"), 0.0);
    EXPECT_EQ(value(skipped, "integer_vif_num_scale0_ssclz"), 0.0);
    EXPECT_EQ(value(skipped, "integer_vif_den_scale0_ssclz"), -1.0);
    for (const char* scale : {"1", "2", "3"}) {
        EXPECT_EQ(value(skipped, std::string("integer_vif_scale") + scale + "_ssclz"),
                  value(all, std::string("integer_vif_scale") + scale));
    }
    // The totals leave scale 0 out.
    EXPECT_EQ(value(skipped, "integer_vif_num_ssclz"), value(all, "integer_vif_num_scale1") +
                                                           value(all, "integer_vif_num_scale2") +
                                                           value(all, "integer_vif_num_scale3"));
}

TEST(Vif, IdenticalPicturesScoreOne)
{
    for (unsigned bits : {8u, 10u, 12u, 16u}) {
        const VideoFormat format{48, 40, ChromaFormat::k444, bits};
        std::vector<Picture> ref;
        ref.push_back(random_picture(format, 5));
        auto vif = make_vif();
        vif->init(format);
        const Collector c = score_frames(*vif, ref, ref);
        for (const auto& series : c.series()) EXPECT_NEAR(series.values[0], 1.0, 1e-6) << series.name << " " << bits;
    }
}

// Netflix's table is round(2048 * log2f(i)). Computed here from log2l, with a
// check that no entry is close enough to a rounding boundary for a libm's
// log2f error to matter: the table is that of a correctly rounded log2f.
TEST(Vif, Log2TableIsCorrectlyRoundedLog2)
{
    const std::uint16_t* table = vif::log2_table();
    for (unsigned i = 0; i < vif::kLog2TableSize; ++i) {
        const unsigned v = vif::kLog2TableFirst + i;
        const long double exact = std::log2l(static_cast<long double>(v));
        const float rounded = static_cast<float>(exact);
        // Distance from the midpoint between two floats, in units of a float step.
        const long double step = std::nextafter(rounded, 100.0f) - rounded;
        const long double from_midpoint = std::fabs(std::fabs(exact - rounded) / step - 0.5L);
        ASSERT_GT(from_midpoint, 1e-6L) << v;
        EXPECT_EQ(table[i], static_cast<std::uint16_t>(std::round(rounded * 2048.0f))) << v;
    }
}

// Below 8 rows the 4th scale is empty and Netflix crashes: we refuse in
// init(). Every frame of 8 rows or more scores without reading outside a
// buffer (run under the sanitizers): finite values, except NaN (0 / 0, as
// Netflix writes) for each scale that has no columns (width >> scale == 0).
TEST(Vif, EverySmallSizeRefusesOrScoresFinite)
{
    std::vector<std::pair<unsigned, unsigned>> sizes;
    for (unsigned w = 1; w <= 33; ++w)
        for (unsigned h = 1; h <= 33; ++h) sizes.emplace_back(w, h);
    for (auto wh : {std::pair{257u, 145u}, {19u, 23u}, {47u, 9u}, {8u, 65u}, {129u, 15u}}) sizes.push_back(wh);

    int scored = 0;
    for (const auto& [w, h] : sizes) {
        for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
            for (unsigned bits : {8u, 10u, 12u, 16u}) {
                const VideoFormat format{w, h, chroma, bits};
                auto vif = make_vif({{"debug", "true"}});
                if (h < vif::kMinFrameHeight) {
                    EXPECT_THROW(vif->init(format), Error) << format.describe();
                    continue;
                }
                ASSERT_NO_THROW(vif->init(format)) << format.describe();
                const std::uint32_t seed = w * 1000 + h * 10 + bits;
                std::vector<Picture> refs, diss;
                for (std::uint32_t f = 0; f < 2; ++f) {
                    refs.push_back(random_picture(format, seed + f));
                    diss.push_back(random_picture(format, seed + 7 + f, &refs.back()));
                }
                const Collector c = score_frames(*vif, refs, diss);
                for (const auto& series : c.series()) {
                    bool empty_scale = false;
                    for (int s = 0; s < vif::kScaleCount; ++s)
                        empty_scale |= series.name == "integer_vif_scale" + std::to_string(s) && (w >> s) == 0;
                    for (double v : series.values)
                        ASSERT_EQ(std::isfinite(v), !empty_scale) << series.name << " " << format.describe();
                }
                ++scored;
            }
        }
    }
    EXPECT_GT(scored, 0);
}

// A plain model of Netflix's integer_vif.c: full-size filtering, decimation
// in place into one padded buffer, mirror padding copied row by row, one set
// of row buffers for all scales, 64-bit sums. It reads the stale values
// Netflix reads at 8..15 samples, which the optimised code reproduces
// explicitly; comparing the two checks every shortcut the optimised code
// takes (even samples only, 16-bit halves, reflect_101).
class NetflixModel {
public:
    NetflixModel(unsigned w, unsigned h, unsigned bits, double gain_limit, bool skip_scale0)
        : w_(w), h_(h), bits_(bits), gain_limit_(gain_limit), skip_scale0_(skip_scale0),
          ref_((h + 2 * kPad) * w), dis_((h + 2 * kPad) * w), mu1_(h * w), mu2_(h * w)
    {
        for (auto* row : {&t_mu1_, &t_mu2_, &t_xx_, &t_yy_, &t_xy_, &t_ref_convol_, &t_dis_convol_})
            row->assign(w + 2 * kPad, 0);
    }

    std::array<vif::ScaleSums, vif::kScaleCount> frame(const Picture& ref, const Picture& dis)
    {
        for (unsigned y = 0; y < h_; ++y)
            for (unsigned x = 0; x < w_; ++x) {
                at(ref_, y, x) = sample(ref, y, x);
                at(dis_, y, x) = sample(dis, y, x);
            }
        pad_rows(h_, 8);
        std::array<vif::ScaleSums, vif::kScaleCount> sums{};
        unsigned w = w_, h = h_;
        for (int scale = 0; scale < vif::kScaleCount; ++scale) {
            if (scale > 0) {
                subsample(w, h, scale);
                w /= 2;
                h /= 2;
            }
            if (scale > 0 || !skip_scale0_) sums[scale] = statistic(w, h, scale);
        }
        return sums;
    }

private:
    static constexpr int kPad = 8;

    static std::uint64_t sample(const Picture& p, unsigned y, unsigned x)
    {
        const PlaneView luma = p.plane(0);
        return p.format().bitdepth > 8 ? luma.row<std::uint16_t>(y)[x] : luma.row<std::uint8_t>(y)[x];
    }
    std::uint64_t& at(std::vector<std::uint64_t>& image, int y, int x)
    {
        return image[static_cast<std::size_t>(y + kPad) * w_ + x];
    }
    static std::uint64_t& at_row(std::vector<std::uint64_t>& row, int x) { return row[x + kPad]; }

    // Rows -i and h-1+i, i = 1..half, copied from rows i and h-1-i in turn.
    void pad_rows(unsigned h, unsigned half)
    {
        for (auto* image : {&ref_, &dis_}) {
            for (int i = 1; i <= static_cast<int>(half); ++i)
                for (unsigned x = 0; x < w_; ++x) {
                    at(*image, -i, x) = at(*image, i, x);
                    at(*image, static_cast<int>(h) - 1 + i, x) = at(*image, static_cast<int>(h) - 1 - i, x);
                }
        }
    }
    static void pad_columns(std::vector<std::uint64_t>& row, unsigned w, unsigned half)
    {
        for (int f = 1; f <= static_cast<int>(half); ++f) {
            at_row(row, -f) = at_row(row, f);
            at_row(row, static_cast<int>(w) - 1 + f) = at_row(row, static_cast<int>(w) - 1 - f);
        }
    }
    static std::uint64_t rounded(std::uint64_t v, unsigned shift) { return shift ? (v + (1ull << (shift - 1))) >> shift : v; }

    void subsample(unsigned w, unsigned h, int scale)
    {
        const vif::Filter f = vif::scale_filter(scale);
        const int half = static_cast<int>(f.half());
        const unsigned shift = scale == 1 ? bits_ : 16;
        for (unsigned y = 0; y < h; ++y) {
            for (unsigned x = 0; x < w; ++x) {
                std::uint64_t r = 0, d = 0;
                for (int k = 0; k < static_cast<int>(f.width); ++k) {
                    r += f.taps[k] * at(ref_, static_cast<int>(y) - half + k, x);
                    d += f.taps[k] * at(dis_, static_cast<int>(y) - half + k, x);
                }
                at_row(t_ref_convol_, x) = rounded(r, shift);
                at_row(t_dis_convol_, x) = rounded(d, shift);
            }
            pad_columns(t_ref_convol_, w, f.half());
            pad_columns(t_dis_convol_, w, f.half());
            for (unsigned x = 0; x < w; ++x) {
                std::uint64_t r = 0, d = 0;
                for (int k = 0; k < static_cast<int>(f.width); ++k) {
                    r += f.taps[k] * at_row(t_ref_convol_, static_cast<int>(x) - half + k);
                    d += f.taps[k] * at_row(t_dis_convol_, static_cast<int>(x) - half + k);
                }
                mu1_[y * w_ + x] = rounded(r, 16);
                mu2_[y * w_ + x] = rounded(d, 16);
            }
        }
        for (unsigned y = 0; y < h / 2; ++y)
            for (unsigned x = 0; x < w / 2; ++x) {
                at(ref_, y, x) = mu1_[2 * y * w_ + 2 * x];
                at(dis_, y, x) = mu2_[2 * y * w_ + 2 * x];
            }
        pad_rows(h / 2, vif::scale_filter(scale - 1).half());
    }

    vif::ScaleSums statistic(unsigned w, unsigned h, int scale)
    {
        const vif::Filter f = vif::scale_filter(scale);
        const int half = static_cast<int>(f.half());
        const unsigned mu_shift = scale == 0 ? bits_ : 16;
        const unsigned square_shift = scale == 0 ? 2 * (bits_ - 8) : 16;
        vif::ScaleSums sums;
        for (unsigned y = 0; y < h; ++y) {
            for (unsigned x = 0; x < w; ++x) {
                std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
                for (int k = 0; k < static_cast<int>(f.width); ++k) {
                    const std::uint64_t r = at(ref_, static_cast<int>(y) - half + k, x);
                    const std::uint64_t d = at(dis_, static_cast<int>(y) - half + k, x);
                    m1 += f.taps[k] * r;
                    m2 += f.taps[k] * d;
                    xx += f.taps[k] * r * r;
                    yy += f.taps[k] * d * d;
                    xy += f.taps[k] * r * d;
                }
                at_row(t_mu1_, x) = rounded(m1, mu_shift);
                at_row(t_mu2_, x) = rounded(m2, mu_shift);
                at_row(t_xx_, x) = static_cast<std::uint32_t>(rounded(xx, square_shift));
                at_row(t_yy_, x) = static_cast<std::uint32_t>(rounded(yy, square_shift));
                at_row(t_xy_, x) = static_cast<std::uint32_t>(rounded(xy, square_shift));
            }
            for (auto* row : {&t_mu1_, &t_mu2_, &t_xx_, &t_yy_, &t_xy_}) pad_columns(*row, w, f.half());
            for (unsigned x = 0; x < w; ++x) {
                std::uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
                for (int k = 0; k < static_cast<int>(f.width); ++k) {
                    const int i = static_cast<int>(x) - half + k;
                    m1 += f.taps[k] * at_row(t_mu1_, i);
                    m2 += f.taps[k] * at_row(t_mu2_, i);
                    xx += f.taps[k] * at_row(t_xx_, i);
                    yy += f.taps[k] * at_row(t_yy_, i);
                    xy += f.taps[k] * at_row(t_xy_, i);
                }
                const auto product = [](std::uint64_t a, std::uint64_t b) {
                    return static_cast<std::uint32_t>((static_cast<std::uint32_t>(a) * b + (1ull << 31)) >> 32);
                };
                const std::uint32_t s1 = static_cast<std::uint32_t>(rounded(xx, 16)) - product(m1, m1);
                const std::uint32_t s2 = static_cast<std::uint32_t>(rounded(yy, 16)) - product(m2, m2);
                const std::uint32_t s12 = static_cast<std::uint32_t>(rounded(xy, 16)) - product(m1, m2);
                vif::add_sample(sums, static_cast<std::int32_t>(s1), static_cast<std::int32_t>(s2),
                                static_cast<std::int32_t>(s12), vif::log2_table(), gain_limit_);
            }
        }
        return sums;
    }

    unsigned w_, h_, bits_;
    double gain_limit_;
    bool skip_scale0_;
    std::vector<std::uint64_t> ref_, dis_, mu1_, mu2_;
    std::vector<std::uint64_t> t_mu1_, t_mu2_, t_xx_, t_yy_, t_xy_, t_ref_convol_, t_dis_convol_;
};

TEST(Vif, CountersEqualAPlainModelOfNetflix)
{
    std::mt19937 rng(2024);
    // Under 8 columns too: the 2nd or 3rd scale is then one column wide (the
    // columns beside it are leftovers of the scale before), and at width 1
    // scale 0 reads the buffers' zeros.
    std::vector<std::pair<unsigned, unsigned>> sizes = {{8, 8},   {9, 15},  {15, 9},  {16, 16}, {17, 33}, {12, 40},
                                                        {40, 12}, {31, 17}, {64, 48}, {97, 23}, {1, 8},   {1, 40},
                                                        {2, 9},   {3, 16},  {4, 8},   {5, 23},  {6, 17},  {7, 40}};
    for (int i = 0; i < 6; ++i) sizes.emplace_back(8 + rng() % 60, 8 + rng() % 60);
    for (const auto& [w, h] : sizes) {
        for (unsigned bits : {8u, 10u, 12u, 16u}) {
            const bool skip_scale0 = (w + h + bits) % 3 == 0;
            const double gain_limit = (w * h) % 2 ? 100.0 : 1.0;
            const VideoFormat format{w, h, ChromaFormat::k420, bits};
            auto vif = make_vif({{"vif_enhn_gain_limit", std::to_string(gain_limit)},
                                 {"vif_skip_scale0", skip_scale0 ? "true" : "false"}});
            vif->init(format);
            auto scratch = vif->make_scratch();
            NetflixModel model(w, h, bits, gain_limit, skip_scale0);
            for (std::uint32_t f = 0; f < 2; ++f) {
                const Picture ref = random_picture(format, w * 100 + h + f);
                const Picture dis = random_picture(format, bits + f, &ref, 1 + f * 5);
                FrameScores scores;
                vif->extract({ref, dis, f, {}, {}}, scores, scratch.get());
                const auto expected = model.frame(ref, dis);
                for (int s = 0; s < vif::kScaleCount; ++s) {
                    const std::string where = format.describe() + " frame " + std::to_string(f) + " scale " +
                                              std::to_string(s);
                    EXPECT_EQ(static_cast<std::int64_t>(scores.get_integer(4 * s + 0)), expected[s].num_log) << where;
                    EXPECT_EQ(static_cast<std::int64_t>(scores.get_integer(4 * s + 1)), expected[s].den_log) << where;
                    EXPECT_EQ(static_cast<std::int64_t>(scores.get_integer(4 * s + 2)), expected[s].num_non_log)
                        << where;
                    EXPECT_EQ(static_cast<std::int64_t>(scores.get_integer(4 * s + 3)), expected[s].den_non_log)
                        << where;
                }
            }
        }
    }
}

}  // namespace
