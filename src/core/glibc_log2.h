// glibc's double log2, bit for bit, for host and device: algorithm of glibc
// 2.36's sysdeps/ieee754/dbl-64/e_log2.c with the tables of e_log2_data.c.
//
// Two builds of that one source are in the x86-64 libm, and they round
// differently on some arguments:
// - tv::glibc::log2 mirrors __log2_fma, the source compiled with -mfma
//   -mavx2 (so __FP_FAST_FMA is defined and GCC contracts a*b+c). Debian's
//   glibc 2.36-9+deb12u10 and later (the upstream 2.36 stable branch's
//   "x86_64: Add log2 with FMA") select it by ifunc on CPUs with FMA and
//   AVX2; this is the log2 Netflix's speed.c gets there.
// - tv::glibc::log2_sse2 mirrors __log2_sse2, the baseline build (no FMA,
//   no contraction; the tab2 reduction and the 32-bit split of r): the only
//   log2 of upstream 2.36 and of Debian's builds before deb12u10, and what
//   later builds select on CPUs without FMA or AVX2.
//
// Fused multiply-adds of __log2_fma (disassembly of the binary): 22, all
// written below as fused() (tv::fused_multiply_add: one rounding on host and
// device); every other operation is a plain IEEE operation (our builds use
// -ffp-contract=off on the host, --fmad=false on the device).
// - main path, 9: r = z * invc - 1 (the source's own fma); t1's error
//   r * InvLn2hi - t1 (the source's) and r * InvLn2lo added to it; the five
//   a*b+c of the polynomial p; and lo + r2 * p.
// - near 1, 13: hi's error r * InvLn2hi - hi (the source's) and r *
//   InvLn2lo added to it; B0 + r B1; y = hi + r2 (B0 + r B1), GCC folding
//   p = r2 (...) into the addition, and again in (hi - y) + p (p is
//   computed twice, fused each time); the four B2k + r B2k+1, the two r2
//   steps, the r4 step and lo + r4 (...).
//
// Domain: every double, special cases as glibc on x86-64 in round-to-nearest:
// log2(1) = +0, log2(+-0) = -inf, log2(+inf) = +inf, a NaN argument is
// returned quieted (x86's (x - x) / (x - x)), a negative argument or -inf
// gives x86's default NaN 0xfff8000000000000 (bits, not a computed 0/0,
// which a GPU would give as its own NaN). errno and floating-point
// exception flags are not raised.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace tv::glibc {

namespace log2_detail {

// __log2_data.tab: {1/c, log2(c)} for the 64 subintervals of [OFF, 2 OFF)
// (OFF = 0x3fe6000000000000 as bits), c near each one's centre, chosen so
// that k + log2(c) is exact.
struct InvcLogc {
    double invc;
    double logc;
};

TV_HD const InvcLogc& table(int i)
{
    static constexpr InvcLogc kTable[64] = {
        {0x1.724286bb1acf8p+0, -0x1.1095feecdb000p-1},
        {0x1.6e1f766d2cca1p+0, -0x1.08494bd76d000p-1},
        {0x1.6a13d0e30d48ap+0, -0x1.00143aee8f800p-1},
        {0x1.661ec32d06c85p+0, -0x1.efec5360b4000p-2},
        {0x1.623fa951198f8p+0, -0x1.dfdd91ab7e000p-2},
        {0x1.5e75ba4cf026cp+0, -0x1.cffae0cc79000p-2},
        {0x1.5ac055a214fb8p+0, -0x1.c043811fda000p-2},
        {0x1.571ed0f166e1ep+0, -0x1.b0b67323ae000p-2},
        {0x1.53909590bf835p+0, -0x1.a152f5a2db000p-2},
        {0x1.5014fed61adddp+0, -0x1.9217f5af86000p-2},
        {0x1.4cab88e487bd0p+0, -0x1.8304db0719000p-2},
        {0x1.49539b4334feep+0, -0x1.74189f9a9e000p-2},
        {0x1.460cbdfafd569p+0, -0x1.6552bb5199000p-2},
        {0x1.42d664ee4b953p+0, -0x1.56b23a29b1000p-2},
        {0x1.3fb01111dd8a6p+0, -0x1.483650f5fa000p-2},
        {0x1.3c995b70c5836p+0, -0x1.39de937f6a000p-2},
        {0x1.3991c4ab6fd4ap+0, -0x1.2baa1538d6000p-2},
        {0x1.3698e0ce099b5p+0, -0x1.1d98340ca4000p-2},
        {0x1.33ae48213e7b2p+0, -0x1.0fa853a40e000p-2},
        {0x1.30d191985bdb1p+0, -0x1.01d9c32e73000p-2},
        {0x1.2e025cab271d7p+0, -0x1.e857da2fa6000p-3},
        {0x1.2b404cf13cd82p+0, -0x1.cd3c8633d8000p-3},
        {0x1.288b02c7ccb50p+0, -0x1.b26034c14a000p-3},
        {0x1.25e2263944de5p+0, -0x1.97c1c2f4fe000p-3},
        {0x1.234563d8615b1p+0, -0x1.7d6023f800000p-3},
        {0x1.20b46e33eaf38p+0, -0x1.633a71a05e000p-3},
        {0x1.1e2eefdcda3ddp+0, -0x1.494f5e9570000p-3},
        {0x1.1bb4a580b3930p+0, -0x1.2f9e424e0a000p-3},
        {0x1.19453847f2200p+0, -0x1.162595afdc000p-3},
        {0x1.16e06c0d5d73cp+0, -0x1.f9c9a75bd8000p-4},
        {0x1.1485f47b7e4c2p+0, -0x1.c7b575bf9c000p-4},
        {0x1.12358ad0085d1p+0, -0x1.960c60ff48000p-4},
        {0x1.0fef00f532227p+0, -0x1.64ce247b60000p-4},
        {0x1.0db2077d03a8fp+0, -0x1.33f78b2014000p-4},
        {0x1.0b7e6d65980d9p+0, -0x1.0387d1a42c000p-4},
        {0x1.0953efe7b408dp+0, -0x1.a6f9208b50000p-5},
        {0x1.07325cac53b83p+0, -0x1.47a954f770000p-5},
        {0x1.05197e40d1b5cp+0, -0x1.d23a8c50c0000p-6},
        {0x1.03091c1208ea2p+0, -0x1.16a2629780000p-6},
        {0x1.0101025b37e21p+0, -0x1.720f8d8e80000p-8},
        {0x1.fc07ef9caa76bp-1, 0x1.6fe53b1500000p-7},
        {0x1.f4465d3f6f184p-1, 0x1.11ccce10f8000p-5},
        {0x1.ecc079f84107fp-1, 0x1.c4dfc8c8b8000p-5},
        {0x1.e573a99975ae8p-1, 0x1.3aa321e574000p-4},
        {0x1.de5d6f0bd3de6p-1, 0x1.918a0d08b8000p-4},
        {0x1.d77b681ff38b3p-1, 0x1.e72e9da044000p-4},
        {0x1.d0cb5724de943p-1, 0x1.1dcd2507f6000p-3},
        {0x1.ca4b2dc0e7563p-1, 0x1.476ab03dea000p-3},
        {0x1.c3f8ee8d6cb51p-1, 0x1.7074377e22000p-3},
        {0x1.bdd2b4f020c4cp-1, 0x1.98ede8ba94000p-3},
        {0x1.b7d6c006015cap-1, 0x1.c0db86ad2e000p-3},
        {0x1.b20366e2e338fp-1, 0x1.e840aafcee000p-3},
        {0x1.ac57026295039p-1, 0x1.0790ab4678000p-2},
        {0x1.a6d01bc2731ddp-1, 0x1.1ac056801c000p-2},
        {0x1.a16d3bc3ff18bp-1, 0x1.2db11d4fee000p-2},
        {0x1.9c2d14967feadp-1, 0x1.406464ec58000p-2},
        {0x1.970e4f47c9902p-1, 0x1.52dbe093af000p-2},
        {0x1.920fb3982bcf2p-1, 0x1.651902050d000p-2},
        {0x1.8d30187f759f1p-1, 0x1.771d2cdeaf000p-2},
        {0x1.886e5ebb9f66dp-1, 0x1.88e9c857d9000p-2},
        {0x1.83c97b658b994p-1, 0x1.9a80155e16000p-2},
        {0x1.7f405ffc61022p-1, 0x1.abe186ed3d000p-2},
        {0x1.7ad22181415cap-1, 0x1.bd0f2aea0e000p-2},
        {0x1.767dcf99eff8cp-1, 0x1.ce0a43dbf4000p-2},
    };
    return kTable[i];
}

// __log2_data.tab2 (the baseline build only): c = chi + clo as a double
// and its remainder, so that z - chi - clo is nearly exact without fma.
struct ChiClo {
    double chi;
    double clo;
};

TV_HD const ChiClo& table2(int i)
{
    static constexpr ChiClo kTable[64] = {
        {0x1.6200012b90a8ep-1, 0x1.904ab0644b605p-55},
        {0x1.66000045734a6p-1, 0x1.1ff9bea62f7a9p-57},
        {0x1.69fffc325f2c5p-1, 0x1.27ecfcb3c90bap-55},
        {0x1.6e00038b95a04p-1, 0x1.8ff8856739326p-55},
        {0x1.71fffe09994e3p-1, 0x1.afd40275f82b1p-55},
        {0x1.7600015590e1p-1, -0x1.2fd75b4238341p-56},
        {0x1.7a00012655bd5p-1, 0x1.808e67c242b76p-56},
        {0x1.7e0003259e9a6p-1, -0x1.208e426f622b7p-57},
        {0x1.81fffedb4b2d2p-1, -0x1.402461ea5c92fp-55},
        {0x1.860002dfafcc3p-1, 0x1.df7f4a2f29a1fp-57},
        {0x1.89ffff78c6b5p-1, -0x1.e0453094995fdp-55},
        {0x1.8e00039671566p-1, -0x1.a04f3bec77b45p-55},
        {0x1.91fffe2bf1745p-1, -0x1.7fa34400e203cp-56},
        {0x1.95fffcc5c9fd1p-1, -0x1.6ff8005a0695dp-56},
        {0x1.9a0003bba4767p-1, 0x1.0f8c4c4ec7e03p-56},
        {0x1.9dfffe7b92da5p-1, 0x1.e7fd9478c4602p-55},
        {0x1.a1fffd72efdafp-1, -0x1.a0c554dcdae7ep-57},
        {0x1.a5fffde04ff95p-1, 0x1.67da98ce9b26bp-55},
        {0x1.a9fffca5e8d2bp-1, -0x1.284c9b54c13dep-55},
        {0x1.adfffddad03eap-1, 0x1.812c8ea602e3cp-58},
        {0x1.b1ffff10d3d4dp-1, -0x1.efaddad27789cp-55},
        {0x1.b5fffce21165ap-1, 0x1.3cb1719c61237p-58},
        {0x1.b9fffd950e674p-1, 0x1.3f7d94194cep-56},
        {0x1.be000139ca8afp-1, 0x1.50ac4215d9bcp-56},
        {0x1.c20005b46df99p-1, 0x1.beea653e9c1c9p-57},
        {0x1.c600040b9f7aep-1, -0x1.c079f274a70d6p-56},
        {0x1.ca0006255fd8ap-1, -0x1.a0b4076e84c1fp-56},
        {0x1.cdfffd94c095dp-1, 0x1.8f933f99ab5d7p-55},
        {0x1.d1ffff975d6cfp-1, -0x1.82c08665fe1bep-58},
        {0x1.d5fffa2561c93p-1, -0x1.b04289bd295f3p-56},
        {0x1.d9fff9d228b0cp-1, 0x1.70251340fa236p-55},
        {0x1.de00065bc7e16p-1, -0x1.5011e16a4d80cp-56},
        {0x1.e200002f64791p-1, 0x1.9802f09ef62ep-55},
        {0x1.e600057d7a6d8p-1, -0x1.e0b75580cf7fap-56},
        {0x1.ea00027edc00cp-1, -0x1.c848309459811p-55},
        {0x1.ee0006cf5cb7cp-1, -0x1.f8027951576f4p-55},
        {0x1.f2000782b7dccp-1, -0x1.f81d97274538fp-55},
        {0x1.f6000260c450ap-1, -0x1.071002727ffdcp-59},
        {0x1.f9fffe88cd533p-1, -0x1.81bdce1fda8bp-58},
        {0x1.fdfffd50f8689p-1, 0x1.7f91acb918e6ep-55},
        {0x1.0200004292367p+0, 0x1.b7ff365324681p-54},
        {0x1.05fffe3e3d668p+0, 0x1.6fa08ddae957bp-55},
        {0x1.0a0000a85a757p+0, -0x1.7e2de80d3fb91p-58},
        {0x1.0e0001a5f3fccp+0, -0x1.1823305c5f014p-54},
        {0x1.11ffff8afbaf5p+0, -0x1.bfabb6680bac2p-55},
        {0x1.15fffe54d91adp+0, -0x1.d7f121737e7efp-54},
        {0x1.1a00011ac36e1p+0, 0x1.c000a0516f5ffp-54},
        {0x1.1e00019c84248p+0, -0x1.082fbe4da5dap-54},
        {0x1.220000ffe5e6ep+0, -0x1.8fdd04c9cfb43p-55},
        {0x1.26000269fd891p+0, 0x1.cfe2a7994d182p-55},
        {0x1.2a00029a6e6dap+0, -0x1.00273715e8bc5p-56},
        {0x1.2dfffe0293e39p+0, 0x1.b7c39dab2a6f9p-54},
        {0x1.31ffff7dcf082p+0, 0x1.df1336edc5254p-56},
        {0x1.35ffff05a8b6p+0, -0x1.e03564ccd31ebp-54},
        {0x1.3a0002e0eaeccp+0, 0x1.5f0e74bd3a477p-56},
        {0x1.3e000043bb236p+0, 0x1.c7dcb149d8833p-54},
        {0x1.4200002d187ffp+0, 0x1.e08afcf2d3d28p-56},
        {0x1.460000d387cb1p+0, 0x1.20837856599a6p-55},
        {0x1.4a00004569f89p+0, -0x1.9fa5c904fbcd2p-55},
        {0x1.4e000043543f3p+0, -0x1.81125ed175329p-56},
        {0x1.51fffcc027f0fp+0, 0x1.883d8847754dcp-54},
        {0x1.55ffffd87b36fp+0, -0x1.709e731d02807p-55},
        {0x1.59ffff21df7bap+0, 0x1.7f79f68727b02p-55},
        {0x1.5dfffebfc3481p+0, -0x1.180902e30e93ep-54},
    };
    return kTable[i];
}

// __log2_data.invln2hi/lo: 1/ln 2 as a 33-bit head and a tail.
inline constexpr double kInvLn2Hi = 0x1.7154765200000p+0;
inline constexpr double kInvLn2Lo = 0x1.705fc2eefa200p-33;

// __log2_data.poly: log2(1 + r) ~ r/ln 2 + r^2 (A0 + A1 r + ... + A5 r^5)
// for |r| < 1/128 (the main path).
inline constexpr double kA0 = -0x1.71547652b8339p-1;
inline constexpr double kA1 = 0x1.ec709dc3a04bep-2;
inline constexpr double kA2 = -0x1.7154764702ffbp-2;
inline constexpr double kA3 = 0x1.2776c50034c48p-2;
inline constexpr double kA4 = -0x1.ec7b328ea92bcp-3;
inline constexpr double kA5 = 0x1.a6225e117f92ep-3;

// __log2_data.poly1: the same with B0 .. B9, for x near 1 (|x - 1| < 0x1.6ab2p-5).
inline constexpr double kB0 = -0x1.71547652b82fep-1;
inline constexpr double kB1 = 0x1.ec709dc3a03f7p-2;
inline constexpr double kB2 = -0x1.71547652b7c3fp-2;
inline constexpr double kB3 = 0x1.2776c50f05be4p-2;
inline constexpr double kB4 = -0x1.ec709dd768fe5p-3;
inline constexpr double kB5 = 0x1.a61761ec4e736p-3;
inline constexpr double kB6 = -0x1.7153fbc64a79bp-3;
inline constexpr double kB7 = 0x1.484d154f01b4ap-3;
inline constexpr double kB8 = -0x1.289e4a72c383cp-3;
inline constexpr double kB9 = 0x1.0b32f285aee66p-3;

// The near-1 interval as bits: x - 1.0 in [-0x1.5b51p-5, 0x1.6ab2p-5),
// tested as one unsigned comparison (bits - kNearOneLow < kNearOneSpan).
inline constexpr std::uint64_t kNearOneLow = 0x3feea4af00000000;   // 1 - 0x1.5b51p-5
inline constexpr std::uint64_t kNearOneSpan = 0x000210aa00000000;  // to 1 + 0x1.6ab2p-5
inline constexpr std::uint64_t kOne = 0x3ff0000000000000;
inline constexpr std::uint64_t kOff = 0x3fe6000000000000;

TV_HD std::uint64_t bits(double x) { return tv::bit_cast<std::uint64_t>(x); }
TV_HD double from_bits(std::uint64_t u) { return tv::bit_cast<double>(u); }
TV_HD double fused(double a, double b, double c) { return tv::fused_multiply_add(a, b, c); }

// Whether x takes the near-1 path (x == 1.0 included: it returns +0 there).
TV_HD bool near_one(std::uint64_t ix) { return ix - kNearOneLow < kNearOneSpan; }

// Whether x is subnormal, zero, negative, inf or NaN (e_log2.c's test on the
// top 16 bits: top - 0x0010 >= 0x7ff0 - 0x0010).
TV_HD bool off_main_path(std::uint64_t ix)
{
    const std::uint32_t top = static_cast<std::uint32_t>(ix >> 48);
    return top - 0x0010u >= 0x7ff0u - 0x0010u;
}

// log2(x) for x near 1 (not 1 itself), __log2_fma's steps.
TV_HD double near_one_fma(double x)
{
    const double r = x - 1.0;
    // hi + lo = r / ln 2, the source's fma for hi's error, GCC's for + r InvLn2lo.
    const double hi = r * kInvLn2Hi;
    double lo = fused(r, kInvLn2Lo, fused(r, kInvLn2Hi, -hi));
    const double r2 = r * r;
    const double r4 = r2 * r2;
    const double q = fused(r, kB1, kB0);  // p = r2 q, never rounded alone:
    const double y = fused(r2, q, hi);    // y = hi + p
    lo = lo + fused(r2, q, hi - y);       // lo += hi - y + p
    // lo += r4 (B2 + r B3 + r2 (B4 + r B5) + r4 (B6 + r B7 + r2 (B8 + r B9))).
    const double inner_lo = fused(r2, fused(r, kB5, kB4), fused(r, kB3, kB2));
    const double inner_hi = fused(r2, fused(r, kB9, kB8), fused(r, kB7, kB6));
    lo = fused(r4, fused(r4, inner_hi, inner_lo), lo);
    return y + lo;
}

// The same, __log2_sse2's steps: r split into a 21-bit head and its tail,
// every operation rounded.
TV_HD double near_one_sse2(double x)
{
    const double r = x - 1.0;
    const double rhi = from_bits(bits(r) & 0xffffffff00000000ULL);
    const double rlo = r - rhi;
    const double hi = rhi * kInvLn2Hi;
    double lo = rlo * kInvLn2Hi + r * kInvLn2Lo;
    const double r2 = r * r;
    const double r4 = r2 * r2;
    const double p = r2 * (kB0 + r * kB1);
    const double y = hi + p;
    lo += hi - y + p;
    lo += r4 * (kB2 + r * kB3 + r2 * (kB4 + r * kB5) + r4 * (kB6 + r * kB7 + r2 * (kB8 + r * kB9)));
    return y + lo;
}

// x = 2^k z, z in [OFF, 2 OFF) exact, and z's subinterval i, from the bits
// of a positive normal x (a subnormal's normalized bits, exponent below 0).
struct Reduction {
    int i;
    int k;
    double z;
};

TV_HD Reduction reduce(std::uint64_t ix)
{
    const std::uint64_t tmp = ix - kOff;
    const int i = static_cast<int>((tmp >> (52 - 6)) % 64);
    const int k = static_cast<int>(static_cast<std::int64_t>(tmp) >> 52);  // arithmetic shift
    const std::uint64_t iz = ix - (tmp & 0xfffULL << 52);
    return {i, k, from_bits(iz)};
}

// log2(x) = log2(z / c) + log2(c) + k on the main path, __log2_fma's steps.
TV_HD double main_fma(Reduction red)
{
    const double invc = table(red.i).invc;
    const double logc = table(red.i).logc;
    const double kd = static_cast<double>(red.k);
    // r = z / c - 1, the source's fma; t1 + t2 = r / ln 2 (the source's fma for
    // t1's error, GCC's for + r InvLn2lo).
    const double r = fused(red.z, invc, -1.0);
    const double t1 = r * kInvLn2Hi;
    const double t2 = fused(r, kInvLn2Lo, fused(r, kInvLn2Hi, -t1));
    // hi + lo = r / ln 2 + log2(c) + k.
    const double t3 = kd + logc;
    const double hi = t3 + t1;
    const double lo = t3 - hi + t1 + t2;
    // p = A0 + r A1 + r2 (A2 + r A3) + r4 (A4 + r A5), GCC fusing each step.
    const double r2 = r * r;
    const double r4 = r2 * r2;
    const double p = fused(r4, fused(r, kA5, kA4), fused(r2, fused(r, kA3, kA2), fused(r, kA1, kA0)));
    return fused(r2, p, lo) + hi;  // lo + r2 p + hi
}

// The same, __log2_sse2's steps: r = (z - chi - clo) invc, r split for t1.
TV_HD double main_sse2(Reduction red)
{
    const double invc = table(red.i).invc;
    const double logc = table(red.i).logc;
    const double kd = static_cast<double>(red.k);
    const double r = (red.z - table2(red.i).chi - table2(red.i).clo) * invc;
    const double rhi = from_bits(bits(r) & 0xffffffff00000000ULL);
    const double rlo = r - rhi;
    const double t1 = rhi * kInvLn2Hi;
    const double t2 = rlo * kInvLn2Hi + r * kInvLn2Lo;
    const double t3 = kd + logc;
    const double hi = t3 + t1;
    const double lo = t3 - hi + t1 + t2;
    const double r2 = r * r;
    const double r4 = r2 * r2;
    const double p = kA0 + r * kA1 + r2 * (kA2 + r * kA3) + r4 * (kA4 + r * kA5);
    return lo + r2 * p + hi;
}

// The cases off the main path: zero, infinities, NaN, negative (result in
// *out, true), or a subnormal (its bits normalized into *ix, false).
TV_HD bool special(double x, std::uint64_t* ix, double* out)
{
    const std::uint64_t u = *ix;
    const std::uint32_t top = static_cast<std::uint32_t>(u >> 48);
    if (u * 2 == 0) {  // +-0: __math_divzero(1)
        *out = from_bits(0xfff0000000000000ULL);
        return true;
    }
    if (u == 0x7ff0000000000000ULL) {  // +inf
        *out = x;
        return true;
    }
    if ((top & 0x8000u) || (top & 0x7ff0u) == 0x7ff0u) {
        // __math_invalid: (x - x) / (x - x), which on x86 is the NaN x
        // quieted, or the default NaN for a negative number or -inf.
        const bool nan = (u & 0x7fffffffffffffffULL) > 0x7ff0000000000000ULL;
        *out = from_bits(nan ? (u | 0x0008000000000000ULL) : 0xfff8000000000000ULL);
        return true;
    }
    // Subnormal: scale into the normal range (exact), then take 52 off the
    // exponent field (it wraps below zero; reduce() gives k accordingly).
    *ix = bits(x * 0x1p52) - (52ULL << 52);
    return false;
}

}  // namespace log2_detail

// C's log2(x) exactly as glibc 2.36's __log2_fma on x86-64 computes it
// (Debian 2.36-9+deb12u10 and later on CPUs with FMA and AVX2), for every
// double (see the notes at the top).
TV_HD double log2(double x)
{
    using namespace log2_detail;
    std::uint64_t ix = bits(x);
    if (near_one(ix)) return ix == kOne ? 0.0 : near_one_fma(x);
    if (off_main_path(ix)) {
        double out;
        if (special(x, &ix, &out)) return out;
    }
    return main_fma(reduce(ix));
}

// C's log2(x) exactly as glibc 2.36's baseline build __log2_sse2 computes it
// (upstream 2.36; Debian's before deb12u10; later ones on CPUs without FMA
// or AVX2).
TV_HD double log2_sse2(double x)
{
    using namespace log2_detail;
    std::uint64_t ix = bits(x);
    if (near_one(ix)) return ix == kOne ? 0.0 : near_one_sse2(x);
    if (off_main_path(ix)) {
        double out;
        if (special(x, &ix, &out)) return out;
    }
    return main_sse2(reduce(ix));
}

}  // namespace tv::glibc
