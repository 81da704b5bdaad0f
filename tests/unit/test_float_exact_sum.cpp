// The argument behind the float_psnr / float_moment GPU twins
// (features/common/float_exact_sum.h), checked against an independent
// computation: every term's count of grid units (2^-2(bpc-8)) computed from
// the sample values in integer arithmetic, and the CPU's serial double
// chains, which must equal those integer totals converted whenever the
// total is below 2^53 units, at every depth, also where it is far above the
// old fixed limit of 2^37 (bright 8-, 10- and 12-bit 4K planes); and a
// 16-bit frame beyond the limit where the chain does round.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "features/common/float_exact_sum.h"
#include "features/float_moment/float_moment_math.h"
#include "features/float_psnr/float_psnr_math.h"

using namespace twinvmaf;
namespace fes = twinvmaf::float_exact_sum;

namespace {

// n rounded to 24 significant bits, to nearest, ties to even: what a float
// holds of an integer, in integer arithmetic only.
unsigned long long round_to_float(unsigned long long n)
{
    int bits = 0;
    while (bits < 64 && (n >> bits)) ++bits;
    if (bits <= 24) return n;
    const int drop = bits - 24;
    unsigned long long q = n >> drop;
    const unsigned long long rest = n & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    if (rest > half || (rest == half && (q & 1))) ++q;
    return q << drop;
}

// The units of a sample v (v * 2^-s = v * 2^s units of 2^-2s) and of the
// float square of k * 2^-s (k^2 rounded to a float's 24 bits, units of 2^-2s).
unsigned long long sample_units(unsigned v, unsigned bitdepth) { return std::uint64_t{v} << (bitdepth - 8); }
unsigned long long square_units(unsigned k) { return round_to_float(std::uint64_t{k} * k); }

struct Plane {
    unsigned w = 0, h = 0;
    std::vector<std::uint16_t> ref, dis;
};

// Random samples in [ref_low, ref_low + span) and [dis_low, dis_low + span).
Plane random_plane(unsigned w, unsigned h, unsigned ref_low, unsigned dis_low, unsigned span, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    Plane p;
    p.w = w, p.h = h;
    p.ref.resize(std::size_t{w} * h);
    p.dis.resize(p.ref.size());
    for (std::size_t i = 0; i < p.ref.size(); ++i) {
        p.ref[i] = static_cast<std::uint16_t>(ref_low + rng() % span);
        p.dis[i] = static_cast<std::uint16_t>(dis_low + rng() % span);
    }
    return p;
}

// The CPU's chains and the independent integer totals of a plane pair.
struct Sums {
    double noise = 0;
    float_moment::MomentSums ref, dis;
    unsigned long long noise_units = 0, ref_units = 0, dis_units = 0, ref_square_units = 0, dis_square_units = 0;
};

template <class Sample>
Sums sums_of(const Plane& p, unsigned bitdepth)
{
    std::vector<Sample> ref(p.ref.begin(), p.ref.end()), dis(p.dis.begin(), p.dis.end());
    Sums s;
    for (unsigned y = 0; y < p.h; ++y) {
        const Sample* r = ref.data() + std::size_t{y} * p.w;
        const Sample* d = dis.data() + std::size_t{y} * p.w;
        s.noise = float_psnr::accumulate_row(r, d, p.w, bitdepth, s.noise);
        s.ref = float_moment::accumulate_row(r, p.w, bitdepth, s.ref);
        s.dis = float_moment::accumulate_row(d, p.w, bitdepth, s.dis);
        for (unsigned x = 0; x < p.w; ++x) {
            s.noise_units += square_units(r[x] > d[x] ? r[x] - d[x] : d[x] - r[x]);
            s.ref_units += sample_units(r[x], bitdepth);
            s.dis_units += sample_units(d[x], bitdepth);
            s.ref_square_units += square_units(r[x]);
            s.dis_square_units += square_units(d[x]);
        }
    }
    return s;
}

Sums sums_of(const Plane& p, unsigned bitdepth)
{
    return bitdepth == 8 ? sums_of<std::uint8_t>(p, bitdepth) : sums_of<std::uint16_t>(p, bitdepth);
}

// Every total below the limit, and every chain equal to its total converted.
void expect_chains_exact(const Sums& s, unsigned bitdepth, const char* what)
{
    for (unsigned long long units :
         {s.noise_units, s.ref_units, s.dis_units, s.ref_square_units, s.dis_square_units})
        ASSERT_TRUE(fes::exact(units)) << what << " " << bitdepth;
    EXPECT_EQ(s.noise, fes::from_grid_units(s.noise_units, bitdepth)) << what << " " << bitdepth;
    EXPECT_EQ(s.ref.sum, fes::from_grid_units(s.ref_units, bitdepth)) << what << " " << bitdepth;
    EXPECT_EQ(s.dis.sum, fes::from_grid_units(s.dis_units, bitdepth)) << what << " " << bitdepth;
    EXPECT_EQ(s.ref.sum_of_squares, fes::from_grid_units(s.ref_square_units, bitdepth)) << what << " " << bitdepth;
    EXPECT_EQ(s.dis.sum_of_squares, fes::from_grid_units(s.dis_square_units, bitdepth)) << what << " " << bitdepth;
}

// The grid per depth, and grid_units() of every term a depth can have
// (every sample, every square; a difference of samples is k * 2^-s for a k
// of the same range, so its square is one of these), against the integer
// computation; from_grid_units() gives the term back.
TEST(FloatExactSum, GridUnitsOfEveryTermAtEveryDepth)
{
    for (unsigned bitdepth = 8; bitdepth <= 16; ++bitdepth) {
        EXPECT_EQ(fes::grid_shift(bitdepth), 2 * (bitdepth - 8));
        EXPECT_EQ(fes::grid_unit(bitdepth), std::ldexp(1.0, -2 * static_cast<int>(bitdepth - 8)));
        for (unsigned v = 0; v < (1u << bitdepth); ++v) {
            const float f = float_picture::sample_to_float(v, bitdepth, 0.0f);
            const float square = f * f;
            ASSERT_EQ(fes::grid_units(f, bitdepth), sample_units(v, bitdepth)) << bitdepth << " " << v;
            ASSERT_EQ(fes::grid_units(square, bitdepth), square_units(v)) << bitdepth << " " << v;
            ASSERT_EQ(fes::from_grid_units(fes::grid_units(square, bitdepth), bitdepth), static_cast<double>(square));
            ASSERT_EQ(fes::grid_units(float_psnr::squared_error(f, 0.0f), bitdepth), square_units(v));
        }
    }
    EXPECT_EQ(fes::grid_units(65535.99609375f, 16), 65535ull * 65536 + 65280);
    EXPECT_EQ(fes::from_grid_units(3 * 65536ull + 1, 16), 3.0 + 1.0 / 65536.0);
    EXPECT_EQ(fes::grid_units(255.0f * 255.0f, 8), 65025u);
    EXPECT_TRUE(fes::exact((1ull << 53) - 1));
    EXPECT_FALSE(fes::exact(1ull << 53));
}

// The limits per depth that float_exact_sum.h states: the largest plane
// accepted (32768x32768) of the largest terms stays below 2^53 units at 8
// and 10 bits (those twins never fall back), not at 12 and 16 bits; and the
// uint64 total cannot wrap at 16 bits.
TEST(FloatExactSum, LimitsPerDepth)
{
    const unsigned long long samples = 32768ull * 32768ull;
    auto largest_total = [&](unsigned bitdepth) { return samples * square_units((1u << bitdepth) - 1); };
    EXPECT_TRUE(fes::exact(largest_total(8)));
    EXPECT_TRUE(fes::exact(largest_total(10)));
    EXPECT_FALSE(fes::exact(largest_total(12)));
    EXPECT_LT(square_units(65535), 1ull << 32);
    EXPECT_LT(largest_total(16), 1ull << 62);
    EXPECT_LT(samples * sample_units(65535, 16), 1ull << 62);
}

// Random frames at every depth (errors and values over the whole range).
TEST(FloatExactSum, SerialChainsEqualTheIntegerTotalAtEveryDepth)
{
    for (unsigned bitdepth = 8; bitdepth <= 16; ++bitdepth) {
        const Plane p = random_plane(1280, 720, 0, 0, 1u << bitdepth, 11 + bitdepth);
        expect_chains_exact(sums_of(p, bitdepth), bitdepth, "random 1280x720");
    }
}

// Bright 4K planes (ref in the top quarter of the range, dis in the bottom
// one: large squares and errors): the totals are above 2^37, the old fixed
// limit where the twins ran the chain in one thread, and the chains are
// still exactly the integer totals at 8, 10 and 12 bits.
TEST(FloatExactSum, SerialChainsEqualTheIntegerTotalAbove2To37)
{
    for (unsigned bitdepth : {8u, 10u, 12u}) {
        const unsigned quarter = 1u << (bitdepth - 2);
        const Plane p = random_plane(3840, 2160, 3 * quarter, 0, quarter, 3 + bitdepth);
        const Sums s = sums_of(p, bitdepth);
        EXPECT_GT(s.ref.sum_of_squares, std::ldexp(1.0, 37)) << bitdepth;
        EXPECT_GT(s.noise, std::ldexp(1.0, 37)) << bitdepth;
        expect_chains_exact(s, bitdepth, "bright 3840x2160");
    }
}

// Beyond the limit the chain rounds (so the twins must run it there): 16-bit
// 2048x1152, errors near full scale in the first 2,150,000 samples (a total
// past 2^37 = 2^53 units), then errors of one code, whose squares (2^-16,
// one unit) the chain loses.
TEST(FloatExactSum, BeyondTheLimitTheChainRounds)
{
    Plane p = random_plane(2048, 1152, 0, 0, 32768, 5);
    constexpr std::size_t kLarge = 2150000;
    for (std::size_t i = 0; i < p.ref.size(); ++i) {
        if (i < kLarge) {
            p.ref[i] = static_cast<std::uint16_t>(p.ref[i] & 63);
            p.dis[i] = static_cast<std::uint16_t>(65535 - (p.dis[i] & 63));
        } else {
            p.dis[i] = static_cast<std::uint16_t>(p.ref[i] + 1);
        }
    }
    const Sums s = sums_of(p, 16);
    ASSERT_FALSE(fes::exact(s.noise_units));
    EXPECT_LT(s.noise + 1.0, static_cast<double>(s.noise_units) * fes::grid_unit(16)) << "the chain does not round";
}

}  // namespace
