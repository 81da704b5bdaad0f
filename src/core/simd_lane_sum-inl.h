// The sum of a vector's unsigned lanes modulo 2^bits, for the Highway SIMD
// files (included after hwy/highway.h, once per target: Highway's -inl.h
// idiom). Not hn::SumOfLanes: on AVX-512 that is gcc's _mm512_reduce_add_epi32
// / _epi64, which add as signed integers, undefined behaviour (UBSan reports
// it) once a sum passes the signed maximum, where the reference's unsigned
// sum simply wraps. Integer sums: the order does not matter.
#if defined(TWINVMAF_CORE_SIMD_LANE_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TWINVMAF_CORE_SIMD_LANE_SUM_INL_H_
#undef TWINVMAF_CORE_SIMD_LANE_SUM_INL_H_
#else
#define TWINVMAF_CORE_SIMD_LANE_SUM_INL_H_
#endif

#include <cstddef>
#include <type_traits>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::simd::HWY_NAMESPACE {

template <class D>
HWY_INLINE hwy::HWY_NAMESPACE::TFromD<D> wrapping_lane_sum(D d, hwy::HWY_NAMESPACE::Vec<D> v)
{
    using T = hwy::HWY_NAMESPACE::TFromD<D>;
    static_assert(std::is_unsigned_v<T>, "a wrapping sum needs unsigned lanes");
    HWY_ALIGN T lanes[HWY_MAX_BYTES / sizeof(T)];
    hwy::HWY_NAMESPACE::Store(v, d, lanes);
    T sum = 0;
    for (std::size_t i = 0; i < hwy::HWY_NAMESPACE::Lanes(d); ++i) sum += lanes[i];
    return sum;
}

}  // namespace twinvmaf::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
