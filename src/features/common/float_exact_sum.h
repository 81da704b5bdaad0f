// The exact, order-free form of float_psnr's and float_moment's double
// chains (their GPU twins use it; the argument is tested in
// tests/unit/test_float_exact_sum.cpp).
//
// Both CPU references add float terms to one double, serially, over the
// plane. Every term there is >= 0, below 2^16 and a multiple of 2^-16 (a
// sample on the 8-bit range is a multiple of 2^-(bpc-8), bpc <= 16; its
// float square, rounded or not, stays on that grid). So every partial sum of
// the chain is a multiple of 2^-16 no larger than the total: while the total
// is below 2^53 * 2^-16 = 2^37, every partial sum is a double, no addition
// rounds, and the chain's result is the exact total, whatever the order.
// Summed as integers of 2^-16 (uint64: at most 2^32 per term, 2^31 terms),
// the total is exact in any order; converted once, it is the chain's double.
#pragma once

#include "core/host_device.h"

namespace twinvmaf::float_exact_sum {

inline constexpr double kGridUnit = 1.0 / 65536.0;  // 2^-16
// Totals (in grid units) below this are what the serial chain gives.
inline constexpr unsigned long long kExactLimit = 1ull << 53;

// A term in units of 2^-16 (exact: a power-of-two scaling of a float below
// 2^16 that lies on the grid).
TV_HD unsigned long long grid_units(float term) { return static_cast<unsigned long long>(term * 65536.0f); }

// The chain's double for a total below kExactLimit.
TV_HD double from_grid_units(unsigned long long units) { return static_cast<double>(units) * kGridUnit; }

}  // namespace twinvmaf::float_exact_sum
