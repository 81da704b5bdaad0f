// Integer motion arithmetic shared by the CPU reference and its GPU twin.
//
// Netflix libvmaf's integer motion (integer_motion.c) measures how much the
// luma of the reference changes from one frame to an earlier one: it blurs
// the *difference* of the two pictures with a separable 5-tap filter
// (vertical pass, rounded to an int32 row; horizontal pass, rounded again) and
// sums the absolute values (SAD). Everything is integer, so the sum is exact:
// a GPU may add rows in any order and get the same bits, as long as it keeps
// Netflix's per-row uint32 sum (which only wraps for rows over ~65000 wide).
//
// Edges are mirrored without repeating the edge sample (-1 -> 1, h -> h-2).
// Netflix reflects only once, which stays inside the picture for sizes of 3
// and more; below that it reads outside its buffer. mirror_index() reflects as
// often as needed, so it equals Netflix's wherever Netflix is defined and
// stays inside the picture on 1- and 2-sample planes (docs/compat.md).
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::motion {

// The 5-tap blur (Netflix's `filter`, symmetric, sums to 1 << 16).
constexpr std::int32_t kTapOuter = 3571;    // taps 0 and 4
constexpr std::int32_t kTapInner = 16004;   // taps 1 and 3
constexpr std::int32_t kTapCenter = 26386;  // tap 2
constexpr int kRadius = 2;

// Index `index` (at most kRadius outside [0, size)) reflected into [0, size).
TV_HD int mirror_index(int index, int size)
{
    if (size == 1) return 0;
    const int period = 2 * (size - 1);
    int folded = index % period;
    if (folded < 0) folded += period;
    return folded < size ? folded : period - folded;
}

// One term of the vertical pass: the earlier picture's sample minus the
// current one's, in the type that holds the unrounded blur.
template <class Wide, class Sample>
TV_HD Wide sample_difference(Sample earlier, Sample current)
{
    return Wide(earlier) - Wide(current);
}

// Vertical pass at one column: the five row differences (earlier picture
// minus current, rows y-2..y+2) blurred and rounded back by `bitdepth` bits.
// `Wide` holds the unrounded sum: int32 is exact up to 15-bit samples
// ((2^15 - 1) << 16 < 2^31); 16-bit samples need int64, as in Netflix.
template <class Wide>
TV_HD std::int32_t vertical_blur(Wide d0, Wide d1, Wide d2, Wide d3, Wide d4, unsigned bitdepth)
{
    const Wide sum = kTapOuter * (d0 + d4) + kTapInner * (d1 + d3) + kTapCenter * d2;
    return static_cast<std::int32_t>((sum + (Wide{1} << (bitdepth - 1))) >> bitdepth);
}

// Horizontal pass at one column of a vertically blurred row: `row` points at
// column x - 2 of a row whose |values| are at most 65535 (what vertical_blur
// gives), and the result is the blur rounded by 16 bits. The sum of the three
// tap products can reach 2^32 and so needs 33 bits; rather than widening to
// int64 (slow to vectorise), each product, which does fit in int32, is split
// into its high and low 16 bits: floor((p0 + p1 + p2 + 2^15) / 2^16) equals
// the sum of the high parts plus floor((sum of low parts + 2^15) / 2^16).
// (`>>` of a negative int is an arithmetic shift - defined from C++20, and what
// every host and device compiler we build with does in C++17 too.)
TV_HD std::int32_t horizontal_blur(const std::int32_t* row)
{
    const std::int32_t outer = kTapOuter * (row[0] + row[4]);
    const std::int32_t inner = kTapInner * (row[1] + row[3]);
    const std::int32_t center = kTapCenter * row[2];
    const std::int32_t high = (outer >> 16) + (inner >> 16) + (center >> 16);
    const std::int32_t low = (outer & 0xffff) + (inner & 0xffff) + (center & 0xffff);
    return high + ((low + (1 << 15)) >> 16);
}

// Vertical pass of one output row into padded[kRadius .. kRadius + width).
// earlier[k] / current[k] are the picture rows mirror(y - 2 + k). Returns
// whether any value is nonzero (an all-zero row adds nothing to the SAD).
template <class Wide, class Sample>
TV_HD bool vertical_blur_row(const Sample* const earlier[5], const Sample* const current[5],
                             unsigned width, unsigned bitdepth, std::int32_t* padded)
{
    const Sample *e0 = earlier[0], *e1 = earlier[1], *e2 = earlier[2], *e3 = earlier[3], *e4 = earlier[4];
    const Sample *c0 = current[0], *c1 = current[1], *c2 = current[2], *c3 = current[3], *c4 = current[4];
    std::int32_t* out = padded + kRadius;
    std::int32_t any = 0;
    for (unsigned x = 0; x < width; ++x) {
        const std::int32_t value = vertical_blur<Wide>(
            sample_difference<Wide>(e0[x], c0[x]), sample_difference<Wide>(e1[x], c1[x]),
            sample_difference<Wide>(e2[x], c2[x]), sample_difference<Wide>(e3[x], c3[x]),
            sample_difference<Wide>(e4[x], c4[x]), bitdepth);
        out[x] = value;
        any |= value;
    }
    return any != 0;
}

// Fills the kRadius mirrored columns on each side of a row of `width` values
// stored at padded[kRadius ..].
TV_HD void mirror_pad_row(std::int32_t* padded, unsigned width)
{
    const int w = static_cast<int>(width);
    for (int k = 1; k <= kRadius; ++k) {
        padded[kRadius - k] = padded[kRadius + mirror_index(-k, w)];
        padded[kRadius + w - 1 + k] = padded[kRadius + mirror_index(w - 1 + k, w)];
    }
}

// Netflix sums the SAD of a row in uint32 (it would wrap only on rows over
// 65537 samples: |blur| <= 65535) before adding the row to the frame's uint64.
using RowSad = std::uint32_t;

// What one blurred sample adds to its row's SAD.
TV_HD RowSad absolute_value(std::int32_t value)
{
    return static_cast<RowSad>(value < 0 ? -value : value);
}

// Horizontal pass and SAD of one padded row.
TV_HD RowSad row_sad(const std::int32_t* padded, unsigned width)
{
    RowSad sad = 0;
    for (unsigned x = 0; x < width; ++x) sad += absolute_value(horizontal_blur(padded + x));
    return sad;
}

}  // namespace twinvmaf::motion
