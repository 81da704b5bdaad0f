// ADM: the reformulated arithmetic against literal transcriptions of
// Netflix's expressions, every option's effect and output name, scratch
// reuse, and safety on every small frame size (the debug preset runs this
// under AddressSanitizer and UBSan).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/feature.h"
#include "features/adm/adm.h"
#include "features/adm/adm_band_math.h"
#include "features/adm/adm_dwt_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::adm;
using twinvmaf::test::random_picture;

namespace {

// ---- Netflix's expressions, transcribed literally (integer_adm.c) ----------

// div_lookup[]: 2^30 / i, negated for negative i.
const std::int32_t* netflix_div_lookup()
{
    static std::int32_t table[65537];
    static const bool filled = [] {
        for (int i = 1; i <= 32768; ++i) {
            const std::int32_t r = 1073741824 / i;
            table[32768 + i] = r;
            table[32768 - i] = -r;
        }
        return true;
    }();
    (void)filled;
    return table;
}

// adm_decouple's k.
std::int32_t netflix_gain16(std::int16_t o, std::int16_t t)
{
    if (o == 0) return 32768;
    const std::int32_t k =
        static_cast<std::int32_t>(((std::int64_t{netflix_div_lookup()[o + 32768]} * t) + 16384) >> 15);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

// adm_decouple_s123's k, with get_best15_from32.
std::int64_t netflix_gain32(std::int32_t o, std::int32_t t)
{
    if (o == 0) return 32768;
    int shift = 0;
    std::uint32_t magnitude = static_cast<std::uint32_t>(o < 0 ? -std::int64_t{o} : o);
    std::uint16_t top = static_cast<std::uint16_t>(magnitude);
    if (magnitude >= 32768) {
        shift = 17 - __builtin_clz(magnitude);
        top = static_cast<std::uint16_t>((magnitude + (1u << (shift - 1))) >> shift);
    }
    const std::int64_t sign = o < 0 ? -1 : 1;
    const std::int64_t k =
        ((std::int64_t{netflix_div_lookup()[top + 32768]} * t) * sign + (std::int64_t{1} << (14 + shift))) >>
        (15 + shift);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

// dwt2_src_indices_filt, for sizes where Netflix stays inside the data.
std::vector<std::array<int, 4>> netflix_dwt_indices(int size)
{
    const int half = (size + 1) / 2;
    std::vector<std::array<int, 4>> ind(half);
    ind[0] = {1, 0, 1, 2};
    for (int i = 1; i < half - 2; ++i) ind[i] = {2 * i - 1, 2 * i, 2 * i + 1, 2 * i + 2};
    for (int i = half - 2; i < half; ++i) {
        for (int k = 0; k < 4; ++k) {
            int index = 2 * i - 1 + k;
            if (index >= size) index = 2 * size - index - 1;
            ind[i][k] = index;
        }
    }
    return ind;
}

// ---- pictures and runs ------------------------------------------------------

std::unique_ptr<FeatureExtractor> make_adm(const OptionList& options) { return test::make_extractor("adm", options); }

Collector score(const OptionList& options, const Picture& ref, const Picture& dis)
{
    return test::score_one_frame("adm", options, ref, dis);
}

double value(const Collector& c, const std::string& name, std::uint64_t frame = 0)
{
    return test::frame_value(c, name, frame);
}

std::vector<std::string> names(const Collector& c) { return test::series_names(c); }

const VideoFormat kFormat{96, 64, ChromaFormat::k420, 8};

}  // namespace

// ---- arithmetic -------------------------------------------------------------

TEST(AdmMath, ReciprocalEqualsNetflixsTable)
{
    for (std::uint32_t m = 1; m <= 32768; ++m) ASSERT_EQ(reciprocal_magnitude(m), 1073741824u / m) << m;
}

// Scale0Arithmetic::gain is a 32-bit rewrite of Netflix's 64-bit expression
// (checked exhaustively over all 2^32 pairs when it was written); here every
// o against the t where the cases meet, and a random sample.
TEST(AdmMath, Gain16EqualsNetflix)
{
    std::mt19937 rng(16);
    for (int o = -32768; o <= 32767; ++o) {
        const int magnitude = o < 0 ? -o : o;
        std::vector<int> ts = {0, 1, -1, 32767, -32768};
        for (int d = -2; d <= 2; ++d) {
            ts.push_back(magnitude + d);
            ts.push_back(-magnitude + d);
        }
        for (int r = 0; r < 8; ++r) ts.push_back(static_cast<int>(rng() % 65536) - 32768);
        for (int t : ts) {
            if (t < -32768 || t > 32767) continue;
            const auto o16 = static_cast<std::int16_t>(o), t16 = static_cast<std::int16_t>(t);
            ASSERT_EQ(Scale0Arithmetic::gain(o16, t16), netflix_gain16(o16, t16)) << o << " " << t;
        }
    }
}

TEST(AdmMath, Gain32EqualsNetflix)
{
    std::mt19937 rng(32);
    auto random_coef = [&] {
        // Magnitudes of every bit width, both signs.
        const int bits = static_cast<int>(rng() % 31);
        const std::int32_t m = static_cast<std::int32_t>(rng() & ((1u << bits) - 1u));
        return (rng() & 1) ? -m : m;
    };
    for (int i = 0; i < 2000000; ++i) {
        const std::int32_t o = random_coef();
        const std::int32_t t = (i % 4 == 0) ? o + static_cast<std::int32_t>(rng() % 5) - 2 : random_coef();
        ASSERT_EQ(ScaleNArithmetic::gain(o, t), netflix_gain32(o, t)) << o << " " << t;
    }
    for (std::int32_t o : {1, -1, 32767, 32768, -32768, 65535, 65536, 1 << 30, -(1 << 30), 2147483647})
        for (std::int32_t t : {0, 1, -1, 32768, -32768, 1 << 30, 2147483647, -2147483647})
            EXPECT_EQ(ScaleNArithmetic::gain(o, t), netflix_gain32(o, t)) << o << " " << t;
}

// The angle test in double (16-bit coefficients) equals the 64-bit one.
TEST(AdmMath, AngleTestInDoubleEqualsInt64)
{
    std::mt19937 rng(1);
    for (int i = 0; i < 1000000; ++i) {
        const auto c = [&] { return static_cast<std::int16_t>(rng()); };
        const std::int16_t oh = c(), ov = c(), th = c(), tv = c();
        ASSERT_EQ(within_one_degree<double>(oh, ov, th, tv), within_one_degree<std::int64_t>(oh, ov, th, tv));
    }
    EXPECT_TRUE(within_one_degree<double>(100, 100, 100, 100));
    EXPECT_FALSE(within_one_degree<double>(100, 0, 0, 100));
    EXPECT_FALSE(within_one_degree<double>(100, 100, -100, -100));
}

TEST(AdmMath, Cos1DegSquaredIsNetflixs)
{
    const double pi = 3.14159265358979323846;
    EXPECT_EQ(kCos1DegSquared, static_cast<float>(std::cos(1.0 * pi / 180.0) * std::cos(1.0 * pi / 180.0)));
}

TEST(AdmMath, FloorShiftIsArithmeticShift)
{
    std::mt19937_64 rng(2);
    for (int i = 0; i < 100000; ++i) {
        const auto v = static_cast<std::int64_t>(rng());
        const int s = static_cast<int>(rng() % 63);
        ASSERT_EQ(floor_shift(v, s), v >> s) << v << " " << s;
    }
}

// mirror() reproduces Netflix's index tables wherever those stay inside
// the data (sizes >= 5), and stays inside for every size.
TEST(AdmMath, MirrorMatchesNetflixsIndexTables)
{
    for (int size = 5; size < 300; ++size) {
        const auto netflix = netflix_dwt_indices(size);
        for (int i = 0; i < static_cast<int>(netflix.size()); ++i) {
            const Taps taps = dwt_taps(i, size);
            for (int k = 0; k < 4; ++k) ASSERT_EQ(taps.index[k], netflix[i][k]) << size << " " << i << " " << k;
        }
    }
    for (int size = 1; size < 8; ++size) {
        for (int index = -2; index <= size + 2; ++index) {
            const int m = mirror(index, size);
            EXPECT_GE(m, 0);
            EXPECT_LT(m, size);
        }
    }
    EXPECT_EQ(mirror(-1, 3), 1);  // where Netflix reads row -1
    EXPECT_EQ(mirror(2, 2), 1);   // where Netflix reads row 2 of 2
}

TEST(AdmMath, RegionsMatchNetflix)
{
    // 576x324's scale 0 band (288x162): left = (int)(28.8 - 0.5) = 28.
    const Region scored = scored_region(288, 162);
    EXPECT_EQ(scored.left, 28);
    EXPECT_EQ(scored.right, 260);
    EXPECT_EQ(scored.top, 15);
    EXPECT_EQ(scored.bottom, 147);
    const Region decoupled = decoupled_region(288, 162);
    EXPECT_EQ(decoupled.left, 27);
    EXPECT_EQ(decoupled.right, 263);  // w - left + 2 with Netflix's left of 27
    EXPECT_EQ(decoupled.top, 14);
    EXPECT_EQ(decoupled.bottom, 150);
    const Region tiny = decoupled_region(3, 2);
    EXPECT_EQ(tiny.left, 0);
    EXPECT_EQ(tiny.right, 3);
}

// ---- the extractor ----------------------------------------------------------------

TEST(Adm, OutputNamesInNetflixsOrder)
{
    const Picture ref = random_picture(kFormat, 1), dis = random_picture(kFormat, 2, 20, &ref);
    EXPECT_EQ(names(score({}, ref, dis)),
              (std::vector<std::string>{"integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
                                        "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3"}));
    const auto debug = names(score({{"debug", "true"}}, ref, dis));
    ASSERT_EQ(debug.size(), 18u);
    EXPECT_EQ(debug[7], "integer_adm");
    EXPECT_EQ(debug[8], "integer_adm_num");
    EXPECT_EQ(debug[9], "integer_adm_den");
    EXPECT_EQ(debug[10], "integer_adm_num_scale0");
    EXPECT_EQ(debug[17], "integer_adm_den_scale3");
}

TEST(Adm, NamingOptionsAddNetflixsSuffixes)
{
    const Picture ref = random_picture(kFormat, 1), dis = random_picture(kFormat, 2, 20, &ref);
    EXPECT_EQ(names(score({{"adm_enhn_gain_limit", "1.2"}}, ref, dis))[0], "integer_adm2_egl_1.2");
    EXPECT_EQ(names(score({{"adm_csf_mode", "2"},
                           {"adm_min_val", "0.5"},
                           {"adm_dlm_weight", "0.7"},
                           {"adm_noise_weight", "0.02"},
                           {"adm_enhn_gain_limit", "1"},
                           {"adm_norm_view_dist", "1.5"},
                           {"adm_ref_display_height", "2160"}},
                          ref, dis))[6],
              "integer_adm_scale3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_1.5_rdh_2160");
    EXPECT_EQ(names(score({{"adm_skip_scale0", "true"}}, ref, dis))[0], "integer_adm2_ssz");
    EXPECT_EQ(names(score({{"adm_csf_mode", "1"}, {"adm_csf_scale", "2.5"}, {"adm_csf_diag_scale", "0.5"}}, ref,
                          dis))[0],
              "integer_adm2_scfd_0.5_csf_1_scf_2.5");
    // adm_skip_aim and debug do not rename.
    EXPECT_EQ(names(score({{"adm_skip_aim", "true"}}, ref, dis))[0], "integer_adm2");
}

TEST(Adm, OptionRangesAreNetflixs)
{
    const FeatureInfo& info = find_feature("adm");
    OptionValues values("adm", info.options);
    EXPECT_THROW(values.set("adm_enhn_gain_limit", "0.9"), Error);
    EXPECT_THROW(values.set("adm_enhn_gain_limit", "100.1"), Error);
    EXPECT_THROW(values.set("adm_csf_mode", "4"), Error);
    EXPECT_THROW(values.set("adm_norm_view_dist", "0.7"), Error);
    EXPECT_THROW(values.set("adm_ref_display_height", "4321"), Error);
    EXPECT_THROW(values.set("adm_noise_weight", "1500.5"), Error);
    EXPECT_THROW(values.set("adm_dlm_weight", "1.5"), Error);
    EXPECT_THROW(values.set("adm_min_val", "-0.1"), Error);
    EXPECT_THROW(values.set("adm_csf_scale", "51"), Error);
    EXPECT_NO_THROW(values.set("adm_ref_display_height", "4320"));
}

// Netflix fails every frame below 3.0 * 1080 (view distance x display
// height); we refuse in init.
TEST(Adm, RefusesTooLowAngularResolution)
{
    auto low = make_adm({{"adm_norm_view_dist", "2.9"}});
    EXPECT_THROW(low->init(kFormat), Error);
    auto ok = make_adm({{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}});
    EXPECT_NO_THROW(ok->init(kFormat));
}

TEST(Adm, DebugOutputsAreTheScoresParts)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector c = score({{"debug", "true"}}, ref, dis);
    EXPECT_EQ(value(c, "integer_adm"), value(c, "integer_adm2"));
    EXPECT_EQ(value(c, "integer_adm2"), value(c, "integer_adm_num") / value(c, "integer_adm_den"));
    double num = 0, den = 0;
    for (int s = 0; s < 4; ++s) {
        const std::string k = std::to_string(s);
        num += value(c, "integer_adm_num_scale" + k);
        den += value(c, "integer_adm_den_scale" + k);
        EXPECT_EQ(value(c, "integer_adm_scale" + k),
                  value(c, "integer_adm_num_scale" + k) / value(c, "integer_adm_den_scale" + k));
    }
    EXPECT_EQ(num, value(c, "integer_adm_num"));
    EXPECT_EQ(den, value(c, "integer_adm_den"));
    EXPECT_EQ(value(c, "integer_adm3"),
              std::max(value(c, "integer_adm2") * 0.5 + (1 - value(c, "integer_aim")) * 0.5, 0.0));
}

TEST(Adm, SkipAimGivesZeroAim)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector c = score({{"adm_skip_aim", "true"}, {"adm_dlm_weight", "0.7"}}, ref, dis);
    EXPECT_EQ(value(c, "integer_aim_dlmw_0.7"), 0.0);
    EXPECT_EQ(value(c, "integer_adm3_dlmw_0.7"), value(c, "integer_adm2_dlmw_0.7") * 0.7 + (1 - 0.0) * (1 - 0.7));
    const Collector full = score({{"adm_dlm_weight", "0.7"}}, ref, dis);
    EXPECT_EQ(value(c, "integer_adm2_dlmw_0.7"), value(full, "integer_adm2_dlmw_0.7"));
}

TEST(Adm, SkipScale0LeavesScale0Out)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector skip = score({{"adm_skip_scale0", "true"}, {"debug", "true"}}, ref, dis);
    const Collector full = score({{"debug", "true"}}, ref, dis);
    EXPECT_EQ(value(skip, "integer_adm_scale0_ssz"), 0.0);
    EXPECT_EQ(value(skip, "integer_adm_den_scale0_ssz"), static_cast<double>(1e-10f));
    for (int s = 1; s < 4; ++s) {
        const std::string k = std::to_string(s);
        EXPECT_EQ(value(skip, "integer_adm_scale" + k + "_ssz"), value(full, "integer_adm_scale" + k));
    }
}

TEST(Adm, MinValClampsAdm3)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4);
    const Collector c = score({{"adm_min_val", "0.99"}}, ref, dis);
    EXPECT_EQ(value(c, "integer_adm3_min_0.99"), 0.99);
}

// A flat reference with no noise floor: Netflix's denominator is 0, its
// adm2 is 1 and its AIM uninitialised; ours is 0 there.
TEST(Adm, ZeroDenominatorGivesOneAndZeroAim)
{
    Picture ref(kFormat), dis(kFormat);
    std::memset(ref.bytes(), 128, ref.size_bytes());
    std::memset(dis.bytes(), 128, dis.size_bytes());
    const Collector c = score({{"adm_noise_weight", "0"}}, ref, dis);
    EXPECT_EQ(value(c, "integer_adm2_nw_0"), 1.0);
    EXPECT_EQ(value(c, "integer_aim_nw_0"), 0.0);
    EXPECT_EQ(value(c, "integer_adm3_nw_0"), 1.0);
}

// The blend CSFs only know some displays; elsewhere Netflix's weights are
// -EINVAL and its scores NaN, and so are ours.
TEST(Adm, UnknownBlendDisplayGivesNetflixsNaN)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector c = score({{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1440"}}, ref, dis);
    EXPECT_TRUE(std::isnan(value(c, "integer_adm2_csf_2_rdh_1440")));
    EXPECT_EQ(value(c, "integer_adm3_csf_2_rdh_1440"), 0.0);  // MAX(NaN, 0)
}

// Scratch memory carries nothing from frame to frame: a frame scored after
// others gives the same values as scored alone.
TEST(Adm, ScratchReuseDoesNotChangeResults)
{
    test::expect_frames_scored_independently("adm", {{"debug", "true"}});
}

// Every size up to 40x40: a side of 32 or less is refused, naming the size
// (Netflix reads outside its buffers there); from 33x33 on, every chroma
// format and bit depth gives finite scores. Under the debug preset this also
// proves no read outside a buffer.
TEST(Adm, SmallSizesRefuseBelow33AndScoreFiniteFrom33)
{
    std::uint32_t seed = 0;
    for (unsigned w = 1; w <= 40; ++w) {
        for (unsigned h = 1; h <= 40; ++h) {
            if (w < 33 || h < 33) {
                const Picture p = test::constant_picture(VideoFormat{w, h, ChromaFormat::k420, 8}, 128);
                try {
                    score({}, p, p);
                    ADD_FAILURE() << w << "x" << h << " was scored";
                } catch (const Error& e) {
                    EXPECT_NE(std::string(e.what()).find("adm: frame " + std::to_string(w) + "x" + std::to_string(h) +
                                                         " is too small; the integer ADM needs at least 33x33"),
                              std::string::npos)
                        << e.what();
                }
                continue;
            }
            for (const ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
                for (const unsigned depth : {8u, 10u, 12u, 16u}) {
                    const VideoFormat format{w, h, chroma, depth};
                    const Picture ref = random_picture(format, ++seed);
                    const Picture dis = random_picture(format, ++seed, 120, &ref);
                    const Collector c = score({{"debug", "true"}}, ref, dis);
                    for (const auto& series : c.series())
                        ASSERT_TRUE(std::isfinite(c.get(*c.find(series.name), 0)))
                            << series.name << " at " << format.describe();
                }
            }
        }
    }
}

// The options that change the arithmetic, on the smallest sizes scored (33
// and up; below, Netflix's own code misbehaves). Barten's CSF
// (adm_csf_mode=1) gives weights above 1 (1.2 .. 27), which wrap in Netflix's fixed-point weights; its scores (and
// ours, equal to them) are then meaningless and can be NaN: those sets only
// have to run cleanly.
TEST(Adm, SmallSizesWithOptionsAreSafe)
{
    struct Case {
        OptionList options;
        bool finite;
    };
    const std::vector<Case> cases = {
        {{{"adm_skip_scale0", "true"}}, true},
        {{{"adm_skip_aim", "true"}}, true},
        {{{"adm_enhn_gain_limit", "1.2"}}, true},
        {{{"adm_csf_mode", "1"}, {"adm_enhn_gain_limit", "1.2"}}, false},
        {{{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "5"}}, true},
        {{{"adm_noise_weight", "1500"}, {"adm_min_val", "1"}}, true},
        {{{"adm_csf_mode", "1"}, {"adm_csf_scale", "50"}, {"adm_csf_diag_scale", "50"}}, false},
    };
    std::uint32_t seed = 100;
    for (const Case& test : cases) {
        for (unsigned w : {33u, 34u, 35u, 36u, 40u, 41u, 47u, 65u}) {
            for (unsigned h : {33u, 34u, 37u, 40u, 47u}) {
                const VideoFormat format{w, h, ChromaFormat::k420, 10};
                const Picture ref = random_picture(format, ++seed);
                const Picture dis = random_picture(format, ++seed, 120, &ref);
                const Collector c = score(test.options, ref, dis);
                ASSERT_EQ(c.series().size(), 7u);
                if (!test.finite) continue;
                for (const auto& series : c.series())
                    ASSERT_TRUE(std::isfinite(c.get(*c.find(series.name), 0)))
                        << series.name << " at " << format.describe();
            }
        }
    }
}
