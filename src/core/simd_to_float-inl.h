// Doubles rounded to float as static_cast<float> does (to nearest; infinite
// or NaN where the double is, or overflows), for the Highway SIMD files
// (included after hwy/highway.h, once per target: Highway's -inl.h idiom).
// hn::DemoteTo is that only inside float's range: Highway may clamp the rest
// to +-FLT_MAX (the GCC 13 build on a Xeon turned inf into FLT_MAX and a NaN
// into -FLT_MAX), so a vector with any lane outside it goes lane by lane.
#if defined(TWINVMAF_CORE_SIMD_TO_FLOAT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TWINVMAF_CORE_SIMD_TO_FLOAT_INL_H_
#undef TWINVMAF_CORE_SIMD_TO_FLOAT_INL_H_
#else
#define TWINVMAF_CORE_SIMD_TO_FLOAT_INL_H_
#endif

#include <cstddef>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::simd::HWY_NAMESPACE {

// `df` has as many float lanes as `v` has doubles (hn::Rebind<float, D>).
template <class DF, class V>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DF> to_float(DF df, V v)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const hn::DFromV<V> d;
    if (HWY_LIKELY(hn::AllTrue(d, hn::Le(hn::Abs(v), hn::Set(d, 3.4028234663852886e38))))) return hn::DemoteTo(df, v);
    HWY_ALIGN double wide[hn::MaxLanes(d)];
    HWY_ALIGN float narrow[hn::MaxLanes(d)];
    hn::Store(v, d, wide);
    for (std::size_t k = 0; k < hn::Lanes(d); ++k) narrow[k] = static_cast<float>(wide[k]);
    return hn::Load(df, narrow);
}

}  // namespace twinvmaf::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
