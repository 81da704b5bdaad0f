// float_adm: Intel's RCPSS as measured, the masking window and the order of
// the masked sums against literal transcriptions of Netflix's branches
// (adm_tools.c), every option's effect and output name, scratch reuse, and
// safety on every small frame size (the debug preset runs this under
// AddressSanitizer and UBSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "core/feature.h"
#include "core/intel_rcp.h"
#include "features/float_adm/float_adm.h"
#include "features/float_adm/float_adm_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::float_adm;
using twinvmaf::test::random_picture;

namespace {

std::uint32_t bits_of(float x)
{
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

float float_of(std::uint32_t b)
{
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

std::uint32_t rcp_bits(std::uint32_t x) { return bits_of(intel_rcpss(float_of(x))); }

// ---- Netflix's masking, transcribed literally (adm_tools.h, adm_tools.c) -----

// The ADM_CM_THRESH_S_* macros: each of the nine positions (corner, edge,
// interior) with its own index pattern.
float netflix_threshold(const CsfPlanes& other, int w, int h, int i, int j)
{
    const int rows[3] = {i == 0 ? 1 : i - 1, i, i == h - 1 ? h - 1 : i + 1};
    const int cols[3] = {j == 0 ? 1 : j - 1, j, j == w - 1 ? w - 1 : j + 1};
    float accum = 0;
    for (int theta = 0; theta < 3; ++theta) {
        const float* flt = other.masking[theta];
        const float* src = other.weighted[theta];
        const int s = other.stride;
        float sum = 0;
        sum += flt[rows[0] * s + cols[0]];
        sum += flt[rows[0] * s + cols[1]];
        sum += flt[rows[0] * s + cols[2]];
        sum += flt[rows[1] * s + cols[0]];
        sum += 0.0666666701 * fabsf(src[i * s + j]);
        sum += flt[rows[1] * s + cols[2]];
        sum += flt[rows[2] * s + cols[0]];
        sum += flt[rows[2] * s + cols[1]];
        sum += flt[rows[2] * s + cols[2]];
        accum += sum;
    }
    return accum;
}

// adm_cm_s's loops: the first row, the middle rows in four border cases and
// the last row, each its own inner sum (bands of at least 2 x 2).
void netflix_cm(const float* const measured[3], const CsfPlanes& other, int w, int h, double p_norm, bool bypass,
                float out[3])
{
    const int left = w * 0.1 - 0.5, top = h * 0.1 - 0.5, right = w - left, bottom = h - top;
    const int start_col = left > 1 ? left : 1, end_col = right < w - 1 ? right : w - 1;
    const int start_row = top > 1 ? top : 1, end_row = bottom < h - 1 ? bottom : h - 1;
    float accum[3] = {0, 0, 0}, inner[3] = {0, 0, 0};
    auto add = [&](int i, int j) {
        const float thr = bypass ? 0.0f : netflix_threshold(other, w, h, i, j);
        for (int t = 0; t < 3; ++t) {
            float x = fabsf(measured[t][i * other.stride + j]) - thr;
            x = x < 0.0f ? 0.0f : x;
            // Netflix's powf(x, p_norm) is glibc's; the term here is ours
            // (term_powf, correctly rounded: tests/unit/test_cr_powf.cpp),
            // so that this test checks the loops and their order only.
            inner[t] += p_norm == 3.0 ? x * x * x : term_powf(x, static_cast<float>(p_norm));
        }
    };
    auto flush = [&] {
        for (int t = 0; t < 3; ++t) {
            accum[t] += inner[t];
            inner[t] = 0;
        }
    };
    if (top <= 0 && left <= 0) add(0, 0);
    if (top <= 0)
        for (int j = start_col; j < end_col; ++j) add(0, j);
    if (top <= 0 && right > w - 1) add(0, w - 1);
    flush();
    for (int i = start_row; i < end_row; ++i) {
        if (left <= 0) add(i, 0);
        for (int j = start_col; j < end_col; ++j) add(i, j);
        if (right > w - 1) add(i, w - 1);
        flush();
    }
    if (bottom > h - 1 && left <= 0) add(h - 1, 0);
    if (bottom > h - 1)
        for (int j = start_col; j < end_col; ++j) add(h - 1, j);
    if (bottom > h - 1 && right > w - 1) add(h - 1, w - 1);
    flush();
    for (int t = 0; t < 3; ++t) out[t] = accum[t];
}

// ---- the extractor ----------------------------------------------------------

Collector score(const OptionList& options, const Picture& ref, const Picture& dis)
{
    return test::score_one_frame("float_adm", options, ref, dis);
}

double value(const Collector& c, const std::string& name, std::uint64_t frame = 0)
{
    return test::frame_value(c, name, frame);
}

std::vector<std::string> names(const Collector& c) { return test::series_names(c); }

const VideoFormat kFormat{96, 64, ChromaFormat::k420, 8};

}  // namespace

// ---- Intel's RCPSS ------------------------------------------------------------

// The 2048 results for 1 + i/2048, measured with RCPSS on an Intel Xeon
// (AVX-512): an FNV-1a hash of all of them and a few literally.
TEST(IntelRcp, EqualsTheXeonMeasurement)
{
    std::uint64_t hash = 0xcbf29ce484222325u;
    for (std::uint32_t i = 0; i < 2048; ++i) {
        const std::uint32_t r = rcp_bits(0x3f800000u | (i << 12));
        for (int byte = 0; byte < 4; ++byte) {
            hash ^= (r >> (8 * byte)) & 0xffu;
            hash *= 0x100000001b3u;
        }
    }
    EXPECT_EQ(hash, 0x15a527651af59360u);
    EXPECT_EQ(rcp_bits(0x3f800000u), 0x3f7ff000u);               // 1.0 -> 0.999756
    EXPECT_EQ(rcp_bits(0x3f800000u | (128u << 12)), 0x3f70e000u);
    EXPECT_EQ(rcp_bits(0x3f800000u | (1024u << 12)), 0x3f2aa000u);
    EXPECT_EQ(rcp_bits(0x3fffffffu), 0x3f000800u);
}

TEST(IntelRcp, DependsOnTheTop11FractionBitsAndTheExponent)
{
    std::mt19937 rng(7);
    for (int n = 0; n < 100000; ++n) {
        const std::uint32_t fraction = rng() & 0x7fffffu;
        const std::uint32_t exponent = 1 + rng() % 252;  // results stay normal
        const std::uint32_t sign = (rng() & 1) << 31;
        const std::uint32_t x = sign | (exponent << 23) | fraction;
        const std::uint32_t unit = rcp_bits(0x3f800000u | (fraction & 0x7ff000u));
        const std::uint32_t expected = sign | ((unit & 0x807fffffu) + ((126 + 127 - exponent) << 23));
        ASSERT_EQ(rcp_bits(x), expected) << std::hex << x;
    }
}

TEST(IntelRcp, SpecialValues)
{
    EXPECT_EQ(rcp_bits(0x00000000u), 0x7f800000u);  // +0 -> +inf
    EXPECT_EQ(rcp_bits(0x80000000u), 0xff800000u);  // -0 -> -inf
    EXPECT_EQ(rcp_bits(0x00000001u), 0x7f800000u);  // subnormals count as 0
    EXPECT_EQ(rcp_bits(0x807fffffu), 0xff800000u);
    EXPECT_EQ(rcp_bits(0x7f800000u), 0x00000000u);  // inf -> 0
    EXPECT_EQ(rcp_bits(0xff800000u), 0x80000000u);
    EXPECT_EQ(rcp_bits(0x7f800001u), 0x7fc00001u);  // NaN made quiet
    EXPECT_EQ(rcp_bits(0x7e800000u), 0x00000000u);  // 2^126: tiny result flushed
    EXPECT_EQ(rcp_bits(0xfe000000u), 0x80fff000u);  // -2^125: the smallest normal result
}

// Where this test runs on an Intel CPU, the hardware itself is the reference.
TEST(IntelRcp, EqualsThisCpusInstructionOnIntel)
{
#if defined(__x86_64__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    __get_cpuid(0, &a, &b, &c, &d);
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &d, 4);
    std::memcpy(vendor + 8, &c, 4);
    if (std::strcmp(vendor, "GenuineIntel") != 0)
        GTEST_SKIP() << "not an Intel CPU (" << vendor << "): RCPSS here is not Intel's";
    std::mt19937 rng(11);
    for (std::uint32_t n = 0; n < (1u << 24); ++n) {
        const std::uint32_t x = n < (1u << 23) ? (0x3f800000u | n) : rng();
        const float hardware = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(float_of(x))));
        if (std::isnan(hardware)) continue;
        ASSERT_EQ(rcp_bits(x), bits_of(hardware)) << std::hex << x;
    }
#else
    GTEST_SKIP() << "not an x86-64 CPU";
#endif
}

// ---- arithmetic -------------------------------------------------------------

// Every position of bands from 2x2 to 12x12: our mirrored window equals
// Netflix's nine macros bit for bit, and the row-by-row sums equal its
// branchy loops, for p = 3 and p = 2.5 and with masking bypassed.
TEST(FloatAdmMath, MaskingEqualsNetflixsMacrosAndLoops)
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> coefficient(-40.0f, 40.0f);
    for (int w = 2; w <= 41; w += (w < 12 ? 1 : 29)) {
        for (int h = 2; h <= 41; h += (h < 12 ? 1 : 29)) {
            std::vector<float> planes[9];
            for (auto& plane : planes) {
                plane.resize(std::size_t(w) * h);
                for (float& v : plane) v = coefficient(rng);
            }
            CsfPlanes other;
            for (int t = 0; t < 3; ++t) {
                other.weighted[t] = planes[t].data();
                for (float& v : planes[3 + t]) v = masking_part(v);
                other.masking[t] = planes[3 + t].data();
            }
            other.stride = w;
            for (int i = 0; i < h; ++i)
                for (int j = 0; j < w; ++j)
                    ASSERT_EQ(bits_of(masking_threshold(other, w, h, i, j)),
                              bits_of(netflix_threshold(other, w, h, i, j)))
                        << w << "x" << h << " at " << i << "," << j;

            const float* measured[3] = {planes[6].data(), planes[7].data(), planes[8].data()};
            const Region scored = adm::scored_region(w, h);
            for (const double p : {3.0, 2.5}) {
                for (const bool bypass : {false, true}) {
                    float expected[3], ours[3] = {0, 0, 0};
                    netflix_cm(measured, other, w, h, p, bypass, expected);
                    std::vector<float> threshold(w);
                    for (int i = scored.top; i < scored.bottom; ++i) {
                        for (int j = scored.left; j < scored.right; ++j)
                            threshold[j] = bypass ? 0.0f : masking_threshold(other, w, h, i, j);
                        for (int t = 0; t < 3; ++t)
                            ours[t] += masked_row_sum(measured[t] + i * w, threshold.data(), scored, p);
                    }
                    for (int t = 0; t < 3; ++t)
                        ASSERT_EQ(bits_of(ours[t]), bits_of(expected[t])) << w << "x" << h << " p " << p;
                }
            }
        }
    }
}

// ---- the extractor ----------------------------------------------------------------

TEST(FloatAdm, OutputNamesInNetflixsOrder)
{
    const Picture ref = random_picture(kFormat, 1), dis = random_picture(kFormat, 2, 20, &ref);
    EXPECT_EQ(names(score({}, ref, dis)), (std::vector<std::string>{"adm2", "aim", "adm3", "adm_scale0",
                                                                     "adm_scale1", "adm_scale2", "adm_scale3"}));
    const auto debug = names(score({{"debug", "true"}}, ref, dis));
    ASSERT_EQ(debug.size(), 18u);
    EXPECT_EQ(debug[7], "adm");
    EXPECT_EQ(debug[8], "adm_num");
    EXPECT_EQ(debug[9], "adm_den");
    EXPECT_EQ(debug[10], "adm_num_scale0");
    EXPECT_EQ(debug[17], "adm_den_scale3");
}

// Suffixes in the alphabetical order of the full option names; "adm" is not
// one of Netflix's provided features and keeps its name.
TEST(FloatAdm, NamingOptionsAddNetflixsSuffixes)
{
    const Picture ref = random_picture(kFormat, 1), dis = random_picture(kFormat, 2, 20, &ref);
    EXPECT_EQ(names(score({{"adm_enhn_gain_limit", "1"}}, ref, dis))[0], "adm2_egl_1");
    const auto many = names(score({{"debug", "true"},
                                   {"adm_skip_scale0", "true"},
                                   {"adm_skip_aim_scale", "2"},
                                   {"adm_ref_display_height", "2160"},
                                   {"adm_f2s3", "0.5"},
                                   {"adm_f1s0", "2"},
                                   {"adm_bypass_cm", "1"},
                                   {"adm_adm3_apply_hm", "true"},
                                   {"adm_p_norm", "2.5"},
                                   {"adm_csf_mode", "1"},
                                   {"adm_csf_scale", "1.5"}},
                                  ref, dis));
    const std::string suffix = "_aah_bcm_1_csf_1_scf_1.5_f1s0_2_f2s3_0.5_apn_2.5_rdf_2160_sasc_2_ssz";
    EXPECT_EQ(many[0], "adm2" + suffix);
    EXPECT_EQ(many[6], "adm_scale3" + suffix);
    EXPECT_EQ(many[7], "adm");
    EXPECT_EQ(many[8], "adm_num" + suffix);
    EXPECT_EQ(names(score({{"adm_noise_weight", "0.02"}, {"adm_dlm_weight", "0.7"}, {"adm_min_val", "0.5"},
                           {"adm_norm_view_dist", "5"}, {"adm_csf_diag_scale", "0.5"}},
                          ref, dis))[2],
              "adm3_scfd_0.5_dlmw_0.7_min_0.5_nw_0.02_nvd_5");
    EXPECT_EQ(names(score({{"debug", "true"}}, ref, dis))[0], "adm2");  // debug does not rename
}

TEST(FloatAdm, OptionRangesAreNetflixs)
{
    const FeatureInfo& info = find_feature("float_adm");
    OptionValues values("float_adm", info.options);
    EXPECT_EQ(values.get_int("adm_skip_aim_scale"), -1);  // default outside its own range
    EXPECT_THROW(values.set("adm_skip_aim_scale", "-1"), Error);
    EXPECT_THROW(values.set("adm_skip_aim_scale", "4"), Error);
    EXPECT_NO_THROW(values.set("adm_skip_aim_scale", "3"));
    EXPECT_THROW(values.set("adm_csf_mode", "10"), Error);
    EXPECT_NO_THROW(values.set("adm_csf_mode", "9"));
    EXPECT_THROW(values.set("adm_bypass_cm", "2"), Error);
    EXPECT_THROW(values.set("adm_p_norm", "0.9"), Error);
    EXPECT_THROW(values.set("adm_p_norm", "20.5"), Error);
    EXPECT_THROW(values.set("adm_f1s0", "-1.5"), Error);
    EXPECT_THROW(values.set("adm_f2s3", "10.5"), Error);
    EXPECT_THROW(values.set("adm_enhn_gain_limit", "0.9"), Error);
    EXPECT_THROW(values.set("adm_norm_view_dist", "0.7"), Error);
    EXPECT_NO_THROW(values.set("adm_norm_view_dist", "0.75"));  // the float ADM has no 3240 floor
    EXPECT_THROW(values.set("adm_ref_display_height", "4321"), Error);
    EXPECT_THROW(values.set("adm_noise_weight", "1500.5"), Error);
    EXPECT_THROW(values.set("adm_skip_aim", "true"), Error);  // an integer-ADM option only
}

TEST(FloatAdm, DebugOutputsAreTheScoresParts)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector c = score({{"debug", "true"}}, ref, dis);
    EXPECT_EQ(value(c, "adm"), value(c, "adm2"));
    EXPECT_EQ(value(c, "adm2"), value(c, "adm_num") / value(c, "adm_den"));
    double num = 0, den = 0;
    for (int s = 0; s < 4; ++s) {
        const std::string k = std::to_string(s);
        num += value(c, "adm_num_scale" + k);
        den += value(c, "adm_den_scale" + k);
        EXPECT_EQ(value(c, "adm_scale" + k), value(c, "adm_num_scale" + k) / value(c, "adm_den_scale" + k));
        EXPECT_EQ(value(c, "adm_num_scale" + k), static_cast<float>(value(c, "adm_num_scale" + k)));  // floats
    }
    EXPECT_EQ(num, value(c, "adm_num"));
    EXPECT_EQ(den, value(c, "adm_den"));
    EXPECT_EQ(value(c, "adm3"), std::max(value(c, "adm2") * 0.5 + (1 - value(c, "aim")) * 0.5, 0.0));
    const Collector hm = score({{"adm_adm3_apply_hm", "true"}}, ref, dis);
    const double a = value(hm, "adm2_aah"), b = value(hm, "aim_aah");
    EXPECT_EQ(value(hm, "adm3_aah"), std::max(2 * a * b / (a + b), 0.0));
}

TEST(FloatAdm, SkipScale0LeavesScale0Out)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector skip = score({{"adm_skip_scale0", "true"}, {"debug", "true"}}, ref, dis);
    const Collector full = score({{"debug", "true"}}, ref, dis);
    EXPECT_EQ(value(skip, "adm_scale0_ssz"), 0.0);
    EXPECT_EQ(value(skip, "adm_den_scale0_ssz"), static_cast<double>(static_cast<float>(1e-10)));
    for (int s = 1; s < 4; ++s) {
        const std::string k = std::to_string(s);
        EXPECT_EQ(value(skip, "adm_scale" + k + "_ssz"), value(full, "adm_scale" + k));
    }
}

// adm_skip_aim_scale leaves a scale out of the AIM only; the DLM (adm2) and
// the scales stay as they are.
TEST(FloatAdm, SkipAimScaleChangesTheAimOnly)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const Collector full = score({}, ref, dis);
    for (int s = 0; s < 4; ++s) {
        const std::string k = std::to_string(s);
        const Collector skip = score({{"adm_skip_aim_scale", k}}, ref, dis);
        EXPECT_EQ(value(skip, "adm2_sasc_" + k), value(full, "adm2"));
        EXPECT_EQ(value(skip, "adm_scale" + k + "_sasc_" + k), value(full, "adm_scale" + k));
        EXPECT_NE(value(skip, "aim_sasc_" + k), value(full, "aim"));
    }
}

// Each CSF option changes the scores: the modes (3..9 are Watson's, as 0),
// the viewing geometry and the per-scale weights.
TEST(FloatAdm, CsfOptionsTakeEffect)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4, 30, &ref);
    const double watson = value(score({}, ref, dis), "adm2");
    EXPECT_NE(value(score({{"adm_csf_mode", "1"}}, ref, dis), "adm2_csf_1"), watson);
    EXPECT_NE(value(score({{"adm_csf_mode", "2"}}, ref, dis), "adm2_csf_2"), watson);
    EXPECT_EQ(value(score({{"adm_csf_mode", "3"}}, ref, dis), "adm2_csf_3"), watson);
    EXPECT_EQ(value(score({{"adm_csf_mode", "9"}}, ref, dis), "adm2_csf_9"), watson);
    EXPECT_NE(value(score({{"adm_norm_view_dist", "5"}}, ref, dis), "adm2_nvd_5"), watson);
    EXPECT_NE(value(score({{"adm_ref_display_height", "720"}}, ref, dis), "adm2_rdf_720"), watson);
    // 1.5 heights of 2160 lines: the pixels per degree of 3 heights of 1080.
    EXPECT_EQ(value(score({{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}, ref, dis),
                    "adm2_nvd_1.5_rdf_2160"),
              watson);
    // Barten's scales only act in its mode.
    EXPECT_EQ(value(score({{"adm_csf_scale", "2"}}, ref, dis), "adm2_scf_2"), watson);
    EXPECT_NE(value(score({{"adm_csf_mode", "1"}, {"adm_csf_scale", "2"}}, ref, dis), "adm2_csf_1_scf_2"),
              value(score({{"adm_csf_mode", "1"}}, ref, dis), "adm2_csf_1"));
    const Collector f = score({{"adm_f1s3", "0.5"}, {"debug", "true"}}, ref, dis);
    const Collector plain = score({{"debug", "true"}}, ref, dis);
    EXPECT_EQ(value(f, "adm_scale0_f1s3_0.5"), value(plain, "adm_scale0"));
    EXPECT_NE(value(f, "adm_scale3_f1s3_0.5"), value(plain, "adm_scale3"));
}

TEST(FloatAdm, MinValClampsAdm3)
{
    const Picture ref = random_picture(kFormat, 3), dis = random_picture(kFormat, 4);
    const Collector c = score({{"adm_min_val", "0.99"}}, ref, dis);
    EXPECT_EQ(value(c, "adm3_min_0.99"), 0.99);
}

// A flat reference with no noise floor: Netflix's denominator is 0, its
// adm2 is 1 and its AIM uninitialised; ours is 0 there.
TEST(FloatAdm, ZeroDenominatorGivesOneAndZeroAim)
{
    Picture ref(kFormat), dis(kFormat);
    std::memset(ref.bytes(), 128, ref.size_bytes());
    std::memset(dis.bytes(), 128, dis.size_bytes());
    const Collector c = score({{"adm_noise_weight", "0"}}, ref, dis);
    EXPECT_EQ(value(c, "adm2_nw_0"), 1.0);
    EXPECT_EQ(value(c, "aim_nw_0"), 0.0);
    EXPECT_EQ(value(c, "adm3_nw_0"), 1.0);
}

TEST(FloatAdm, ScratchReuseDoesNotChangeResults)
{
    test::expect_frames_scored_independently("float_adm", {{"debug", "true"}});
}

// Every size 1x1..33x33 and a few odd ones, every chroma format and bit
// depth: finite scores, or the refusal of a frame under 17 samples where
// Netflix reads memory its frame never wrote (float_adm_arena.h; which sizes:
// tests/unit/test_float_adm_size_sweep.cpp). Under the debug preset this
// also proves no read outside a buffer.
namespace {

void expect_finite_or_refused(const OptionList& options, const VideoFormat& format, std::uint32_t seed)
{
    const Picture ref = random_picture(format, seed);
    const Picture dis = random_picture(format, seed + 1, 30 << (format.bitdepth - 8), &ref);
    try {
        const Collector c = score(options, ref, dis);
        ASSERT_EQ(c.series().size(), 7u + (options.empty() || options[0].first != "debug" ? 0u : 11u));
        for (const auto& series : c.series())
            ASSERT_TRUE(std::isfinite(c.get(*c.find(series.name), 0))) << series.name << " at " << format.describe();
    } catch (const Error& e) {
        ASSERT_LT(std::min(format.width, format.height), 17u) << format.describe() << ": " << e.what();
        ASSERT_NE(std::string(e.what()).find("is too small"), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(FloatAdm, EverySmallSizeGivesFiniteScoresOrARefusal)
{
    std::vector<std::pair<unsigned, unsigned>> sizes;
    for (unsigned w = 1; w <= 33; ++w)
        for (unsigned h = 1; h <= 33; ++h) sizes.emplace_back(w, h);
    sizes.insert(sizes.end(), {{257, 145}, {19, 23}, {65, 3}, {2, 70}, {129, 17}, {16, 48}, {48, 9}});
    std::uint32_t seed = 0;
    for (const ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k444})
        for (const unsigned depth : {8u, 10u, 16u})
            for (const auto& [w, h] : sizes)
                expect_finite_or_refused({{"debug", "true"}}, VideoFormat{w, h, chroma, depth}, seed += 2);
}

TEST(FloatAdm, SmallSizesWithOptionsAreSafe)
{
    const std::vector<OptionList> cases = {
        {{"adm_skip_scale0", "true"}},
        {{"adm_enhn_gain_limit", "1.2"}, {"adm_csf_mode", "2"}},
        {{"adm_csf_mode", "1"}, {"adm_csf_scale", "50"}, {"adm_csf_diag_scale", "50"}},
        {{"adm_p_norm", "1"}, {"adm_bypass_cm", "1"}},
        {{"adm_p_norm", "20"}, {"adm_noise_weight", "1500"}, {"adm_min_val", "1"}},
        {{"adm_f1s0", "0"}, {"adm_f2s0", "0"}, {"adm_skip_aim_scale", "0"}, {"adm_adm3_apply_hm", "true"}},
    };
    std::uint32_t seed = 100;
    for (const OptionList& options : cases) {
        for (unsigned w : {1u, 2u, 3u, 5u, 9u, 16u, 17u, 33u}) {
            for (unsigned h : {1u, 2u, 7u, 12u, 17u, 23u}) {
                expect_finite_or_refused(options, VideoFormat{w, h, ChromaFormat::k420, 10}, seed += 2);
            }
        }
    }
}
