// SpEED's SIMD kernels against the reference ones (speed_kernels.h), for
// every instruction set this build has: glibc's log2 (tv::glibc::log2, the
// scalar port) on arguments over the whole double range (random bits, SpEED's
// range log-uniformly and as its float arguments, glibc's near-1 interval and
// its edges, the edges of its 64 table subintervals, near powers of two on
// both sides, subnormals, zeros, negatives, infinities, NaNs) at every count
// 0..64 and a few larger, and the block entropies of 1..64 and
// more blocks with eigenvalues and variances from 0 and below to huge, and
// the block means and covariance sums of sub-pictures 1..64 and more wide, and the back
// substitution of 1..64 and more columns. Results are compared bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <limits>
#include <random>
#include <vector>

#include "core/glibc_log2.h"
#include "features/speed/speed_kernels.h"
#include "features/speed/speed_math.h"
#include "simd_targets.h"

namespace twinvmaf::speed {
namespace {

using test::for_each_simd_target;
using test::test_widths;

double from_bits(std::uint64_t u)
{
    double x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// Arguments of every kind, shuffled so that special values share vectors
// with ordinary ones.
std::vector<double> log2_arguments(std::mt19937_64& rng)
{
    std::vector<double> x;
    for (int i = 0; i < 4000; ++i) x.push_back(from_bits(rng() & 0x7fffffffffffffffULL));  // any positive
    for (int i = 0; i < 2000; ++i) x.push_back(from_bits(rng()));                         // any sign
    std::uniform_real_distribution<double> unit(0.0, 4.0);
    for (int i = 0; i < 4000; ++i) x.push_back(unit(rng));  // the block entropies' range
    // SpEED's arguments: L * S + sigma_nn and 1 + variance, 1e-10 .. 1e8
    // log-uniformly, as doubles and as the floats they are computed in.
    std::uniform_real_distribution<double> log_range(std::log(1e-10), std::log(1e8));
    for (int i = 0; i < 8000; ++i) {
        const double v = std::exp(log_range(rng));
        x.push_back(v);
        x.push_back(static_cast<double>(static_cast<float>(v)));
        x.push_back(static_cast<double>(1 + static_cast<float>(v)));
    }
    // glibc's near-1 interval [1 - 0x1.5b51p-5, 1 + 0x1.6ab2p-5) and a bit
    // beyond, and its two edges.
    std::uniform_real_distribution<double> near(1 - 0x1.6p-5, 1 + 0x1.7p-5);
    for (int i = 0; i < 4000; ++i) x.push_back(near(rng));
    for (std::uint64_t edge : {tv::glibc::log2_detail::kNearOneLow,
                               tv::glibc::log2_detail::kNearOneLow + tv::glibc::log2_detail::kNearOneSpan})
        for (int d = -3; d <= 3; ++d) x.push_back(from_bits(edge + d));
    // The edges of glibc's 64 table subintervals of [0x1.6p-1, 0x1.6p0), in
    // a few binades.
    for (std::uint64_t i = 0; i <= 64; ++i)
        for (std::uint64_t e : {0, 1, 30, 1000})
            for (int d = -1; d <= 1; ++d)
                x.push_back(from_bits(tv::glibc::log2_detail::kOff + (i << 46) + (e << 52) + d));
    for (int k = -1074; k <= 1023; k += 7) {
        const double p = std::ldexp(1.0, k);
        x.push_back(p);
        x.push_back(std::nextafter(p, 0.0));
        x.push_back(std::nextafter(p, 10.0 * p));
        x.push_back(p * 1.5);
        x.push_back(std::nextafter(p * 1.5, 0.0));
    }
    for (int k = 1; k < 300; ++k) {  // around 1, where log2 is near 0
        x.push_back(1.0 + k * std::numeric_limits<double>::epsilon());
        x.push_back(1.0 - k * std::numeric_limits<double>::epsilon() / 2);
    }
    for (double v : {0.0, -0.0, -1.0, 1.0, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                     -std::numeric_limits<double>::quiet_NaN(), from_bits(0x7ff0000000000001ULL),
                     std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                     std::numeric_limits<double>::max(), 0.19, 0.209})
        x.push_back(v);
    std::shuffle(x.begin(), x.end(), rng);
    return x;
}

// The scalar port, one argument at a time: what every kernel must give.
std::vector<double> scalar_log2(const std::vector<double>& x)
{
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = tv::glibc::log2(x[i]);
    return y;
}

// "" if the two are the same bits, else where and how they first differ.
std::string first_difference(const std::vector<double>& x, const std::vector<double>& expected,
                             const double* actual)
{
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto e = tv::bit_cast<std::uint64_t>(expected[i]), a = tv::bit_cast<std::uint64_t>(actual[i]);
        if (e != a) {
            char text[160];
            std::snprintf(text, sizeof text, "entry %zu: log2(%a): expected %016llx (%a), got %016llx (%a)", i, x[i],
                          static_cast<unsigned long long>(e), expected[i], static_cast<unsigned long long>(a),
                          actual[i]);
            return text;
        }
    }
    return "";
}

TEST(SimdSpeed, Log2MatchesTheScalarPort)
{
    std::mt19937_64 rng(60);
    const std::vector<double> x = log2_arguments(rng);
    const std::vector<double> expected = scalar_log2(x);
    {
        std::vector<double> reference(x.size());
        reference_kernels().log2(x.data(), x.size(), reference.data());
        ASSERT_EQ(first_difference(x, expected, reference.data()), "");
    }
    const auto targets = for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::vector<double> actual(x.size());
        simd.log2(x.data(), x.size(), actual.data());
        ASSERT_EQ(first_difference(x, expected, actual.data()), "");
        // Every count, from every offset (tails of every vector length).
        for (unsigned n : test_widths()) {
            SCOPED_TRACE(testing::Message() << "count " << n);
            const std::size_t start = rng() % (x.size() - n);
            std::vector<double> e(n + 3, 7.0), a = e;
            for (unsigned i = 0; i < n; ++i) e[i] = expected[start + i];
            simd.log2(x.data() + start, n, a.data());
            ASSERT_EQ(0, std::memcmp(e.data(), a.data(), sizeof(double) * e.size()));
        }
    });
    std::cout << "SIMD targets checked:";
    for (const auto& name : targets) std::cout << " " << name;
    std::cout << "\n";
}

// A float from 0 (or below) to huge, mostly in the ordinary range.
float any_float(std::mt19937& rng, bool negatives)
{
    switch (rng() % 8) {
    case 0: return 0.0f;
    case 1: return negatives ? -std::ldexp(1.0f, -static_cast<int>(rng() % 30)) : 0.0f;
    case 2: return std::ldexp(1.0f, static_cast<int>(rng() % 200) - 100);
    case 3: return std::ldexp(static_cast<float>(rng() % 1000 + 1), static_cast<int>(rng() % 60) - 30);
    default: return std::uniform_real_distribution<float>(0.0f, 50.0f)(rng);
    }
}

// "" if the two are the same bits, else where and how they first differ.
std::string first_difference(const std::vector<float>& expected, const std::vector<float>& actual)
{
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto e = tv::bit_cast<std::uint32_t>(expected[i]), a = tv::bit_cast<std::uint32_t>(actual[i]);
        if (e != a) {
            char text[96];
            std::snprintf(text, sizeof text, "entry %zu: expected %08x (%g), got %08x (%g)", i, e, expected[i], a,
                          actual[i]);
            return text;
        }
    }
    return "";
}

TEST(SimdSpeed, BlockEntropiesMatchTheReference)
{
    const Kernels reference = reference_kernels();
    const double log2_2pie = log2_2pi_e();
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(61);
        for (unsigned blocks : test_widths()) {
            for (float sigma_nn : {0.19f, 0.29f, 1e-3f, 7.0f}) {
                SCOPED_TRACE(testing::Message() << "blocks " << blocks << " sigma_nn " << sigma_nn);
                std::vector<float> eig(kBlockElements), variances(blocks);
                for (float& v : eig) v = any_float(rng, true);
                for (float& v : variances) v = any_float(rng, true);
                std::vector<float> expected(blocks + 5, 0.5f), actual = expected;
                reference.block_entropies(eig.data(), variances.data(), static_cast<int>(blocks), sigma_nn,
                                          log2_2pie, expected.data());
                simd.block_entropies(eig.data(), variances.data(), static_cast<int>(blocks), sigma_nn, log2_2pie,
                                     actual.data());
                ASSERT_EQ(first_difference(expected, actual), "");
            }
        }
    });
}

// Blocks whose entropy is NaN in each way it can arise: log2 of a negative
// argument (a negative variance), and -inf + inf (an argument of 0, then
// one that overflows float to inf). Both operands of the later additions
// are then NaNs, whose sign and payload the compiler's operand order would
// pick; entropy_step() makes every such entropy the one entropy_nan().
TEST(SimdSpeed, NanEntropiesAreOneNan)
{
    const Kernels reference = reference_kernels();
    std::vector<float> eig(kBlockElements, 1.0f);
    eig[3] = 0.0f;     // with sigma_nn 0: log2(0) = -inf
    eig[7] = 1e30f;    // L * S = inf in float: + inf gives NaN
    eig[11] = -2.0f;   // clamped to 0: -inf again, onto the NaN
    const std::vector<float> variances = {-1.0f, 1e10f, 2.0f, -1.0f, 1e10f, 1e10f, 0.5f, 1e10f, -3.0f};
    const int blocks = static_cast<int>(variances.size());
    std::vector<float> expected(blocks);
    reference.block_entropies(eig.data(), variances.data(), blocks, 0.0f, log2_2pi_e(), expected.data());
    for (int b = 0; b < blocks; ++b)
        if (variances[b] < 0 || variances[b] >= 1e10f)
            EXPECT_EQ(tv::bit_cast<std::uint32_t>(expected[b]), tv::bit_cast<std::uint32_t>(entropy_nan())) << b;
        else
            EXPECT_FALSE(std::isnan(expected[b])) << b;
    for_each_simd_target([&] {
        std::vector<float> actual(blocks);
        simd_kernels().block_entropies(eig.data(), variances.data(), blocks, 0.0f, log2_2pi_e(), actual.data());
        ASSERT_EQ(first_difference(expected, actual), "");
    });
}

// The 25 block means and the covariance sums of every sub-picture width
// 1..64 and wider, on planes
// in the range SpEED's filtered planes have (samples and differences of
// -256..256, random, zero, extreme and alternating), with a row stride of
// the plane's width or more; the whole sums buffer and the canaries after it
// compared bit for bit.
TEST(SimdSpeed, BlockMeansAndCovarianceSumsMatchTheReference)
{
    const Kernels reference = reference_kernels();
    constexpr std::size_t kSums = static_cast<std::size_t>(kBlockElements) * kCovariancePad, kCanaries = 9;
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(62);
        std::uniform_real_distribution<float> any(-256.0f, 256.0f);
        for (unsigned sub_w : test_widths()) {
            if (sub_w == 1000) continue;  // the widest of SpEED's planes at 4K is about 230
            for (int sub_h : {1, 3, 8}) {
                const int w = static_cast<int>(sub_w) + kBlock - 1, h = sub_h + kBlock - 1;
                const int stride = w + static_cast<int>(rng() % 3);
                const int kind = static_cast<int>(rng() % 4);
                SCOPED_TRACE(testing::Message() << "sub-picture " << sub_w << "x" << sub_h << " stride " << stride
                                                << " kind " << kind);
                std::vector<float> data(static_cast<std::size_t>(stride) * h);
                for (std::size_t i = 0; i < data.size(); ++i)
                    data[i] = kind == 0   ? any(rng)
                              : kind == 1 ? 0.0f
                              : kind == 2 ? ((rng() & 1) ? 255.99609f : -256.0f)
                                          : ((i & 1) ? 127.5f : -128.0f);
                float means[kBlockElements + 3], simd_means[kBlockElements + 3];
                std::fill(means, means + kBlockElements + 3, -1.5f);
                std::fill(simd_means, simd_means + kBlockElements + 3, -1.5f);
                reference.block_means(data.data(), stride, static_cast<int>(sub_w), sub_h, means);
                simd.block_means(data.data(), stride, static_cast<int>(sub_w), sub_h, simd_means);
                ASSERT_EQ(0, std::memcmp(means, simd_means, sizeof means));
                std::vector<double> centered(static_cast<std::size_t>(sub_w) * kCovariancePad);
                std::vector<double> expected(kSums + kCanaries, -7.25), actual = expected;
                reference.covariance_sums(data.data(), stride, static_cast<int>(sub_w), sub_h, means,
                                          centered.data(), expected.data());
                simd.covariance_sums(data.data(), stride, static_cast<int>(sub_w), sub_h, means, centered.data(),
                                     actual.data());
                ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), sizeof(double) * expected.size()));
            }
        }
    });
}

// The back substitution of every column count 1..64 and more (SpEED's
// blocks), R with diagonals of both signs and, in some rounds, one below the
// singularity threshold (the columns then stop part-way, as the reference
// leaves them); X and the canaries after it compared bit for bit.
TEST(SimdSpeed, BackSubstituteMatchesTheReference)
{
    const Kernels reference = reference_kernels();
    constexpr int n = kBlockElements;
    for_each_simd_target([&] {
        const Kernels simd = simd_kernels();
        std::mt19937 rng(63);
        std::normal_distribution<float> normal(0.0f, 30.0f);
        for (unsigned cols : test_widths()) {
            for (int round = 0; round < 3; ++round) {
                SCOPED_TRACE(testing::Message() << "columns " << cols << " round " << round);
                std::vector<float> r(n * n, 0.0f), b(static_cast<std::size_t>(n) * cols);
                for (int i = 0; i < n; ++i)
                    for (int k = i; k < n; ++k) r[i * n + k] = normal(rng);
                for (int i = 0; i < n; ++i)
                    if (std::fabs(r[i * n + i]) < 1e-3f) r[i * n + i] = 1.0f;
                if (round == 2) r[(rng() % n) * (n + 1)] = (rng() & 1) ? 1e-7f : -0.0f;  // singular
                for (float& v : b) v = normal(rng);
                std::vector<float> expected(static_cast<std::size_t>(n) * cols + 11, -3.5f), actual = expected;
                const bool solved = reference.back_substitute(r.data(), b.data(), expected.data(), n, static_cast<int>(cols));
                EXPECT_EQ(solved, round != 2);
                EXPECT_EQ(simd.back_substitute(r.data(), b.data(), actual.data(), n, static_cast<int>(cols)), solved);
                ASSERT_EQ(first_difference(expected, actual), "");
            }
        }
    });
}

// The reference kernels are the math header's functions.
TEST(SimdSpeed, ReferenceKernelsAreTheMathHeader)
{
    const double x[3] = {0.19, 3.0, 1e-300};
    double out[3];
    reference_kernels().log2(x, 3, out);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(tv::glibc::log2(x[i]), out[i]);
}

}  // namespace
}  // namespace twinvmaf::speed
