// core/glibc_log2.h's tv::glibc::log2 (glibc's __log2_fma) and
// tv::glibc::log2_sse2 (__log2_sse2) against the live glibc log2, bit for
// bit (NaN bits included): special values, SpEED's arguments (L * S +
// sigma_nn and 1 + variance, 1e-10 .. 1e8), glibc's near-1 interval, the
// edges of its paths and table subintervals, random bit patterns.
//
// Which build the live log2 is depends on the glibc and the CPU: Debian's
// 2.36-9+deb12u10 and later bind __log2_fma on CPUs with FMA and AVX2, and
// __log2_sse2 elsewhere (GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA forces
// it); upstream 2.36 and Debian's earlier builds have only the latter. The
// test finds out from arguments where the two differ and compares the
// matching port (it says which); a live log2 that is neither skips the
// live comparison. A table of glibc's own bits of both builds (where they
// differ from each other or from the correctly rounded value) runs always.
#include <gtest/gtest.h>

#include <math.h>

#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "core/glibc_log2.h"
#include "glibc_live.h"

namespace {

using namespace twinvmaf::test;



// glibc's log2 through a volatile pointer: the compiler can neither fold
// nor inline it as a builtin.
double (*volatile glibc_log2)(double) = ::log2;

// glibc 2.36's bits of log2(x) from __log2_fma and __log2_sse2 (read on
// x86-64, Debian 2.36-9+deb12u14, the latter with the tunable above).
struct Known {
    double x;
    std::uint64_t fma, sse2;
};
constexpr Known kKnown[] = {
    // The builds differ, near 1 (float arguments, as 1 + variance) ...
    {0x1.ec244ap-1, 0xbfad3843abbf0fc4, 0xbfad3843abbf0fc5},
    {0x1.039e5cp+0, 0x3f94bc630058dd9e, 0x3f94bc630058dd9d},
    {0x1.0a3fa6p+0, 0x3facfea4ac02c0d2, 0x3facfea4ac02c0d3},
    {0x1.f2c818p-1, 0xbfa35211dfdeecf4, 0xbfa35211dfdeecf3},
    // ... and on the main path.
    {0x1.1c5d31b41cc2dp+0, 0x3fc36778ea5a1f07, 0x3fc36778ea5a1f06},
    {0x1.1fdba1aad4c8ap-1, 0xbfea95ce40b6f3e0, 0xbfea95ce40b6f3e1},
    {0x1.85b97540a3676p+25, 0x40399b372c2e9959, 0x40399b372c2e9958},
    {0x1.448142701bd3fp+0, 0x3fd5e4e8e4b1b185, 0x3fd5e4e8e4b1b186},
    // Both builds agree and are not correctly rounded.
    {0x1.67e2a889d56d4p+0, 0x3fdf72fe91ce5c96, 0x3fdf72fe91ce5c96},
    {0x1.3e9b98931a43dp+10, 0x4024a19b45d3de82, 0x4024a19b45d3de82},
    {0x1.8ba984dcd9415p+0, 0x3fe4199a618827e6, 0x3fe4199a618827e6},
    // Special cases: +0 at 1, -inf at +-0, +inf, NaNs quieted, x86's
    // default NaN for negatives, subnormals.
    {1.0, 0x0000000000000000, 0x0000000000000000},
    {0.0, 0xfff0000000000000, 0xfff0000000000000},
    {-0.0, 0xfff0000000000000, 0xfff0000000000000},
    {std::numeric_limits<double>::infinity(), 0x7ff0000000000000, 0x7ff0000000000000},
    {-1.0, 0xfff8000000000000, 0xfff8000000000000},
    {-std::numeric_limits<double>::infinity(), 0xfff8000000000000, 0xfff8000000000000},
    {0x1p-1074, 0xc090c80000000000, 0xc090c80000000000},
    {0x1.8p-1070, 0xc090b5a8ff971811, 0xc090b5a8ff971811},
};

TEST(GlibcLog2, KnownBitsOfBothBuilds)
{
    for (const Known& k : kKnown) {
        EXPECT_EQ(bits_of(tv::glibc::log2(k.x)), k.fma) << std::hexfloat << k.x;
        EXPECT_EQ(bits_of(tv::glibc::log2_sse2(k.x)), k.sse2) << std::hexfloat << k.x;
    }
    // NaN arguments: quieted, sign and payload kept.
    for (std::uint64_t u : {0x7ff0000000000001ULL, 0x7ff8000000000000ULL, 0xfff4000000000123ULL}) {
        EXPECT_EQ(bits_of(tv::glibc::log2(double_of(u))), u | 0x0008000000000000ULL);
        EXPECT_EQ(bits_of(tv::glibc::log2_sse2(double_of(u))), u | 0x0008000000000000ULL);
    }
}

// Which port the live log2 is: 1 for __log2_fma, 2 for __log2_sse2, 0 for
// neither (judged on the table's arguments where the builds differ).
int live_build()
{
    bool fma = true, sse2 = true;
    for (const Known& k : kKnown) {
        const std::uint64_t live = bits_of(glibc_log2(k.x));
        fma = fma && live == k.fma;
        sse2 = sse2 && live == k.sse2;
    }
    return fma ? 1 : sse2 ? 2 : 0;
}

// The arguments the live comparison runs: n of each kind, deterministic.
std::vector<double> arguments(std::size_t n)
{
    std::mt19937_64 rng(2036);
    std::vector<double> x;
    std::uniform_real_distribution<double> log_range(std::log(1e-10), std::log(1e8));
    std::uniform_real_distribution<float> log_range_f(std::log(1e-10f), std::log(1e8f));
    std::uniform_real_distribution<double> near(1 - 0x1.6p-5, 1 + 0x1.7p-5);
    for (std::size_t i = 0; i < n; ++i) {
        x.push_back(std::exp(log_range(rng)));  // SpEED's range, log-uniform
        const float f = std::exp(log_range_f(rng));
        x.push_back(static_cast<double>(f));      // L * S + sigma_nn (a float)
        x.push_back(static_cast<double>(1 + f));  // 1 + variance (a float)
        x.push_back(near(rng));                   // glibc's near-1 path and around it
        x.push_back(double_of(rng() & 0x7fffffffffffffffULL));  // any positive double
        if (i % 8 == 0) x.push_back(double_of(rng() & 0x000fffffffffffffULL));  // subnormal
        if (i % 8 == 0) x.push_back(double_of(rng()));                          // any double
    }
    auto around = [&](std::uint64_t u, int k) {
        for (int d = -k; d <= k; ++d) x.push_back(double_of(u + static_cast<std::uint64_t>(d)));
    };
    using namespace tv::glibc::log2_detail;
    around(kNearOneLow, 64);
    around(kNearOneLow + kNearOneSpan, 64);
    around(kOne, 256);
    for (std::uint64_t i = 0; i <= 64; ++i)  // the table's subinterval edges, in some binades
        for (std::uint64_t e : {0ULL, 1ULL, 2ULL, 40ULL, 1000ULL, 0xfc0ULL})
            around(kOff + (i << 46) + (e << 52), 2);
    for (std::uint64_t e = 0; e < 2047; ++e) around(e << 52, 2);  // powers of two
    return x;
}

TEST(GlibcLog2, MatchesTheLiveGlibc)
{
    const int build = live_build();
    if (build == 0) GTEST_SKIP() << "the live log2 is neither glibc 2.36 build (another libm)";
    std::cout << "[ glibc_log2 ] live log2 is " << (build == 1 ? "__log2_fma" : "__log2_sse2") << "\n";
    const std::vector<double> x = arguments(400000);
    std::uint64_t differ = 0, builds_differ = 0;
    for (double v : x) {
        const double ours = build == 1 ? tv::glibc::log2(v) : tv::glibc::log2_sse2(v);
        const double live = glibc_log2(v);
        if (bits_of(ours) != bits_of(live) && ++differ <= 5)
            ADD_FAILURE() << std::hexfloat << "log2(" << v << "): glibc " << live << ", ours " << ours;
        if (bits_of(tv::glibc::log2(v)) != bits_of(tv::glibc::log2_sse2(v))) ++builds_differ;
    }
    EXPECT_EQ(differ, 0u);
    std::cout << "[ glibc_log2 ] " << x.size() << " arguments, " << differ << " differ; the two builds differ on "
              << builds_differ << "\n";
}

}  // namespace
