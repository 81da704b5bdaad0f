// Highway SIMD of motion's row kernels (motion_kernels.h), compiled once per
// instruction set. The blurs are motion_math.h's, in 32-bit lanes: the
// vertical sum of 8..15-bit samples fits int32 (as in the reference), and the
// horizontal pass splits each tap product in 16-bit halves as the reference
// does. The SAD of a row is a sum of 32-bit lanes, which wraps as the
// reference's uint32 row sum does, in any order. 16-bit samples, and the
// columns after the last whole vector, run the reference arithmetic.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/motion/motion_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "features/motion/motion_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::motion::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using D32 = hn::ScalableTag<std::int32_t>;
using V32 = hn::Vec<D32>;

template <class Sample>
HWY_INLINE V32 load_samples(const Sample* p)
{
    const D32 d32;
    const hn::Rebind<Sample, D32> ds;
    return hn::PromoteTo(d32, hn::LoadU(ds, p));
}

template <class Sample>
bool vertical_blur_simd(const Sample* const earlier[5], const Sample* const current[5], unsigned width,
                        unsigned bitdepth, std::int32_t* padded)
{
    const D32 d32;
    const std::size_t lanes = hn::Lanes(d32);
    std::int32_t* out = padded + kRadius;
    V32 any = hn::Zero(d32);
    const V32 round = hn::Set(d32, std::int32_t{1} << (bitdepth - 1));
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        // Five named vectors, not an array: SVE's sizeless vectors cannot be
        // array elements.
        const auto diff = [&](int k) { return hn::Sub(load_samples(earlier[k] + x), load_samples(current[k] + x)); };
        const V32 d0 = diff(0), d1 = diff(1), d2 = diff(2), d3 = diff(3), d4 = diff(4);
        const V32 sum = hn::Add(hn::Add(hn::Mul(hn::Set(d32, kTapOuter), hn::Add(d0, d4)),
                                        hn::Mul(hn::Set(d32, kTapInner), hn::Add(d1, d3))),
                                hn::Mul(hn::Set(d32, kTapCenter), d2));
        const V32 value = hn::ShiftRightSame(hn::Add(sum, round), static_cast<int>(bitdepth));
        hn::StoreU(value, d32, out + x);
        any = hn::Or(any, value);
    }
    std::int32_t rest = 0;
    for (; x < width; ++x) {
        const auto diff = [&](int k) { return sample_difference<std::int32_t>(earlier[k][x], current[k][x]); };
        out[x] = vertical_blur<std::int32_t>(diff(0), diff(1), diff(2), diff(3), diff(4), bitdepth);
        rest |= out[x];
    }
    return rest != 0 || !hn::AllTrue(d32, hn::Eq(any, hn::Zero(d32)));
}

bool vertical_blur_8bit(const std::uint8_t* const earlier[5], const std::uint8_t* const current[5], unsigned width,
                        unsigned bitdepth, std::int32_t* padded)
{
    return vertical_blur_simd(earlier, current, width, bitdepth, padded);
}

bool vertical_blur_16bit(const std::uint16_t* const earlier[5], const std::uint16_t* const current[5],
                         unsigned width, unsigned bitdepth, std::int32_t* padded)
{
    if (bitdepth >= 16) return reference_kernels().vertical_blur_16bit(earlier, current, width, bitdepth, padded);
    return vertical_blur_simd(earlier, current, width, bitdepth, padded);
}

RowSad row_sad_simd(const std::int32_t* padded, unsigned width)
{
    const D32 d32;
    const hn::RebindToUnsigned<D32> du32;
    const std::size_t lanes = hn::Lanes(d32);
    const V32 low_mask = hn::Set(d32, 0xffff);
    auto sad = hn::Zero(du32);
    unsigned x = 0;
    for (; x + lanes <= width; x += static_cast<unsigned>(lanes)) {
        const std::int32_t* row = padded + x;
        const V32 outer = hn::Mul(hn::Set(d32, kTapOuter), hn::Add(hn::LoadU(d32, row), hn::LoadU(d32, row + 4)));
        const V32 inner = hn::Mul(hn::Set(d32, kTapInner), hn::Add(hn::LoadU(d32, row + 1), hn::LoadU(d32, row + 3)));
        const V32 center = hn::Mul(hn::Set(d32, kTapCenter), hn::LoadU(d32, row + 2));
        const V32 high =
            hn::Add(hn::Add(hn::ShiftRight<16>(outer), hn::ShiftRight<16>(inner)), hn::ShiftRight<16>(center));
        const V32 low = hn::Add(hn::Add(hn::And(outer, low_mask), hn::And(inner, low_mask)), hn::And(center, low_mask));
        const V32 value = hn::Add(high, hn::ShiftRight<16>(hn::Add(low, hn::Set(d32, 1 << 15))));
        sad = hn::Add(sad, hn::BitCast(du32, hn::Abs(value)));
    }
    RowSad total = hn::GetLane(hn::SumOfLanes(du32, sad));
    for (; x < width; ++x) total += absolute_value(horizontal_blur(padded + x));
    return total;
}

}  // namespace

Kernels simd_kernels_here() { return {vertical_blur_8bit, vertical_blur_16bit, row_sad_simd}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::motion::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::motion {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::motion
#endif
