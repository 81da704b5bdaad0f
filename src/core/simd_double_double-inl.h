// core/double_double.h's operations lane-wise on full vectors of doubles,
// for the Highway files that evaluate the correctly rounded libm functions
// (SpEED's log2, ciede's pow/atan2/sin/cos/exp): the same IEEE operations in
// the same order, so each lane gives the scalar function's bits. Included
// after hwy/highway.h, once per target (Highway's -inl.h idiom, as
// core/simd_types-inl.h); a file takes them with
// `using namespace twinvmaf::simd::HWY_NAMESPACE;` or by name.
#if defined(TWINVMAF_CORE_SIMD_DOUBLE_DOUBLE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TWINVMAF_CORE_SIMD_DOUBLE_DOUBLE_INL_H_
#undef TWINVMAF_CORE_SIMD_DOUBLE_DOUBLE_INL_H_
#else
#define TWINVMAF_CORE_SIMD_DOUBLE_DOUBLE_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::simd::HWY_NAMESPACE {

struct VDD {
    hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::ScalableTag<double>> hi, lo;
};

namespace dd_detail {
namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<double>;
using VF = hn::Vec<DF>;
}  // namespace dd_detail

HWY_INLINE VDD two_sum(dd_detail::VF a, dd_detail::VF b)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const auto s = hn::Add(a, b);
    const auto bb = hn::Sub(s, a);
    return {s, hn::Add(hn::Sub(a, hn::Sub(s, bb)), hn::Sub(b, bb))};
}

// |a| >= |b| (or a == 0).
HWY_INLINE VDD fast_two_sum(dd_detail::VF a, dd_detail::VF b)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const auto s = hn::Add(a, b);
    return {s, hn::Sub(b, hn::Sub(s, a))};
}

// a * b exactly (no underflow: |a b| >= 2^-969 or a b == 0). The error of a
// rounded product is then exactly representable, so a fused a * b - p and
// Dekker's split (Veltkamp halves, ((ah bh - p) + ah bl + al bh) + al bl)
// both give that one number: the same bits. The fused form only where
// Highway's MulSub is a real fused operation (HWY_NATIVE_FMA).
HWY_INLINE VDD two_prod(dd_detail::VF a, dd_detail::VF b)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const auto p = hn::Mul(a, b);
#if HWY_NATIVE_FMA
    return {p, hn::MulSub(a, b, p)};
#else
    const dd_detail::DF d;
    const auto splitter = hn::Set(d, 134217729.0);  // 2^27 + 1
    const auto ca = hn::Mul(splitter, a), cb = hn::Mul(splitter, b);
    const auto ah = hn::Sub(ca, hn::Sub(ca, a)), bh = hn::Sub(cb, hn::Sub(cb, b));
    const auto al = hn::Sub(a, ah), bl = hn::Sub(b, bh);
    return {p, hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(ah, bh), p), hn::Mul(ah, bl)), hn::Mul(al, bh)),
                       hn::Mul(al, bl))};
#endif
}

HWY_INLINE VDD dd_add(VDD x, VDD y)
{
    namespace hn = hwy::HWY_NAMESPACE;
    VDD s = two_sum(x.hi, y.hi);
    const VDD t = two_sum(x.lo, y.lo);
    s = fast_two_sum(s.hi, hn::Add(s.lo, t.hi));
    return fast_two_sum(s.hi, hn::Add(s.lo, t.lo));
}

HWY_INLINE VDD dd_mul(VDD x, VDD y)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const VDD p = two_prod(x.hi, y.hi);
    return fast_two_sum(p.hi, hn::Add(p.lo, hn::Add(hn::Mul(x.hi, y.lo), hn::Mul(x.lo, y.hi))));
}

HWY_INLINE VDD dd_mul_d(VDD x, dd_detail::VF y)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const VDD p = two_prod(x.hi, y);
    return fast_two_sum(p.hi, hn::Add(p.lo, hn::Mul(x.lo, y)));
}

// x / y with three quotient digits (long division).
HWY_INLINE VDD dd_div(VDD x, VDD y)
{
    namespace hn = hwy::HWY_NAMESPACE;
    const auto q1 = hn::Div(x.hi, y.hi);
    VDD r = dd_add(x, dd_mul_d(y, hn::Neg(q1)));
    const auto q2 = hn::Div(r.hi, y.hi);
    r = dd_add(r, dd_mul_d(y, hn::Neg(q2)));
    const auto q3 = hn::Div(r.hi, y.hi);
    const VDD q = fast_two_sum(q1, q2);
    return dd_add(q, VDD{q3, hn::Zero(dd_detail::DF())});
}

}  // namespace twinvmaf::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
