// The vector tags and types the Highway SIMD files share, for the full
// vectors of the target being compiled (included after hwy/highway.h, once
// per target: Highway's -inl.h idiom, as core/simd_lane_sum-inl.h). A file
// takes them with `using namespace twinvmaf::simd::HWY_NAMESPACE;` inside its
// per-target namespace; partial vectors (hn::Rebind) stay with the file that
// needs them.
#if defined(TWINVMAF_CORE_SIMD_TYPES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TWINVMAF_CORE_SIMD_TYPES_INL_H_
#undef TWINVMAF_CORE_SIMD_TYPES_INL_H_
#else
#define TWINVMAF_CORE_SIMD_TYPES_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::simd::HWY_NAMESPACE {

using D16 = hwy::HWY_NAMESPACE::ScalableTag<std::int16_t>;
using DU16 = hwy::HWY_NAMESPACE::ScalableTag<std::uint16_t>;
using D32 = hwy::HWY_NAMESPACE::ScalableTag<std::int32_t>;
using DU32 = hwy::HWY_NAMESPACE::ScalableTag<std::uint32_t>;
using D64 = hwy::HWY_NAMESPACE::ScalableTag<std::int64_t>;
using DU64 = hwy::HWY_NAMESPACE::ScalableTag<std::uint64_t>;
using DF64 = hwy::HWY_NAMESPACE::ScalableTag<double>;
using V16 = hwy::HWY_NAMESPACE::Vec<D16>;
using VU16 = hwy::HWY_NAMESPACE::Vec<DU16>;
using V32 = hwy::HWY_NAMESPACE::Vec<D32>;
using VU32 = hwy::HWY_NAMESPACE::Vec<DU32>;
using V64 = hwy::HWY_NAMESPACE::Vec<D64>;
using VU64 = hwy::HWY_NAMESPACE::Vec<DU64>;
using VF64 = hwy::HWY_NAMESPACE::Vec<DF64>;

}  // namespace twinvmaf::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
