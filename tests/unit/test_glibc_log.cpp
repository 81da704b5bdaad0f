// core/glibc_log.h's tv::glibc::log (glibc's __ieee754_log_fma) and
// tv::glibc::log10 (__ieee754_log10 over it) against the live glibc, bit for
// bit (NaN bits included): special values, the near-1 interval and its
// edges, the edges of every table subinterval, subnormals, the arguments the
// features pass (PSNR's peak^2 / MSE and its kin, 1e-10 .. 1e12, CIEDE's
// mean dE00), and random bit patterns. On a CPU without FMA and AVX2 the
// live glibc runs its non-fma log (other bits) and the live comparison is
// skipped; a table of glibc's bits read on x86-64 runs always, so a machine
// of any kind (aarch64 under qemu) checks the port.
#include <gtest/gtest.h>

#include <math.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <tuple>
#include <limits>
#include <vector>

#include "core/glibc_log.h"
#include "glibc_live.h"

// A named namespace: the unit tests are unity builds (tests/CMakeLists.txt),
// and file-local names must differ from the other test files'.
namespace glibc_log_test {

using namespace twinvmaf::test;

// glibc's functions through volatile pointers: the compiler can neither
// fold nor inline them as builtins.
double (*volatile glibc_log)(double) = ::log;
double (*volatile glibc_log10)(double) = ::log10;

// glibc 2.36's bits (x86-64, Debian 2.36-9+deb12u14, on an FMA and AVX2 CPU).
struct Known {
    double x;
    std::uint64_t log, log10;
};
constexpr Known kKnown[] = {
    {1.0, 0x0000000000000000, 0x0000000000000000},
    {0.0, 0xfff0000000000000, 0xfff0000000000000},
    {-0.0, 0xfff0000000000000, 0xfff0000000000000},
    {std::numeric_limits<double>::infinity(), 0x7ff0000000000000, 0x7ff0000000000000},
    {-1.0, 0xfff8000000000000, 0x7ff8000000000000},
    {-std::numeric_limits<double>::infinity(), 0xfff8000000000000, 0x7ff8000000000000},
    {0x1p-1074, 0xc0874385446d71c3, 0xc07434e6420f4374},
    {0x1.999999999999ap-4, 0xc0026bb1bbb55515, 0xbff0000000000000},
    {3.0, 0x3ff193ea7aad030b, 0x3fde8927964fd5fd},
    {1e10, 0x4037069e2aa2aa5b, 0x4024000000000000},
    {0x1.12994c1bacf91p+14, 0x40238c6331028722, 0x4010fac17722322b},
    {0x1.0000000000001p+0, 0x3cafffffffffffff, 0x3c9bcb7b1526e50d},
};

double from(std::uint64_t u) { return double_of(u); }

std::vector<double> arguments(std::size_t random_count)
{
    std::vector<double> x;
    const auto around = [&](std::uint64_t u, int n) {
        for (int d = -n; d <= n; ++d) x.push_back(from(u + static_cast<std::uint64_t>(static_cast<std::int64_t>(d))));
    };
    // Special values and NaNs of both signs.
    for (std::uint64_t u : {0x0ULL, 0x8000000000000000ULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
                            0x7ff8000000000000ULL, 0xfff8000000000000ULL, 0x7ff0000000000001ULL,
                            0xfff4000000000001ULL, 0x3ff0000000000000ULL, 0xbff0000000000000ULL})
        x.push_back(from(u));
    // The near-1 interval, its edges and inside it.
    around(0x3fee000000000000ULL, 8);
    around(0x3ff1090000000000ULL, 8);
    around(0x3ff0000000000000ULL, 64);
    SplitMix64 rng(2026);
    for (int i = 0; i < 20000; ++i) x.push_back(1.0 + (rng.unit() - 0.5) * 0x1p-3);
    // Every table subinterval's edges, in several binades, and powers of two.
    for (int i = 0; i < 128; ++i)
        for (std::uint64_t e : {0x3feULL, 0x3ffULL, 0x400ULL, 0x43fULL, 0x001ULL, 0x7feULL}) {
            const std::uint64_t u = 0x3fe6000000000000ULL + (static_cast<std::uint64_t>(i) << 45);
            around((u & 0x000fffffffffffffULL) | (e << 52), 1);
        }
    for (std::uint64_t e = 1; e < 2047; ++e) around(e << 52, 2);
    // Subnormals.
    for (std::uint64_t u : {1ULL, 2ULL, 3ULL, 0x000fffffffffffffULL, 0x0008000000000000ULL, 0x0000000100000000ULL})
        around(u, 1);
    // What the features pass: peak^2 / MSE and the like, 1e-10 .. 1e12, and
    // dB-scaled means near 1.
    for (int i = 0; i < 100000; ++i) x.push_back(std::pow(10.0, -10.0 + 22.0 * rng.unit()));
    for (int i = 0; i < 20000; ++i) x.push_back(65025.0 / (1.0 + 1000.0 * rng.unit()));
    // Random bit patterns (positive and negative, every exponent).
    for (std::size_t i = 0; i < random_count; ++i) x.push_back(from(rng.next()));
    return x;
}

TEST(GlibcLog, KnownBits)
{
    for (const Known& k : kKnown) {
        EXPECT_EQ(bits_of(tv::glibc::log(k.x)), k.log) << std::hexfloat << k.x;
        EXPECT_EQ(bits_of(tv::glibc::log10(k.x)), k.log10) << std::hexfloat << k.x;
    }
}

TEST(GlibcLog, MatchesTheLiveGlibc)
{
    SKIP_UNLESS_GLIBC_FMA_VARIANT("log");
    const std::vector<double> x = arguments(600000);
    DifferCount log_count, log10_count;
    for (double v : x) {
        for (auto [ours, live, count, name] :
             {std::tuple{tv::glibc::log(v), glibc_log(v), &log_count, "log"},
              std::tuple{tv::glibc::log10(v), glibc_log10(v), &log10_count, "log10"}}) {
            ++count->n;
            if (bits_of(ours) != bits_of(live) && ++count->differ <= 5)
                ADD_FAILURE() << std::hexfloat << name << "(" << v << "): glibc " << live << ", ours " << ours;
        }
    }
    EXPECT_EQ(log_count.differ, 0u);
    EXPECT_EQ(log10_count.differ, 0u);
    std::cout << "[ glibc_log ] " << log_count.n << " arguments: log " << log_count.differ << " differ, log10 "
              << log10_count.differ << " differ\n";
}

}  // namespace glibc_log_test
