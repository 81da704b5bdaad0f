// Highway SIMD of cambi's row kernels (cambi_kernels.h), compiled once per
// instruction set. All integer: the mask's window sums are the 7 column sums
// added directly (at most 49, in 16-bit lanes) instead of through a prefix
// sum, the same integers; the decimation picks the even lanes of two
// vectors. Columns that do not fill a vector, and the mask's first and last
// 3 (whose windows are cut by the frame), run the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/cambi/cambi_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/simd.h"
#include "features/cambi/cambi_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace twinvmaf::cambi::HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR
Kernels simd_kernels_here() { return reference_kernels(); }
#else
namespace {

namespace hn = hwy::HWY_NAMESPACE;

void mask_row(const std::uint16_t* column_sums, unsigned w, unsigned threshold, std::uint32_t* prefix,
              std::uint8_t* mask)
{
    constexpr unsigned half = kMaskFilterSize / 2;
    const hn::ScalableTag<std::uint16_t> d16;
    const hn::Rebind<std::uint8_t, decltype(d16)> d8;  // one byte per lane
    const unsigned n = static_cast<unsigned>(hn::Lanes(d16));
    if (w < 2 * half + n) return reference_kernels().mask_row(column_sums, w, threshold, prefix, mask);
    // Thresholds above 49 mask nothing; clamped, they fit a lane.
    const hn::RebindToSigned<decltype(d16)> di16;
    const auto limit = hn::Set(d16, static_cast<std::uint16_t>(threshold < 0xffffu ? threshold : 0xffffu));
    const auto one = hn::Set(di16, 1);
    // Columns [half, w - half) have whole windows.
    unsigned c = half;
    for (; c + n <= w - half; c += n) {
        const std::uint16_t* p = column_sums + c - half;
        auto sum = hn::LoadU(d16, p);
        for (unsigned k = 1; k < kMaskFilterSize; ++k) sum = hn::Add(sum, hn::LoadU(d16, p + k));
        // 0 or 1 in signed lanes (Highway demotes those to bytes).
        const auto in = hn::IfThenElseZero(hn::RebindMask(di16, hn::Gt(sum, limit)), one);
        hn::StoreU(hn::DemoteTo(d8, in), d8, mask + c);
    }
    // The edges and the rest: the window sums directly.
    const auto scalar = [&](unsigned x) {
        const unsigned lo = x >= half ? x - half : 0;
        const unsigned hi = x + half + 1 < w ? x + half + 1 : w;
        unsigned sum = 0;
        for (unsigned k = lo; k < hi; ++k) sum += column_sums[k];
        mask[x] = sum > threshold;
    };
    for (unsigned x = 0; x < half; ++x) scalar(x);
    for (; c < w; ++c) scalar(c);
}

template <class T>
void decimate(T* data, std::size_t stride, unsigned w, unsigned h)
{
    const hn::ScalableTag<T> d;
    const unsigned n = static_cast<unsigned>(hn::Lanes(d));
    for (unsigned i = 0; i < h; ++i) {
        const T* src = data + 2 * i * stride;
        T* dst = data + i * stride;
        unsigned j = 0;
        // Both loads before the store: in row 0 (in place) they are ahead of it.
        for (; j + n < w; j += n) {  // reads stay inside the source row: 2j + 2n - 1 < 2w - 1
            const auto first = hn::LoadU(d, src + 2 * j);
            const auto second = hn::LoadU(d, src + 2 * j + n);
            hn::StoreU(hn::ConcatEven(d, second, first), d, dst + j);
        }
        for (; j < w; ++j) dst[j] = src[2 * j];
    }
}

}  // namespace

Kernels simd_kernels_here() { return {mask_row, decimate<std::uint16_t>, decimate<std::uint8_t>}; }
#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace twinvmaf::cambi::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace twinvmaf::cambi {

HWY_EXPORT(simd_kernels_here);

Kernels simd_kernels()
{
    simd::configure();
    return HWY_DYNAMIC_DISPATCH(simd_kernels_here)();
}

}  // namespace twinvmaf::cambi
#endif
