// Highway SIMD of psnr's row sums (psnr_kernels.h), compiled once per
// instruction set. Differences of samples up to 12 bits fit 16-bit lanes;
// their squares are summed by pairwise multiply-adds into 32-bit lanes. The
// sums are integers, so any grouping gives the reference's: the 8-bit row
// sum wraps modulo 2^32 as the reference's uint32 does, and the 9..12-bit
// lanes are added into 64 bits before they could wrap. 13..16-bit samples run
// the reference.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/psnr/psnr_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "core/simd_lane_sum-inl.h"
#include "core/simd_types-inl.h"
#include "features/psnr/psnr_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::psnr::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using namespace twinvmaf::simd::HWY_NAMESPACE;  // D16, V16, ... (core/simd_types-inl.h)

// Adds the squares of `difference`'s lanes to sum0/sum1 (pairwise).
HWY_INLINE void add_squares(V16 difference, V32& sum0, V32& sum1)
{
    const D32 d32;
    sum0 = hn::ReorderWidenMulAccumulate(d32, difference, difference, sum0, sum1);
}

std::uint32_t row_sse_8bit(const std::uint8_t* ref, const std::uint8_t* dis, unsigned width)
{
    const D16 d16;
    const D32 d32;
    const hn::Rebind<std::uint8_t, D16> du8;
    const hn::RebindToUnsigned<D16> du16;
    const std::size_t lanes = hn::Lanes(d16);
    V32 sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        const V16 r = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, ref + x)));
        const V16 d = hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(du8, dis + x)));
        add_squares(hn::Sub(r, d), sum0, sum1);
    }
    const DU32 du32;
    std::uint32_t sum = simd::HWY_NAMESPACE::wrapping_lane_sum(du32, hn::BitCast(du32, hn::RearrangeToOddPlusEven(sum0, sum1)));
    for (; x < width; ++x) sum += squared_error(ref[x], dis[x]);
    return sum;
}

std::uint64_t row_sse_16bit(const std::uint16_t* ref, const std::uint16_t* dis, unsigned width, unsigned bitdepth)
{
    if (bitdepth > 12) return reference_kernels().row_sse_16bit(ref, dis, width, bitdepth);
    const D16 d16;
    const D32 d32;
    const DU32 du32;
    const DU64 du64;
    const std::size_t lanes = hn::Lanes(d16);
    // A 32-bit lane gains at most 2 * 4095^2 < 2^25 a vector: 64 vectors
    // (< 2^31) before it is added into 64 bits.
    constexpr unsigned kVectorsPerFlush = 64;
    auto total = hn::Zero(du64);
    unsigned x = 0;
    while (x + lanes <= width) {
        V32 sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
        for (unsigned n = 0; n < kVectorsPerFlush && x + lanes <= width; ++n, x += static_cast<unsigned>(lanes)) {
            const V16 r = hn::BitCast(d16, hn::LoadU(hn::RebindToUnsigned<D16>(), ref + x));
            const V16 d = hn::BitCast(d16, hn::LoadU(hn::RebindToUnsigned<D16>(), dis + x));
            add_squares(hn::Sub(r, d), sum0, sum1);
        }
        const auto sums = hn::BitCast(du32, hn::RearrangeToOddPlusEven(sum0, sum1));
        // Even and odd 32-bit lanes widened to 64 bits.
        total = hn::Add(total, hn::Add(hn::And(hn::BitCast(du64, sums), hn::Set(du64, 0xffffffffu)),
                                       hn::ShiftRight<32>(hn::BitCast(du64, sums))));
    }
    std::uint64_t sum = simd::HWY_NAMESPACE::wrapping_lane_sum(du64, total);
    for (; x < width; ++x) sum += squared_error(ref[x], dis[x]);
    return sum;
}

}  // namespace

Kernels simd_kernels_here() { return {row_sse_8bit, row_sse_16bit}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::psnr::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::psnr {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::psnr
#endif
