// The argument behind the float_psnr / float_moment GPU twins
// (features/common/float_exact_sum.h): below 2^37 the CPU's serial double
// chain equals the exact integer total of the terms on the 2^-16 grid.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "features/common/float_exact_sum.h"
#include "features/float_moment/float_moment_math.h"
#include "features/float_psnr/float_psnr_math.h"

using namespace twinvmaf;

namespace {

struct Plane {
    std::vector<std::uint16_t> ref, dis;
};

Plane random_plane(unsigned w, unsigned h, unsigned bitdepth, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    Plane p;
    p.ref.resize(std::size_t{w} * h);
    p.dis.resize(p.ref.size());
    const unsigned max = (1u << bitdepth) - 1;
    for (std::size_t i = 0; i < p.ref.size(); ++i) {
        p.ref[i] = static_cast<std::uint16_t>(rng() & max);
        p.dis[i] = static_cast<std::uint16_t>(rng() & max);
    }
    return p;
}

TEST(FloatExactSum, GridUnitsAreExactOnTheGrid)
{
    EXPECT_EQ(float_exact_sum::grid_units(1.0f / 65536.0f), 1u);
    EXPECT_EQ(float_exact_sum::grid_units(65535.99609375f), 65535ull * 65536 + 65280);
    EXPECT_EQ(float_exact_sum::from_grid_units(3 * 65536ull + 1), 3.0 + 1.0 / 65536.0);
}

// Every depth, frames with large errors (random samples): the chain and the
// integer total agree exactly, for the squared errors and for both moments.
TEST(FloatExactSum, SerialChainsEqualTheIntegerTotalBelowTheLimit)
{
    for (unsigned bitdepth : {8u, 10u, 12u, 16u}) {
        const unsigned w = 1920, h = 1080;
        const Plane p = random_plane(w, h, bitdepth, 11 + bitdepth);
        double noise = 0;
        float_moment::MomentSums moments;
        unsigned long long noise_units = 0, sum_units = 0, square_units = 0;
        for (unsigned y = 0; y < h; ++y) {
            const std::uint16_t* r = p.ref.data() + std::size_t{y} * w;
            const std::uint16_t* d = p.dis.data() + std::size_t{y} * w;
            noise = float_psnr::accumulate_row(r, d, w, bitdepth, noise);
            moments = float_moment::accumulate_row(r, w, bitdepth, moments);
            for (unsigned x = 0; x < w; ++x) {
                const float fr = float_picture::sample_to_float(r[x], bitdepth, 0.0f);
                const float fd = float_picture::sample_to_float(d[x], bitdepth, 0.0f);
                noise_units += float_exact_sum::grid_units(float_psnr::squared_error(fr, fd));
                sum_units += float_exact_sum::grid_units(fr);
                square_units += float_exact_sum::grid_units(fr * fr);
            }
        }
        for (unsigned long long units : {noise_units, sum_units, square_units})
            ASSERT_LT(units, float_exact_sum::kExactLimit) << bitdepth;
        EXPECT_EQ(noise, float_exact_sum::from_grid_units(noise_units)) << bitdepth;
        EXPECT_EQ(moments.sum, float_exact_sum::from_grid_units(sum_units)) << bitdepth;
        EXPECT_EQ(moments.sum_of_squares, float_exact_sum::from_grid_units(square_units)) << bitdepth;
    }
}

}  // namespace
