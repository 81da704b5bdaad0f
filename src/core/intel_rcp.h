// Intel's RCPSS / RCPPS (SSE's approximate reciprocal), bit for bit, for host
// and device code.
//
// Netflix's float ADM divides with `n * rcp_s(d)` (adm_tools.c, built with
// ADM_OPT_RECIP_DIVISION on SSE2): an RCPSS estimate refined by one Newton
// step. The instruction's result is not specified beyond "relative error
// <= 1.5 * 2^-12", and vendors differ: AMD Zen returns other bits than Intel
// for about half of all inputs. Netflix's goldens were made on an Intel Xeon,
// so twinvmaf reproduces Intel's instruction in integer arithmetic on every
// machine (and on GPUs, which have no such instruction).
//
// Intel's result, measured on an Intel Xeon (AVX-512, the device machine) for
// all 2^32 inputs and matched by this function with no exception:
//   x = (-1)^s * 1.f * 2^(e-127), e in 1..254, i = the top 11 bits of f:
//     result = (-1)^s * M * 2^(-13 - (e-127)), M = round(2^25 / (4097 + 2i)),
//     i.e. 1 / (1 + (i + 1/2) / 2048) rounded to 12 fraction bits (M is 4097
//     .. 8190; there are no ties, the divisor is odd); results whose exponent
//     field would be 0 or less (e >= 253) are flushed to a signed zero;
//   zeros and subnormals (treated as zero) give a signed infinity,
//   infinities a signed zero, NaNs the same NaN made quiet.
// The same measurement on an AMD EPYC (this project's build machine) gives a
// function of the top 12 fraction bits that differs from Intel's on 4331520
// of the 2^23 fractions (52 %).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/host_device.h"

namespace twinvmaf {

// The 12 fraction bits of Intel's reciprocal of 1 + (index + 1/2) / 2048,
// index = the top 11 fraction bits of the input.
TV_HD constexpr std::uint32_t intel_rcp_fraction(std::uint32_t index)
{
    const std::uint32_t divisor = 4097 + 2 * index;
    return ((std::uint32_t{1} << 26) + divisor) / (2 * divisor) - 4096;  // round(2^25 / divisor) - 2^12
}

TV_HD float intel_rcpss(float x)
{
    const std::uint32_t bits = tv::bit_cast<std::uint32_t>(x);
    const std::uint32_t sign = bits & 0x80000000u;
    const std::uint32_t exponent = (bits >> 23) & 0xffu;
    const std::uint32_t fraction = bits & 0x7fffffu;
    std::uint32_t out;
    if (exponent == 0) {
        out = sign | 0x7f800000u;  // 0 and subnormals: infinity
    } else if (exponent == 0xffu) {
        out = fraction ? (bits | 0x400000u) : sign;  // NaN: quiet NaN; infinity: 0
    } else if (exponent >= 253) {
        out = sign;  // the result would be subnormal: flushed
    } else {
        out = sign | ((253 - exponent) << 23) | (intel_rcp_fraction(fraction >> 12) << 11);
    }
    return tv::bit_cast<float>(out);
}

}  // namespace twinvmaf
