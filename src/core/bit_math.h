// Bit operations shared by host and device code (TV_HD).
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf {

// Leading zero bits of a nonzero value. nvcc's device code needs its
// intrinsics; host compilers and HIP's clang (also on the device) take the
// builtins.
TV_HD int count_leading_zeros(std::uint32_t v)
{
#if defined(__CUDA_ARCH__)
    return __clz(static_cast<int>(v));
#else
    return __builtin_clz(v);
#endif
}

TV_HD int count_leading_zeros(std::uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return __clzll(static_cast<long long>(v));
#else
    return __builtin_clzll(v);
#endif
}

// ceil(log2(n)): the fewest bits k with 2^k >= n; 0 for n <= 1. ADM and
// CAMBI size their shifts with it (Netflix: libm's ceil(log2()), exact there).
TV_HD int ceil_log2(std::uint64_t n)
{
    int k = 0;
    while ((std::uint64_t{1} << k) < n) ++k;
    return k;
}

}  // namespace twinvmaf
