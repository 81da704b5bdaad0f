// Row kernels of cambi's CPU path, as a table of function pointers: the
// reference (the loops of cambi_kernels.cpp over cambi_math.h) or the
// Highway SIMD implementation (cambi_simd.cpp, compiled for every
// instruction set), which returns the reference's bits
// (tests/unit/test_simd_cambi.cpp compares them on random and extreme rows
// for every target this build has). core/simd.h says which one kernels()
// gives. Kernels read and write only the columns their arguments name.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "features/cambi/cambi_math.h"

namespace twinvmaf::cambi {

// One row of the spatial mask: mask[c] = 1 where the flat samples of the
// 7x7 window around column c (column_sums[k]: the flat samples of the
// window's rows in column k; columns outside [0, w) do not count) exceed
// `threshold`, else 0. `prefix` is scratch of w + 1 entries.
using MaskRowFn = void (*)(const std::uint16_t* column_sums, unsigned w, unsigned threshold, std::uint32_t* prefix,
                           std::uint8_t* mask);

// Every other row and column of a w x h picture (w, h: the decimated size),
// in place: row i, column j becomes row 2i, column 2j.
template <class T>
using DecimateFn = void (*)(T* data, std::size_t stride, unsigned w, unsigned h);

// The c-values of one row of a w-wide scale: out[c] = c_value() (cambi_math.h)
// of column c where mask[c] is set; the other columns of `out` stay as they
// are. `histograms` (row stride w, one row per band value) must have one
// readable uint16 after its last entry (the SIMD kernel reads 32 bits per
// 16-bit entry).
using CValuesRowFn = void (*)(const std::uint16_t* histograms, unsigned w, const std::uint8_t* mask,
                              const std::uint16_t* image, const ContrastParams& params, const float* reciprocal,
                              float* out);

// Moves the non-zero values of values[0, n) to the front, in their order;
// returns how many there are (what lies after them is unspecified).
using CompactNonzeroFn = std::size_t (*)(float* values, std::size_t n);

// Adds the c-values values[0, n) (each +0 or in the range cambi_math.h's
// FixedSum comment gives) to `sum` as add_fixed(sum, c_value_fixed(v)) does.
using AddFixedFn = void (*)(const float* values, std::size_t n, FixedSum& sum);

// One row step of the per-column window histograms (row v of `histograms`,
// stride w, counts band value v): for each column j in [0, columns) whose
// leaving[j] and entering[j] differ, leaving[j] (if >= 0) leaves and
// entering[j] (if >= 0) enters the histograms of the columns
// [j - pad, j + pad] inside [0, w), each entry -1 and +1 in uint16
// arithmetic (wrapping; the result is the same in any order).
using SlideRowFn = void (*)(std::uint16_t* histograms, unsigned w, const std::int16_t* leaving,
                            const std::int16_t* entering, unsigned columns, unsigned pad);

// SlideRowFn's walk over the changed columns, shared by its implementations:
// add_span(row, lo, hi, delta) adds delta (0xffff for -1, or 1) to the
// entries row[lo, hi) in uint16 arithmetic. Always inlined, so that add_span
// is compiled for the caller's instruction set.
template <class AddSpan>
[[gnu::always_inline]] inline void for_each_slide_span(std::uint16_t* histograms, unsigned w,
                                                       const std::int16_t* leaving, const std::int16_t* entering,
                                                       unsigned columns, unsigned pad, AddSpan add_span)
{
    for (unsigned j = 0; j < columns; ++j) {
        const int out = leaving[j];
        const int in = entering[j];
        if (out == in) continue;  // the same value leaves and enters
        const int lo = std::max(static_cast<int>(j) - static_cast<int>(pad), 0);
        const int hi = std::min(static_cast<int>(j + pad + 1), static_cast<int>(w));
        if (out >= 0) add_span(histograms + static_cast<std::size_t>(out) * w, lo, hi, std::uint16_t{0xffff});
        if (in >= 0) add_span(histograms + static_cast<std::size_t>(in) * w, lo, hi, std::uint16_t{1});
    }
}

// add_span's definition: entry by entry.
[[gnu::always_inline]] inline void add_span_entries(std::uint16_t* row, int lo, int hi, std::uint16_t delta)
{
    for (int k = lo; k < hi; ++k) row[k] = static_cast<std::uint16_t>(row[k] + delta);
}

struct Kernels {
    MaskRowFn mask_row;
    DecimateFn<std::uint16_t> decimate_image;
    DecimateFn<std::uint8_t> decimate_mask;
    CValuesRowFn c_values_row;
    CompactNonzeroFn compact_nonzero;
    AddFixedFn add_fixed_values;
    SlideRowFn slide_row;
};

Kernels reference_kernels();
// The Highway implementation for the target Highway dispatches to now.
Kernels simd_kernels();
// What the extractor uses: one of the two, as core/simd.h says.
Kernels kernels();

}  // namespace twinvmaf::cambi
