// PSNR arithmetic shared by the CPU reference and its GPU twin.
//
// Netflix libvmaf (integer_psnr.c) sums squared differences in integers, so
// the sum is exact and order-free: a GPU may add rows in any order and get
// the same bits. Its 8-bit path keeps a 32-bit sum per row before widening;
// we do the same so that even absurd widths wrap exactly as Netflix's do.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::psnr {

// Sum of squared differences of one row of 8-bit samples.
TV_HD std::uint32_t row_sse(const std::uint8_t* ref, const std::uint8_t* dis, unsigned width)
{
    std::uint32_t sum = 0;
    for (unsigned x = 0; x < width; ++x) {
        const int e = static_cast<int>(ref[x]) - static_cast<int>(dis[x]);
        sum += static_cast<std::uint32_t>(e * e);
    }
    return sum;
}

// Sum of squared differences of one row of 9..16-bit samples.
//
// The sum is exact, so any grouping gives Netflix's result. Squares of
// differences up to 12 bits (< 2^24) are summed 256 at a time in 32 bits
// (256 * 4095^2 < 2^32), which vectorises far better than a 64-bit
// accumulator; 16-bit differences need 64 bits throughout.
TV_HD std::uint64_t row_sse(const std::uint16_t* ref, const std::uint16_t* dis, unsigned width,
                            unsigned bitdepth)
{
    std::uint64_t sum = 0;
    if (bitdepth <= 12) {
        for (unsigned start = 0; start < width; start += 256) {
            const unsigned end = width - start < 256 ? width : start + 256;
            std::uint32_t chunk = 0;
            for (unsigned x = start; x < end; ++x) {
                const int e = static_cast<int>(ref[x]) - static_cast<int>(dis[x]);
                chunk += static_cast<std::uint32_t>(e * e);
            }
            sum += chunk;
        }
        return sum;
    }
    for (unsigned x = 0; x < width; ++x) {
        const int d = static_cast<int>(ref[x]) - static_cast<int>(dis[x]);
        const std::uint32_t e = static_cast<std::uint32_t>(d < 0 ? -d : d);
        sum += std::uint64_t{e} * e;
    }
    return sum;
}

}  // namespace twinvmaf::psnr
