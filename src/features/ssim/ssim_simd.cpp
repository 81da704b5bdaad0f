// Highway SIMD of float_ssim's and float_ms_ssim's row kernels
// (ssim_kernels.h), compiled once per instruction set. A lane is one map
// position or one decimated sample, in a 64-bit lane: each filter output is
// its float products (hn::Mul in float) promoted to double and added tap by
// tap in the reference's order into a double that starts at 0.0, then
// rounded to float (core/simd_to_float-inl.h); the terms are lcs_terms() step by step at
// the reference's precision (float where it computes in float, double where
// it promotes). No fused multiply-add (the project compiles with
// -ffp-contract=off, and Highway's Mul and Add are single operations); Div
// and Sqrt are IEEE-exact. The clamps are IfThenElse on the reference's
// comparisons, which give its results for NaN and -0 (a NaN compares false
// and stays; -0 is not below 0 and stays). Columns after the last whole
// vector, and the decimation's mirrored columns, run the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ssim/ssim_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstddef>
#include <cstdint>

#include "core/simd.h"
#include "core/simd_to_float-inl.h"
#include "features/ssim/ssim_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::ssim::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::to_float_as_cast;
using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using DF = hn::Rebind<float, D>;  // one float per 64-bit lane
using VF = hn::Vec<DF>;

static_assert(sizeof(LcsTerms) == 3 * sizeof(double), "LcsTerms is stored as three interleaved doubles");

// sum + (double)(sample * tap): one tap of a filter.
HWY_INLINE V add_tap(V sum, VF sample, VF tap) { return hn::Add(sum, hn::PromoteTo(D(), hn::Mul(sample, tap))); }

void horizontal_row(const float* ref, const float* dis, int map_width, float* const out[kMomentMaps])
{
    const D d;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(d));
    constexpr GaussianTaps kTaps = gaussian_taps();
    int x = 0;
    for (; x + lanes <= map_width; x += lanes) {
        V sum[kMomentMaps];
        for (V& s : sum) s = hn::Zero(d);
        for (int k = 0; k < kWindow; ++k) {
            const VF tap = hn::Set(df, kTaps.tap[k]);
            const VF r = hn::LoadU(df, ref + x + k), s = hn::LoadU(df, dis + x + k);
            // moment_sample(): ref, dis, ref * ref, dis * dis, ref * dis in float
            sum[kMuRef] = add_tap(sum[kMuRef], r, tap);
            sum[kMuDis] = add_tap(sum[kMuDis], s, tap);
            sum[kRefSq] = add_tap(sum[kRefSq], hn::Mul(r, r), tap);
            sum[kDisSq] = add_tap(sum[kDisSq], hn::Mul(s, s), tap);
            sum[kRefDis] = add_tap(sum[kRefDis], hn::Mul(r, s), tap);
        }
        for (int map = 0; map < kMomentMaps; ++map) hn::StoreU(to_float_as_cast(df, sum[map]), df, out[map] + x);
    }
    if (x < map_width) {  // the rest by the reference, on rows starting at x
        float* rest[kMomentMaps];
        for (int map = 0; map < kMomentMaps; ++map) rest[map] = out[map] + x;
        reference_kernels().horizontal_row(ref + x, dis + x, map_width - x, rest);
    }
}

void terms_row(const float* const rows[kMomentMaps][kWindow], int map_width, float* const moments[kMomentMaps],
               LcsTerms* terms)
{
    const D d;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(d));
    constexpr GaussianTaps kTaps = gaussian_taps();
    const VF zero = hn::Zero(df);
    int x = 0;
    for (; x + lanes <= map_width; x += lanes) {
        VF m[kMomentMaps];
        for (int map = 0; map < kMomentMaps; ++map) {
            V sum = hn::Zero(d);
            for (int k = 0; k < kWindow; ++k)
                sum = add_tap(sum, hn::LoadU(df, rows[map][k] + x), hn::Set(df, kTaps.tap[k]));
            m[map] = to_float_as_cast(df, sum);
        }
        // lcs_terms(), operation by operation.
        VF ref_var = hn::Sub(m[kRefSq], hn::Mul(m[kMuRef], m[kMuRef]));
        VF dis_var = hn::Sub(m[kDisSq], hn::Mul(m[kMuDis], m[kMuDis]));
        ref_var = hn::IfThenElse(hn::Lt(ref_var, zero), zero, ref_var);  // 0.0 > v ? 0 : v
        dis_var = hn::IfThenElse(hn::Lt(dis_var, zero), zero, dis_var);
        const VF covariance = hn::Sub(m[kRefDis], hn::Mul(m[kMuRef], m[kMuDis]));
        const VF sigma_product = to_float_as_cast(df, hn::Sqrt(hn::PromoteTo(d, hn::Mul(ref_var, dis_var))));
        const V mu_ref = hn::PromoteTo(d, m[kMuRef]), mu_dis = hn::PromoteTo(d, m[kMuDis]);
        // l = (2.0 * mu_ref * mu_dis + C1) / (float: mu_ref^2 + mu_dis^2 + C1)
        const V l = hn::Div(hn::Add(hn::Mul(hn::Mul(hn::Set(d, 2.0), mu_ref), mu_dis), hn::Set(d, kC1)),
                            hn::PromoteTo(d, hn::Add(hn::Add(hn::Mul(m[kMuRef], m[kMuRef]),
                                                             hn::Mul(m[kMuDis], m[kMuDis])),
                                                     hn::Set(df, kC1))));
        // c = (2.0 * sigma_product + C2) / (float: ref_var + dis_var + C2)
        const V c = hn::Div(hn::Add(hn::Mul(hn::Set(d, 2.0), hn::PromoteTo(d, sigma_product)), hn::Set(d, kC2)),
                            hn::PromoteTo(d, hn::Add(hn::Add(ref_var, dis_var), hn::Set(df, kC2))));
        // s = (covariance, 0 where negative and sigma_product <= 0, + C3) / (sigma_product + C3), in float
        const auto flat = hn::And(hn::Lt(covariance, zero), hn::Le(sigma_product, zero));
        const VF clamped = hn::IfThenElse(flat, zero, covariance);
        const V s = hn::PromoteTo(
            d, hn::Div(hn::Add(clamped, hn::Set(df, kC3)), hn::Add(sigma_product, hn::Set(df, kC3))));
        hn::StoreInterleaved3(l, c, s, d, reinterpret_cast<double*>(terms + x));
    }
    if (x < map_width) {  // the rest by the reference, on rows starting at x
        const float* rest_rows[kMomentMaps][kWindow];
        for (int map = 0; map < kMomentMaps; ++map)
            for (int k = 0; k < kWindow; ++k) rest_rows[map][k] = rows[map][k] + x;
        reference_kernels().terms_row(rest_rows, map_width - x, moments, terms + x);
    }
}

// Samples p[i * kFactor + q] for the lanes i and q < kFactor (kFactor 0: any
// factor, by a gather; q = 0 only).
template <int kFactor>
HWY_INLINE void load_phases(const float* p, int factor, VF* phase)
{
    const DF df;
    if constexpr (kFactor == 2) {
        hn::LoadInterleaved2(df, p, phase[0], phase[1]);
    } else if constexpr (kFactor == 4) {
        hn::LoadInterleaved4(df, p, phase[0], phase[1], phase[2], phase[3]);
    } else {
        const hn::RebindToSigned<DF> di;
        phase[0] = hn::GatherIndex(df, p, hn::Mul(hn::Iota(di, 0), hn::Set(di, factor)));
    }
}

// kBlocks vectors of output samples from x on (row `rows`: the size rows
// under the kernel, top to bottom), decimated_sample() one sample per lane;
// the blocks' sums are independent chains, interleaved so that one's
// latency hides behind the others.
template <int kFactor, int kBlocks>
HWY_INLINE void decimate_vectors(const float* const* rows, int factor, int size, const float* weights, int x,
                                 float* o)
{
    const D d;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(d));
    const int half = size / 2;
    const int step = kFactor == 0 ? 1 : kFactor;  // taps read by one load
    V sum[kBlocks];
    for (V& s : sum) s = hn::Zero(d);
    int k = 0;
    for (int v = 0; v < size; ++v) {
        const float* p = rows[v] + x * factor - half;
        for (int u = 0; u < size; u += step) {
            VF phase[kBlocks][4];
            for (int b = 0; b < kBlocks; ++b) load_phases<kFactor>(p + b * lanes * factor + u, factor, phase[b]);
            for (int q = 0; q < step && u + q < size; ++q, ++k) {
                const VF w = hn::Set(df, weights[k]);
                for (int b = 0; b < kBlocks; ++b) sum[b] = add_tap(sum[b], phase[b][q], w);
            }
        }
    }
    for (int b = 0; b < kBlocks; ++b) hn::StoreU(to_float_as_cast(df, sum[b]), df, o + x + b * lanes);
}

// Output samples [x_begin, x_end) of a row, their kernels inside the width
// and reading no further than kernel_read_end(), in whole vectors; returns
// where the vectors end.
template <int kFactor>
int decimate_columns(const float* const* rows, int factor, int size, const float* weights, int x_begin, int x_end,
                     float* o)
{
    constexpr int kBlocks = 4;
    const int lanes = static_cast<int>(hn::Lanes(D()));
    int x = x_begin;
    for (; x + kBlocks * lanes <= x_end; x += kBlocks * lanes)
        decimate_vectors<kFactor, kBlocks>(rows, factor, size, weights, x, o);
    for (; x + lanes <= x_end; x += lanes) decimate_vectors<kFactor, 1>(rows, factor, size, weights, x, o);
    return x;
}

// The last sample a SIMD output at centre c reads, + 1: the kernel's last
// tap, or the end of its last interleaved load (whole groups of kFactor).
template <int kFactor>
int kernel_read_end(int c, int size)
{
    const int step = kFactor == 0 ? 1 : kFactor;
    return c - size / 2 + (size + step - 1) / step * step;
}

template <int kFactor>
void decimate_simd(const float* in, int width, int height, int factor, int size, const float* weights, float* out)
{
    const auto weight = [weights](int k) { return weights[k]; };
    const int out_w = decimated_size(width, factor), out_h = decimated_size(height, factor);
    int inside_begin = 0;
    while (inside_begin < out_w && !kernel_inside(inside_begin * factor, width, size)) ++inside_begin;
    int inside_end = inside_begin;
    while (inside_end < out_w && kernel_inside(inside_end * factor, width, size) &&
           kernel_read_end<kFactor>(inside_end * factor, size) <= width)
        ++inside_end;
    const int half = size / 2;
    const float* rows[kLowPassSize > 16 ? kLowPassSize : 16];
    for (int y = 0; y < out_h; ++y) {
        float* o = out + static_cast<std::size_t>(y) * out_w;
        const int cy = y * factor;
        // The rows under the kernel: mirror() is the identity where it is inside.
        for (int v = 0; v < size; ++v) rows[v] = in + static_cast<std::ptrdiff_t>(mirror(cy - half + v, height)) * width;
        for (int x = 0; x < inside_begin; ++x)
            o[x] = decimated_sample<true>(in, width, height, x * factor, cy, size, weight);
        const int done = decimate_columns<kFactor>(rows, factor, size, weights, inside_begin, inside_end, o);
        for (int x = done; x < out_w; ++x)
            o[x] = decimated_sample<true>(in, width, height, x * factor, cy, size, weight);
    }
}

void decimate(const float* in, int width, int height, int factor, int size, const float* weights, float* out)
{
    if (size > 16) return reference_kernels().decimate(in, width, height, factor, size, weights, out);
    if (factor == 2) return decimate_simd<2>(in, width, height, factor, size, weights, out);
    if (factor == 4) return decimate_simd<4>(in, width, height, factor, size, weights, out);
    decimate_simd<0>(in, width, height, factor, size, weights, out);
}

}  // namespace

Kernels simd_kernels_here() { return {horizontal_row, terms_row, decimate}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::ssim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::ssim {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::ssim
#endif
