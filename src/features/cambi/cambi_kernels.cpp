// cambi's reference row kernels and the choice between them and the SIMD
// ones (cambi_simd.cpp).
#include "features/cambi/cambi_kernels.h"

#include <algorithm>

#include "core/cpu_dispatch.h"
#include "core/simd.h"

namespace twinvmaf::cambi {

namespace {

// The window sums through a prefix sum of the row's column sums.
void mask_row(const std::uint16_t* column_sums, unsigned w, unsigned threshold, std::uint32_t* prefix,
              std::uint8_t* mask)
{
    constexpr unsigned half = kMaskFilterSize / 2;
    prefix[0] = 0;
    for (unsigned c = 0; c < w; ++c) prefix[c + 1] = prefix[c] + column_sums[c];
    for (unsigned c = 0; c < w; ++c) {
        const unsigned lo = c >= half ? c - half : 0;
        const unsigned hi = std::min(c + half + 1, w);
        mask[c] = prefix[hi] - prefix[lo] > threshold;
    }
}

template <class T>
void decimate(T* data, std::size_t stride, unsigned w, unsigned h)
{
    // Reads (row 2i) stay ahead of writes (row i).
    for (unsigned i = 0; i < h; ++i) {
        const T* src = data + 2 * i * stride;
        T* dst = data + i * stride;
        for (unsigned j = 0; j < w; ++j) dst[j] = src[2 * j];
    }
}

void c_values_row(const std::uint16_t* histograms, unsigned w, const std::uint8_t* mask, const std::uint16_t* image,
                  const ContrastParams& params, const float* reciprocal, float* out)
{
    for (unsigned c = 0; c < w; ++c)
        if (mask[c]) out[c] = c_value(histograms, w, static_cast<int>(c), image[c], params, reciprocal);
}

// Without a branch per value (which would mispredict: most are 0).
std::size_t compact_nonzero(float* values, std::size_t n)
{
    std::size_t nonzero = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = values[i];
        values[nonzero] = v;
        nonzero += v != 0.0f;
    }
    return nonzero;
}

void add_fixed_values(const float* values, std::size_t n, FixedSum& sum)
{
    for (std::size_t i = 0; i < n; ++i) add_fixed(sum, c_value_fixed(values[i]));
}

// Per changed column, the two windows' entries one by one.
TV_CPU_CLONES void slide_row(std::uint16_t* histograms, unsigned w, const std::int16_t* leaving,
                             const std::int16_t* entering, unsigned columns, unsigned pad)
{
    for_each_slide_span(histograms, w, leaving, entering, columns, pad, add_span_entries);
}

}  // namespace

Kernels reference_kernels()
{
    return {mask_row, decimate<std::uint16_t>, decimate<std::uint8_t>, c_values_row, compact_nonzero,
            add_fixed_values, slide_row};
}

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::cambi
