// ssim (the lusoris/vmaf fork's integer SSIM): the 9 taps from the fork's
// formula, the score against a direct 2-D computation of the moments, and the
// refusal of 16-bit input. The fork's own values on the fixtures and on the
// small sizes: test_fork_golden.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "features/integer_ssim/integer_ssim_math.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using twinvmaf::test::random_picture;
using twinvmaf::test::sample_at;

namespace {

TEST(IntegerSsim, TapsAreTheForksGaussian)
{
    // gaussian_filter_init(1.5, 5): kernel_len 4, taps rounded from the
    // Gaussian, the centre the rest of 256.
    const double sigma = 1.5, pi = 3.141592653589793238462643;
    const double scale = 1 / (std::sqrt(2 * pi) * sigma), nhisigma2 = -0.5 / (sigma * sigma);
    const double s = std::sqrt(0.5 * pi) * sigma * (1.0 / 256);
    ASSERT_EQ(std::floor(sigma * std::sqrt(-2 * std::log(s))), 4.0);
    unsigned sum = 0;
    for (int ci = 1; ci <= 4; ++ci) {
        const unsigned t = static_cast<unsigned>(256 * scale * std::exp(nhisigma2 * ci * ci) + 0.5);
        EXPECT_EQ(integer_ssim::tap(4 - ci), static_cast<int>(t));
        EXPECT_EQ(integer_ssim::tap(4 + ci), static_cast<int>(t));
        sum += t;
    }
    EXPECT_EQ(integer_ssim::tap(4), static_cast<int>(256 - 2 * sum));
}

// The score computed directly: at each position the 2-D window's in-picture
// taps (weight h(kx) * v(ky)), the moments summed over them, the fork's term.
double direct_ssim(const Picture& ref, const Picture& dis)
{
    const int w = static_cast<int>(ref.format().width), h = static_cast<int>(ref.format().height);
    const int samplemax = static_cast<int>(ref.format().max_sample());
    double sum = 0, weights = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            integer_ssim::Moments m;
            for (int ky = 0; ky < 9; ++ky)
                for (int kx = 0; kx < 9; ++kx) {
                    const int sx = x - 4 + kx, sy = y - 4 + ky;
                    if (sx < 0 || sx >= w || sy < 0 || sy >= h) continue;
                    const std::int64_t t = std::int64_t{integer_ssim::tap(kx)} * integer_ssim::tap(ky);
                    const std::int64_t a = sample_at(ref, 0, sx, sy), b = sample_at(dis, 0, sx, sy);
                    m.mux += t * a;
                    m.muy += t * b;
                    m.x2 += t * a * a;
                    m.xy += t * a * b;
                    m.y2 += t * b * b;
                    m.w += t;
                }
            sum += integer_ssim::ssim_term(m, samplemax);
            weights += static_cast<double>(m.w);
        }
    return sum / weights;
}

class IntegerSsimRandom : public testing::TestWithParam<VideoFormat> {};

TEST_P(IntegerSsimRandom, MatchesDirectComputation)
{
    const VideoFormat format = GetParam();
    const Picture ref = random_picture(format, 5);
    const Picture dis = random_picture(format, 6, 20 << (format.bitdepth - 8), &ref);
    const Collector c = twinvmaf::test::score_one_frame("ssim", {}, ref, dis);
    EXPECT_EQ(twinvmaf::test::frame_value(c, "ssim"), direct_ssim(ref, dis));
}

INSTANTIATE_TEST_SUITE_P(Formats, IntegerSsimRandom,
                         testing::Values(VideoFormat{64, 48, ChromaFormat::k420, 8},
                                         VideoFormat{1, 1, ChromaFormat::k420, 8},
                                         VideoFormat{3, 17, ChromaFormat::k444, 10},
                                         VideoFormat{19, 2, ChromaFormat::k422, 12},
                                         VideoFormat{33, 9, ChromaFormat::k420, 15},
                                         VideoFormat{129, 11, ChromaFormat::k420, 10}));

TEST(IntegerSsim, Refuses16BitWhereTheForkOverflows)
{
    auto extractor = twinvmaf::test::make_extractor("ssim");
    EXPECT_THROW(extractor->init(VideoFormat{16, 16, ChromaFormat::k420, 16}), Error);
    EXPECT_NO_THROW(extractor->init(VideoFormat{16, 16, ChromaFormat::k420, 12}));
}

TEST(IntegerSsim, FramesScoredIndependently) { twinvmaf::test::expect_frames_scored_independently("ssim", {}); }

}  // namespace
