// Highway SIMD of ssimulacra2's row kernels (ssimulacra2_kernels.h),
// compiled once per instruction set. A lane is one position; every lane
// does ssimulacra2_math.h's IEEE operations in its order and types: float
// where it computes in float, double (floats promoted, one position per
// 64-bit lane) where it promotes. No fused multiply-add (the project
// compiles with -ffp-contract=off; Highway's Mul and Add are single
// operations); Div is IEEE-exact. The math header's selects are
// IfThenElse on the same comparisons (a NaN compares false as there). The
// cube root's first guess divides the bits by 3 exactly, as
// (bits * 0xAAAAAAAB) >> 33 on 64-bit products; the EOTF table is
// gathered. Columns after the last whole vector run the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ssimulacra2/ssimulacra2_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/simd.h"
#include "features/ssimulacra2/ssimulacra2_kernels.h"

#ifndef TWINVMAF_SSIMULACRA2_EOTF_FLOATS
#define TWINVMAF_SSIMULACRA2_EOTF_FLOATS
namespace twinvmaf::ssimulacra2 {
// The EOTF table as floats, for gathers (eotf_table() is the definition).
inline const float* eotf_floats()
{
    static const std::array<float, kEotfTableSize> table = [] {
        std::array<float, kEotfTableSize> t{};
        for (int i = 0; i < kEotfTableSize; ++i) t[i] = eotf_table(i);
        return t;
    }();
    return table.data();
}
}  // namespace twinvmaf::ssimulacra2
#endif

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::ssimulacra2::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

constexpr BlurCoefficients kBlur = blur_coefficients();

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DI = hn::RebindToSigned<DF>;
using DU = hn::RebindToUnsigned<DF>;
using DU64 = hn::Repartition<std::uint64_t, DU>;
using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DH = hn::Rebind<float, D>;  // one float per 64-bit lane
using VH = hn::Vec<DH>;

// v < 0 ? 0 : v > 1 ? 1 : v
HWY_INLINE VF clamp01(DF df, VF v)
{
    const VF zero = hn::Zero(df), one = hn::Set(df, 1.0f);
    return hn::IfThenElse(hn::Lt(v, zero), zero, hn::IfThenElse(hn::Gt(v, one), one, v));
}

HWY_INLINE VF srgb_eotf(DF df, VF x)
{
    const DI di;
    const VF zero = hn::Zero(df), one = hn::Set(df, 1.0f);
    const auto low = hn::Le(x, zero), high = hn::Ge(x, one);
    const VF inside = hn::IfThenZeroElse(hn::Or(low, high), x);
    const VF idx = hn::Mul(inside, hn::Set(df, static_cast<float>(kEotfTableSize - 1)));
    const auto i = hn::ConvertTo(di, idx);
    const VF frac = hn::Sub(idx, hn::ConvertTo(df, i));
    const float* table = eotf_floats();
    const VF a = hn::GatherIndex(df, table, i);
    const VF b = hn::GatherIndex(df, table + 1, i);
    const VF value = hn::Add(a, hn::Mul(hn::Sub(b, a), frac));
    return hn::IfThenElse(low, zero, hn::IfThenElse(high, one, value));
}

void rgb_row(const RgbParams& p, const float* ys, const float* us, const float* vs, int w, float* r, float* g, float* b)
{
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(df));
    const VF inv_peak = hn::Set(df, p.inv_peak), y_off = hn::Set(df, p.y_off), half = hn::Set(df, 0.5f);
    const VF y_scale = hn::Set(df, p.y_scale), c_scale = hn::Set(df, p.c_scale);
    const VF cr_r = hn::Set(df, p.cr_r), cb_g = hn::Set(df, p.cb_g), cr_g = hn::Set(df, p.cr_g),
             cb_b = hn::Set(df, p.cb_b);
    int x = 0;
    for (; x + lanes <= w; x += lanes) {
        const VF y = hn::Mul(hn::LoadU(df, ys + x), inv_peak);
        const VF u = hn::Mul(hn::LoadU(df, us + x), inv_peak);
        const VF v = hn::Mul(hn::LoadU(df, vs + x), inv_peak);
        const VF yn = hn::Mul(hn::Sub(y, y_off), y_scale);
        const VF un = hn::Mul(hn::Sub(u, half), c_scale);
        const VF vn = hn::Mul(hn::Sub(v, half), c_scale);
        const VF rv = hn::Add(yn, hn::Mul(cr_r, vn));
        const VF gv = hn::Add(hn::Add(yn, hn::Mul(cb_g, un)), hn::Mul(cr_g, vn));
        const VF bv = hn::Add(yn, hn::Mul(cb_b, un));
        hn::StoreU(srgb_eotf(df, clamp01(df, rv)), df, r + x);
        hn::StoreU(srgb_eotf(df, clamp01(df, gv)), df, g + x);
        hn::StoreU(srgb_eotf(df, clamp01(df, bv)), df, b + x);
    }
    if (x < w) reference_kernels().rgb_row(p, ys + x, us + x, vs + x, w - x, r + x, g + x, b + x);
}

// bits / 3 for every 32-bit lane: (bits * 0xAAAAAAAB) >> 33 of the 64-bit
// products, even and odd lanes apart.
HWY_INLINE hn::Vec<DU> div3(DU du, hn::Vec<DU> bits)
{
    const DU64 d64;
    const auto magic = hn::Set(du, 0xAAAAAAABu);
    const auto even = hn::ShiftRight<33>(hn::MulEven(bits, magic));
    const auto odd_bits = hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, bits)));
    const auto odd = hn::ShiftLeft<32>(hn::ShiftRight<33>(hn::MulEven(odd_bits, magic)));
    return hn::BitCast(du, hn::Or(even, odd));
}

HWY_INLINE VF fork_cbrtf(DF df, VF x)
{
    const DU du;
    const VF zero = hn::Zero(df);
    const auto is_zero = hn::Le(x, zero);
    const VF arg = hn::IfThenElse(is_zero, hn::Set(df, 1.0f), x);
    const auto bits = hn::Add(div3(du, hn::BitCast(du, arg)), hn::Set(du, 0x2a5137a0u));
    VF y = hn::BitCast(df, bits);
    const VF two = hn::Set(df, 2.0f), third = hn::Set(df, 1.0f / 3.0f);
    y = hn::Mul(hn::Add(hn::Mul(two, y), hn::Div(arg, hn::Mul(y, y))), third);
    y = hn::Mul(hn::Add(hn::Mul(two, y), hn::Div(arg, hn::Mul(y, y))), third);
    return hn::IfThenElse(is_zero, zero, y);
}

// (a r + b g) + c b + bias, negative values set to 0.
HWY_INLINE VF mix(DF df, float a, float b, float c, VF r, VF g, VF bl)
{
    const VF v = hn::Add(hn::Add(hn::Add(hn::Mul(hn::Set(df, a), r), hn::Mul(hn::Set(df, b), g)),
                                 hn::Mul(hn::Set(df, c), bl)),
                         hn::Set(df, kOpsinBias));
    const VF zero = hn::Zero(df);
    return hn::IfThenElse(hn::Lt(v, zero), zero, v);
}

void xyb(const float* lin, std::size_t plane, float* out)
{
    const DF df;
    const std::size_t lanes = hn::Lanes(df);
    const float cbrt_bias_s = ssimulacra2::fork_cbrtf(kOpsinBias);
    const VF cbrt_bias = hn::Set(df, cbrt_bias_s), half = hn::Set(df, 0.5f);
    std::size_t i = 0;
    for (; i + lanes <= plane; i += lanes) {
        const VF r = hn::LoadU(df, lin + i), g = hn::LoadU(df, lin + plane + i), b = hn::LoadU(df, lin + 2 * plane + i);
        const VF l = mix(df, kM00, kM01, kM02, r, g, b);
        const VF m = mix(df, kM10, kM11, kM12, r, g, b);
        const VF s = mix(df, kM20, kM21, kM22, r, g, b);
        const VF cl = hn::Sub(fork_cbrtf(df, l), cbrt_bias);
        const VF cm = hn::Sub(fork_cbrtf(df, m), cbrt_bias);
        const VF cs = hn::Sub(fork_cbrtf(df, s), cbrt_bias);
        const VF x = hn::Mul(half, hn::Sub(cl, cm));
        const VF y = hn::Mul(half, hn::Add(cl, cm));
        hn::StoreU(hn::Add(hn::Mul(x, hn::Set(df, 14.0f)), hn::Set(df, 0.42f)), df, out + i);
        hn::StoreU(hn::Add(y, hn::Set(df, 0.01f)), df, out + plane + i);
        hn::StoreU(hn::Add(hn::Sub(cs, y), hn::Set(df, 0.55f)), df, out + 2 * plane + i);
    }
    if (i == plane) return;
    // The last positions by the reference, on a copy of their three planes.
    const std::size_t rest = plane - i;
    float in_rest[3 * 64], out_rest[3 * 64];
    for (int c = 0; c < 3; ++c)
        for (std::size_t k = 0; k < rest; ++k) in_rest[c * rest + k] = lin[c * plane + i + k];
    reference_kernels().xyb(in_rest, rest, out_rest);
    for (int c = 0; c < 3; ++c)
        for (std::size_t k = 0; k < rest; ++k) out[c * plane + i + k] = out_rest[c * rest + k];
}

void vertical_step(const float* const* lrow, const float* const* rrow, int w, float* state, float* rows)
{
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(df));
    const VF n2_0 = hn::Set(df, kBlur.n2[0]), n2_1 = hn::Set(df, kBlur.n2[1]), n2_2 = hn::Set(df, kBlur.n2[2]);
    const VF d1_0 = hn::Set(df, kBlur.d1[0]), d1_1 = hn::Set(df, kBlur.d1[1]), d1_2 = hn::Set(df, kBlur.d1[2]);
    for (int m = 0; m < kMaps; ++m) {
        float* st = state + static_cast<std::size_t>(m) * 6 * w;
        float* out = rows + static_cast<std::size_t>(m) * w;
        int x = 0;
        for (; x + lanes <= w; x += lanes) {
            const VF sum = hn::Add(hn::LoadU(df, lrow[m] + x), hn::LoadU(df, rrow[m] + x));
            const VF q1_0 = hn::LoadU(df, st + x), q1_1 = hn::LoadU(df, st + w + x),
                     q1_2 = hn::LoadU(df, st + 2 * w + x);
            const VF o0 = hn::Sub(hn::Sub(hn::Mul(n2_0, sum), hn::Mul(d1_0, q1_0)), hn::LoadU(df, st + 3 * w + x));
            const VF o1 = hn::Sub(hn::Sub(hn::Mul(n2_1, sum), hn::Mul(d1_1, q1_1)), hn::LoadU(df, st + 4 * w + x));
            const VF o2 = hn::Sub(hn::Sub(hn::Mul(n2_2, sum), hn::Mul(d1_2, q1_2)), hn::LoadU(df, st + 5 * w + x));
            hn::StoreU(q1_0, df, st + 3 * w + x);
            hn::StoreU(q1_1, df, st + 4 * w + x);
            hn::StoreU(q1_2, df, st + 5 * w + x);
            hn::StoreU(o0, df, st + x);
            hn::StoreU(o1, df, st + w + x);
            hn::StoreU(o2, df, st + 2 * w + x);
            hn::StoreU(hn::Add(hn::Add(o0, o1), o2), df, out + x);
        }
        for (; x < w; ++x)
            out[x] = iir_step_at(st + x, st + w + x, st + 2 * w + x, st + 3 * w + x, st + 4 * w + x, st + 5 * w + x,
                                 lrow[m][x] + rrow[m][x]);
    }
}

HWY_INLINE V quartic(V x)
{
    const V x2 = hn::Mul(x, x);
    return hn::Mul(x2, x2);
}

void terms_row(const float* rows, const float* img1, const float* img2, int w, double* terms)
{
    const D d;
    const DH dh;
    const int lanes = static_cast<int>(hn::Lanes(d));
    const float* mu1 = rows;
    const float* mu2 = rows + w;
    const float* s11 = rows + 2 * w;
    const float* s22 = rows + 3 * w;
    const float* s12 = rows + 4 * w;
    const VH onef = hn::Set(dh, 1.0f), twof = hn::Set(dh, 2.0f), c2 = hn::Set(dh, kC2);
    const V one = hn::Set(d, 1.0), zero = hn::Zero(d);
    int x = 0;
    for (; x + lanes <= w; x += lanes) {
        const VH m1 = hn::LoadU(dh, mu1 + x), m2 = hn::LoadU(dh, mu2 + x);
        const VH mu11 = hn::Mul(m1, m1), mu22 = hn::Mul(m2, m2), mu12 = hn::Mul(m1, m2);
        const VH diff = hn::Sub(m1, m2);
        const VH num_m = hn::Sub(onef, hn::Mul(diff, diff));
        const VH num_s = hn::Add(hn::Mul(twof, hn::Sub(hn::LoadU(dh, s12 + x), mu12)), c2);
        const VH denom_s =
            hn::Add(hn::Add(hn::Sub(hn::LoadU(dh, s11 + x), mu11), hn::Sub(hn::LoadU(dh, s22 + x), mu22)), c2);
        V ds = hn::Sub(one, hn::Div(hn::Mul(hn::PromoteTo(d, num_m), hn::PromoteTo(d, num_s)),
                                    hn::PromoteTo(d, denom_s)));
        ds = hn::IfThenElse(hn::Lt(ds, zero), zero, ds);
        const V ed1 = hn::Abs(hn::Sub(hn::PromoteTo(d, hn::LoadU(dh, img1 + x)), hn::PromoteTo(d, m1)));
        const V ed2 = hn::Abs(hn::Sub(hn::PromoteTo(d, hn::LoadU(dh, img2 + x)), hn::PromoteTo(d, m2)));
        const V e = hn::Sub(hn::Div(hn::Add(one, ed2), hn::Add(one, ed1)), one);
        const V art = hn::IfThenElse(hn::Gt(e, zero), e, zero);
        const V det = hn::IfThenElse(hn::Lt(e, zero), hn::Neg(e), zero);
        hn::StoreU(ds, d, terms + x);
        hn::StoreU(quartic(ds), d, terms + w + x);
        hn::StoreU(art, d, terms + 2 * w + x);
        hn::StoreU(quartic(art), d, terms + 3 * w + x);
        hn::StoreU(det, d, terms + 4 * w + x);
        hn::StoreU(quartic(det), d, terms + 5 * w + x);
    }
    for (; x < w; ++x) {
        const double ds = ssim_term(mu1[x], mu2[x], s11[x], s22[x], s12[x]);
        const EdgeTerms e = edge_terms(edge_ratio(edge_abs_diff(img1[x], mu1[x]), edge_abs_diff(img2[x], mu2[x])));
        terms[x] = ds;
        terms[w + x] = ssimulacra2::quartic(ds);
        terms[2 * w + x] = e.art;
        terms[3 * w + x] = ssimulacra2::quartic(e.art);
        terms[4 * w + x] = e.det;
        terms[5 * w + x] = ssimulacra2::quartic(e.det);
    }
}

}  // namespace

Kernels simd_kernels_here() { return {rgb_row, xyb, vertical_step, terms_row}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::ssimulacra2::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::ssimulacra2 {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::ssimulacra2
#endif
