// Highway SIMD of sample_bits_reference() (io/sample_range.h), compiled once
// per instruction set: the OR of every 16-bit sample, in four vectors at a
// time so that loads do not wait on one chain of ORs. An OR's order does not
// matter.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "io/sample_range_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "io/sample_range.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
SampleBitsFn sample_bits_here() { return sample_bits_reference; }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;

bool sample_bits(const std::uint8_t* bytes, std::size_t size, std::uint16_t mask)
{
    const hn::ScalableTag<std::uint8_t> d8;
    const std::size_t n = hn::Lanes(d8);
    auto a = hn::Zero(d8), b = a, c = a, e = a;
    std::size_t i = 0;
    for (; i + 4 * n <= size; i += 4 * n) {
        a = hn::Or(a, hn::LoadU(d8, bytes + i));
        b = hn::Or(b, hn::LoadU(d8, bytes + i + n));
        c = hn::Or(c, hn::LoadU(d8, bytes + i + 2 * n));
        e = hn::Or(e, hn::LoadU(d8, bytes + i + 3 * n));
    }
    for (; i + n <= size; i += n) a = hn::Or(a, hn::LoadU(d8, bytes + i));
    // Vectors start at even byte offsets: even lanes are low bytes of
    // samples, odd lanes high bytes.
    const hn::Repartition<std::uint16_t, decltype(d8)> d16;
    const auto all = hn::And(hn::BitCast(d16, hn::Or(hn::Or(a, b), hn::Or(c, e))), hn::Set(d16, mask));
    return !hn::AllTrue(d16, hn::Eq(all, hn::Zero(d16))) || sample_bits_reference(bytes + i, size - i, mask);
}

}  // namespace

SampleBitsFn sample_bits_here() { return sample_bits; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf {

HWY_EXPORT(sample_bits_here);

SampleBitsFn sample_bits_simd()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(sample_bits_here)();
}

}  // namespace twinvmaf
#endif
