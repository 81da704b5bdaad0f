// Strict floating point, proven on the device (DESIGN.md §3): the probe
// kernel, built with the extractors' flags, must give the host's correctly
// rounded a*b+c (two roundings: no FMA), a/b and sqrtf(|a|) for 1,048,576
// random triples and every combination of boundary values. The same kernel
// built with contraction on must differ somewhere, or the probe proves
// nothing.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace twinvmaf::fp_probe {
namespace strict {
bool run(const float* a, const float* b, const float* c, float* mad, float* quotient, float* root, std::size_t n);
}
namespace contracted {
bool run(const float* a, const float* b, const float* c, float* mad, float* quotient, float* root, std::size_t n);
}
}  // namespace twinvmaf::fp_probe

namespace {

struct Inputs {
    std::vector<float> a, b, c;
};

Inputs make_inputs()
{
    Inputs in;
    // Random sign and mantissa, exponents -20..20.
    std::mt19937_64 rng(20261130);
    auto random_float = [&] {
        const std::uint32_t sign = static_cast<std::uint32_t>(rng() & 1u) << 31;
        const std::uint32_t exponent = static_cast<std::uint32_t>(127 + static_cast<int>(rng() % 41) - 20) << 23;
        const std::uint32_t mantissa = static_cast<std::uint32_t>(rng()) & 0x7fffffu;
        return std::bit_cast<float>(sign | exponent | mantissa);
    };
    for (int i = 0; i < 1 << 20; ++i) {
        in.a.push_back(random_float());
        in.b.push_back(random_float());
        in.c.push_back(random_float());
    }
    // Every combination of boundary values.
    const float inf = std::numeric_limits<float>::infinity();
    const float boundary[] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX,
                              std::numeric_limits<float>::denorm_min(), 1e-40f, -1e-40f, inf, -inf,
                              std::numeric_limits<float>::quiet_NaN(), 3.0f, 1.0f / 3.0f, 0.1f, 16777217.0f};
    for (float a : boundary)
        for (float b : boundary)
            for (float c : boundary) {
                in.a.push_back(a);
                in.b.push_back(b);
                in.c.push_back(c);
            }
    return in;
}

bool same(float x, float y) { return (std::isnan(x) && std::isnan(y)) || std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y); }

struct Differences {
    std::size_t mad = 0, quotient = 0, root = 0;
};

template <class Run>
std::optional<Differences> probe(Run run, const Inputs& in)
{
    const std::size_t n = in.a.size();
    std::vector<float> mad(n), quotient(n), root(n);
    if (!run(in.a.data(), in.b.data(), in.c.data(), mad.data(), quotient.data(), root.data(), n)) return std::nullopt;
    Differences d;
    for (std::size_t i = 0; i < n; ++i) {
        // The host is built with -ffp-contract=off: the product is rounded
        // before the addition.
        const float product = in.a[i] * in.b[i];
        d.mad += !same(mad[i], product + in.c[i]);
        d.quotient += !same(quotient[i], in.a[i] / in.b[i]);
        d.root += !same(root[i], std::sqrt(std::fabs(in.a[i])));
    }
    return d;
}

TEST(FpProbe, StrictKernelMatchesHostBitForBit)
{
    const Inputs in = make_inputs();
    const auto d = probe(twinvmaf::fp_probe::strict::run, in);
    if (!d) GTEST_SKIP() << "no CUDA device: the strict floating-point probe did not run";
    std::cout << "[ probe ] strict build, " << in.a.size() << " triples: a*b+c differs " << d->mad
              << ", a/b differs " << d->quotient << ", sqrtf differs " << d->root << "\n";
    EXPECT_EQ(d->mad, 0u);
    EXPECT_EQ(d->quotient, 0u);
    EXPECT_EQ(d->root, 0u);
}

TEST(FpProbe, ContractedKernelIsCaught)
{
    const Inputs in = make_inputs();
    const auto d = probe(twinvmaf::fp_probe::contracted::run, in);
    if (!d) GTEST_SKIP() << "no CUDA device: the contraction probe did not run";
    std::cout << "[ probe ] contracted build (--fmad=true), " << in.a.size() << " triples: a*b+c differs "
              << d->mad << ", a/b differs " << d->quotient << ", sqrtf differs " << d->root << "\n";
    EXPECT_GT(d->mad, 0u) << "contraction on gave no difference: the probe cannot detect an FMA";
}

}  // namespace
