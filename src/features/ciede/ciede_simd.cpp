// Highway SIMD of ciede's batch kernels (ciede_kernels.h), compiled once per
// instruction set, in double lanes: one lane is one sample triple (or one
// pow call). lab_from_yuv() is ciede_math.h's arithmetic lane by lane, in
// its order and precision (double, with the float narrowings as DemoteTo /
// PromoteTo), its two branches (linear_from_gamma, lab_f) as selects on the
// same comparisons. Its six pow() calls are the fast phase of
// core/cr_libm.h's pow_impl (pow_fast_dd + exp2_fast: IEEE basic operations
// and table reads, here Mul/Add/Sub and gathers, never a fused multiply-add
// except the exact product error below) and the same rounding test
// (dd::rounding_is_ambiguous). A lane whose test fails, or whose argument is
// outside the fast phase's reach (x == 1, subnormal, |h| > 950; never for
// ciede's samples except x == 1), takes the scalar lab_from_yuv() for its
// whole triple: where the scalar pow returns its fast result the lane has
// computed exactly those bits, and everywhere else the scalar code runs. So
// every Lab is the reference's, bit for bit.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ciede/ciede_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "features/ciede/ciede_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::ciede::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<double>;
using VF = hn::Vec<DF>;
using MF = hn::Mask<DF>;
using DI = hn::RebindToSigned<DF>;
using VI = hn::Vec<DI>;
using DU = hn::RebindToUnsigned<DF>;
using VU = hn::Vec<DU>;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);

// A double-double per lane, and core/double_double.h's operations on it
// (the same operations in the same order).
struct VDD {
    VF hi, lo;
};

HWY_INLINE VDD two_sum(VF a, VF b)
{
    const VF s = hn::Add(a, b);
    const VF bb = hn::Sub(s, a);
    return {s, hn::Add(hn::Sub(a, hn::Sub(s, bb)), hn::Sub(b, bb))};
}

HWY_INLINE VDD fast_two_sum(VF a, VF b)
{
    const VF s = hn::Add(a, b);
    return {s, hn::Sub(b, hn::Sub(s, a))};
}

// a * b exactly. The error of a rounded product is exactly representable
// (absent underflow, which two_prod's precondition excludes), so both a
// fused a * b - p and Dekker's split give that one number: the same bits.
// The fused form only where Highway's MulSub is a real fused operation.
HWY_INLINE VDD two_prod(VF a, VF b)
{
    const VF p = hn::Mul(a, b);
#if HWY_NATIVE_FMA
    return {p, hn::MulSub(a, b, p)};
#else
    const DF d;
    const VF splitter = hn::Set(d, 134217729.0);
    const VF ca = hn::Mul(splitter, a), cb = hn::Mul(splitter, b);
    const VF ah = hn::Sub(ca, hn::Sub(ca, a)), bh = hn::Sub(cb, hn::Sub(cb, b));
    const VF al = hn::Sub(a, ah), bl = hn::Sub(b, bh);
    return {p, hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(ah, bh), p), hn::Mul(ah, bl)), hn::Mul(al, bh)),
                       hn::Mul(al, bl))};
#endif
}

HWY_INLINE VDD add(VDD x, VDD y)
{
    VDD s = two_sum(x.hi, y.hi);
    const VDD t = two_sum(x.lo, y.lo);
    s = fast_two_sum(s.hi, hn::Add(s.lo, t.hi));
    return fast_two_sum(s.hi, hn::Add(s.lo, t.lo));
}

HWY_INLINE VDD mul(VDD x, VDD y)
{
    const VDD p = two_prod(x.hi, y.hi);
    return fast_two_sum(p.hi, hn::Add(p.lo, hn::Add(hn::Mul(x.hi, y.lo), hn::Mul(x.lo, y.hi))));
}

HWY_INLINE VDD mul_d(VDD x, VF y)
{
    const VDD p = two_prod(x.hi, y);
    return fast_two_sum(p.hi, hn::Add(p.lo, hn::Mul(x.lo, y)));
}

HWY_INLINE VDD gather_dd(const double* table, VI index)
{
    const DF d;
    const VI at = hn::ShiftLeft<1>(index);
    return {hn::GatherIndex(d, table, at), hn::GatherIndex(d, table + 1, at)};
}

// dd::rounding_is_ambiguous, lane-wise (hi normal or 0).
HWY_INLINE MF rounding_is_ambiguous(VDD r, VF rel_bound)
{
    const DF d;
    const DU du;
    const VU u = hn::And(hn::BitCast(du, r.hi), hn::Set(du, 0x7fffffffffffffffULL));
    const VF magnitude = hn::BitCast(d, u);
    const VF ulp = hn::Sub(hn::BitCast(d, hn::Add(u, hn::Set(du, 1))), magnitude);
    const VF half = hn::Mul(hn::Set(d, 0.5), ulp);
    const VF quarter = hn::Mul(hn::Set(d, 0.25), ulp);
    // |lo| as `lo < 0 ? -lo : lo`: only -0 differs from Abs, and both give
    // the same gaps below (half - (-0) == half - 0).
    const VF lo = hn::Abs(r.lo);
    const VF err = hn::Mul(rel_bound, magnitude);
    const VF gap = hn::IfThenElse(hn::Gt(lo, half), hn::Sub(lo, half), hn::Sub(half, lo));
    const VF gap_below = hn::IfThenElse(hn::Gt(lo, quarter), hn::Sub(lo, quarter), hn::Sub(quarter, lo));
    const MF ambiguous = hn::Or(hn::Le(gap, err), hn::Le(gap_below, err));
    return hn::AndNot(hn::Eq(r.hi, hn::Zero(d)), ambiguous);
}

// pow_impl's fast phase: x^y where `ok` comes back set, i.e. where the
// scalar pow_impl returns pow_fast_dd's hi (its rounding test passed) and
// this lane computed the same hi; elsewhere the caller takes the scalar pow.
HWY_NOINLINE VF pow_fast(VF x, VF y, const PowTables& tables, MF& ok)
{
    namespace detail = tv::cr_libm_detail;
    const DF d;
    const DI di;
    const DU du;
    const VU u = hn::BitCast(du, x);
    const VI biased = hn::BitCast(di, hn::ShiftRight<52>(u));  // x > 0: no sign bit
    // pow_impl's special cases and pow_fast_dd's subnormal scaling go to the
    // scalar code: y = 0 or not finite, x = 1, x not positive and finite,
    // x subnormal.
    const VF inf = hn::Set(d, detail::infinity());
    MF usable = hn::And(hn::Gt(x, hn::Zero(d)), hn::Lt(x, inf));
    usable = hn::And(usable, hn::Ne(x, hn::Set(d, 1.0)));
    usable = hn::And(usable, hn::And(hn::Ne(y, hn::Zero(d)), hn::Lt(hn::Abs(y), inf)));
    usable = hn::And(usable, hn::RebindMask(d, hn::Ne(biased, hn::Zero(di))));
    // Other lanes compute on 1.5 (their result is not used).
    x = hn::IfThenElse(usable, x, hn::Set(d, 1.5));
    const VU ux = hn::BitCast(du, x);
    const VI e = hn::Sub(hn::BitCast(di, hn::ShiftRight<52>(ux)), hn::Set(di, 1023));
    const VF m = hn::BitCast(
        d, hn::Or(hn::And(ux, hn::Set(du, 0x000fffffffffffffULL)), hn::Set(du, 0x3ff0000000000000ULL)));
    const VI i = hn::And(hn::BitCast(di, hn::ShiftRight<45>(ux)), hn::Set(di, 127));
    const VDD p = two_prod(m, hn::GatherIndex(d, tables.inv_centre, i));
    const VDD r = two_sum(hn::Sub(p.hi, hn::Set(d, 1.0)), p.lo);
    const VF rh = r.hi;
    VF poly = hn::Add(hn::Set(d, 1.0 / 7), hn::Mul(rh, hn::Set(d, -0.125)));
    poly = hn::Add(hn::Set(d, -1.0 / 6), hn::Mul(rh, poly));
    poly = hn::Add(hn::Set(d, 0.2), hn::Mul(rh, poly));
    poly = hn::Add(hn::Set(d, -0.25), hn::Mul(rh, poly));
    poly = hn::Add(hn::Set(d, 1.0 / 3), hn::Mul(rh, poly));
    poly = hn::Add(hn::Set(d, -0.5), hn::Mul(rh, poly));
    const VF b = hn::Add(r.lo, hn::Mul(hn::Mul(rh, rh), poly));
    const VF inv_ln2_hi = hn::Set(d, tv::cr_log2_detail::kInvLn2Hi);
    VDD t = two_prod(rh, inv_ln2_hi);
    t.lo = hn::Add(t.lo, hn::Add(hn::Mul(rh, hn::Set(d, tv::cr_log2_detail::kInvLn2Lo)), hn::Mul(b, inv_ln2_hi)));
    const VDD c = gather_dd(tables.log2_of_centre, i);
    const VDD head = two_sum(hn::ConvertTo(d, e), c.hi);
    const VDD l = add(VDD{head.hi, hn::Add(head.lo, c.lo)}, t);
    VDD h = mul_d(l, y);
    const VF h_abs = hn::Abs(h.hi);
    usable = hn::And(usable, hn::Le(h_abs, hn::Set(d, 950.0)));
    h.hi = hn::IfThenElseZero(usable, h.hi);  // keeps the conversions below in range
    h.lo = hn::IfThenElseZero(usable, h.lo);

    // exp2_fast(h).
    const VF scaled = hn::Mul(h.hi, hn::Set(d, 128.0));
    const VF half = hn::IfThenElse(hn::Ge(scaled, hn::Zero(d)), hn::Set(d, 0.5), hn::Set(d, -0.5));
    const VI big_n = hn::ConvertTo(di, hn::Add(scaled, half));  // truncates, as the scalar cast
    const VF g = hn::Sub(h.hi, hn::Mul(hn::ConvertTo(d, big_n), hn::Set(d, 0x1p-7)));
    const VI j = hn::And(big_n, hn::Set(di, 127));
    const VI n = hn::ShiftRight<7>(hn::Sub(big_n, j));  // exact: a multiple of 128
    const VF ln2_hi = hn::Set(d, detail::ln2().hi);
    VDD v = two_prod(g, ln2_hi);
    v.lo = hn::Add(v.lo, hn::Add(hn::Mul(g, hn::Set(d, detail::ln2().lo)), hn::Mul(h.lo, ln2_hi)));
    const VF vh = v.hi;
    VF q = hn::Add(hn::Set(d, 1.0 / 720), hn::Mul(vh, hn::Set(d, 1.0 / 5040)));
    q = hn::Add(hn::Set(d, 1.0 / 120), hn::Mul(vh, q));
    q = hn::Add(hn::Set(d, 1.0 / 24), hn::Mul(vh, q));
    q = hn::Add(hn::Set(d, 1.0 / 6), hn::Mul(vh, q));
    q = hn::Add(hn::Set(d, 0.5), hn::Mul(vh, q));
    VDD ex = fast_two_sum(hn::Set(d, 1.0), vh);
    const VF cross = hn::Mul(v.lo, hn::Mul(vh, hn::Add(hn::Set(d, 1.0), hn::Mul(hn::Set(d, 0.5), vh))));
    ex.lo = hn::Add(ex.lo, hn::Add(hn::Add(v.lo, hn::Mul(hn::Mul(vh, vh), q)), cross));
    const VDD rr = mul(gather_dd(tables.exp2_fine_point, j), ex);
    // 2^n, n >= -1022 (|h| <= 950): the biased exponent alone.
    const VF scale = hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(n, hn::Set(di, 1023))));
    const VDD fast{hn::Mul(rr.hi, scale), hn::Mul(rr.lo, scale)};

    const VF bound = hn::Add(hn::Mul(hn::Set(d, detail::kPowFastBound), hn::Add(hn::Set(d, 1.0), hn::Abs(y))),
                             hn::Mul(hn::Set(d, 0x1p-98), h_abs));
    ok = hn::AndNot(rounding_is_ambiguous(fast, bound), usable);
    return fast.hi;
}

void pow_batch(const double* x, const double* y, std::size_t n, double* out)
{
    const DF d;
    const std::size_t lanes = hn::Lanes(d);
    const PowTables& tables = pow_tables();
    HWY_ALIGN double fallback[kMaxLanes];
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        MF ok;
        const VF result = pow_fast(hn::LoadU(d, x + i), hn::LoadU(d, y + i), tables, ok);
        hn::StoreU(result, d, out + i);
        if (hn::AllTrue(d, ok)) continue;
        hn::Store(hn::IfThenZeroElse(ok, hn::Set(d, 1.0)), d, fallback);
        for (std::size_t k = 0; k < lanes; ++k)
            if (fallback[k] != 0.0) out[i + k] = libm::pow(x[i + k], y[i + k]);
    }
    for (; i < n; ++i) out[i] = libm::pow(x[i], y[i]);
}

// linear_from_gamma lane-wise; `bad` gains the lanes that need the scalar code.
HWY_INLINE VF linear_from_gamma(VF c, const PowTables& tables, MF& bad)
{
    const DF d;
    const MF curved = hn::Gt(c, hn::Set(d, 10. / 255.));
    MF ok;
    const VF base = hn::Mul(hn::Add(c, hn::Set(d, 0.055)), hn::Set(d, 1.0 / 1.055));
    const VF power = pow_fast(base, hn::Set(d, 2.4), tables, ok);
    bad = hn::Or(bad, hn::AndNot(ok, curved));
    return hn::IfThenElse(curved, power, hn::Mul(c, hn::Set(d, 1.0 / 12.92)));
}

HWY_INLINE VF to_float_and_back(VF v)
{
    const DF d;
    const hn::Rebind<float, DF> df32;
    return hn::PromoteTo(d, hn::DemoteTo(df32, v));
}

// lab_f lane-wise, as the double of its float result.
HWY_INLINE VF lab_f(VF t, const PowTables& tables, MF& bad)
{
    const DF d;
    const MF curved = hn::Gt(t, hn::Set(d, 216.0 / 24389.0));
    MF ok;
    const VF power = pow_fast(t, hn::Set(d, 1.0 / 3.0), tables, ok);
    bad = hn::Or(bad, hn::AndNot(ok, curved));
    const VF linear =
        hn::Mul(hn::Add(hn::Mul(hn::Set(d, 24389.0 / 27.0), t), hn::Set(d, 16.0)), hn::Set(d, 1.0 / 116.0));
    return to_float_and_back(hn::IfThenElse(curved, power, linear));
}

void lab_batch(const double* ys, const double* us, const double* vs, std::size_t count, unsigned bitdepth, Lab* out)
{
    const DF d;
    const std::size_t lanes = hn::Lanes(d);
    const PowTables& tables = pow_tables();
    const double scale = static_cast<double>(1 << (bitdepth - 8));
    const VF y_offset = hn::Set(d, 16. * scale), y_factor = hn::Set(d, 1. / (219. * scale));
    const VF c_offset = hn::Set(d, 128. * scale), c_factor = hn::Set(d, 1. / (224. * scale));
    HWY_ALIGN double in[3][kMaxLanes];
    HWY_ALIGN double lab[4][kMaxLanes];  // L, a, b, needs the scalar code
    for (std::size_t i = 0; i < count; i += lanes) {
        const std::size_t here = count - i < lanes ? count - i : lanes;
        // The last, partial vector repeats the batch's first triple in its
        // spare lanes (their results are dropped).
        for (std::size_t k = 0; k < lanes; ++k) {
            const std::size_t at = k < here ? i + k : 0;
            in[0][k] = ys[at];
            in[1][k] = us[at];
            in[2][k] = vs[at];
        }
        const VF y = hn::Mul(hn::Sub(hn::Load(d, in[0]), y_offset), y_factor);
        const VF u = hn::Mul(hn::Sub(hn::Load(d, in[1]), c_offset), c_factor);
        const VF v = hn::Mul(hn::Sub(hn::Load(d, in[2]), c_offset), c_factor);
        MF bad = hn::FirstN(d, 0);
        const VF r = linear_from_gamma(hn::Add(y, hn::Mul(hn::Set(d, 1.28033), v)), tables, bad);
        const VF g = linear_from_gamma(
            hn::Sub(hn::Sub(y, hn::Mul(hn::Set(d, 0.21482), u)), hn::Mul(hn::Set(d, 0.38059), v)), tables, bad);
        const VF b = linear_from_gamma(hn::Add(y, hn::Mul(hn::Set(d, 2.12798), u)), tables, bad);
        const auto mix = [&](double kr, double kg, double kb) {
            return hn::Add(hn::Add(hn::Mul(r, hn::Set(d, kr)), hn::Mul(g, hn::Set(d, kg))), hn::Mul(b, hn::Set(d, kb)));
        };
        const VF x = mix(0.4124564390896921, 0.357576077643909, 0.18043748326639894);
        const VF lum = mix(0.21267285140562248, 0.715152155287818, 0.07217499330655958);
        const VF z = mix(0.019333895582329317, 0.119192025881303, 0.9503040785363677);
        const VF fx = lab_f(hn::Mul(x, hn::Set(d, 1.0 / 0.95047)), tables, bad);
        const VF fy = lab_f(lum, tables, bad);
        const VF fz = lab_f(hn::Mul(z, hn::Set(d, 1.0 / 1.08883)), tables, bad);
        // The float results, held as doubles (exact).
        hn::Store(to_float_and_back(hn::Sub(hn::Mul(hn::Set(d, 116.0), fy), hn::Set(d, 16.0))), d, lab[0]);
        hn::Store(to_float_and_back(hn::Mul(hn::Set(d, 500.0), hn::Sub(fx, fy))), d, lab[1]);
        hn::Store(to_float_and_back(hn::Mul(hn::Set(d, 200.0), hn::Sub(fy, fz))), d, lab[2]);
        hn::Store(hn::IfThenElseZero(bad, hn::Set(d, 1.0)), d, lab[3]);
        for (std::size_t k = 0; k < here; ++k) {
            out[i + k] = lab[3][k] != 0.0 ? lab_from_yuv(in[0][k], in[1][k], in[2][k], bitdepth)
                                          : Lab{static_cast<float>(lab[0][k]), static_cast<float>(lab[1][k]),
                                                static_cast<float>(lab[2][k])};
        }
    }
}

}  // namespace

Kernels simd_kernels_here() { return {lab_batch, pow_batch}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::ciede::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::ciede {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::ciede
#endif
