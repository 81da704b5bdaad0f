// The fork's serial double sums (s += t over a whole plane, t >= 0) in
// parallel, with the serial bits: what the GPU twin uses for the six
// ChannelSums chains (the CPU reference adds serially).
//
// Why it is exact. While s stays in one binade [2^(e+52), 2^(e+53)), every
// double there is a multiple of u = 2^e, so fl(s + t) = s + u * rne(t / u):
// t rounded to a whole number of u, half-way cases to the even multiple,
// which depends on s (a tie). A chunk of terms therefore moves s by
// u * (sum of its terms' units), computed from the terms alone, provided
// that (a) s is in the binade of the chunk's u at its start, (b) the chunk
// has no tie, and (c) s + u * units stays below 2^(e+53) (then every
// intermediate sum, which only grows, does too). A chunk that fails any of
// these is added serially, term by term, at its place in the chain.
//
// The twin: summarize() every chunk in parallel at a guessed u (the
// binade of an approximate prefix sum of chunk sums), then one thread per
// chain apply()s the chunks in order: one exact double add for a chunk
// that qualifies, the serial loop for the few that do not (a binade change
// happens a few dozen times in a chain; a wrong guess needs s within
// about 1e-9 of a power of two).
//
// tests/unit/test_ssimulacra2.cpp (ChainEqualsTheSerialSum) compares
// apply() over chunks with the serial sum on adversarial sequences.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::ssimulacra2::chain {

inline constexpr int kChunk = 256;
// No binade: s is 0, subnormal, infinite or NaN.
inline constexpr int kNoBinade = -100000;

inline constexpr std::uint32_t kSerial = 1;   // add the chunk term by term
inline constexpr std::uint32_t kAllZero = 2;  // every term is +0 or -0

struct Summary {
    std::int64_t units;  // sum of rne(t / 2^exponent) over the chunk
    int exponent;        // the u = 2^exponent it was computed at
    std::uint32_t flags;
};

// e such that 2^e is the spacing of doubles at s (s normal and finite),
// else kNoBinade.
TV_HD int ulp_exponent(double s)
{
    const std::uint64_t bits = tv::bit_cast<std::uint64_t>(s);
    const int field = static_cast<int>((bits >> 52) & 0x7ff);
    if (field == 0 || field == 0x7ff || (bits >> 63)) return kNoBinade;
    return field - 1075;
}

// 2^e for -1074 <= e <= 1023.
TV_HD double power_of_two(int e)
{
    if (e >= -1022) return tv::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
    return tv::bit_cast<double>(std::uint64_t{1} << (e + 1074));
}

// The chunk's units at u = 2^exponent (kNoBinade: only the all-zero test).
TV_HD Summary summarize(const double* t, int n, int exponent)
{
    Summary out{0, exponent, 0};
    bool all_zero = true;
    for (int k = 0; k < n; ++k) {
        const std::uint64_t bits = tv::bit_cast<std::uint64_t>(t[k]);
        if ((bits << 1) == 0) continue;  // +0 or -0 leave s as it is
        all_zero = false;
        const int field = static_cast<int>((bits >> 52) & 0x7ff);
        if ((bits >> 63) || field == 0x7ff || exponent == kNoBinade) {
            out.flags |= kSerial;
            continue;
        }
        const std::uint64_t m = field ? (bits & 0xfffffffffffffULL) | (std::uint64_t{1} << 52) : bits & 0xfffffffffffffULL;
        const int et = field ? field - 1075 : -1074;  // t = m * 2^et
        const int shift = exponent - et;               // t / u = m / 2^shift
        std::uint64_t q;
        if (shift <= 0) {
            if (-shift > 8) {  // t >= 2^61 u: the chunk leaves the binade
                out.flags |= kSerial;
                continue;
            }
            q = m << -shift;
        } else if (shift >= 64) {
            q = 0;  // t < 2^53 <= half a unit
        } else {
            q = m >> shift;
            const std::uint64_t r = m & ((std::uint64_t{1} << shift) - 1), half = std::uint64_t{1} << (shift - 1);
            if (r > half) {
                ++q;
            } else if (r == half) {
                out.flags |= kSerial;  // a tie: its rounding depends on s
                continue;
            }
        }
        out.units += static_cast<std::int64_t>(q);
        if (out.units > (std::int64_t{1} << 61)) out.flags |= kSerial;
    }
    if (all_zero) out.flags |= kAllZero;
    return out;
}

// s after the chunk's n terms t, as the serial s += t[k] gives it.
TV_HD double apply(double s, const Summary& c, const double* t, int n)
{
    if (c.flags & kAllZero) {
        // 0 and -0 terms: s + 0 is s for every s but -0 (none: sums start
        // at +0 and add non-negative terms) and NaN (stays NaN).
        if (!(tv::bit_cast<std::uint64_t>(s) >> 63)) return s;
    } else if (!(c.flags & kSerial)) {
        const int e = ulp_exponent(s);
        if (e != kNoBinade && e == c.exponent && e + 53 <= 1023) {
            const double next = s + static_cast<double>(c.units) * power_of_two(e);
            if (next < power_of_two(e + 53)) return next;
        }
    }
    for (int k = 0; k < n; ++k) s += t[k];
    return s;
}

}  // namespace twinvmaf::ssimulacra2::chain
