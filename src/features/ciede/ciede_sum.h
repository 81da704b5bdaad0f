// ciede's frame sum on the GPU, the same double as the CPU's serial chain.
//
// The CPU reference adds the float dE00 values v_0, v_1, ... (>= 0) of a
// frame into a double s, one rounded addition at a time, in raster order. The
// twin reproduces that chain chunk by chunk (kSumChunk values), taking a
// shortcut where it provably changes nothing: when no addition inside a
// chunk rounds, the chain's result after the chunk is s + (the chunk's exact
// sum), and that exact sum can be formed in parallel in any order.
//
// add_chunk_exactly() decides it from a per-chunk summary: the chunk's sum
// in double (any order) and the least ulp among its nonzero values, 2^m.
// With t = RN(s + sum) and U = ulp(t), the shortcut is taken iff 2^m >= U
// and s is a multiple of U. Proof that it is then exact: every partial sum
// formed in the chunk's summary is a multiple of 2^m; were one of them
// rounded, it would be at least 2^53 2^m, the sum and t at least that, and
// ulp(t) > 2^m, against the condition, so the summary's sum is exact. Then
// S = s + sum is a multiple of U below 2^(e_t + 1) (or t would round to
// that), so t = S, and each of the serial chain's partial sums
// s + v_0 + ... + v_j lies in [s, S], is a multiple of U and below 2^53 U:
// representable, so none of those additions rounds either, and the chain
// ends at t. A chunk that fails the test (a value too small for the size of
// s, s not on U's grid, a negative, infinite or NaN value) is added serially,
// value by value, exactly as the CPU does. Zero chunks change nothing.
//
// These are the TV_HD rules; ciede_gpu.cu runs them, tests/unit/test_ciede.cpp
// runs them on the host against the plain serial chain.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::ciede {

inline constexpr unsigned kSumChunk = 256;

// min_ulp_exponent: m of the least ulp 2^m among the chunk's nonzero values;
// kAllZero when every value is (+-)0, kUnfit when one is negative, infinite
// or NaN (the shortcut's proof needs values >= 0).
inline constexpr int kAllZero = 1 << 20;
inline constexpr int kUnfit = -(1 << 20);

struct ChunkSummary {
    double sum;  // the chunk's values added in double, in any order
    int min_ulp_exponent;
};

// The summary exponent of one value.
TV_HD int ulp_exponent_of(float value)
{
    const std::uint32_t bits = tv::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7fffffffu) == 0) return kAllZero;
    const int biased = static_cast<int>((bits >> 23) & 0xffu);
    if ((bits >> 31) || biased == 0xff) return kUnfit;
    return (biased == 0 ? 1 : biased) - 150;
}

TV_HD int combine_ulp_exponents(int a, int b) { return a < b ? a : b; }

// The exponent e of ulp(x) = 2^e for a finite x >= 0.
TV_HD int ulp_exponent_of(double x)
{
    const int biased = static_cast<int>((tv::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff);
    return (biased == 0 ? 1 : biased) - 1075;
}

// Whether x >= 0 is a multiple of 2^e.
TV_HD bool is_multiple_of_power_of_two(double x, int e)
{
    if (x == 0.0) return true;
    const std::uint64_t bits = tv::bit_cast<std::uint64_t>(x);
    const int biased = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t mantissa = (bits & 0x000fffffffffffffULL) | (biased ? 1ULL << 52 : 0);
    const int drop = e - ulp_exponent_of(x);  // low mantissa bits that must be 0
    if (drop <= 0) return true;
    if (drop >= 64) return false;  // mantissa != 0 and below 2^53
    return (mantissa & ((1ULL << drop) - 1)) == 0;
}

// s <- the CPU chain's value after the chunk, if the shortcut applies (see
// above); false (s unchanged) if the chunk must be added serially.
TV_HD bool add_chunk_exactly(double& s, const ChunkSummary& chunk)
{
    if (chunk.min_ulp_exponent == kAllZero) return true;
    if (chunk.min_ulp_exponent == kUnfit) return false;
    const double t = s + chunk.sum;
    const int u = ulp_exponent_of(t);
    if (chunk.min_ulp_exponent < u || !is_multiple_of_power_of_two(s, u)) return false;
    s = t;
    return true;
}

}  // namespace twinvmaf::ciede
