// Highway SIMD of psnr_hvs's block kernel (psnr_hvs_kernels.h), compiled once
// per instruction set. Across blocks: lane k of a vector is block k of a
// group of neighbouring blocks of the row, and every lane does exactly
// psnr_hvs_math.h's block_terms() in its own order: the int32 DCT in 32-bit
// lanes (products and sums wrap as the reference's uint32 casts, right
// shifts of signed lanes are arithmetic as x86's), the float statistics as
// float chains in raster order, the threshold's sqrt and / 32 in double. The
// lanes after the row's last block repeat that block and are not stored, so
// every block, the last group's included, runs this same arithmetic.
//
// The DCT, statistics, threshold and load are HWY_NOINLINE: inlined into one
// function of 64-vector arrays, clang 15 with ASan (the fuzz build) took
// over a minute of register allocation per target; apart they cost a few
// seconds, and the release kernel about 5 %.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/psnr_hvs/psnr_hvs_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>

#include "core/simd.h"
#include "features/psnr_hvs/psnr_hvs_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::psnr_hvs::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DI = hn::ScalableTag<std::int32_t>;
using DU = hn::RebindToUnsigned<DI>;
using DF = hn::ScalableTag<float>;
using DF64 = hn::Repartition<double, DF>;
using VI = hn::Vec<DI>;
using VF = hn::Vec<DF>;
constexpr std::size_t kMaxLanes = hn::MaxLanes(DI());

// One group's samples as loaded, sample c = i * kBlockSize + j of lane k in
// [c][k]; and its DCT coefficients, coefficient c of every lane in [c].
using Samples = std::int32_t[kCoefficients][kMaxLanes];
using Block = VI[kCoefficients];

// unbiased_shift(a, 1): the sign bit added, then an arithmetic shift.
HWY_INLINE VI half_towards_zero(VI a)
{
    return hn::ShiftRight<1>(hn::Add(hn::BitCast(DI(), hn::ShiftRight<31>(hn::BitCast(DU(), a))), a));
}

// lift(a, kFactor, kBias, kShift): the product wraps as the reference's.
template <int kFactor, int kBias, int kShift>
HWY_INLINE VI lift(VI a)
{
    return hn::ShiftRight<kShift>(hn::Add(hn::Mul(a, hn::Set(DI(), kFactor)), hn::Set(DI(), kBias)));
}

// fdct8() of psnr_hvs_math.h, step for step: x(0..7) -> y[0..7].
template <class Input>
HWY_INLINE void fdct8(VI* y, const Input& x)
{
    VI t0 = x(0), t4 = x(1), t2 = x(2), t6 = x(3);
    VI t7 = x(4), t3 = x(5), t5 = x(6), t1 = x(7);
    t1 = hn::Sub(t0, t1);
    const VI t1h = half_towards_zero(t1);
    t0 = hn::Sub(t0, t1h);
    t4 = hn::Add(t4, t5);
    const VI t4h = half_towards_zero(t4);
    t5 = hn::Sub(t5, t4h);
    t3 = hn::Sub(t2, t3);
    t2 = hn::Sub(t2, half_towards_zero(t3));
    t6 = hn::Add(t6, t7);
    const VI t6h = half_towards_zero(t6);
    t7 = hn::Sub(t6h, t7);
    t0 = hn::Add(t0, t6h);
    t6 = hn::Sub(t0, t6);
    t2 = hn::Sub(t4h, t2);
    t4 = hn::Sub(t2, t4);
    t0 = hn::Sub(t0, lift<13573, 16384, 15>(t4));
    t4 = hn::Add(t4, lift<11585, 8192, 14>(t0));
    t0 = hn::Sub(t0, lift<13573, 16384, 15>(t4));
    t6 = hn::Sub(t6, lift<21895, 16384, 15>(t2));
    t2 = hn::Add(t2, lift<15137, 8192, 14>(t6));
    t6 = hn::Sub(t6, lift<21895, 16384, 15>(t2));
    t3 = hn::Add(t3, lift<19195, 16384, 15>(t5));
    t5 = hn::Add(t5, lift<11585, 8192, 14>(t3));
    t3 = hn::Sub(t3, lift<7489, 4096, 13>(t5));
    t7 = hn::Sub(half_towards_zero(t5), t7);
    t5 = hn::Sub(t5, t7);
    t3 = hn::Sub(t1h, t3);
    t1 = hn::Sub(t1, t3);
    t7 = hn::Add(t7, lift<3227, 16384, 15>(t1));
    t1 = hn::Sub(t1, lift<6393, 16384, 15>(t7));
    t7 = hn::Add(t7, lift<3227, 16384, 15>(t1));
    t5 = hn::Add(t5, lift<2485, 4096, 13>(t3));
    t3 = hn::Sub(t3, lift<18205, 16384, 15>(t5));
    t5 = hn::Add(t5, lift<2485, 4096, 13>(t3));
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

// The plane's serial float chain over the previous group's terms, in their
// order, advanced `step` terms at a time between this group's vector steps,
// so that its latency hides behind them (block_row).
struct Chain {
    const float* next;
    const float* end;
    int step;
    float sum;

    // In locals: `sum` could alias a term for all the compiler knows, which
    // would store it at every addition.
    HWY_INLINE void advance()
    {
        const float* p = next;
        float s = sum;
        for (int n = 0; n < step && p != end; ++n) s += *p++;
        next = p;
        sum = s;
    }
    HWY_INLINE void finish()
    {
        while (next != end) sum += *next++;
    }
};

// fdct8x8(): the samples' columns into a temporary's rows, then its columns
// into the coefficients' rows.
HWY_NOINLINE void fdct8x8(const Samples& samples, Block& coefficients, Chain& chain)
{
    Block columns;
    for (int i = 0; i < kBlockSize; ++i) {
        fdct8(columns + kBlockSize * i, [&](int k) { return hn::Load(DI(), samples[k * kBlockSize + i]); });
        chain.advance();
    }
    for (int i = 0; i < kBlockSize; ++i) {
        fdct8(coefficients + kBlockSize * i, [&](int k) { return columns[k * kBlockSize + i]; });
        chain.advance();
    }
}

// variance_ratio(): the same float chains, the int32 samples converted to
// float (rounded to nearest, as C's conversion) where the reference does.
HWY_NOINLINE VF variance_ratio(const Samples& v, Chain& chain)
{
    const DF df;
    VF mean = hn::Zero(df);
    VF quadrant_means[4] = {mean, mean, mean, mean};
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            const VF x = hn::ConvertTo(df, hn::Load(DI(), v[i * kBlockSize + j]));
            mean = hn::Add(mean, x);
            quadrant_means[quadrant(i, j)] = hn::Add(quadrant_means[quadrant(i, j)], x);
        }
        chain.advance();
    }
    mean = hn::Div(mean, hn::Set(df, 64.f));
    for (VF& m : quadrant_means) m = hn::Div(m, hn::Set(df, 16.f));
    VF variance = hn::Zero(df);
    VF quadrant_variances[4] = {variance, variance, variance, variance};
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            const int q = quadrant(i, j);
            const VF x = hn::ConvertTo(df, hn::Load(DI(), v[i * kBlockSize + j]));
            const VF dm = hn::Sub(x, mean), dq = hn::Sub(x, quadrant_means[q]);
            variance = hn::Add(variance, hn::Mul(dm, dm));
            quadrant_variances[q] = hn::Add(quadrant_variances[q], hn::Mul(dq, dq));
        }
        chain.advance();
    }
    variance = hn::Mul(variance, hn::Set(df, 1 / 63.f * 64));
    for (VF& q : quadrant_variances) q = hn::Mul(q, hn::Set(df, 1 / 15.f * 16));
    const VF quadrant_sum = hn::Add(hn::Add(hn::Add(quadrant_variances[0], quadrant_variances[1]), quadrant_variances[2]),
                                    quadrant_variances[3]);
    // The division's result only where variance > 0, as the reference's `if`.
    return hn::IfThenElse(hn::Gt(variance, hn::Zero(df)), hn::Div(quadrant_sum, variance), variance);
}

// masking_threshold(): the energy chain in raster order (square wrapping in
// int32, then converted), times the ratio in float; sqrt and / 32 in double,
// then rounded to float, one half of the lanes at a time.
HWY_NOINLINE VF masking_threshold(const Block& c, VF ratio, const float (*mask)[kBlockSize])
{
    const DF df;
    const DF64 dd;
    const hn::Half<DF> dh;
    VF energy = hn::Zero(df);
    for (int k = 1; k < kCoefficients; ++k) {
        const VF square = hn::ConvertTo(df, hn::Mul(c[k], c[k]));
        energy = hn::Add(energy, hn::Mul(square, hn::Set(df, mask[k / kBlockSize][k % kBlockSize])));
    }
    const VF product = hn::Mul(energy, ratio);
    const auto root = [&](auto wide) { return hn::DemoteTo(dh, hn::Div(hn::Sqrt(wide), hn::Set(dd, 32.0))); };
    return hn::Combine(df, root(hn::PromoteTo(dd, hn::UpperHalf(dh, product))),
                       root(hn::PromoteTo(dd, hn::LowerHalf(dh, product))));
}

// Lane k <- the block at 7 * min(first + k, blocks - 1) samples right of p.
template <class Sample>
HWY_NOINLINE void load_group(const Sample* p, std::ptrdiff_t stride, int first, int blocks, Samples& lanes)
{
    // Each block's rows first (contiguous samples), then transposed.
    HWY_ALIGN std::int32_t by_block[kMaxLanes][kCoefficients];
    const int n = static_cast<int>(hn::Lanes(DI()));
    for (int k = 0; k < n; ++k) {
        const Sample* block = p + kBlockStep * std::min(first + k, blocks - 1);
        for (int i = 0; i < kBlockSize; ++i)
            for (int j = 0; j < kBlockSize; ++j) by_block[k][i * kBlockSize + j] = block[i * stride + j];
    }
    for (int c = 0; c < kCoefficients; ++c)
        for (int k = 0; k < n; ++k) lanes[c][k] = by_block[k][c];
}

// block_terms() of the group's blocks first .. first + lanes - 1 (those
// below `blocks` stored); returns how many were stored. Meanwhile `chain`
// adds the previous group's terms (64 advances: 16 per sample block's
// statistics and 16 per DCT, then whatever is left).
template <class Sample>
HWY_INLINE int group_terms(const Sample* ref, std::ptrdiff_t ref_stride, const Sample* dis,
                           std::ptrdiff_t dis_stride, int first, int blocks, const float (*csf)[kBlockSize],
                           const float (*mask)[kBlockSize], float* terms, Chain& chain)
{
    const DF df;
    HWY_ALIGN Samples s_samples, d_samples;
    load_group(ref, ref_stride, first, blocks, s_samples);
    load_group(dis, dis_stride, first, blocks, d_samples);
    const VF s_ratio = variance_ratio(s_samples, chain);
    const VF d_ratio = variance_ratio(d_samples, chain);
    Block s, d;
    fdct8x8(s_samples, s, chain);
    fdct8x8(d_samples, d, chain);
    chain.finish();
    const VF s_threshold = masking_threshold(s, s_ratio, mask);
    const VF d_threshold = masking_threshold(d, d_ratio, mask);
    // `if (d_threshold > threshold) threshold = d_threshold;`, NaN included.
    const VF threshold = hn::IfThenElse(hn::Gt(d_threshold, s_threshold), d_threshold, s_threshold);
    HWY_ALIGN float out[kCoefficients][kMaxLanes];
    for (int k = 0; k < kCoefficients; ++k) {
        // |s - d| of int32 lanes (wrapping as the reference's negation).
        VF err = hn::ConvertTo(df, hn::Abs(hn::Sub(s[k], d[k])));
        if (k != 0) {
            // `err < t ? 0 : err - t`: err - t wherever the comparison is false.
            const VF t = hn::Div(threshold, hn::Set(df, mask[k / kBlockSize][k % kBlockSize]));
            err = hn::IfThenZeroElse(hn::Lt(err, t), hn::Sub(err, t));
        }
        const VF weighted = hn::Mul(err, hn::Set(df, csf[k / kBlockSize][k % kBlockSize]));
        hn::Store(hn::Mul(weighted, weighted), df, out[k]);
    }
    const int stored = std::min(static_cast<int>(hn::Lanes(df)), blocks - first);
    for (int b = 0; b < stored; ++b)
        for (int k = 0; k < kCoefficients; ++k) terms[kCoefficients * (first + b) + k] = out[k][b];
    return stored;
}

// The chain over the terms in block order, as the reference kernel's: group
// g's terms are added while group g + 1 is computed, the last group's after.
template <class Sample>
float block_row(const Sample* ref, std::ptrdiff_t ref_stride, const Sample* dis, std::ptrdiff_t dis_stride,
                int blocks, const float (*csf)[kBlockSize], const float (*mask)[kBlockSize], float* terms, float sum)
{
    const int lanes = static_cast<int>(hn::Lanes(DI()));
    Chain chain{terms, terms, 0, sum};
    for (int first = 0; first < blocks; first += lanes) {
        const int stored = group_terms(ref, ref_stride, dis, dis_stride, first, blocks, csf, mask, terms, chain);
        float* group = terms + kCoefficients * first;
        chain = {group, group + kCoefficients * stored, stored, chain.sum};
    }
    chain.finish();
    return chain.sum;
}

}  // namespace

Kernels simd_kernels_here() { return {block_row<std::uint8_t>, block_row<std::uint16_t>}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::psnr_hvs::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::psnr_hvs {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::psnr_hvs
#endif
