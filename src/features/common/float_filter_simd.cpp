// Highway SIMD of the float filter family's row kernels, compiled once per
// instruction set: the shared separable filter's passes
// (float_filter_kernels.h: SpEED, float VIF, float motion) and float VIF's
// five-moment vertical pass and per-pixel statistic terms
// (float_vif_kernels.h).
//
// A lane is one output column, and it performs the reference's operations
// on that column in the reference's order: from +0, per tap k one float
// multiply and one float add, acc = acc + f[k] * x[k] (Mul then Add, never
// fused; the project compiles with -ffp-contract=off), for k = 0 .. ntaps-1.
// The reference adds the same products in the same order per column (it
// loops over the columns inside the tap loop; that only interleaves
// independent columns). Several vectors of columns run side by side for
// instruction-level parallelism; that too only interleaves columns. The
// columns after the last whole vector, the mirrored edges of the horizontal
// pass (kept by the caller) and the decimation steps other than 1 and 2 run
// the reference arithmetic. The filters have no comparisons, so NaN and -0
// follow the same IEEE additions and multiplications as in the reference.
// The statistic's terms (pixel_terms_row, below) are one pixel per lane too,
// computed into a row that the caller adds up in the reference's order.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/common/float_filter_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cfloat>
#include <cstddef>

#include "core/simd.h"
#include "features/common/float_filter_kernels.h"
#include "features/common/float_filter_math.h"
#include "features/float_vif/float_vif_kernels.h"
#include "features/float_vif/float_vif_math.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::float_filter::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// Longer filters (none of Netflix's kernel scales gives one) run the reference.
inline constexpr int kMaxTaps = 128;
// Vectors of columns per step of the main loops.
inline constexpr int kBlocks = 4;

namespace {

// Per tap, the offset of its input row (vertical) or column (horizontal)
// from an output's own position; out[c] = sum_k taps[k] * base[kStep c +
// offset[k]] for kCount vectors of outputs from c. Step 2 takes the even
// lanes of a pair of vectors, which reads one sample past the last output's
// last tap.
template <int kStep, int kCount>
HWY_INLINE void tap_sums(const float* taps, int ntaps, const float* base, const std::ptrdiff_t* offset,
                         std::ptrdiff_t c, float* out)
{
    static_assert(kStep == 1 || kStep == 2);
    const DF d;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(d));
    VF acc[kCount];
    for (int b = 0; b < kCount; ++b) acc[b] = hn::Zero(d);
    for (int k = 0; k < ntaps; ++k) {
        const VF f = hn::Set(d, taps[k]);
        const float* p = base + (kStep * c + offset[k]);
        for (int b = 0; b < kCount; ++b) {
            VF x;
            if constexpr (kStep == 1) {
                x = hn::LoadU(d, p + b * n);
            } else {
                VF odd;
                hn::LoadInterleaved2(d, p + 2 * b * n, x, odd);
            }
            acc[b] = hn::Add(acc[b], hn::Mul(f, x));
        }
    }
    for (int b = 0; b < kCount; ++b) hn::StoreU(acc[b], d, out + c + b * n);
}

// Outputs lo .. hi-1 at step kStep; the last ones one by one.
template <int kStep>
void sums_over(const float* taps, int ntaps, const float* base, const std::ptrdiff_t* offset, std::ptrdiff_t lo,
               std::ptrdiff_t hi, float* out)
{
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(DF()));
    // Step 2's extra sample stays inside the row if its vectors stop one
    // output before hi.
    const std::ptrdiff_t vector_end = kStep == 1 ? hi : hi - 1;
    std::ptrdiff_t c = lo;
    for (; c + kBlocks * n <= vector_end; c += kBlocks * n)
        tap_sums<kStep, kBlocks>(taps, ntaps, base, offset, c, out);
    for (; c + n <= vector_end; c += n) tap_sums<kStep, 1>(taps, ntaps, base, offset, c, out);
    for (; c < hi; ++c) out[c] = filter_taps(taps, ntaps, [&](int k) { return base[kStep * c + offset[k]]; });
}

void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out)
{
    if (ntaps > kMaxTaps) return reference_kernels().vertical_pass(taps, ntaps, src, w, h, row, out);
    const int radius = ntaps / 2;
    std::ptrdiff_t offset[kMaxTaps];
    for (int k = 0; k < ntaps; ++k) offset[k] = static_cast<std::ptrdiff_t>(mirror_tap(row - radius + k, h)) * w;
    sums_over<1>(taps, ntaps, src, offset, 0, w, out);
}

void horizontal_interior(const float* taps, int ntaps, const float* in, int step, int lo, int hi, float* out)
{
    if (ntaps > kMaxTaps || step > 2)
        return reference_kernels().horizontal_interior(taps, ntaps, in, step, lo, hi, out);
    const int radius = ntaps / 2;
    std::ptrdiff_t offset[kMaxTaps];
    for (int k = 0; k < ntaps; ++k) offset[k] = k - radius;
    if (step == 1) return sums_over<1>(taps, ntaps, in, offset, lo, hi, out);
    sums_over<2>(taps, ntaps, in, offset, lo, hi, out);
}

}  // namespace

Kernels simd_kernels_here() { return {vertical_pass, horizontal_interior}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::float_filter::HWY_NAMESPACE

namespace twinvmaf::float_vif::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using float_filter::HWY_NAMESPACE::DF;
using float_filter::HWY_NAMESPACE::kMaxTaps;
using float_filter::HWY_NAMESPACE::VF;

// add_moment_tap lane by lane: mu1 += f a, mu2 += f b, xx += f (a a),
// yy += f (b b), xy += f (a b), from +0 in tap order.
template <int kCount>
HWY_INLINE void moment_sums(const float* taps, int ntaps, const float* a, const float* b,
                            const std::ptrdiff_t* offset, std::ptrdiff_t c, std::ptrdiff_t w, float* out)
{
    const DF d;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(d));
    VF mu1[kCount], mu2[kCount], xx[kCount], yy[kCount], xy[kCount];
    for (int i = 0; i < kCount; ++i) mu1[i] = mu2[i] = xx[i] = yy[i] = xy[i] = hn::Zero(d);
    for (int k = 0; k < ntaps; ++k) {
        const VF f = hn::Set(d, taps[k]);
        const float* pa = a + (offset[k] + c);
        const float* pb = b + (offset[k] + c);
        for (int i = 0; i < kCount; ++i) {
            const VF va = hn::LoadU(d, pa + i * n);
            const VF vb = hn::LoadU(d, pb + i * n);
            mu1[i] = hn::Add(mu1[i], hn::Mul(f, va));
            mu2[i] = hn::Add(mu2[i], hn::Mul(f, vb));
            xx[i] = hn::Add(xx[i], hn::Mul(f, hn::Mul(va, va)));
            yy[i] = hn::Add(yy[i], hn::Mul(f, hn::Mul(vb, vb)));
            xy[i] = hn::Add(xy[i], hn::Mul(f, hn::Mul(va, vb)));
        }
    }
    for (int i = 0; i < kCount; ++i) {
        float* o = out + c + i * n;
        hn::StoreU(mu1[i], d, o);
        hn::StoreU(mu2[i], d, o + w);
        hn::StoreU(xx[i], d, o + 2 * w);
        hn::StoreU(yy[i], d, o + 3 * w);
        hn::StoreU(xy[i], d, o + 4 * w);
    }
}

void vertical_moments(const float* taps, int ntaps, const float* a, const float* b, int w, int h, int row, float* out)
{
    if (ntaps > kMaxTaps) return reference_kernels().vertical_moments(taps, ntaps, a, b, w, h, row, out);
    const int radius = ntaps / 2;
    std::ptrdiff_t offset[kMaxTaps];
    for (int k = 0; k < ntaps; ++k)
        offset[k] = static_cast<std::ptrdiff_t>(float_filter::mirror_tap(row - radius + k, h)) * w;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(DF()));
    const std::ptrdiff_t wide = w;
    std::ptrdiff_t c = 0;
    for (; c + 2 * n <= wide; c += 2 * n) moment_sums<2>(taps, ntaps, a, b, offset, c, wide, out);
    for (; c + n <= wide; c += n) moment_sums<1>(taps, ntaps, a, b, offset, c, wide, out);
    for (; c < wide; ++c) {
        float m[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        for (int k = 0; k < ntaps; ++k)
            add_moment_tap(taps[k], a[offset[k] + c], b[offset[k] + c], m[0], m[1], m[2], m[3], m[4]);
        for (int q = 0; q < 5; ++q) out[q * wide + c] = m[q];
    }
}

// pixel_terms() lane by lane, one pixel per double lane (the float steps in
// half-width float vectors, Rebind<float, DD>, so that every float has its
// double lane). Each comparison and select is the scalar's, in its order:
// libvmaf's MAX(x, 0) is x > 0 ? x : 0 (a NaN or -0 gives +0), the three
// ifs become selects in the same order (each seeing the values the previous
// one left), and MIN(g, limit) is g < limit ? g : limit. The two log2f
// arguments are computed in double as the scalar does; a vector whose
// arguments are not all normal floats (vif_sigma_nsq = 0 gives inf and NaN
// there; only then) is redone by the scalar pixel_terms, so that the
// vector log2 sees only positive normal floats (its exponent and mantissa
// bits are then the scalar's) and DemoteTo only values it rounds as a cast
// does.
using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
using DH = hn::Rebind<float, DD>;
using VH = hn::Vec<DH>;

// log2f_approx of positive normal floats: the same bit fields, the same
// int-to-float conversion and the same Horner steps (Mul, then Add).
HWY_INLINE VH log2_approx(VH x)
{
    const DH df;
    const hn::RebindToUnsigned<DH> du;
    const hn::RebindToSigned<DH> di;
    // log2f_approx's table (float_vif_math.h); SimdFloatVif.* compares the results.
    static constexpr float kPoly[9] = {
        static_cast<float>(-0.012671635276421), static_cast<float>(0.064841182402670),
        static_cast<float>(-0.157048836463065), static_cast<float>(0.257167726303123),
        static_cast<float>(-0.353800560300520), static_cast<float>(0.480131410397451),
        static_cast<float>(-0.721314327952201), static_cast<float>(1.442694803896991),
        0.0f,
    };
    const auto bits = hn::BitCast(du, x);
    const auto exponent = hn::ShiftRight<23>(hn::And(bits, hn::Set(du, 0x7F800000u)));
    const VH mantissa = hn::BitCast(df, hn::Or(hn::And(bits, hn::Set(du, 0x007FFFFFu)), hn::Set(du, 0x3F800000u)));
    const VH log_base = hn::ConvertTo(df, hn::Sub(hn::BitCast(di, exponent), hn::Set(di, 127)));
    const VH t = hn::Sub(mantissa, hn::Set(df, 1.0f));
    VH log_remain = hn::Zero(df);
    for (float c : kPoly) log_remain = hn::Add(hn::Mul(log_remain, t), hn::Set(df, c));
    return hn::Add(log_base, log_remain);
}

void pixel_terms_row(const float* filtered, int w, const StatisticParams& p, float* num, float* den)
{
    const DD dd;
    const DH df;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(dd));
    const std::ptrdiff_t wide = w;
    const float* mu1 = filtered;
    const float* mu2 = filtered + wide;
    const float* xx = filtered + 2 * wide;
    const float* yy = filtered + 3 * wide;
    const float* xy = filtered + 4 * wide;
    const VH zero = hn::Zero(df), one = hn::Set(df, 1.0f), eps = hn::Set(df, kEps);
    const VH gain_limit = hn::Set(df, p.gain_limit), sigma_max_inv = hn::Set(df, p.sigma_max_inv);
    const VD sigma_nsq = hn::Set(dd, p.sigma_nsq), one_d = hn::Set(dd, 1.0);
    const VD lowest = hn::Set(dd, static_cast<double>(FLT_MIN)), highest = hn::Set(dd, static_cast<double>(FLT_MAX));
    std::ptrdiff_t j = 0;
    for (; j + n <= wide; j += n) {
        const VH m1 = hn::LoadU(df, mu1 + j), m2 = hn::LoadU(df, mu2 + j);
        VH sigma1_sq = hn::Sub(hn::LoadU(df, xx + j), hn::Mul(m1, m1));
        VH sigma2_sq = hn::Sub(hn::LoadU(df, yy + j), hn::Mul(m2, m2));
        const VH sigma12 = hn::Sub(hn::LoadU(df, xy + j), hn::Mul(m1, m2));
        sigma1_sq = hn::IfThenElse(hn::Gt(sigma1_sq, zero), sigma1_sq, zero);
        sigma2_sq = hn::IfThenElse(hn::Gt(sigma2_sq, zero), sigma2_sq, zero);
        VH g = hn::Div(sigma12, hn::Add(sigma1_sq, eps));
        VH sv_sq = hn::Sub(sigma2_sq, hn::Mul(g, sigma12));
        const auto flat1 = hn::Lt(sigma1_sq, eps);
        g = hn::IfThenElse(flat1, zero, g);
        sv_sq = hn::IfThenElse(flat1, sigma2_sq, sv_sq);
        sigma1_sq = hn::IfThenElse(flat1, zero, sigma1_sq);
        const auto flat2 = hn::Lt(sigma2_sq, eps);
        g = hn::IfThenElse(flat2, zero, g);
        sv_sq = hn::IfThenElse(flat2, zero, sv_sq);
        const auto negative = hn::Lt(g, zero);
        sv_sq = hn::IfThenElse(negative, sigma2_sq, sv_sq);
        g = hn::IfThenElse(negative, zero, g);
        sv_sq = hn::IfThenElse(hn::Gt(sv_sq, eps), sv_sq, eps);
        g = hn::IfThenElse(hn::Lt(g, gain_limit), g, gain_limit);

        const VD sigma1_sq_d = hn::PromoteTo(dd, sigma1_sq);
        const VD gain_term = hn::PromoteTo(dd, hn::Mul(hn::Mul(g, g), sigma1_sq));
        const VD num_arg = hn::Add(one_d, hn::Div(gain_term, hn::Add(hn::PromoteTo(dd, sv_sq), sigma_nsq)));
        const VD den_arg = hn::Add(one_d, hn::Div(sigma1_sq_d, sigma_nsq));
        const auto normal = hn::And(hn::And(hn::Ge(num_arg, lowest), hn::Le(num_arg, highest)),
                                    hn::And(hn::Ge(den_arg, lowest), hn::Le(den_arg, highest)));
        if (!hn::AllTrue(dd, normal)) {
            for (std::ptrdiff_t q = j; q < j + n; ++q)
                pixel_terms(mu1[q], mu2[q], xx[q], yy[q], xy[q], p, &num[q], &den[q]);
            continue;
        }
        VH num_val = log2_approx(hn::DemoteTo(df, num_arg));
        VH den_val = log2_approx(hn::DemoteTo(df, den_arg));
        num_val = hn::IfThenElse(hn::Lt(sigma12, zero), zero, num_val);
        // (double) sigma1_sq < sigma_nsq, compared in double; the mask
        // carried over to the float lanes as 1.0f / 0.0f (exact).
        const auto below_noise =
            hn::Eq(hn::DemoteTo(df, hn::IfThenElseZero(hn::Lt(sigma1_sq_d, sigma_nsq), one_d)), one);
        num_val = hn::IfThenElse(below_noise, hn::Sub(one, hn::Mul(sigma2_sq, sigma_max_inv)), num_val);
        den_val = hn::IfThenElse(below_noise, one, den_val);
        hn::StoreU(num_val, df, num + j);
        hn::StoreU(den_val, df, den + j);
    }
    for (; j < wide; ++j) pixel_terms(mu1[j], mu2[j], xx[j], yy[j], xy[j], p, &num[j], &den[j]);
}

}  // namespace

Kernels simd_kernels_here() { return {vertical_moments, pixel_terms_row}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::float_vif::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::float_filter {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::float_filter

namespace twinvmaf::float_vif {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::float_vif
#endif
