// The exact, order-free form of float_psnr's and float_moment's double
// chains (their GPU twins use it; the argument is tested in
// tests/unit/test_float_exact_sum.cpp).
//
// Both CPU references add non-negative float terms to one double, serially,
// over a plane: float_moment the samples v / 2^(bpc-8) and their float
// squares, float_psnr the float squares of the differences of two such
// samples (float_picture.h's sample_to_float with offset 0). Let
// s = bpc - 8 (0..8) and the grid unit u = 2^-2s: 8-bit 1, 10-bit 2^-4,
// 12-bit 2^-8, 16-bit 2^-16.
//
// 1. Every term is an exact integer multiple of u, at most 2^32 units.
//    - A sample: v < 2^16 is exact in float and dividing by 2^s is exact
//      (no underflow), so the float is v * 2^-s = (v * 2^s) u.
//    - A difference of two samples: (v - w) * 2^-s with |v - w| < 2^16 is a
//      float, so the float subtraction is exact.
//    - A square of k * 2^-s (k = v or |v - w|, below 2^16): the exact
//      square is k^2 * u. For bpc <= 12, k^2 < 2^24 is a float: exact. For
//      bpc > 12 the float product rounds k^2 (an integer of up to 32 bits) to
//      24 significant bits, scaled by u (a power of two: the scaling
//      commutes with rounding, no underflow): an integer of 2^24 or more
//      lies where floats are 2 or a larger power of two apart, so it rounds
//      to an integer, and the rounded square is still an integer multiple
//      of u, at most 65535^2 rounded = 4294836224 < 2^32 units.
//    So term * 2^2s (a power-of-two scaling in float, exact) is an integer
//    below 2^32 held exactly by the float: grid_units() is exact. (The
//    terms, and so the totals below, are the floats the CPU computes, its
//    rounded 16-bit squares included, not the real squares.)
// 2. The CPU's chain is exact while the total is below 2^53 u. The chain
//    is p_0 = 0, p_i = p_(i-1) + (double) t_i (the float term converted to
//    double: exact). By induction p_(i-1) is the exact partial sum P_(i-1);
//    the exact P_i = P_(i-1) + t_i is an integer multiple m u of u (step 1)
//    with m <= T / u < 2^53 (terms are >= 0, so every partial sum is at most
//    the total T): m u is a double (m < 2^53, u a power of two), and IEEE
//    addition returns the exact sum when it is representable, so p_i = P_i.
//    Hence the chain's result is T itself, whatever the order of the terms;
//    the integer total in units (uint64: at most 2^32 units per term and
//    2^30 samples per plane, 32768x32768 at most, so below 2^62: no wrap)
//    converted once (from_grid_units: an integer below 2^53 times a power of
//    two, exact) is the chain's double bit for bit.
// 3. Where the total reaches 2^53 u the chain may round (it does at 16 bits:
//    GpuTwins.FloatPsnrAndMomentBeyondTheExactRange), and only its own order
//    gives its bits. A plane has at most 2^30 samples and a term is below
//    2^(2 bpc) units, so a total in units stays below 2^46 at 8 bits and
//    2^50 at 10 bits: never there. At 12 bits it needs over 2^53 / 4095^2 =
//    5.4e8 samples near full scale (e.g. 24000x24000, bright), at 16 bits
//    (2^53 u = 2^37) about 2.1e6 (e.g. 4K with bright content): the twins
//    check exact() and run the CPU's chain where it fails.
#pragma once

#include "core/host_device.h"

namespace twinvmaf::float_exact_sum {

// A chain whose total in grid units is below this is exact (step 2 above).
inline constexpr unsigned long long kExactLimit = 1ull << 53;

// log2 of 1 / u at a bit depth (8..16): 2 * (bpc - 8).
TV_HD unsigned grid_shift(unsigned bitdepth) { return 2 * (bitdepth - 8); }

// The grid unit u = 2^-grid_shift (exact: a power of two).
TV_HD double grid_unit(unsigned bitdepth) { return 1.0 / static_cast<double>(1ull << grid_shift(bitdepth)); }

// A term in units of u (exact for the terms of step 1: a power-of-two
// scaling to an integer below 2^32).
TV_HD unsigned long long grid_units(float term, unsigned bitdepth)
{
    return static_cast<unsigned long long>(term * static_cast<float>(1u << grid_shift(bitdepth)));
}

// Whether a total in units is what the chain gives (below kExactLimit).
TV_HD bool exact(unsigned long long units) { return units < kExactLimit; }

// The chain's double for an exact() total.
TV_HD double from_grid_units(unsigned long long units, unsigned bitdepth)
{
    return static_cast<double>(units) * grid_unit(bitdepth);
}

}  // namespace twinvmaf::float_exact_sum
