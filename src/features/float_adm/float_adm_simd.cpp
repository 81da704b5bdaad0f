// Highway SIMD of float_adm's row kernels (float_adm_kernels.h), compiled
// once per instruction set. One lane is one output column: each lane does
// float_adm_math.h's IEEE operations in its order and precision (hn::Mul then
// hn::Add/Sub, never fused; the tap sums start from +0 as filter4() does;
// double products and sums through hn::PromoteTo and back, rounded to float
// as static_cast does). Comparisons and selections are the reference's
// ternaries with its operand order (a NaN fails them as there). Intel's
// RCPSS (core/intel_rcp.h) is its integer formula with the fraction table
// gathered. The row sums stay serial float chains in column order: SIMD
// computes the terms into a row buffer, scalar code adds them up. Terms with
// adm_p_norm != 3 (term_powf()) are scalar; SIMD computes their argument.
// Mirrored columns (the wavelet's first and last, the masking window's at
// the band's edges) and columns after the last whole vector run the
// reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/float_adm/float_adm_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstdint>

#include "core/simd.h"
#include "core/simd_to_float-inl.h"
#include "features/float_adm/float_adm_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::float_adm::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DI = hn::RebindToSigned<DF>;
using DH = hn::Half<DF>;
using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;

// filter4(): ((((+0 + t0 s0) + t1 s1) + t2 s2) + t3 s3).
HWY_INLINE VF filter4_lanes(const Filter& f, VF s0, VF s1, VF s2, VF s3)
{
    const DF d;
    VF sum = hn::Add(hn::Zero(d), hn::Mul(hn::Set(d, f.tap[0]), s0));
    sum = hn::Add(sum, hn::Mul(hn::Set(d, f.tap[1]), s1));
    sum = hn::Add(sum, hn::Mul(hn::Set(d, f.tap[2]), s2));
    return hn::Add(sum, hn::Mul(hn::Set(d, f.tap[3]), s3));
}

void vertical(const float* const rows[4], int width, float* low, float* high)
{
    const DF d;
    const int n = static_cast<int>(hn::Lanes(d));
    const Filter lo = low_pass(), hi = high_pass();
    int x = 0;
    for (; x + n <= width; x += n) {
        const VF s0 = hn::LoadU(d, rows[0] + x), s1 = hn::LoadU(d, rows[1] + x), s2 = hn::LoadU(d, rows[2] + x),
                 s3 = hn::LoadU(d, rows[3] + x);
        hn::StoreU(filter4_lanes(lo, s0, s1, s2, s3), d, low + x);
        hn::StoreU(filter4_lanes(hi, s0, s1, s2, s3), d, high + x);
    }
    for (; x < width; ++x) dwt_vertical_column(rows, x, low + x, high + x);
}

void horizontal(const float* low, const float* high, int input_width, int width, float* a, float* v, float* h,
                float* d)
{
    const DF df;
    const int n = static_cast<int>(hn::Lanes(df));
    const Filter lo = low_pass(), hi = high_pass();
    const auto reference = [&](int j) {
        if (!v) dwt_horizontal(low, high, input_width, j, a + j, nullptr, nullptr, nullptr);
        else dwt_horizontal(low, high, input_width, j, a + j, v + j, h + j, d + j);
    };
    // Output column j reads input columns 2j-1 .. 2j+2, unmirrored for
    // j in [1, (input_width - 3) / 2]: two de-interleaving loads each.
    int j = 0;
    if (j < width) reference(j++);
    for (; j + n <= width && 2 * (j + n - 1) + 2 <= input_width - 1; j += n) {
        VF s0, s1, s2, s3;
        hn::LoadInterleaved2(df, low + 2 * j - 1, s0, s1);
        hn::LoadInterleaved2(df, low + 2 * j + 1, s2, s3);
        hn::StoreU(filter4_lanes(lo, s0, s1, s2, s3), df, a + j);
        if (!v) continue;
        hn::StoreU(filter4_lanes(hi, s0, s1, s2, s3), df, v + j);
        hn::LoadInterleaved2(df, high + 2 * j - 1, s0, s1);
        hn::LoadInterleaved2(df, high + 2 * j + 1, s2, s3);
        hn::StoreU(filter4_lanes(lo, s0, s1, s2, s3), df, h + j);
        hn::StoreU(filter4_lanes(hi, s0, s1, s2, s3), df, d + j);
    }
    for (; j < width; ++j) reference(j);
}

// static_cast<float> of each double (core/simd_to_float-inl.h).
HWY_INLINE hn::Vec<DH> to_float(VD v) { return simd::HWY_NAMESPACE::to_float_as_cast(DH(), v); }

// `f` (double lanes -> double lanes) on each half of the float lanes,
// promoted, and the results rounded back to float.
template <class F>
HWY_INLINE VF in_double(VF v, F f)
{
    const DF d;
    const DH dh;
    const DD dd;
    const auto lower = to_float(f(hn::PromoteTo(dd, hn::LowerHalf(dh, v))));
    const auto upper = to_float(f(hn::PromoteTo(dd, hn::UpperHalf(dh, v))));
    return hn::Combine(d, upper, lower);
}
template <class F>
HWY_INLINE VF in_double(VF a, VF b, F f)
{
    const DF d;
    const DH dh;
    const DD dd;
    const auto lower = to_float(f(hn::PromoteTo(dd, hn::LowerHalf(dh, a)), hn::PromoteTo(dd, hn::LowerHalf(dh, b))));
    const auto upper = to_float(f(hn::PromoteTo(dd, hn::UpperHalf(dh, a)), hn::PromoteTo(dd, hn::UpperHalf(dh, b))));
    return hn::Combine(d, upper, lower);
}

// intel_rcpss() lane by lane: the same integer formula, with
// intel_rcp_fraction() from a table (intel_rcp_table()).
HWY_INLINE VF rcpss(VF x)
{
    const DF d;
    const DI di;
    const auto bits = hn::BitCast(di, x);
    const auto sign = hn::And(bits, hn::Set(di, INT32_MIN));
    const auto exponent = hn::And(hn::ShiftRight<23>(bits), hn::Set(di, 0xff));
    const auto fraction = hn::And(bits, hn::Set(di, 0x7fffff));
    const auto table = reinterpret_cast<const std::int32_t*>(intel_rcp_table());
    const auto normal = hn::Or(hn::Or(sign, hn::ShiftLeft<23>(hn::Sub(hn::Set(di, 253), exponent))),
                               hn::GatherIndex(di, table, hn::ShiftRight<12>(fraction)));
    const auto infinity = hn::Or(sign, hn::Set(di, 0x7f800000));
    const auto quiet = hn::IfThenElse(hn::Eq(fraction, hn::Zero(di)), sign, hn::Or(bits, hn::Set(di, 0x400000)));
    auto out = hn::IfThenElse(hn::Gt(exponent, hn::Set(di, 252)), sign, normal);
    out = hn::IfThenElse(hn::Eq(exponent, hn::Set(di, 0xff)), quiet, out);
    out = hn::IfThenElse(hn::Eq(exponent, hn::Zero(di)), infinity, out);
    return hn::BitCast(d, out);
}

// rcp_divide(): n * (e + e * (1 - d * e)).
HWY_INLINE VF rcp_divide_lanes(VF n, VF divisor)
{
    const DF d;
    const VF e = rcpss(divisor);
    return hn::Mul(n, hn::Add(e, hn::Mul(e, hn::Sub(hn::Set(d, 1.0f), hn::Mul(divisor, e)))));
}

// masking_part(): (float)(kOneBy30 * |weighted|), in double.
HWY_INLINE VF masking_lanes(VF weighted)
{
    const DD dd;
    return in_double(hn::Abs(weighted), [&](VD m) { return hn::Mul(hn::Set(dd, kOneBy30), m); });
}

void decouple(const DecoupleRow& row, int left, int right, const DecoupleParams& params,
              const float weight[kOrientations])
{
    const DF d;
    const DD dd;
    const int n = static_cast<int>(hn::Lanes(d));
    const VF zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    const VD gain = hn::Set(dd, params.enhancement_gain_limit);
    int x = left;
    for (; x + n <= right; x += n) {
        VF o[kOrientations], t[kOrientations], r[kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta) {
            o[theta] = hn::LoadU(d, row.o[theta] + x);
            t[theta] = hn::LoadU(d, row.t[theta] + x);
            VF k = rcp_divide_lanes(t[theta], hn::Add(o[theta], hn::Set(d, 1e-30f)));
            // k < 0 ? 0 : (k > 1 ? 1 : k): a NaN and -0 stay k.
            k = hn::IfThenElse(hn::Lt(k, zero), zero, hn::IfThenElse(hn::Gt(k, one), one, k));
            r[theta] = hn::Mul(k, o[theta]);
        }
        const VF dot = hn::Add(hn::Mul(o[0], t[0]), hn::Mul(o[1], t[1]));
        const VF o_squared = hn::Add(hn::Mul(o[0], o[0]), hn::Mul(o[1], o[1]));
        const VF t_squared = hn::Add(hn::Mul(t[0], t[0]), hn::Mul(t[1], t[1]));
        const auto aligned = hn::And(
            hn::Ge(dot, zero),
            hn::Ge(hn::Mul(dot, dot), hn::Mul(hn::Mul(hn::Set(d, params.cos_1deg_squared), o_squared), t_squared)));
        const bool any_aligned = !hn::AllFalse(d, aligned);
        for (int theta = 0; theta < kOrientations; ++theta) {
            if (any_aligned) {
                // nf_min / nf_max of (double)r * gain and (double)t, rounded.
                const auto limited_min = in_double(r[theta], t[theta], [&](VD rd, VD td) {
                    const VD g = hn::Mul(rd, gain);
                    return hn::IfThenElse(hn::Lt(g, td), g, td);
                });
                r[theta] = hn::IfThenElse(hn::And(aligned, hn::Gt(r[theta], zero)), limited_min, r[theta]);
                const auto limited_max = in_double(r[theta], t[theta], [&](VD rd, VD td) {
                    const VD g = hn::Mul(rd, gain);
                    return hn::IfThenElse(hn::Gt(g, td), g, td);
                });
                r[theta] = hn::IfThenElse(hn::And(aligned, hn::Lt(r[theta], zero)), limited_max, r[theta]);
            }
            const VF parts[2] = {r[theta], hn::Sub(t[theta], r[theta])};
            for (int part = 0; part < 2; ++part) {
                const VF weighted = hn::Mul(hn::Set(d, weight[theta]), parts[part]);
                hn::StoreU(weighted, d, row.weighted[part][theta] + x);
                hn::StoreU(masking_lanes(weighted), d, row.masking[part][theta] + x);
            }
        }
    }
    if (x < right) reference_kernels().decouple(row, x, right, params, weight);
}

// The cube (p = 3) of each lane, as power(): (x * x) * x; for any other p
// the argument itself (the caller raises it with term_powf()).
HWY_INLINE VF cube_or_argument(VF x, bool cube) { return cube ? hn::Mul(hn::Mul(x, x), x) : x; }

// The serial row sums from the left of the terms the SIMD code stored
// (orientation theta's at terms + theta * stride): the three chains
// interleaved, each in its own order.
void row_chains(const float* terms, std::size_t stride, const Region& scored, bool cube, double p_norm,
                float row_sums[kOrientations])
{
    const float* t0 = terms;
    const float* t1 = terms + stride;
    const float* t2 = terms + 2 * stride;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f;
    if (cube) {
        for (int j = scored.left; j < scored.right; ++j) {
            s0 += t0[j];
            s1 += t1[j];
            s2 += t2[j];
        }
    } else {
        for (int j = scored.left; j < scored.right; ++j) {
            s0 += power(t0[j], p_norm);
            s1 += power(t1[j], p_norm);
            s2 += power(t2[j], p_norm);
        }
    }
    row_sums[0] = s0;
    row_sums[1] = s1;
    row_sums[2] = s2;
}

// masking_threshold() at columns x.. of row y (rows: y-1, y, y+1 mirrored),
// the window unmirrored in its columns.
HWY_INLINE VF threshold_lanes(const CsfPlanes& other, const int rows[3], int y, int x)
{
    const DF d;
    const DD dd;
    VF threshold = hn::Zero(d);
    for (int theta = 0; theta < kOrientations; ++theta) {
        const float* m = other.masking[theta];
        VF sum = hn::Zero(d);
        for (int dy = 0; dy < 3; ++dy) {
            const float* row = m + std::ptrdiff_t(rows[dy]) * other.stride + x;
            for (int dx = 0; dx < 3; ++dx) {
                if (dy == 1 && dx == 1) {
                    const VF centre = hn::Abs(hn::LoadU(d, other.weighted[theta] + std::ptrdiff_t(y) * other.stride + x));
                    sum = in_double(sum, centre,
                                    [&](VD s, VD c) { return hn::Add(s, hn::Mul(hn::Set(dd, kOneBy15), c)); });
                } else {
                    sum = hn::Add(sum, hn::LoadU(d, row + dx - 1));
                }
            }
        }
        threshold = hn::Add(threshold, sum);
    }
    return threshold;
}

void masked_row_sums(const CsfPlanes& other, int width, int height, int y, const float* const measured[kOrientations],
                     const Region& scored, bool bypass_cm, double p_norm, float* threshold, float* terms,
                     float row_sums[kOrientations])
{
    const DF d;
    const int n = static_cast<int>(hn::Lanes(d));
    const VF zero = hn::Zero(d);
    const bool cube = p_norm == 3.0;
    if (bypass_cm) {
        for (int x = scored.left; x < scored.right; ++x) threshold[x] = 0.0f;
    } else {
        const int rows[3] = {mirror(y - 1, height), y, mirror(y + 1, height)};
        const int first = scored.left > 1 ? scored.left : 1;
        const int last = scored.right < width - 1 ? scored.right : width - 1;  // exclusive
        int x = scored.left;
        for (; x < first && x < scored.right; ++x) threshold[x] = masking_threshold(other, width, height, y, x);
        for (; x + n <= last; x += n) hn::StoreU(threshold_lanes(other, rows, y, x), d, threshold + x);
        for (; x < scored.right; ++x) threshold[x] = masking_threshold(other, width, height, y, x);
    }
    for (int theta = 0; theta < kOrientations; ++theta) {
        float* out = terms + std::size_t(theta) * width;
        int x = scored.left;
        for (; x + n <= scored.right; x += n) {
            // masked_term(): |weighted| - threshold, x < 0 ? 0 : x (a NaN stays).
            VF v = hn::Sub(hn::Abs(hn::LoadU(d, measured[theta] + x)), hn::LoadU(d, threshold + x));
            v = hn::IfThenElse(hn::Lt(v, zero), zero, v);
            hn::StoreU(cube_or_argument(v, cube), d, out + x);
        }
        for (; x < scored.right; ++x) {
            float v = std::fabs(measured[theta][x]) - threshold[x];
            v = v < 0.0f ? 0.0f : v;
            out[x] = cube ? v * v * v : v;
        }
    }
    row_chains(terms, std::size_t(width), scored, cube, p_norm, row_sums);
}

void reference_sums(const float* const reference_rows[kOrientations], const float weight[kOrientations],
                    const Region& scored, double p_norm, float* terms, float row_sums[kOrientations])
{
    const DF d;
    const int n = static_cast<int>(hn::Lanes(d));
    const bool cube = p_norm == 3.0;
    // The terms of column j at terms[theta * scored.right + j].
    const std::size_t stride = static_cast<std::size_t>(scored.right);
    for (int theta = 0; theta < kOrientations; ++theta) {
        const float* row = reference_rows[theta];
        float* out = terms + theta * stride;
        const VF w = hn::Set(d, weight[theta]);
        int x = scored.left;
        for (; x + n <= scored.right; x += n)
            hn::StoreU(cube_or_argument(hn::Abs(hn::Mul(w, hn::LoadU(d, row + x))), cube), d, out + x);
        for (; x < scored.right; ++x) {
            const float v = std::fabs(weight[theta] * row[x]);
            out[x] = cube ? v * v * v : v;
        }
    }
    row_chains(terms, stride, scored, cube, p_norm, row_sums);
}

}  // namespace

Kernels simd_kernels_here() { return {vertical, horizontal, decouple, masked_row_sums, reference_sums}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::float_adm::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::float_adm {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::float_adm
#endif
