// cambi: options and output names, the init-time tables, the per-pixel
// arithmetic, and the sizes refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "core/feature_names.h"
#include "core/options.h"
#include "features/cambi/cambi.h"
#include "features/cambi/cambi_math.h"
#include "twinvmaf/error.h"

namespace twinvmaf::cambi {
namespace {

OptionValues options(const OptionList& list)
{
    OptionValues v("cambi", option_specs());
    v.set_all(list);
    return v;
}

VideoFormat format(unsigned w, unsigned h, unsigned bits = 8)
{
    VideoFormat f;
    f.width = w;
    f.height = h;
    f.bitdepth = bits;
    return f;
}

TEST(Cambi, OutputNamesCarryNetflixSuffixes)
{
    EXPECT_EQ(output_name("Cambi_feature_cambi_score", options({})), "cambi");
    // The VMAF v1.0.16 models' cambi, as their outputs name it.
    const OptionValues model = options(
        {{"cambi_max_val", "17"}, {"cambi_vis_lum_threshold", "0.06"}, {"cambi_high_res_speedup", "1080"}});
    EXPECT_EQ(output_name("Cambi_feature_cambi_score", model), "cambi_hrs_1080_cmxv_17_vlt_0.06");
    const OptionValues enc = options({{"cambi_max_val", "17"},
                                      {"cambi_vis_lum_threshold", "0.06"},
                                      {"cambi_high_res_speedup", "1080"},
                                      {"enc_width", "1280"},
                                      {"enc_height", "720"},
                                      {"enc_bitdepth", "8"}});
    EXPECT_EQ(output_name("Cambi_feature_cambi_score", enc),
              "cambi_hrs_1080_cmxv_17_vlt_0.06_encbd_8_ench_720_encw_1280");
    // full_ref and heatmaps_path do not name outputs; the other names follow.
    const OptionValues full = options({{"full_ref", "true"}, {"topk", "0.5"}, {"eotf", "pq"}});
    EXPECT_EQ(output_name("cambi_source", full), "cambi_source_eotf_pq_topk_0.5");
    const CambiCpu extractor(Settings::from(full), full);
    EXPECT_EQ(extractor.output_names(),
              (std::vector<std::string>{"cambi_eotf_pq_topk_0.5", "cambi_source_eotf_pq_topk_0.5",
                                        "cambi_full_reference_eotf_pq_topk_0.5"}));
}

TEST(Cambi, OptionRangesAreNetflixs)
{
    EXPECT_THROW(options({{"window_size", "14"}}), Error);
    EXPECT_NO_THROW(options({{"window_size", "127"}}));
    EXPECT_THROW(options({{"enc_width", "179"}}), Error);
    EXPECT_THROW(options({{"src_height", "4321"}}), Error);
    EXPECT_THROW(options({{"max_log_contrast", "6"}}), Error);
    EXPECT_THROW(options({{"topk", "0"}}), Error);
    EXPECT_THROW(options({{"cambi_max_val", "1000.5"}}), Error);
    EXPECT_THROW(options({{"bogus", "1"}}), Error);
}

TEST(Cambi, ReciprocalTableIsNetflixs)
{
    const float* r = reciprocal_table();
    EXPECT_EQ(r[0], 0.0f);
    EXPECT_EQ(r[1], 1.0f);
    EXPECT_EQ(r[3], 1.0f / 3.0f);
    EXPECT_EQ(r[4225], 1.0f / 4225.0f);
    // Netflix's literals 0.0121951224f and 0.00198412698f: one float above and
    // below the float nearest 1/82 and 1/504.
    EXPECT_EQ(r[82], std::nextafter(1.0f / 82.0f, 1.0f));
    EXPECT_EQ(r[82], 0.0121951224f);
    EXPECT_EQ(r[504], std::nextafter(1.0f / 504.0f, 0.0f));
    EXPECT_EQ(r[504], 0.00198412698f);
    int off = 0;
    for (int n = 1; n < kReciprocalSize; ++n) off += r[n] != 1.0f / static_cast<float>(n);
    EXPECT_EQ(off, 42);
}

TEST(Cambi, WindowAndMaskThreshold)
{
    EXPECT_EQ(adjusted_window(65, 3840, 2160, false), 65u);
    EXPECT_EQ(adjusted_window(65, 1920, 1080, false), 33u);  // 65 * 3000 / 375 = 520, >> 4 = 32, odd: 33
    EXPECT_EQ(adjusted_window(65, 1920, 1080, true), 17u);
    EXPECT_EQ(adjusted_window(65, 1280, 720, false), 21u);
    EXPECT_EQ(adjusted_window(65, 576, 324, false), 9u);
    EXPECT_EQ(adjusted_window(65, 257, 145, false), 5u);
    // (49 + 3 * (ceil_log2((w >> 6) * (h >> 6)) - 11) - 1) >> 1
    EXPECT_EQ(mask_threshold(1920, 1080), 21u);  // 30 * 16 = 480 -> 9
    EXPECT_EQ(mask_threshold(3840, 2160), 24u);  // 60 * 33 = 1980 -> 11
    EXPECT_EQ(mask_threshold(257, 145), 12u);    // 4 * 2 = 8 -> 3
    EXPECT_EQ(mask_threshold(216, 16), 7u);      // 0 -> 0
}

TEST(Cambi, Mode3)
{
    EXPECT_EQ(mode3(5, 5, 1), 5);
    EXPECT_EQ(mode3(1, 5, 5), 5);
    EXPECT_EQ(mode3(5, 1, 5), 5);
    EXPECT_EQ(mode3(7, 3, 9), 3);
    EXPECT_EQ(mode3(9, 9, 9), 9);
}

TEST(Cambi, TenBitConversion)
{
    EXPECT_EQ(to_10bit(255, 8), 1020);
    EXPECT_EQ(to_10bit(511, 9), 1022);
    EXPECT_EQ(to_10bit(1023, 10), 1023);
    EXPECT_EQ(to_10bit(4093, 12), 1023);  // (4093 + 2) >> 2
    EXPECT_EQ(to_10bit(4094, 12), 1024);  // rounds above 10 bits, as Netflix
}

// The bisection against a plain scan: the code where a step of `diff` stops
// being visible under BT.1886 with the default threshold.
TEST(Cambi, VisibilityThresholdsEqualAPlainScan)
{
    for (int diff = 1; diff <= 32; diff *= 2) {
        int code = 64;
        auto visible = [&](int c) {
            const double l = luminance(c, "bt1886");
            return luminance(c + diff, "bt1886") - l > 0.019 * l;
        };
        ASSERT_TRUE(visible(code));
        const int head = 940 - diff - 1;  // visible up to here: visible everywhere (1023)
        while (code < head && visible(code + 1)) ++code;
        const int expected = code == head && visible(head + 1) ? 1023 : code;
        EXPECT_EQ(tvi_for_diff(diff, 0.019, "bt1886"), expected) << "diff " << diff;
    }
    // Values of the default setup (10-bit codes + num_diffs).
    const twinvmaf::cambi::Setup s = make_setup(Settings{}, format(576, 324));
    EXPECT_EQ(s.contrast.num_diffs, 4);
    EXPECT_EQ(s.contrast.vlt_luma, 0);
    EXPECT_EQ(s.contrast.band_base, 0);
    EXPECT_EQ(s.contrast.band_size, s.contrast.tvi[3] + 1);
    EXPECT_LT(s.contrast.tvi[0], s.contrast.tvi[3]);
    // cambi_vis_lum_threshold of the v1.0.16 models: the first code at or
    // above 0.06 cd/m2.
    const int vlt = vlt_luma(0.06, "bt1886");
    EXPECT_GE(luminance(vlt, "bt1886"), 0.06);
    EXPECT_LT(luminance(vlt - 1, "bt1886"), 0.06);
    EXPECT_EQ(vlt_luma(0.0, "bt1886"), 0);
    EXPECT_THROW(luminance(100, "srgb"), Error);
}

TEST(Cambi, CValueOfAPixel)
{
    ContrastParams p;
    p.num_diffs = 2;
    p.tvi[0] = 600;
    p.tvi[1] = 700;
    p.vlt_luma = 0;
    set_band(p);
    ASSERT_EQ(p.band_base, 0);
    ASSERT_EQ(p.band_size, 701);
    // One column; counts of values 100..104 in the window.
    std::vector<std::uint16_t> h(p.band_size, 0);
    h[100] = 3, h[101] = 5, h[99] = 2, h[102] = 7, h[98] = 0;
    const float* r = reciprocal_table();
    // Step 1: max(p(101), p(99)) = 5: 1 * 3 * 5 / 8. Step 2: max(p(102), p(98))
    // = 7: 2 * 3 * 7 / 10. The larger wins.
    const float step1 = 15.0f * r[8];
    const float step2 = 42.0f * r[10];
    EXPECT_EQ(c_value(h.data(), 1, 0, 100, p, r), std::max(step1, step2));
    // Above a step's threshold that step does not count (value + num_diffs > tvi).
    EXPECT_EQ(c_value(h.data(), 1, 0, 599, p, r), 0.0f);
    p.tvi[0] = 102 + 2;
    EXPECT_EQ(c_value(h.data(), 1, 0, 100, p, r), step2);
    // Below the visibility luminance threshold nothing counts.
    p.vlt_luma = 200;
    set_band(p);
    EXPECT_EQ(c_value(h.data(), 1, 0, 100, p, r), 0.0f);
}

TEST(Cambi, RefusesFramesNetflixDoesNotScore)
{
    // Both sides below 216: Netflix's init fails and it writes no scores.
    for (auto [w, h] : {std::pair{17u, 17u}, {33u, 33u}, {215u, 215u}}) {
        try {
            make_setup(Settings{}, format(w, h));
            FAIL() << w << "x" << h;
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()).rfind("cambi: frame " + std::to_string(w) + "x" + std::to_string(h) +
                                                      " is too small",
                                                  0),
                      0u)
                << e.what();
        }
    }
    EXPECT_NO_THROW(make_setup(Settings{}, format(216, 2)));
    // One row and a window of 3: Netflix scores a row below its buffers.
    EXPECT_THROW(make_setup(Settings{}, format(216, 1)), Error);
    EXPECT_NO_THROW(make_setup(Settings{}, format(257, 145)));
    // The encoding size is used only below the input size.
    Settings enc;
    enc.enc_width = 1280;
    enc.enc_height = 720;
    EXPECT_EQ(make_setup(enc, format(640, 480)).dis.width, 640u);
    EXPECT_EQ(make_setup(enc, format(1920, 1080)).dis.width, 1280u);
    EXPECT_EQ(make_setup(enc, format(1920, 1080)).dis.window, 21u);
    // The speed-up needs at least 1080p at the encoding size.
    Settings hrs;
    hrs.high_res_speedup = 1080;
    EXPECT_TRUE(make_setup(hrs, format(1920, 1080)).high_res_speedup);
    EXPECT_FALSE(make_setup(hrs, format(1919, 1080)).high_res_speedup);
    hrs.enc_width = 1280;
    hrs.enc_height = 720;
    EXPECT_FALSE(make_setup(hrs, format(1920, 1080)).high_res_speedup);
    // Wide and flat: the window (45, pad 22) is higher than scale 4 (14
    // rows); Netflix reads and writes before its buffers.
    EXPECT_THROW(make_setup(Settings{}, format(4000, 216)), Error);
    // A window too large for the reciprocal table (8K without the speed-up).
    EXPECT_THROW(make_setup(Settings{}, format(7680, 4320)), Error);
    Settings bad_eotf;
    bad_eotf.eotf = "hlg";
    EXPECT_THROW(make_setup(bad_eotf, format(640, 480)), Error);
}

}  // namespace
}  // namespace twinvmaf::cambi

namespace twinvmaf::cambi {
namespace {

// Netflix's quickselect and serial double sum (cambi.c), as a model: the
// value twinvmaf's exact top-k sum departs from (docs/compat.md).
double netflix_pooling(std::vector<float> values, int k)
{
    float* arr = values.data();
    const int n = static_cast<int>(values.size());
    if (n != k) {
        int left = 0, right = n - 1;
        while (left < right) {
            const float pivot = arr[k];
            int i = left, j = right;
            do {
                while (arr[i] > pivot) ++i;
                while (arr[j] < pivot) --j;
                if (i <= j) {
                    std::swap(arr[i], arr[j]);
                    ++i;
                    --j;
                }
            } while (i <= j);
            if (j < k) left = i;
            if (k < i) right = j;
        }
    }
    double sum = 0;
    for (int i = 0; i < k; ++i) sum += arr[i];
    return sum / k;
}

// Random c-values as cambi makes them: 0 where unmasked, else
// (float)(weight * p0 * pm) * reciprocal[p0 + pm] with a window of 65.
std::vector<float> random_c_values(std::size_t n, std::uint32_t seed, double zero_share)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    const float* reciprocal = reciprocal_table();
    std::vector<float> out(n);
    for (float& v : out) {
        if (unit(rng) < zero_share) continue;
        // Counts from small windows (few samples of a value) and from large.
        const int range = rng() % 2 ? 20 : 2000;
        const int p0 = 1 + static_cast<int>(rng() % range), pm = 1 + static_cast<int>(rng() % range);
        const int weight = contrast_weight(static_cast<int>(rng() % kMaxDiffs));
        v = static_cast<float>(weight * p0 * pm) * reciprocal[p0 + pm];
    }
    return out;
}

TEST(CambiPooling, TopKSumIsExactWhateverTheOrder)
{
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        std::vector<float> values = random_c_values(5000 + seed * 977, seed, seed % 3 * 0.3);
        const int k = topk_count(0.6, static_cast<unsigned>(values.size()), 1);
        // Independently: each value's exact binary fraction in one 128-bit
        // integer of units 2^-40, the k largest after a full sort.
        std::vector<float> sorted = values;
        std::sort(sorted.begin(), sorted.end(), std::greater<float>());
        unsigned __int128 exact = 0;
        for (int i = 0; i < k; ++i) {
            int e = 0;
            const double m = std::frexp(static_cast<double>(sorted[i]), &e);  // sorted[i] = m 2^e
            if (m == 0) continue;
            const auto mantissa = static_cast<std::uint64_t>(std::ldexp(m, 24));
            exact += static_cast<unsigned __int128>(mantissa) << (e - 24 + kFixedFractionBits);
        }
        const double expected = std::ldexp(static_cast<double>(exact), -kFixedFractionBits) / k;
        // Ours in two orders (shuffled, reversed): the same bits.
        for (int order = 0; order < 2; ++order) {
            std::vector<float> input = values;
            if (order) std::reverse(input.begin(), input.end());
            else std::shuffle(input.begin(), input.end(), std::mt19937(seed));
            std::nth_element(input.begin(), input.begin() + (k - 1), input.end(), std::greater<float>());
            FixedSum sum;
            for (int i = 0; i < k; ++i) add_fixed(sum, c_value_fixed(input[i]));
            EXPECT_EQ(pooled_mean(sum, k), expected) << "seed " << seed;
        }
    }
}

// How far Netflix's serial double sum is from the exact one: the bound that
// docs/compat.md states, measured here (printed) and asserted.
TEST(CambiPooling, NetflixsSerialSumIsWithinItsRoundingBound)
{
    int differing = 0, trials = 0;
    double worst = 0;
    // Sums stay exact in double below 2^29 (c-values are >= 0.5: multiples of
    // 2^-24), so the sizes go up to a 4K frame's 8.3 million values.
    for (std::uint32_t seed = 1; seed <= 24; ++seed) {
        const std::size_t n = seed <= 20 ? 2000 + seed * 1031 : (std::size_t{1} << (seed + 1)) + 12345;
        const std::vector<float> values = random_c_values(n, seed, 0.3);
        const int k = topk_count(0.6, static_cast<unsigned>(values.size()), 1);
        std::vector<float> input = values;
        std::nth_element(input.begin(), input.begin() + (k - 1), input.end(), std::greater<float>());
        FixedSum sum;
        for (int i = 0; i < k; ++i) add_fixed(sum, c_value_fixed(input[i]));
        const double ours = pooled_mean(sum, k);
        const double netflix = netflix_pooling(values, k);
        ++trials;
        if (ours != netflix) ++differing;
        const double relative = std::fabs(ours - netflix) / ours;
        worst = std::max(worst, relative);
        // A serial sum of k non-negative terms is within (k - 1) u of the
        // exact sum (u = 2^-53), and the division adds at most u.
        EXPECT_LE(relative, k * 0x1p-53) << "seed " << seed;
    }
    std::cout << "[ cambi pooling ] Netflix's serial double sum differs from the exact one in " << differing << " of "
              << trials << " random scales; largest relative difference " << worst << "\n";
}

}  // namespace
}  // namespace twinvmaf::cambi
