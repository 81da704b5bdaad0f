// ciede: the CIEDE2000 formula against published test data, the YUV -> Lab
// conversion at its anchor points, where chroma is read (Netflix's
// upsampler and picture layout), the score and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

#include "core/feature.h"
#include "features/ciede/ciede.h"
#include "features/ciede/ciede_math.h"
#include "chain_sum_host.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::ciede;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;
using twinvmaf::test::set_sample;

namespace {

std::unique_ptr<FeatureExtractor> make_ciede(const VideoFormat& format)
{
    const FeatureInfo& info = find_feature("ciede");
    auto extractor = info.create(OptionValues("ciede", info.options));
    extractor->init(format);
    return extractor;
}

double score(const Picture& ref, const Picture& dis)
{
    auto extractor = make_ciede(ref.format());
    Collector collector;
    SlotWriter writer(collector, extractor->output_names());
    FrameScores scores;
    extractor->extract(FrameInputs{ref, dis, 0, {}, {}}, scores, nullptr);
    extractor->collect(0, scores, writer);
    return collector.get(*collector.find("ciede2000"), 0);
}

// Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula:
// implementation notes, supplementary test data, and mathematical
// observations" (2005), Table 1: L1 a1 b1 L2 a2 b2 dE00 (k_L = k_C = k_H = 1).
constexpr double kSharmaPairs[][7] = {
    {50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425},
    {50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615},
    {50, 2.8361, -74.0200, 50, 0, -82.7485, 3.4412},
    {50, -1.3802, -84.2814, 50, 0, -82.7485, 1.0000},
    {50, -1.1848, -84.8006, 50, 0, -82.7485, 1.0000},
    {50, -0.9009, -85.5211, 50, 0, -82.7485, 1.0000},
    {50, 0, 0, 50, -1, 2, 2.3669},
    {50, -1, 2, 50, 0, 0, 2.3669},
    {50, 2.4900, -0.0010, 50, -2.4900, 0.0009, 7.1792},
    {50, 2.4900, -0.0010, 50, -2.4900, 0.0010, 7.1792},
    {50, 2.4900, -0.0010, 50, -2.4900, 0.0011, 7.2195},
    {50, 2.4900, -0.0010, 50, -2.4900, 0.0012, 7.2195},
    {50, -0.0010, 2.4900, 50, 0.0009, -2.4900, 4.8045},
    {50, -0.0010, 2.4900, 50, 0.0010, -2.4900, 4.8045},
    {50, -0.0010, 2.4900, 50, 0.0011, -2.4900, 4.7461},
    {50, 2.5, 0, 50, 0, -2.5, 4.3065},
    {50, 2.5, 0, 73, 25, -18, 27.1492},
    {50, 2.5, 0, 61, -5, 29, 22.8977},
    {50, 2.5, 0, 56, -27, -3, 31.9030},
    {50, 2.5, 0, 58, 24, 15, 19.4535},
    {50, 2.5, 0, 50, 3.1736, 0.5854, 1.0000},
    {50, 2.5, 0, 50, 3.2972, 0, 1.0000},
    {50, 2.5, 0, 50, 1.8634, 0.5757, 1.0000},
    {50, 2.5, 0, 50, 3.2592, 0.3350, 1.0000},
    {60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644},
    {63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630},
    {61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731},
    {35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645},
    {22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373},
    {36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146},
    {90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441},
    {90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381},
    {6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377},
    {2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082},
};

Lab lab(double l, double a, double b) { return Lab{static_cast<float>(l), static_cast<float>(a), static_cast<float>(b)}; }

}  // namespace

// The table has 4 decimals; Netflix's float formula (and its mean hue
// without the textbook's "- 2 pi" case, which moves only the negligible
// rotation term on these pairs) stays within half a unit of the last one.
TEST(Ciede, DeltaE2000MatchesSharmasTestData)
{
    for (const auto& p : kSharmaPairs) {
        const float de = delta_e_2000(lab(p[0], p[1], p[2]), lab(p[3], p[4], p[5]), Weights{1, 1, 1});
        EXPECT_NEAR(de, p[6], 6e-5) << p[0] << " " << p[1] << " " << p[2] << " / " << p[3] << " " << p[4] << " " << p[5];
        // The formula is symmetric in its two colours.
        EXPECT_NEAR(delta_e_2000(lab(p[3], p[4], p[5]), lab(p[0], p[1], p[2]), Weights{1, 1, 1}), de, 1e-5);
    }
    // Netflix's weights divide the lightness term by 0.65 and the hue term by 4.
    const Lab grey = lab(50, 0, 0), lighter = lab(51, 0, 0);
    EXPECT_NEAR(delta_e_2000(grey, lighter, kNetflixWeights),
                delta_e_2000(grey, lighter, Weights{1, 1, 1}) / 0.65, 1e-5);
}

// Limited-range white and black at 8 and 10 bits are Lab (100, 0, 0) and
// (0, 0, 0): the matrix rows sum to the D65 white point used to normalise.
TEST(Ciede, LabOfLimitedRangeWhiteAndBlack)
{
    for (const unsigned depth : {8u, 10u, 12u, 16u}) {
        const double scale = 1 << (depth - 8);
        const Lab white = lab_from_yuv(235 * scale, 128 * scale, 128 * scale, depth);
        EXPECT_NEAR(white.l, 100, 1e-4) << depth;
        EXPECT_NEAR(white.a, 0, 1e-4) << depth;
        EXPECT_NEAR(white.b, 0, 1e-4) << depth;
        const Lab black = lab_from_yuv(16 * scale, 128 * scale, 128 * scale, depth);
        EXPECT_NEAR(black.l, 0, 1e-5) << depth;
        EXPECT_NEAR(black.a, 0, 1e-5) << depth;
        EXPECT_NEAR(black.b, 0, 1e-5) << depth;
    }
    // Blue-difference above neutral gives b* < 0, red-difference a* > 0.
    EXPECT_LT(lab_from_yuv(128, 200, 128, 8).b, 0);
    EXPECT_GT(lab_from_yuv(128, 128, 200, 8).a, 0);
}

// Where the chroma of luma position (x, y) comes from: Netflix's upsampler
// indexing into its picture layout (rows of `width` rounded up to 32
// samples, zeroed padding, U then V in one allocation).
TEST(Ciede, ChromaIsReadWhereNetflixsUpsamplerReadsIt)
{
    for (const unsigned depth : {8u, 10u}) {
        {  // 4:2:0, even size: the co-sited sample
            const Picture p = random_picture(VideoFormat{16, 8, ChromaFormat::k420, depth}, 1);
            const ChromaPlanes c = chroma_planes(p);
            for (unsigned y = 0; y < 8; ++y)
                for (unsigned x = 0; x < 16; ++x)
                    for (int plane = 0; plane < 2; ++plane)
                        EXPECT_EQ(netflix_upsampled_chroma(c, plane, x, y), sample_at(p, plane + 1, x >> 1, y >> 1));
        }
        {  // 4:2:2 at width 100 (chroma 50 wide, rows 64 apart): row y >> 1,
           // column x; 50..63 is padding, 64.. the next row.
            const Picture p = random_picture(VideoFormat{100, 6, ChromaFormat::k422, depth}, 2);
            const ChromaPlanes c = chroma_planes(p);
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 7, 3), sample_at(p, 1, 7, 1));
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 55, 2), 0u);
            EXPECT_EQ(netflix_upsampled_chroma(c, 1, 70, 4), sample_at(p, 2, 6, 3));
        }
        {  // 4:2:0, odd width, chroma 8 wide: the last column reads padding
            const Picture p = random_picture(VideoFormat{17, 4, ChromaFormat::k420, depth}, 3);
            const ChromaPlanes c = chroma_planes(p);
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 16, 1), 0u);
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 15, 1), sample_at(p, 1, 7, 0));
        }
        {  // 4:2:0 at width 65 (chroma 32 wide, no padding): the next row's first
           // sample; odd height 5: U's row 2 is V's row 0, V's row 2 is past
           // Netflix's allocation and defined as 0.
            const Picture p = random_picture(VideoFormat{65, 5, ChromaFormat::k420, depth}, 4);
            const ChromaPlanes c = chroma_planes(p);
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 64, 0), sample_at(p, 1, 0, 1));
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 10, 4), sample_at(p, 2, 5, 0));
            EXPECT_EQ(netflix_upsampled_chroma(c, 0, 64, 4), sample_at(p, 2, 0, 1));
            EXPECT_EQ(netflix_upsampled_chroma(c, 1, 10, 4), 0u);
            EXPECT_EQ(netflix_upsampled_chroma(c, 1, 64, 3), 0u);
        }
        {  // 4:4:4: the sample itself
            const Picture p = random_picture(VideoFormat{9, 5, ChromaFormat::k444, depth}, 5);
            const ChromaPlanes c = chroma_planes(p);
            EXPECT_EQ(netflix_upsampled_chroma(c, 1, 8, 4), sample_at(p, 2, 8, 4));
        }
    }
}

// The score is 45 - 20 log10(mean dE00): identical frames give +inf, and a
// frame whose every pixel differs alike gives the single pixel's dE00.
TEST(Ciede, ScoreIsTheMeanColourDifferenceInDecibels)
{
    const VideoFormat format{6, 4, ChromaFormat::k420, 8};
    Picture ref(format), dis(format);
    for (int plane = 0; plane < 3; ++plane) {
        for (unsigned y = 0; y < format.plane_height(plane); ++y) {
            for (unsigned x = 0; x < format.plane_width(plane); ++x) {
                set_sample(ref, plane, x, y, plane ? 128 : 100);
                set_sample(dis, plane, x, y, plane == 1 ? 140 : plane == 2 ? 120 : 110);
            }
        }
    }
    EXPECT_EQ(score(ref, ref), INFINITY);
    const float de = delta_e_2000(lab_from_yuv(100, 128, 128, 8), lab_from_yuv(110, 140, 120, 8), kNetflixWeights);
    EXPECT_NEAR(score(ref, dis), 45 - 20 * std::log10(static_cast<double>(de)), 1e-12);
}

TEST(Ciede, RefusesEmptyChromaAndUnknownBitDepths)
{
    try {
        make_ciede(VideoFormat{1, 8, ChromaFormat::k420, 8});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("ciede: frame 1x8 4:2:0 8-bit has an empty chroma plane (0x4)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(make_ciede(VideoFormat{8, 1, ChromaFormat::k420, 8}), Error);
    EXPECT_NO_THROW(make_ciede(VideoFormat{8, 1, ChromaFormat::k422, 8}));
    EXPECT_NO_THROW(make_ciede(VideoFormat{1, 1, ChromaFormat::k444, 16}));
    EXPECT_THROW(make_ciede(VideoFormat{8, 8, ChromaFormat::k444, 9}), Error);
}

TEST(Ciede, NamesAndNoOptions)
{
    const FeatureInfo& info = find_feature("ciede");
    EXPECT_TRUE(info.options.empty());
    EXPECT_EQ(info.provided, std::vector<std::string>{"ciede2000"});
    EXPECT_EQ(make_ciede(VideoFormat{8, 8, ChromaFormat::k420, 8})->output_names(), std::vector<std::string>{"ciede2000"});
    OptionValues values("ciede", info.options);
    EXPECT_THROW(values.set("ksub_l", "1"), Error);
}

namespace {

double serial_sum(const std::vector<float>& values)
{
    double s = 0.;
    for (float v : values) s += v;
    return s;
}

std::uint64_t bits_of(double x)
{
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

}  // namespace

// The twin's chunked sum (gpu/chain_sum.h, here on the host) equals the
// CPU's serial chain bit for bit: on the dE00 of random frames (large
// differences, and small ones with many tiny and zero values) and on
// adversarial sequences (values of every size, subnormal, +-0, ties at the
// sum's last place, NaN, infinity, negatives), with both the translated and
// the followed-again path taken.
TEST(Ciede, TwinsChunkedSumEqualsTheSerialChain)
{
    std::size_t shortcuts = 0, serial = 0, cases = 0;
    auto check = [&](const std::vector<float>& values, const char* what) {
        // The chain adds each float as a double.
        const std::vector<double> terms(values.begin(), values.end());
        test::ChainWalk walk;
        const double sum = test::chunked_chain(terms, tv::chain_sum::kChunk, test::chain_guesses(terms, tv::chain_sum::kChunk), walk);
        EXPECT_EQ(bits_of(sum), bits_of(serial_sum(values))) << what << " (" << values.size() << " values)";
        shortcuts += walk.translated;
        serial += walk.followed;
        ++cases;
    };
    for (unsigned depth : {8u, 12u}) {
        const VideoFormat format{160, 90, ChromaFormat::k420, depth};
        const Picture ref = random_picture(format, 3 + depth);
        for (int delta : {-1, 1, 0}) {
            const Picture dis = delta < 0 ? random_picture(format, 5 + depth) : random_picture(format, 7, delta, &ref);
            const ChromaPlanes rc = chroma_planes(ref), dc = chroma_planes(dis);
            std::vector<float> values;
            for (unsigned y = 0; y < format.height; ++y)
                for (unsigned x = 0; x < format.width; ++x)
                    values.push_back(delta_e_2000(
                        lab_from_yuv(sample_at(ref, 0, x, y), netflix_upsampled_chroma(rc, 0, x, y),
                                     netflix_upsampled_chroma(rc, 1, x, y), depth),
                        lab_from_yuv(sample_at(dis, 0, x, y), netflix_upsampled_chroma(dc, 0, x, y),
                                     netflix_upsampled_chroma(dc, 1, x, y), depth),
                        kNetflixWeights));
            check(values, "dE00 of a random frame pair");
        }
    }
    std::mt19937 rng(14);
    std::uniform_real_distribution<float> unit(1.0f, 2.0f);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<float> values(1 + rng() % 5000);
        const int spread = 1 + trial % 40, base = static_cast<int>(rng() % 30) - 10;
        for (float& v : values) {
            const unsigned kind = rng() % 100;
            if (kind < 10) v = 0.0f;
            else if (kind < 12) v = -0.0f;
            else if (kind < 14) v = std::ldexp(unit(rng), -(static_cast<int>(rng() % 40) + 110));  // tiny, some subnormal
            else if (kind < 16) v = std::ldexp(1.0f, base - static_cast<int>(rng() % 30));           // single bits: ties
            else v = std::ldexp(unit(rng), base - static_cast<int>(rng() % spread));
        }
        if (trial % 50 == 7) values[rng() % values.size()] = -1.5f;
        if (trial % 50 == 17) values[rng() % values.size()] = NAN;
        if (trial % 50 == 27) values[rng() % values.size()] = INFINITY;
        if (trial % 30 == 3) values.assign(values.size(), 0.0f);
        check(values, "adversarial sequence");
    }
    // Two hard cases. Values in [2^10, 2^11) are finer than the last place
    // of 2^40 + ...: added one by one they round.
    std::vector<float> fine(2 * tv::chain_sum::kChunk, 0.0f);
    fine[0] = 0x1p40f;
    for (unsigned i = tv::chain_sum::kChunk; i < 2 * tv::chain_sum::kChunk; ++i) fine[i] = std::ldexp(unit(rng), 10);
    check(fine, "values finer than the sum's last place");
    // s = 2^40 - 2^-13 is off the grid of 2^40's binade: the next chunk's
    // first addition ties at the crossing, and how it breaks depends on the
    // values after it (2^11 + 2^-12 is an odd number of last places).
    std::vector<float> crossing(2 * tv::chain_sum::kChunk, 0.0f);
    crossing[0] = 0x1p40f - 0x1p16f;
    crossing[1] = 0x1p16f - 0x1p-7f;
    crossing[2] = 0x1p-7f - 0x1p-13f;
    crossing[tv::chain_sum::kChunk] = 0x1p11f;
    crossing[tv::chain_sum::kChunk + 1] = 0x1p11f + 0x1p-12f;
    check(crossing, "a tie where the sum crosses a binade off its grid");
    EXPECT_GT(shortcuts, 0u);
    EXPECT_GT(serial, 0u);
    std::cout << "[ ciede sum ] " << cases << " sequences: " << shortcuts << " chunks moved onto their start, " << serial
              << " value by value\n";
}

// The CPU skips a position whose reference and distorted samples are equal,
// which is exact only if dE00 of a colour with itself is +0 for every colour
// lab_from_yuv() makes: every bit depth, random and extreme triples.
TEST(Ciede, EqualColoursDifferByPositiveZero)
{
    std::mt19937 rng(7);
    for (unsigned bitdepth : {8u, 10u, 12u, 16u}) {
        const unsigned top = (1u << bitdepth) - 1;
        std::uniform_int_distribution<unsigned> sample(0, top);
        for (int i = 0; i < 20000; ++i) {
            unsigned yuv[3];
            for (unsigned& s : yuv) s = i < 8 ? ((i >> (&s - yuv)) & 1) * top : sample(rng);
            const Lab c = lab_from_yuv(yuv[0], yuv[1], yuv[2], bitdepth);
            const float de = delta_e_2000(c, c, kNetflixWeights);
            ASSERT_EQ(de, 0.0f) << bitdepth << "-bit " << yuv[0] << " " << yuv[1] << " " << yuv[2];
            ASSERT_FALSE(std::signbit(de));
        }
    }
}

// The extractor (its Lab cache and the skip of equal samples) against the
// plain formula at every position, summed in raster order: pictures whose
// samples repeat (few distinct values, so the cache hits and collides) and
// whose distorted picture keeps most reference samples.
TEST(Ciede, CachedExtractorEqualsThePlainSum)
{
    std::mt19937 rng(11);
    for (unsigned bitdepth : {8u, 10u}) {
        const VideoFormat format{67, 46, ChromaFormat::k420, bitdepth};
        Picture ref(format), dis(format);
        std::uniform_int_distribution<unsigned> level(0, 5), coin(0, 3);
        for (int plane = 0; plane < 3; ++plane) {
            for (unsigned y = 0; y < format.plane_height(plane); ++y) {
                for (unsigned x = 0; x < format.plane_width(plane); ++x) {
                    const unsigned v = (level(rng) * ((1u << bitdepth) - 1)) / 5;
                    set_sample(ref, plane, x, y, v);
                    set_sample(dis, plane, x, y, coin(rng) ? v : (level(rng) * ((1u << bitdepth) - 1)) / 5);
                }
            }
        }
        const ChromaPlanes rc = chroma_planes(ref), dc = chroma_planes(dis);
        double sum = 0.;
        for (unsigned y = 0; y < format.height; ++y) {
            for (unsigned x = 0; x < format.width; ++x) {
                const auto lab_at = [&](const Picture& p, const ChromaPlanes& c) {
                    return lab_from_yuv(sample_at(p, 0, x, y), netflix_upsampled_chroma(c, 0, x, y),
                                        netflix_upsampled_chroma(c, 1, x, y), bitdepth);
                };
                sum += delta_e_2000(lab_at(ref, rc), lab_at(dis, dc), kNetflixWeights);
            }
        }
        const unsigned pixels = format.width * format.height;  // as collect() divides
        const double expected = 45. - 20. * libm::log10(sum / pixels);
        EXPECT_EQ(score(ref, dis), expected) << bitdepth << "-bit";
    }
}
