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

// Squared difference of two samples of up to 15 bits (e^2 < 2^31).
TV_HD std::uint32_t squared_error(int ref, int dis)
{
    const int e = ref - dis;
    return static_cast<std::uint32_t>(e * e);
}

// The same for any sample up to 16 bits: in unsigned (modulo 2^32)
// arithmetic (-e)^2 == e^2, and e^2 < 2^32, so this is the exact square
// without a branch or a signed overflow.
TV_HD std::uint32_t squared_error_16bit(unsigned ref, unsigned dis)
{
    const std::uint32_t e = ref - dis;
    return e * e;
}

// Sum of squared differences of one row of 8-bit samples.
TV_HD std::uint32_t row_sse(const std::uint8_t* ref, const std::uint8_t* dis, unsigned width)
{
    std::uint32_t sum = 0;
    for (unsigned x = 0; x < width; ++x) sum += squared_error(ref[x], dis[x]);
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
            for (unsigned x = start; x < end; ++x) chunk += squared_error(ref[x], dis[x]);
            sum += chunk;
        }
        return sum;
    }
    for (unsigned x = 0; x < width; ++x) sum += squared_error_16bit(ref[x], dis[x]);
    return sum;
}

}  // namespace twinvmaf::psnr
