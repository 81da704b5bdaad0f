// core/glibc_powf.h's tv::glibc::powf against the live glibc powf, bit for
// bit (NaN bits included): special values, ciede's powf(c, 7), float_adm's
// powf(x, p) and its root powf(sum, 1/p), random bit patterns. glibc on
// x86-64 runs its fma variant (__powf_fma) only on CPUs with FMA and AVX2;
// elsewhere the live comparison is skipped, and a table of glibc 2.36's
// own bits (at arguments where it is not correctly rounded) still runs.
#include <gtest/gtest.h>

#include <math.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

#include "core/glibc_powf.h"
#include "glibc_live.h"

namespace {

using namespace twinvmaf::test;



// glibc's powf through a volatile pointer: the compiler can neither fold
// nor inline it as a builtin.
float (*volatile glibc_powf)(float, float) = ::powf;

// An argument where glibc's two x86-64 variants differ (found by search:
// about 1 in 4e8 random arguments; none in ciede's and float_adm's domains
// as checked): __powf_fma gives kProbeFma, __powf_sse2 kProbeSse2.
constexpr float kProbeX = 0x1.3edd42p+10f, kProbeY = -0x1.b93766p+2f;
constexpr float kProbeFma = 0x1.d5cea8p-72f, kProbeSse2 = 0x1.d5cea6p-72f;

// Why glibc's powf here is not the variant ported, or nullptr if it is:
// glibc picks __powf_fma on x86-64 CPUs with FMA and AVX2 unless
// GLIBC_TUNABLES (glibc.cpu.hwcaps=-AVX2,-FMA) turns them off.
const char* not_fma_variant()
{
#if defined(__x86_64__) && defined(__GLIBC__)
    if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx2"))
        return "no FMA and AVX2: glibc's powf runs its sse2 variant here";
    if (bits_of(glibc_powf(kProbeX, kProbeY)) == bits_of(kProbeSse2))
        return "glibc's powf runs its sse2 variant (GLIBC_TUNABLES?)";
    return nullptr;
#else
    return "not x86-64 glibc";
#endif
}

// Compares over the (x, y) pairs that next(i) yields for i < n; reports
// the first few differences.
template <class Next>
void compare_powf(const char* name, std::uint64_t n, Next next)
{
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        float x, y;
        next(i, x, y);
        const float want = glibc_powf(x, y);
        const float got = tv::glibc::powf(x, y);
        if (bits_of(want) != bits_of(got) && ++differ <= 5) {
            ADD_FAILURE() << std::hexfloat << name << ": powf(" << x << ", " << y << ") glibc " << want << " (0x"
                          << std::hex << bits_of(want) << "), ours " << got << " (0x" << bits_of(got) << ")";
        }
    }
    std::cout << "[ glibc_powf ] " << name << ": " << n << " arguments, " << differ << " differ\n";
    EXPECT_EQ(differ, 0u) << name;
}

#define SKIP_UNLESS_POWF_FMA_VARIANT() \
    if (const char* why = not_fma_variant()) GTEST_SKIP() << why

const float kAdmP[] = {1.0f, 1.5f, 2.0f, 2.2f, 2.5f, 3.0f, 4.0f, 1.0f / 3.0f, 0.5f, 7.3f, 20.0f};

TEST(GlibcPowf, SpecialValuesLikeLiveGlibc)
{
    SKIP_UNLESS_POWF_FMA_VARIANT();
    std::vector<float> v;
    for (std::uint32_t u : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
                            0xff800001u, 0x7fa00000u, 0x7fffffffu, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u,
                            0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x3f7fffffu, 0x3f800001u, 0x4b000000u,
                            0x4b000001u, 0xcb000001u, 0x4b800000u, 0x3f000000u, 0xbf000000u, 0x4f000000u})
        v.push_back(float_of(u));
    for (int k = -152; k <= 152; k += 8) {
        v.push_back(std::ldexp(1.0f, k));
        v.push_back(-std::ldexp(3.0f, k));
    }
    for (int k = -9; k <= 9; ++k) v.push_back(k * 0.5f);
    for (float p : kAdmP) v.push_back(p);
    compare_powf("special x special", v.size() * v.size(), [&](std::uint64_t i, float& x, float& y) {
        x = v[i / v.size()];
        y = v[i % v.size()];
    });
    // Overflow, underflow and the band glibc rounds to +-2^-149.
    EXPECT_EQ(tv::glibc::powf(2.0f, 128.0f), INFINITY);
    EXPECT_EQ(tv::glibc::powf(-2.0f, 129.0f), -INFINITY);
    EXPECT_EQ(tv::glibc::powf(2.0f, -149.0f), 0x1p-149f);
    EXPECT_EQ(tv::glibc::powf(2.0f, -149.5f), 0x1p-149f);
    EXPECT_EQ(bits_of(tv::glibc::powf(-2.0f, -151.0f)), 0x80000000u);
    EXPECT_EQ(bits_of(tv::glibc::powf(-2.0f, 0.5f)), 0xffc00000u);  // x86's default NaN
}

TEST(GlibcPowf, CiedeSeventhPowersLikeLiveGlibc)
{
    SKIP_UNLESS_POWF_FMA_VARIANT();
    // Every 512th float c >= 0 (all exponents, odd and even mantissas) and
    // every 4096th c < 0.
    compare_powf("powf(c, 7), c >= 0", (0x7f800001u >> 9) + 1, [](std::uint64_t i, float& x, float& y) {
        x = float_of(static_cast<std::uint32_t>(i << 9 | (i * 0x9e37u & 0x1ffu)));
        y = 7.0f;
    });
    compare_powf("powf(c, 7), c < 0", 0x7f800000u >> 12, [](std::uint64_t i, float& x, float& y) {
        x = float_of(static_cast<std::uint32_t>(0x80000000u | i << 12 | (i * 0x9e37u & 0xfffu)));
        y = 7.0f;
    });
    // ciede's c_bar_prime in [0, 200]: every float of [100, 101).
    compare_powf("powf(c, 7), c in [100, 101)", 0x2000ull * 16, [](std::uint64_t i, float& x, float& y) {
        x = float_of(bits_of(100.0f) + static_cast<std::uint32_t>(i));
        y = 7.0f;
    });
}

TEST(GlibcPowf, FloatAdmTermsAndRootsLikeLiveGlibc)
{
    SKIP_UNLESS_POWF_FMA_VARIANT();
    std::mt19937_64 rng(20240607);
    const std::uint32_t top = bits_of(1e4f);
    std::vector<float> xs(100000);
    for (std::size_t i = 0; i < xs.size(); ++i)
        xs[i] = (i & 1) ? float_of(static_cast<std::uint32_t>(rng() % (top + 1ull)))
                        : static_cast<float>(1e4 * ((rng() >> 11) * 0x1p-53));
    const std::size_t np = sizeof kAdmP / sizeof kAdmP[0];
    compare_powf("powf(x, p), x in [0, 1e4]", xs.size() * np, [&](std::uint64_t i, float& x, float& y) {
        x = xs[i / np];
        y = kAdmP[i % np];
    });
    compare_powf("powf(x, p), p in [1, 20]", 400000, [&](std::uint64_t, float& x, float& y) {
        const std::uint64_t r = rng();
        x = xs[r % xs.size()];
        y = static_cast<float>(1.0 + 19.0 * ((r >> 11) * 0x1p-53));
    });
    compare_powf("powf(sum, 1/p)", 600000, [&](std::uint64_t i, float& x, float& y) {
        const std::uint64_t r = rng();
        x = (i & 1) ? float_of(static_cast<std::uint32_t>(r % 0x7f800000u))
                    : static_cast<float>(1e12 * ((r >> 11) * 0x1p-53));
        const float p = (i % 4 == 3) ? static_cast<float>(1.0 + 19.0 * ((r >> 40) * 0x1p-24)) : kAdmP[(r >> 33) % np];
        y = 1.0f / p;
    });
}

TEST(GlibcPowf, RandomBitPatternsLikeLiveGlibc)
{
    SKIP_UNLESS_POWF_FMA_VARIANT();
    std::mt19937_64 rng(777);
    compare_powf("random (x, y) bits", 1000000, [&](std::uint64_t, float& x, float& y) {
        const std::uint64_t r = rng();
        x = float_of(static_cast<std::uint32_t>(r));
        y = float_of(static_cast<std::uint32_t>(r >> 32));
    });
    // y of moderate size (results mostly finite), subnormal and negative x.
    compare_powf("random x bits, |y| in [2^-10, 2^8)", 1000000, [&](std::uint64_t, float& x, float& y) {
        const std::uint64_t r = rng();
        x = float_of(static_cast<std::uint32_t>(r));
        y = float_of((static_cast<std::uint32_t>(r >> 32) & 0x807fffffu) |
                     static_cast<std::uint32_t>(117 + (r >> 59) % 18) << 23);
    });
    compare_powf("subnormal x", 300000, [&](std::uint64_t i, float& x, float& y) {
        const std::uint64_t r = rng();
        x = float_of(static_cast<std::uint32_t>(r & 0x807fffffu));
        y = (i & 1) ? static_cast<float>(static_cast<int>((r >> 32) % 11) - 5)
                    : float_of(static_cast<std::uint32_t>(r >> 32) & 0xbfffffffu);
    });
}

// glibc 2.36's __powf_fma at arguments where it is not correctly rounded
// (found with the live glibc; 1 ulp off the correctly rounded value), and
// the probe where its sse2 variant differs: runs everywhere, glibc or not.
TEST(GlibcPowf, GlibcsOwnBits)
{
    struct Case {
        float x, y, glibc;
    };
    const Case cases[] = {
        {0x1.048fd2p+0f, 7.0f, 0x1.21b0f8p+0f},       {0x1.2d429cp+0f, 7.0f, 0x1.900ebcp+1f},
        {0x1.c6ee2p+0f, 7.0f, 0x1.bfbcccp+5f},        {0x1.1d09bp+1f, 7.0f, 0x1.0f8c7ep+8f},
        {0x1.e7d3d6p+10f, 1.0f / 3.0f, 0x1.8fe048p+3f}, {0x1.e0b2cp+10f, 1.5f, 0x1.4959d4p+16f},
        {0x1.68862cp+10f, 7.3f, 0x1.8599bp+76f},      {0x1.2a097p+13f, 2.2f, 0x1.0f13f6p+29f},
        {kProbeX, kProbeY, kProbeFma},  // 1 ulp above; sse2 gives the correctly rounded value
    };
    for (const Case& c : cases)
        EXPECT_EQ(bits_of(tv::glibc::powf(c.x, c.y)), bits_of(c.glibc)) << std::hexfloat << c.x << " " << c.y;
}

}  // namespace
