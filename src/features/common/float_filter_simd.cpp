// Highway SIMD of the float filter family's row kernels, compiled once per
// instruction set: the shared separable filter's passes
// (float_filter_kernels.h: SpEED, float VIF, float motion) and float VIF's
// five-moment vertical pass (float_vif_kernels.h).
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
// the reference arithmetic. No comparisons, so NaN and -0 follow the same
// IEEE additions and multiplications as in the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/common/float_filter_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

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
// from an output's own position; out = sum_k taps[k] * base[offset[k] + c].
template <int kCount>
HWY_INLINE void tap_sums(const float* taps, int ntaps, const float* base, const std::ptrdiff_t* offset,
                         std::ptrdiff_t c, float* out)
{
    const DF d;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(d));
    VF acc[kCount];
    for (int b = 0; b < kCount; ++b) acc[b] = hn::Zero(d);
    for (int k = 0; k < ntaps; ++k) {
        const VF f = hn::Set(d, taps[k]);
        const float* p = base + (offset[k] + c);
        for (int b = 0; b < kCount; ++b) acc[b] = hn::Add(acc[b], hn::Mul(f, hn::LoadU(d, p + b * n)));
    }
    for (int b = 0; b < kCount; ++b) hn::StoreU(acc[b], d, out + c + b * n);
}

// Outputs lo .. hi-1 at positions c (step 1).
void sums_over(const float* taps, int ntaps, const float* base, const std::ptrdiff_t* offset, std::ptrdiff_t lo,
               std::ptrdiff_t hi, float* out)
{
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(DF()));
    std::ptrdiff_t c = lo;
    for (; c + kBlocks * n <= hi; c += kBlocks * n) tap_sums<kBlocks>(taps, ntaps, base, offset, c, out);
    for (; c + n <= hi; c += n) tap_sums<1>(taps, ntaps, base, offset, c, out);
    for (; c < hi; ++c) out[c] = filter_taps(taps, ntaps, [&](int k) { return base[offset[k] + c]; });
}

// Step 2: output j reads base[2 j + offset[k]]; the even lanes of a pair of
// vectors from there. The pair reads one sample past the last output's
// last tap, so the vectors stop one output before hi (inside the row).
template <int kCount>
HWY_INLINE void tap_sums_step2(const float* taps, int ntaps, const float* base, const std::ptrdiff_t* offset,
                               std::ptrdiff_t j, float* out)
{
    const DF d;
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(d));
    VF acc[kCount];
    for (int b = 0; b < kCount; ++b) acc[b] = hn::Zero(d);
    for (int k = 0; k < ntaps; ++k) {
        const VF f = hn::Set(d, taps[k]);
        const float* p = base + (2 * j + offset[k]);
        for (int b = 0; b < kCount; ++b) {
            VF even, odd;
            hn::LoadInterleaved2(d, p + 2 * b * n, even, odd);
            acc[b] = hn::Add(acc[b], hn::Mul(f, even));
        }
    }
    for (int b = 0; b < kCount; ++b) hn::StoreU(acc[b], d, out + j + b * n);
}

void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out)
{
    if (ntaps > kMaxTaps) return reference_kernels().vertical_pass(taps, ntaps, src, w, h, row, out);
    const int radius = ntaps / 2;
    std::ptrdiff_t offset[kMaxTaps];
    for (int k = 0; k < ntaps; ++k) offset[k] = static_cast<std::ptrdiff_t>(mirror_tap(row - radius + k, h)) * w;
    sums_over(taps, ntaps, src, offset, 0, w, out);
}

void horizontal_interior(const float* taps, int ntaps, const float* in, int step, int lo, int hi, float* out)
{
    if (ntaps > kMaxTaps || step > 2) return reference_kernels().horizontal_interior(taps, ntaps, in, step, lo, hi, out);
    const int radius = ntaps / 2;
    std::ptrdiff_t offset[kMaxTaps];
    for (int k = 0; k < ntaps; ++k) offset[k] = k - radius;
    if (step == 1) return sums_over(taps, ntaps, in, offset, lo, hi, out);
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(hn::Lanes(DF()));
    std::ptrdiff_t j = lo;
    for (; j + kBlocks * n < hi; j += kBlocks * n) tap_sums_step2<kBlocks>(taps, ntaps, in, offset, j, out);
    for (; j + n < hi; j += n) tap_sums_step2<1>(taps, ntaps, in, offset, j, out);
    for (; j < hi; ++j) out[j] = filter_taps(taps, ntaps, [&](int k) { return in[2 * j + offset[k]]; });
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

}  // namespace

Kernels simd_kernels_here() { return {vertical_moments}; }
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
