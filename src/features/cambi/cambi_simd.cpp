// Highway SIMD of cambi's row kernels (cambi_kernels.h), compiled once per
// instruction set. All integer: the mask's window sums are the 7 column sums
// added directly (at most 49, in 16-bit lanes) instead of through a prefix
// sum, the same integers; the decimation picks the even lanes of two
// vectors. The c-values run one column per 32-bit lane: the histogram
// entries and reciprocals are gathered, each contrast step's product and
// float multiply is the scalar one per lane, and the running maximum keeps
// the scalar's strict `val > best` (all values are >= 0, never NaN).
// The histograms' row step adds each window's span a vector at a time.
// Columns that do not fill a vector, and the mask's first and last 3 (whose
// windows are cut by the frame), run the reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/cambi/cambi_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <bit>

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

void c_values_row(const std::uint16_t* histograms, unsigned w, const std::uint8_t* mask, const std::uint16_t* image,
                  const ContrastParams& p, const float* reciprocal, float* out)
{
    const hn::ScalableTag<std::int32_t> di;
    const hn::Rebind<std::uint16_t, decltype(di)> d16;
    const hn::Rebind<std::uint8_t, decltype(di)> d8;
    const hn::Rebind<float, decltype(di)> df;
    const unsigned n = static_cast<unsigned>(hn::Lanes(di));
    // A 16-bit entry is gathered as the 32 bits at its byte offset (the
    // buffer has the entries after the last one to spare) and cut to its half.
    const std::int32_t* words = reinterpret_cast<const std::int32_t*>(histograms);
    constexpr bool little = std::endian::native == std::endian::little;
    const auto width = hn::Set(di, static_cast<std::int32_t>(w));
    const auto low_half = hn::Set(di, 0xffff);
    const auto minus_one = hn::Set(di, -1);
    const auto base = hn::Set(di, p.band_base);
    const auto size = hn::Set(di, p.band_size);
    const auto num_diffs = hn::Set(di, p.num_diffs);
    const auto vlt = hn::Set(di, p.vlt_luma);
    // histograms[value * w + col] where `valid`, else 0 (read at entry 0).
    const auto entry = [&](auto valid, auto value, auto col) {
        const auto offset = hn::ShiftLeft<1>(hn::IfThenElseZero(valid, hn::Add(hn::Mul(value, width), col)));
        const auto bits = hn::GatherOffset(di, words, offset);
        return hn::IfThenElseZero(valid, little ? hn::And(bits, low_half) : hn::ShiftRight<16>(bits));
    };
    unsigned c = 0;
    for (; c + n <= w; c += n) {
        const auto masked = hn::Ne(hn::PromoteTo(di, hn::LoadU(d8, mask + c)), hn::Zero(di));
        if (hn::AllFalse(di, masked)) continue;  // out untouched
        const auto u = hn::PromoteTo(di, hn::LoadU(d16, image + c));
        const auto compact = hn::Sub(u, base);
        const auto active = hn::And(masked, hn::And(hn::Gt(compact, minus_one), hn::Lt(compact, size)));
        auto best = hn::Zero(df);
        if (!hn::AllFalse(di, active)) {
            const auto col = hn::Iota(di, static_cast<std::int32_t>(c));
            const auto value = hn::Add(u, num_diffs);
            const auto p0 = entry(active, compact, col);
            for (int d = 0; d < p.num_diffs; ++d) {
                const auto step = hn::Set(di, d + 1);
                // value <= tvi[d] && value + d + 1 > vlt_luma
                const auto visible = hn::And(hn::Lt(value, hn::Set(di, p.tvi[d] + 1)), hn::Gt(hn::Add(value, step), vlt));
                const auto on = hn::And(active, visible);
                if (hn::AllFalse(di, on)) continue;
                const auto down = hn::Sub(compact, step);
                const auto p1 = entry(on, hn::Add(compact, step), col);
                const auto p2 = entry(hn::And(on, hn::Gt(down, minus_one)), down, col);
                const auto pm = hn::Max(p1, p2);
                const auto product = hn::Mul(hn::Mul(hn::Set(di, contrast_weight(d)), p0), pm);
                const auto r = hn::GatherIndex(df, reciprocal, hn::IfThenElseZero(on, hn::Add(pm, p0)));
                const auto val = hn::Mul(hn::ConvertTo(df, product), r);
                best = hn::IfThenElse(hn::And(hn::RebindMask(df, on), hn::Gt(val, best)), val, best);
            }
        }
        // Masked columns outside the band get 0, as c_value() gives.
        hn::StoreU(hn::IfThenElse(hn::RebindMask(df, masked), best, hn::LoadU(df, out + c)), df, out + c);
    }
    for (; c < w; ++c)
        if (mask[c]) out[c] = c_value(histograms, w, static_cast<int>(c), image[c], p, reciprocal);
}

// In place: each vector is loaded before its non-zero lanes are stored at
// or before its own position, and only those lanes are written.
std::size_t compact_nonzero(float* values, std::size_t n)
{
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t nonzero = 0, i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto v = hn::LoadU(d, values + i);
        nonzero += hn::CompressBlendedStore(v, hn::Ne(v, hn::Zero(d)), d, values + nonzero);
    }
    for (; i < n; ++i) {
        const float v = values[i];
        values[nonzero] = v;
        nonzero += v != 0.0f;
    }
    return nonzero;
}

// c_value_fixed() per 64-bit lane: mantissa << (exponent - 110), 0 for 0;
// the two halves summed in 64-bit lanes (integer sums, any order).
void add_fixed_values(const float* values, std::size_t n, FixedSum& sum)
{
    const hn::ScalableTag<std::uint64_t> d64;
    const hn::Rebind<std::uint32_t, decltype(d64)> d32;
    const std::size_t lanes = hn::Lanes(d64);
    const auto* bits = reinterpret_cast<const std::uint32_t*>(values);
    auto high = hn::Zero(d64), low = hn::Zero(d64);
    const auto low_half = hn::Set(d64, 0xffffffffULL);
    std::size_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto u = hn::PromoteTo(d64, hn::LoadU(d32, bits + i));
        const auto nonzero = hn::Ne(u, hn::Zero(d64));
        const auto mantissa = hn::Or(hn::And(u, hn::Set(d64, 0x7fffffULL)), hn::Set(d64, 0x800000ULL));
        const auto shift = hn::IfThenElseZero(
            nonzero, hn::Sub(hn::ShiftRight<23>(u), hn::Set(d64, 150 - kFixedFractionBits)));
        const auto fixed = hn::IfThenElseZero(nonzero, hn::Shl(mantissa, shift));
        high = hn::Add(high, hn::ShiftRight<32>(fixed));
        low = hn::Add(low, hn::And(fixed, low_half));
    }
    sum.high += hn::GetLane(hn::SumOfLanes(d64, high));
    sum.low += hn::GetLane(hn::SumOfLanes(d64, low));
    for (; i < n; ++i) add_fixed(sum, c_value_fixed(values[i]));
}

// The histograms' row step: per changed column, its values' histogram rows
// get -1 and +1 over the window's span [lo, hi), a vector of 16-bit lanes at
// a time (uint16 wrapping, as the reference's entry by entry; integer adds
// in any order). The entries after the last whole vector of a span run the
// reference's loop. (Grouping runs of equal columns first did fewer adds
// but was 20 % slower on the 16-core Xeon: the step waits on memory, and
// the span adds stream through each row's entries once.)
HWY_INLINE void add_span(std::uint16_t* h, int lo, int hi, std::uint16_t delta)
{
    const hn::ScalableTag<std::uint16_t> d;
    const int n = static_cast<int>(hn::Lanes(d));
    const auto step = hn::Set(d, delta);
    int k = lo;
    for (; k + n <= hi; k += n) hn::StoreU(hn::Add(hn::LoadU(d, h + k), step), d, h + k);
    add_span_entries(h, k, hi, delta);
}

void slide_row(std::uint16_t* histograms, unsigned w, const std::int16_t* leaving, const std::int16_t* entering,
               unsigned columns, unsigned pad)
{
    for_each_slide_span(histograms, w, leaving, entering, columns, pad,
                        [](std::uint16_t* h, int lo, int hi, std::uint16_t delta) { add_span(h, lo, hi, delta); });
}

}  // namespace

Kernels simd_kernels_here()
{
    return {mask_row, decimate<std::uint16_t>, decimate<std::uint8_t>, c_values_row, compact_nonzero,
            add_fixed_values, slide_row};
}
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
