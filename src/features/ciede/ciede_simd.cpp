// Highway SIMD of ciede's batch kernels (ciede_kernels.h), compiled once per
// instruction set, in double lanes: one lane is one sample triple
// (lab_batch), one Lab pair (delta_e_batch) or one pow call (pow_batch, for
// the tests). Each lane does ciede_math.h's arithmetic in its order and
// precision, its branches as selects on the same comparisons; float values
// are held in double lanes and each float operation is the double one
// rounded to float (DemoteTo / PromoteTo; exact for + - * / sqrt, see
// as_float()).
//
// The correctly rounded libm calls are the fast phases of core/cr_libm.h:
// pow_impl's (pow_fast_dd + exp2_fast), sin_cos_impl's (sin_cos_fast),
// atan2_impl's (its special cases and atan2_fast) and exp_impl's, with IEEE
// basic operations and gathered table entries in the scalar order (never a
// fused multiply-add except two_prod's exact error term,
// core/simd_double_double-inl.h), and the same rounding tests
// (dd::rounding_is_ambiguous). pow_7 and powf_7 (exact integer arithmetic in
// the scalar code) are c^4 c^3 as an exact-product double-double, with a
// rounding test of their own (to double, to float). A lane whose test fails,
// or whose argument is outside a fast phase's reach, gets that one call from
// the scalar function on the same argument (patched(): about 1 % of calls):
// where the scalar code returns its fast result the lane has computed
// exactly those bits, and everywhere else the scalar code runs. So every
// output is the reference's, bit for bit. Partial vectors at a batch's end compute on
// copies of its first element and drop those lanes.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ciede/ciede_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "core/simd_double_double-inl.h"
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

// core/double_double.h's operations lane-wise (the same operations in the
// same order).
using simd::HWY_NAMESPACE::fast_two_sum;
using simd::HWY_NAMESPACE::two_prod;
using simd::HWY_NAMESPACE::two_sum;
using simd::HWY_NAMESPACE::VDD;
HWY_INLINE VDD add(VDD x, VDD y) { return simd::HWY_NAMESPACE::dd_add(x, y); }
HWY_INLINE VDD mul(VDD x, VDD y) { return simd::HWY_NAMESPACE::dd_mul(x, y); }
HWY_INLINE VDD mul_d(VDD x, VF y) { return simd::HWY_NAMESPACE::dd_mul_d(x, y); }

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

// A lane whose fast phase is undecided (or outside its reach) is
// recomputed by the scalar function on the same arguments: the reference's
// own call, so its bits.
using ScalarFn = double (*)(double, double);
double pow_lane(double x, double y) { return libm::pow(x, y); }
double sin_lane(double x, double) { return libm::sin(x); }
double cos_lane(double x, double) { return libm::cos(x); }
double atan2_lane(double y, double x) { return libm::atan2(y, x); }
double exp_lane(double x, double) { return libm::exp(x); }
// c^7 of a float c (held as a double, exactly).
double pow_7_lane(double c, double) { return libm::pow_7(static_cast<float>(c)); }
double powf_7_lane(double c, double) { return libm::powf_7(static_cast<float>(c)); }

HWY_NOINLINE VF patch_lanes(MF undecided, VF value, VF a, VF b, ScalarFn scalar)
{
    const DF d;
    HWY_ALIGN double av[kMaxLanes], bv[kMaxLanes], out[kMaxLanes], marks[kMaxLanes];
    hn::Store(a, d, av);
    hn::Store(b, d, bv);
    hn::Store(value, d, out);
    hn::Store(hn::IfThenElseZero(undecided, hn::Set(d, 1.0)), d, marks);
    for (std::size_t k = 0; k < hn::Lanes(d); ++k)
        if (marks[k] != 0.0) out[k] = scalar(av[k], bv[k]);
    return hn::Load(d, out);
}

HWY_INLINE VF patched(MF undecided, VF value, VF a, VF b, ScalarFn scalar)
{
    if (hn::AllFalse(DF(), undecided)) return value;
    return patch_lanes(undecided, value, a, b, scalar);
}

// cr_libm.h's exp2_fast(h), |h.hi| <= 950.
HWY_INLINE VDD exp2_fast(VDD h, const LibmTables& tables)
{
    namespace detail = tv::cr_libm_detail;
    const DF d;
    const DI di;
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

    return fast;
}

// pow_impl's fast phase: x^y where `ok` comes back set, i.e. where the
// scalar pow_impl returns pow_fast_dd's hi (its rounding test passed) and
// this lane computed the same hi; elsewhere the caller takes the scalar pow.
HWY_NOINLINE VF pow_fast(VF x, VF y, const LibmTables& tables, MF& ok)
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

    const VDD fast = exp2_fast(h, tables);

    const VF bound = hn::Add(hn::Mul(hn::Set(d, detail::kPowFastBound), hn::Add(hn::Set(d, 1.0), hn::Abs(y))),
                             hn::Mul(hn::Set(d, 0x1p-98), h_abs));
    ok = hn::AndNot(rounding_is_ambiguous(fast, bound), usable);
    return fast.hi;
}

void pow_batch(const double* x, const double* y, std::size_t n, double* out)
{
    const DF d;
    const std::size_t lanes = hn::Lanes(d);
    const LibmTables& tables = libm_tables();
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

// linear_from_gamma lane-wise.
HWY_INLINE VF linear_from_gamma(VF c, const LibmTables& tables)
{
    const DF d;
    const MF curved = hn::Gt(c, hn::Set(d, 10. / 255.));
    MF ok;
    const VF base = hn::Mul(hn::Add(c, hn::Set(d, 0.055)), hn::Set(d, 1.0 / 1.055));
    const VF exponent = hn::Set(d, 2.4);
    const VF fast = pow_fast(base, exponent, tables, ok);
    const VF power = patched(hn::AndNot(ok, curved), fast, base, exponent, pow_lane);
    return hn::IfThenElse(curved, power, hn::Mul(c, hn::Set(d, 1.0 / 12.92)));
}

HWY_INLINE VF to_float_and_back(VF v)
{
    const DF d;
    const hn::Rebind<float, DF> df32;
    return hn::PromoteTo(d, hn::DemoteTo(df32, v));
}

// lab_f lane-wise, as the double of its float result.
HWY_INLINE VF lab_f(VF t, const LibmTables& tables)
{
    const DF d;
    const MF curved = hn::Gt(t, hn::Set(d, 216.0 / 24389.0));
    MF ok;
    const VF exponent = hn::Set(d, 1.0 / 3.0);
    const VF fast = pow_fast(t, exponent, tables, ok);
    const VF power = patched(hn::AndNot(ok, curved), fast, t, exponent, pow_lane);
    const VF linear =
        hn::Mul(hn::Add(hn::Mul(hn::Set(d, 24389.0 / 27.0), t), hn::Set(d, 16.0)), hn::Set(d, 1.0 / 116.0));
    return to_float_and_back(hn::IfThenElse(curved, power, linear));
}

void lab_batch(const double* ys, const double* us, const double* vs, std::size_t count, unsigned bitdepth, Lab* out)
{
    const DF d;
    const std::size_t lanes = hn::Lanes(d);
    const LibmTables& tables = libm_tables();
    const double scale = static_cast<double>(1 << (bitdepth - 8));
    const VF y_offset = hn::Set(d, 16. * scale), y_factor = hn::Set(d, 1. / (219. * scale));
    const VF c_offset = hn::Set(d, 128. * scale), c_factor = hn::Set(d, 1. / (224. * scale));
    HWY_ALIGN double in[3][kMaxLanes];
    HWY_ALIGN double lab[3][kMaxLanes];  // L, a, b
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
        const VF r = linear_from_gamma(hn::Add(y, hn::Mul(hn::Set(d, 1.28033), v)), tables);
        const VF g = linear_from_gamma(
            hn::Sub(hn::Sub(y, hn::Mul(hn::Set(d, 0.21482), u)), hn::Mul(hn::Set(d, 0.38059), v)), tables);
        const VF b = linear_from_gamma(hn::Add(y, hn::Mul(hn::Set(d, 2.12798), u)), tables);
        const auto mix = [&](double kr, double kg, double kb) {
            return hn::Add(hn::Add(hn::Mul(r, hn::Set(d, kr)), hn::Mul(g, hn::Set(d, kg))), hn::Mul(b, hn::Set(d, kb)));
        };
        const VF x = mix(0.4124564390896921, 0.357576077643909, 0.18043748326639894);
        const VF lum = mix(0.21267285140562248, 0.715152155287818, 0.07217499330655958);
        const VF z = mix(0.019333895582329317, 0.119192025881303, 0.9503040785363677);
        const VF fx = lab_f(hn::Mul(x, hn::Set(d, 1.0 / 0.95047)), tables);
        const VF fy = lab_f(lum, tables);
        const VF fz = lab_f(hn::Mul(z, hn::Set(d, 1.0 / 1.08883)), tables);
        // The float results, held as doubles (exact).
        hn::Store(to_float_and_back(hn::Sub(hn::Mul(hn::Set(d, 116.0), fy), hn::Set(d, 16.0))), d, lab[0]);
        hn::Store(to_float_and_back(hn::Mul(hn::Set(d, 500.0), hn::Sub(fx, fy))), d, lab[1]);
        hn::Store(to_float_and_back(hn::Mul(hn::Set(d, 200.0), hn::Sub(fy, fz))), d, lab[2]);
        for (std::size_t k = 0; k < here; ++k) {
            out[i + k] = Lab{static_cast<float>(lab[0][k]), static_cast<float>(lab[1][k]), static_cast<float>(lab[2][k])};
        }
    }
}


// --- delta_e_2000 ------------------------------------------------------------
//
// Float values are held in double lanes; each float operation of the
// reference is the double operation rounded to float (as_float): for +, -,
// *, / and sqrt of floats that double rounding gives the correctly rounded
// float result (53 >= 2 * 24 + 2 bits, Figueroa 1995), i.e. the float
// operation's bits.
HWY_INLINE VF as_float(VF v) { return to_float_and_back(v); }

// sin_cos_impl's fast phase (|x| <= 128): x itself (sin) or 1 (cos) below
// 2^-27, as the scalar code.
HWY_NOINLINE VF sin_cos_fast(VF x, bool cosine, const LibmTables& tables)
{
    namespace detail = tv::cr_libm_detail;
    const DF d;
    const DI di;
    const MF usable = hn::Le(hn::Abs(x), hn::Set(d, 128.0));
    const MF tiny = hn::Lt(hn::Abs(x), hn::Set(d, 0x1p-27));
    const VF xs = hn::IfThenElse(usable, x, hn::Set(d, 0.5));
    const VF kx = hn::Mul(xs, hn::Set(d, 0x1.45f306dc9c883p-1));  // 2/pi
    const VI k = hn::ConvertTo(di, hn::Add(kx, hn::IfThenElse(hn::Ge(kx, hn::Zero(d)), hn::Set(d, 0.5), hn::Set(d, -0.5))));
    const VF kd = hn::ConvertTo(d, k);
    const VDD reduced = two_sum(hn::Sub(xs, hn::Mul(kd, hn::Set(d, detail::kHalfPiChunk0))),
                                hn::Neg(hn::Mul(kd, hn::Set(d, detail::kHalfPiChunk1))));
    const MF k_zero = hn::RebindMask(d, hn::Eq(k, hn::Zero(di)));
    VF rh = hn::IfThenElse(k_zero, xs, reduced.hi);
    VF rl = hn::IfThenZeroElse(k_zero, hn::Sub(reduced.lo, hn::Mul(kd, hn::Set(d, detail::kHalfPiChunk2))));
    VI quadrant = hn::And(k, hn::Set(di, 3));
    if (cosine) quadrant = hn::And(hn::Add(quadrant, hn::Set(di, 1)), hn::Set(di, 3));  // cos x = sin(x + pi/2)
    const MF negative = hn::Lt(rh, hn::Zero(d));
    rh = hn::IfThenElse(negative, hn::Neg(rh), rh);
    rl = hn::IfThenElse(negative, hn::Neg(rl), rl);
    const VI i = hn::ConvertTo(di, hn::Add(hn::Mul(rh, hn::Set(d, 64.0)), hn::Set(d, 0.5)));
    const VF bh = hn::Sub(rh, hn::Mul(hn::ConvertTo(d, i), hn::Set(d, 0x1p-6)));
    const VF z = hn::Mul(bh, bh);
    VF sin_poly = hn::Add(hn::Set(d, -detail::inv_fact7().hi), hn::Mul(z, hn::Set(d, detail::inv_fact9().hi)));
    sin_poly = hn::Add(hn::Set(d, detail::inv_fact5().hi), hn::Mul(z, sin_poly));
    sin_poly = hn::Add(hn::Set(d, -detail::inv_fact3().hi), hn::Mul(z, sin_poly));
    const VF sin_tail = hn::Mul(hn::Mul(bh, z), sin_poly);
    VF cos_poly = hn::Add(hn::Set(d, -detail::inv_fact6().hi), hn::Mul(z, hn::Set(d, detail::inv_fact8().hi)));
    cos_poly = hn::Add(hn::Set(d, detail::inv_fact4().hi), hn::Mul(z, cos_poly));
    cos_poly = hn::Add(hn::Set(d, -0.5), hn::Mul(z, cos_poly));
    const VF cos_tail = hn::Sub(hn::Mul(z, cos_poly), hn::Mul(bh, rl));
    const VDD sa = gather_dd(tables.sin_point, i), ca = gather_dd(tables.cos_point, i);
    const VF rl_sin = hn::Add(rl, sin_tail);
    // Odd quadrant: cos r.
    VDD t_odd = two_prod(sa.hi, bh);
    t_odd.lo = hn::Add(t_odd.lo, hn::Mul(sa.lo, bh));
    VDD odd = add(ca, VDD{hn::Neg(t_odd.hi), hn::Neg(t_odd.lo)});
    odd.lo = hn::Add(odd.lo, hn::Sub(hn::Mul(ca.hi, cos_tail), hn::Mul(sa.hi, rl_sin)));
    // Even quadrant: sin |r|.
    VDD t_even = two_prod(ca.hi, bh);
    t_even.lo = hn::Add(t_even.lo, hn::Mul(ca.lo, bh));
    VDD even = add(sa, t_even);
    even.lo = hn::Add(even.lo, hn::Add(hn::Mul(sa.hi, cos_tail), hn::Mul(ca.hi, rl_sin)));
    const MF is_odd = hn::RebindMask(d, hn::Ne(hn::And(quadrant, hn::Set(di, 1)), hn::Zero(di)));
    VDD v = fast_two_sum(hn::IfThenElse(is_odd, odd.hi, even.hi), hn::IfThenElse(is_odd, odd.lo, even.lo));
    const MF half_turn = hn::RebindMask(d, hn::Ne(hn::And(quadrant, hn::Set(di, 2)), hn::Zero(di)));
    const MF flip = hn::Xor(half_turn, hn::AndNot(is_odd, negative));
    v = VDD{hn::IfThenElse(flip, hn::Neg(v.hi), v.hi), hn::IfThenElse(flip, hn::Neg(v.lo), v.lo)};
    const MF undecided = hn::Or(rounding_is_ambiguous(v, hn::Set(d, detail::kTrigFastBound)), hn::Not(usable));
    return patched(hn::AndNot(tiny, undecided), hn::IfThenElse(tiny, cosine ? hn::Set(d, 1.0) : x, v.hi), x, x,
                   cosine ? cos_lane : sin_lane);
}

// atan2_impl's special cases and fast phase, for y, x floats (as doubles).
HWY_NOINLINE VF atan2_fast(VF y, VF x, const LibmTables& tables)
{
    namespace detail = tv::cr_libm_detail;
    const DF d;
    const DI di;
    const MF y_negative = hn::RebindMask(d, hn::Lt(hn::BitCast(di, y), hn::Zero(di)));  // the sign bit
    const MF x_negative = hn::RebindMask(d, hn::Lt(hn::BitCast(di, x), hn::Zero(di)));
    const VF ay = hn::Abs(y), ax = hn::Abs(x);
    const MF ay_zero = hn::Eq(ay, hn::Zero(d)), ax_zero = hn::Eq(ax, hn::Zero(d));
    const VF pi_hi = hn::Set(d, detail::pi().hi), half_pi_hi = hn::Set(d, detail::half_pi().hi);
    const VF special = hn::IfThenElse(
        ay_zero, hn::IfThenElse(x_negative, hn::IfThenElse(y_negative, hn::Neg(pi_hi), pi_hi), y),
        hn::IfThenElse(y_negative, hn::Neg(half_pi_hi), half_pi_hi));
    const MF is_special = hn::Or(ay_zero, ax_zero);
    const VF lo_bound = hn::Set(d, 0x1p-400), hi_bound = hn::Set(d, 0x1p400);
    const MF usable = hn::And(hn::And(hn::Ge(ay, lo_bound), hn::Le(ay, hi_bound)),
                              hn::And(hn::Ge(ax, lo_bound), hn::Le(ax, hi_bound)));
    const VF one = hn::Set(d, 1.0);
    const VF sy = hn::IfThenElse(usable, ay, one), sx = hn::IfThenElse(usable, ax, one);
    const MF swapped = hn::Gt(sy, sx);
    const VF num = hn::IfThenElse(swapped, sx, sy), den = hn::IfThenElse(swapped, sy, sx);
    const VF q = hn::Div(num, den);
    const VDD p = two_prod(q, den);
    const VF tl = hn::Div(hn::Sub(hn::Sub(num, p.hi), p.lo), den);
    const VI i = hn::ConvertTo(di, hn::Add(hn::Mul(q, hn::Set(d, 64.0)), hn::Set(d, 0.5)));
    const VF c = hn::Mul(hn::ConvertTo(d, i), hn::Set(d, 0x1p-6));
    const VF nh = hn::Sub(q, c);
    const VDD tc = two_prod(q, c);
    VDD den_s = fast_two_sum(one, tc.hi);
    den_s.lo = hn::Add(den_s.lo, hn::Add(tc.lo, hn::Mul(tl, c)));
    const VF sh_c = hn::Div(nh, den_s.hi);
    const VDD sd = two_prod(sh_c, den_s.hi);
    const VF sl_c = hn::Div(
        hn::Sub(hn::Add(hn::Sub(hn::Sub(nh, sd.hi), sd.lo), tl), hn::Mul(sh_c, den_s.lo)), den_s.hi);
    const MF i_zero = hn::RebindMask(d, hn::Eq(i, hn::Zero(di)));
    const VF sh = hn::IfThenElse(i_zero, q, sh_c), sl = hn::IfThenElse(i_zero, tl, sl_c);
    const VF z = hn::Mul(sh, sh);
    VF poly = hn::Add(hn::Set(d, 1.0 / 9), hn::Mul(z, hn::Set(d, -1.0 / 11)));
    poly = hn::Add(hn::Set(d, -detail::inv7().hi), hn::Mul(z, poly));
    poly = hn::Add(hn::Set(d, detail::inv5().hi), hn::Mul(z, poly));
    poly = hn::Add(hn::Set(d, -detail::inv3().hi), hn::Mul(z, poly));
    const VF tail = hn::Mul(hn::Mul(sh, z), poly);
    VDD a = fast_two_sum(sh, hn::Add(hn::Mul(sl, hn::Sub(one, z)), tail));
    const auto select = [](MF m, VDD yes, VDD no) {
        return VDD{hn::IfThenElse(m, yes.hi, no.hi), hn::IfThenElse(m, yes.lo, no.lo)};
    };
    a = select(i_zero, a, add(gather_dd(tables.atan_point, i), a));
    const VDD neg_a{hn::Neg(a.hi), hn::Neg(a.lo)};
    a = select(swapped, add(VDD{half_pi_hi, hn::Set(d, detail::half_pi().lo)}, neg_a), a);
    const VDD neg_b{hn::Neg(a.hi), hn::Neg(a.lo)};
    a = select(x_negative, add(VDD{pi_hi, hn::Set(d, detail::pi().lo)}, neg_b), a);
    const MF undecided = hn::Or(rounding_is_ambiguous(a, hn::Set(d, detail::kAtanFastBound)), hn::Not(usable));
    return patched(hn::AndNot(is_special, undecided),
                   hn::IfThenElse(is_special, special, hn::IfThenElse(y_negative, hn::Neg(a.hi), a.hi)), y, x,
                   atan2_lane);
}

// exp_impl's fast phase, |x| <= 665.
HWY_INLINE VF exp_fast(VF x, const LibmTables& tables)
{
    namespace detail = tv::cr_libm_detail;
    const DF d;
    const MF usable = hn::Le(hn::Abs(x), hn::Set(d, 665.0));
    const VDD h = mul_d(VDD{hn::Set(d, tv::cr_log2_detail::kInvLn2Hi), hn::Set(d, tv::cr_log2_detail::kInvLn2Lo)},
                        hn::IfThenElseZero(usable, x));
    const VDD fast = exp2_fast(h, tables);
    const VF bound = hn::Add(hn::Set(d, detail::kPowFastBound), hn::Mul(hn::Set(d, 0x1p-98), hn::Abs(h.hi)));
    return patched(hn::Or(rounding_is_ambiguous(fast, bound), hn::Not(usable)), fast.hi, x, x, exp_lane);
}

// c^7 of a float c in [2^-60, 2^100] (no underflow in the products) as a
// double-double: c^2 exact, c^3 and c^4 exact (two_prod), their product
// with dd::mul: relative error < 4u^2 (the dropped lo * lo, two cross
// products' and one sum's roundings), tested with 2^-100.
inline constexpr double kSeventhPowerBound = 0x1p-100;

// `undecided` gets the lanes outside that range (but 0).
HWY_INLINE VDD seventh_power(VF c, MF& undecided)
{
    const DF d;
    const MF zero = hn::Eq(c, hn::Zero(d));
    const MF usable = hn::And(hn::Ge(c, hn::Set(d, 0x1p-60)), hn::Le(c, hn::Set(d, 0x1p100)));
    undecided = hn::AndNot(zero, hn::Not(usable));
    const VF cs = hn::IfThenElse(usable, c, hn::Set(d, 1.0));
    const VF c2 = hn::Mul(cs, cs);
    const VDD p = mul(two_prod(c2, c2), two_prod(c2, cs));
    return VDD{hn::IfThenZeroElse(zero, p.hi), hn::IfThenZeroElse(zero, p.lo)};
}

// libm::pow_7 (c >= 0): the double nearest c^7.
HWY_INLINE VF pow_7(VF c)
{
    MF undecided;
    const VDD p = seventh_power(c, undecided);
    undecided = hn::Or(undecided, rounding_is_ambiguous(p, hn::Set(DF(), kSeventhPowerBound)));
    return patched(undecided, p.hi, c, c, pow_7_lane);
}

// libm::powf_7 (c >= 0): the float nearest c^7. f = RN_float(hi) is it
// unless c^7 may lie beyond f's rounding boundary: f + half its float ulp
// above, f - that below (a quarter below a power of two). hi - f is exact,
// e = (hi - f) + lo rounds by at most 2^-53 |e|.
HWY_INLINE VF powf_7(VF c)
{
    const DF d;
    const DU du;
    MF undecided;
    const VDD p = seventh_power(c, undecided);
    const VF f = to_float_and_back(p.hi);
    const VF e = hn::Add(hn::Sub(p.hi, f), p.lo);
    const VU f_bits = hn::BitCast(du, f);
    const VF binade = hn::BitCast(d, hn::And(f_bits, hn::Set(du, 0x7ff0000000000000ULL)));
    const VF half = hn::Mul(binade, hn::Set(d, 0x1p-24));
    const MF power_of_two = hn::RebindMask(d, hn::Eq(hn::And(f_bits, hn::Set(du, 0x000fffffffffffffULL)), hn::Zero(du)));
    const VF limit = hn::IfThenElse(hn::And(power_of_two, hn::Lt(e, hn::Zero(d))), hn::Mul(half, hn::Set(d, 0.5)), half);
    const VF err = hn::Add(hn::Mul(hn::Set(d, kSeventhPowerBound), p.hi), hn::Mul(hn::Set(d, 0x1p-50), half));
    const MF decided = hn::Lt(hn::Add(hn::Abs(e), err), limit);
    const MF normal = hn::And(hn::Ge(p.hi, hn::Set(d, 0x1p-126)), hn::Le(p.hi, hn::Set(d, 0x1p127)));
    const MF zero = hn::Eq(c, hn::Zero(d));
    undecided = hn::Or(undecided, hn::AndNot(zero, hn::Not(hn::And(decided, normal))));
    return patched(undecided, f, c, c, powf_7_lane);
}

// hue_angle(b, a') lane-wise.
HWY_INLINE VF hue_angle(VF b, VF a_prime, const LibmTables& tables)
{
    const DF d;
    const MF neutral = hn::And(hn::Eq(b, hn::Zero(d)), hn::Eq(a_prime, hn::Zero(d)));
    VF h = as_float(atan2_fast(b, a_prime, tables));
    h = hn::IfThenElse(hn::Lt(h, hn::Zero(d)), as_float(hn::Add(h, hn::Set(d, 2. * kPi))), h);
    return hn::IfThenZeroElse(neutral, h);
}

void delta_e_batch(const Lab* c1, const Lab* c2, std::size_t count, Weights k, float* out)
{
    const DF d;
    const std::size_t lanes = hn::Lanes(d);
    const LibmTables& tables = libm_tables();
    HWY_ALIGN double in[6][kMaxLanes];
    HWY_ALIGN double result[kMaxLanes];  // dE00
    const VF two = hn::Set(d, 2.0), two_pi = hn::Set(d, 2. * kPi), pi = hn::Set(d, kPi);
    const auto sq = [](VF v) { return hn::Mul(v, v); };
    const auto set = [&](double v) { return hn::Set(d, v); };
    for (std::size_t i = 0; i < count; i += lanes) {
        const std::size_t here = count - i < lanes ? count - i : lanes;
        for (std::size_t j = 0; j < lanes; ++j) {  // spare lanes: the batch's first pair
            const std::size_t at = j < here ? i + j : 0;
            in[0][j] = c1[at].l, in[1][j] = c1[at].a, in[2][j] = c1[at].b;
            in[3][j] = c2[at].l, in[4][j] = c2[at].a, in[5][j] = c2[at].b;
        }
        const VF l1 = hn::Load(d, in[0]), a1 = hn::Load(d, in[1]), b1 = hn::Load(d, in[2]);
        const VF l2 = hn::Load(d, in[3]), a2 = hn::Load(d, in[4]), b2 = hn::Load(d, in[5]);
        const VF delta_l_prime = as_float(hn::Sub(l2, l1));
        const VF l_bar = as_float(hn::Div(as_float(hn::Add(l1, l2)), two));
        const VF chroma1 = as_float(hn::Sqrt(hn::Add(sq(a1), sq(b1))));
        const VF chroma2 = as_float(hn::Sqrt(hn::Add(sq(a2), sq(b2))));
        const VF c_bar = as_float(hn::Div(as_float(hn::Add(chroma1, chroma2)), two));
        const VF c_bar7 = pow_7(c_bar);
        const VF g = hn::Sub(set(1.0), hn::Sqrt(hn::Div(c_bar7, hn::Add(c_bar7, set(6103515625.0)))));
        const VF a_prime1 = as_float(hn::Add(a1, hn::Mul(as_float(hn::Div(a1, two)), g)));
        const VF a_prime2 = as_float(hn::Add(a2, hn::Mul(as_float(hn::Div(a2, two)), g)));
        const VF c_prime1 = as_float(hn::Sqrt(hn::Add(sq(a_prime1), sq(b1))));
        const VF c_prime2 = as_float(hn::Sqrt(hn::Add(sq(a_prime2), sq(b2))));
        const VF c_bar_prime = as_float(hn::Div(as_float(hn::Add(c_prime1, c_prime2)), two));
        const VF delta_c_prime = as_float(hn::Sub(c_prime2, c_prime1));
        const VF l_bar_minus_50 = as_float(hn::Sub(l_bar, set(50.0)));
        const VF s_l = as_float(hn::Add(set(1.), hn::Div(hn::Mul(set(0.015), sq(l_bar_minus_50)),
                                                         hn::Sqrt(hn::Add(set(20.0), sq(l_bar_minus_50))))));
        const VF s_c = as_float(hn::Add(set(1.), hn::Mul(set(0.045), c_bar_prime)));
        const VF h_prime1 = hue_angle(b1, a_prime1, tables);
        const VF h_prime2 = hue_angle(b2, a_prime2, tables);
        // hue_difference and mean_hue: |h1 - h2| (a float) against pi.
        const VF spread = hn::Abs(as_float(hn::Sub(h_prime1, h_prime2)));
        const VF d21 = as_float(hn::Sub(h_prime2, h_prime1));
        const VF wrapped = hn::IfThenElse(hn::Le(h_prime2, h_prime1), as_float(hn::Add(d21, two_pi)),
                                          as_float(hn::Sub(d21, two_pi)));
        const MF no_chroma = hn::Or(hn::Eq(chroma1, hn::Zero(d)), hn::Eq(chroma2, hn::Zero(d)));
        const VF delta_h_prime = hn::IfThenZeroElse(no_chroma, hn::IfThenElse(hn::Le(spread, pi), d21, wrapped));
        const VF delta_big_h_prime =
            as_float(hn::Mul(hn::Mul(two, hn::Sqrt(as_float(hn::Mul(c_prime1, c_prime2)))),
                             sin_cos_fast(hn::Div(delta_h_prime, two), false, tables)));
        const VF hue_sum = as_float(hn::Add(h_prime1, h_prime2));
        const VF mean_h = hn::IfThenElse(hn::Gt(spread, pi), as_float(hn::Div(hn::Add(hue_sum, two_pi), two)),
                                         as_float(hn::Div(hue_sum, two)));
        const auto cos_of = [&](VF arg) { return sin_cos_fast(arg, true, tables); };
        VF t = hn::Sub(set(1.0), hn::Mul(set(0.17), cos_of(hn::Sub(mean_h, set(kPi / 6.0)))));
        t = hn::Add(t, hn::Mul(set(0.24), cos_of(hn::Mul(set(2.0), mean_h))));
        t = hn::Add(t, hn::Mul(set(0.32), cos_of(hn::Add(hn::Mul(set(3.0), mean_h), set(kPi / 30.0)))));
        t = as_float(hn::Sub(t, hn::Mul(set(0.20), cos_of(hn::Sub(hn::Mul(set(4.0), mean_h), set(7.0 * kPi / 20.0))))));
        const VF s_h = as_float(hn::Add(set(1.0), hn::Mul(hn::Mul(set(0.015), c_bar_prime), t)));
        // rotation_term.
        const VF degrees = as_float(hn::Mul(mean_h, set(180.0 / kPi)));
        const VF dd = as_float(hn::Mul(hn::Sub(degrees, set(275.0)), set(1.0 / 25.0)));
        const VF c7 = powf_7(c_bar_prime);
        const VF ratio = as_float(hn::Div(c7, as_float(hn::Add(c7, set(kTwentyFivePow7f)))));
        const VF angle_degrees = as_float(hn::Mul(set(60.0), exp_fast(hn::Neg(as_float(sq(dd))), tables)));
        const VF r_t = as_float(hn::Mul(hn::Mul(set(-2.0), hn::Sqrt(ratio)),
                                        sin_cos_fast(as_float(hn::Mul(angle_degrees, set(kPi / 180.0))), false, tables)));
        const VF lightness = as_float(hn::Div(delta_l_prime, as_float(hn::Mul(set(k.l), s_l))));
        const VF chroma = as_float(hn::Div(delta_c_prime, as_float(hn::Mul(set(k.c), s_c))));
        const VF hue = as_float(hn::Div(delta_big_h_prime, as_float(hn::Mul(set(k.h), s_h))));
        const VF cross = as_float(hn::Mul(as_float(hn::Mul(r_t, chroma)), hue));
        const VF de = as_float(hn::Sqrt(hn::Add(hn::Add(hn::Add(sq(lightness), sq(chroma)), sq(hue)), cross)));
        hn::Store(de, d, result);
        for (std::size_t j = 0; j < here; ++j)
            out[i + j] = static_cast<float>(result[j]);
    }
}

}  // namespace

Kernels simd_kernels_here() { return {lab_batch, pow_batch, delta_e_batch}; }
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
