// ADM's stages after the wavelet, one band row at a time, for either
// precision (`Arith` is Scale0Arithmetic or ScaleNArithmetic).
//
//   angle_test_row(), decouple_orientation_row(), add_masking_weights_row()
//                            reference + distorted -> restored + additive,
//                            and the masking weights of both
//   masking_threshold_row()  the 3x3 masking threshold of one row
//   masked_cube_row()        sum over a row of max(|csf x| - threshold, 0)^3
//   reference_cube_row()     sum over a row of the reference's cubes
//
// Every sum here is an integer sum: its order does not matter. Netflix
// rounds each row's sum by a shift before adding rows (round_row_sum()).
#pragma once

#include <cstdint>

#include "features/adm/adm_band_math.h"
#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// Decouple, in three passes over columns [begin, end) of a row (each a
// simple loop over restrict-qualified rows, so compilers vectorise them):

// 1. The angle test of each pixel, from the h and v bands.
template <class Arith>
TV_HD void angle_test_row(const typename Arith::Coef* __restrict__ ref_h,
                          const typename Arith::Coef* __restrict__ ref_v,
                          const typename Arith::Coef* __restrict__ dis_h,
                          const typename Arith::Coef* __restrict__ dis_v, int begin, int end,
                          std::uint8_t* __restrict__ aligned)
{
    for (int x = begin; x < end; ++x) aligned[x] = Arith::within_one_degree(ref_h[x], ref_v[x], dis_h[x], dis_v[x]);
}

// Decouple of one coefficient (a GPU thread's unit): the gain k of reference
// o toward distorted t, then the restored and additive parts from it.
template <class Arith>
TV_HD std::int32_t decouple_gain(typename Arith::Coef o, typename Arith::Coef t)
{
    return static_cast<std::int32_t>(Arith::gain(o, t));
}

template <class Arith>
TV_HD void decouple_sample(typename Arith::Coef o, typename Arith::Coef t, std::int32_t gain, bool aligned,
                           double gain_limit, typename Arith::Coef& restored, typename Arith::Coef& additive)
{
    using Coef = typename Arith::Coef;
    using Wide = typename Arith::Wide;
    const Coef r = restored_coefficient(o, t, static_cast<Wide>(gain), aligned, gain_limit);
    restored = r;
    additive = static_cast<Coef>(t - r);
}

// 2. Restored and additive parts of one orientation; `gain` is scratch (the
// gains are a pass of their own: one loop doing both does not vectorise).
template <class Arith>
TV_HD void decouple_orientation_row(const typename Arith::Coef* __restrict__ ref,
                                    const typename Arith::Coef* __restrict__ dis,
                                    const std::uint8_t* __restrict__ aligned, int begin, int end, double gain_limit,
                                    std::int32_t* __restrict__ gain,
                                    typename Arith::Coef* __restrict__ restored,
                                    typename Arith::Coef* __restrict__ additive)
{
    for (int x = begin; x < end; ++x) gain[x] = decouple_gain<Arith>(ref[x], dis[x]);
    for (int x = begin; x < end; ++x)
        decouple_sample<Arith>(ref[x], dis[x], gain[x], aligned[x] != 0, gain_limit, restored[x], additive[x]);
}

// 3. Adds one orientation's masking weights: those of the CSF-weighted
// `masker` (the additive part masks the DLM, the restored part the AIM).
// `first` starts the sums. Netflix's threshold is the sum over h, v, d of
// 8 neighbours' weights plus the centre's, so summing the orientations per
// pixel first (here) gives the same integer.
template <class Arith>
TV_HD void add_masking_weights_sample(typename Arith::Coef masker, std::uint32_t csf_weight, int theta, bool first,
                                      std::int32_t& neighbour, std::int32_t& centre)
{
    const typename Arith::Coef csf = Arith::csf(masker, csf_weight, theta);
    // Wrapping sums (unsigned), as Netflix's int32 sums would wrap.
    const std::uint32_t n = first ? 0u : static_cast<std::uint32_t>(neighbour);
    const std::uint32_t c = first ? 0u : static_cast<std::uint32_t>(centre);
    neighbour = static_cast<std::int32_t>(n + static_cast<std::uint32_t>(Arith::neighbour_weight(csf)));
    centre = static_cast<std::int32_t>(c + static_cast<std::uint32_t>(Arith::centre_weight(csf)));
}

template <class Arith>
TV_HD void add_masking_weights_row(const typename Arith::Coef* __restrict__ masker, std::uint32_t csf_weight,
                                   int theta, bool first, int begin, int end,
                                   std::int32_t* __restrict__ neighbour, std::int32_t* __restrict__ centre)
{
    for (int x = begin; x < end; ++x) {
        add_masking_weights_sample<Arith>(masker[x], csf_weight, theta, first, neighbour[x], centre[x]);
    }
}

// The masking threshold, per sample: the 3 rows' sum of one column, then
// the window of 3 column sums less the centre's neighbour weight plus its
// centre weight. All sums wrap as Netflix's int32 sums do (so their order
// is free).
TV_HD std::int32_t masking_column_sum(std::int32_t above, std::int32_t row, std::int32_t below)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(above) + static_cast<std::uint32_t>(row) +
                                     static_cast<std::uint32_t>(below));
}

TV_HD std::int32_t masking_threshold(std::int32_t left_sum, std::int32_t column_sum, std::int32_t right_sum,
                                     std::int32_t row, std::int32_t centre)
{
    const std::uint32_t window = static_cast<std::uint32_t>(left_sum) + static_cast<std::uint32_t>(column_sum) +
                                 static_cast<std::uint32_t>(right_sum);
    return static_cast<std::int32_t>(window - static_cast<std::uint32_t>(row) + static_cast<std::uint32_t>(centre));
}

// The threshold of column x of one row on its own (a GPU thread's unit):
// masking_threshold_row() below at one column, mirroring the same way.
TV_HD std::int32_t masking_threshold_at(const std::int32_t* above, const std::int32_t* row,
                                        const std::int32_t* below, const std::int32_t* centre, int width, int x)
{
    const int left = mirror(x - 1, width);
    const int right = mirror(x + 1, width);
    return masking_threshold(masking_column_sum(above[left], row[left], below[left]),
                             masking_column_sum(above[x], row[x], below[x]),
                             masking_column_sum(above[right], row[right], below[right]), row[x], centre[x]);
}

// The masking threshold of columns [begin, end) of one row: the sum of the
// neighbour weights of the 3x3 window around each pixel (rows `above` and
// `below` are the mirror()ed rows y-1 and y+1; columns are mirror()ed here)
// without the centre's own, plus the centre weight. `column_sums` is scratch
// of `width` entries. Sums wrap as Netflix's int32 sums do.
TV_HD void masking_threshold_row(const std::int32_t* __restrict__ above, const std::int32_t* __restrict__ row,
                                 const std::int32_t* __restrict__ below, const std::int32_t* __restrict__ centre,
                                 int width, int begin, int end, std::int32_t* __restrict__ column_sums,
                                 std::int32_t* __restrict__ threshold)
{
    const int first = begin > 0 ? begin - 1 : 0;
    const int last = end < width ? end + 1 : width;
    for (int x = first; x < last; ++x) column_sums[x] = masking_column_sum(above[x], row[x], below[x]);
    auto one = [&](int x, int left, int right) {
        threshold[x] = masking_threshold(column_sums[left], column_sums[x], column_sums[right], row[x], centre[x]);
    };
    int x = begin;
    if (x == 0 && x < end) {
        one(0, mirror(-1, width), mirror(1, width));
        ++x;
    }
    const int interior_end = end < width - 1 ? end : width - 1;
    for (; x < interior_end; ++x) one(x, x - 1, x + 1);
    for (; x < end; ++x) one(x, mirror(x - 1, width), mirror(x + 1, width));
}

// Sum over columns [begin, end) of one row of the masked cubes of one
// orientation of `source` (restored for the DLM, additive for the AIM). The
// sum wraps as Netflix's int64 sums would.
template <class Arith>
TV_HD std::uint64_t masked_cube_row(const typename Arith::Coef* __restrict__ source, std::uint32_t csf_weight,
                                    const std::int32_t* __restrict__ threshold, int begin, int end,
                                    const MaskingShifts& shifts, int theta)
{
    std::uint64_t sum = 0;
    for (int x = begin; x < end; ++x)
        sum += static_cast<std::uint64_t>(Arith::masked_cube(source[x], csf_weight, threshold[x], shifts, theta));
    return sum;
}

// Sum over columns [begin, end) of one reference band row's cubes.
template <class Arith>
TV_HD std::uint64_t reference_cube_row(const typename Arith::Coef* __restrict__ band, int begin, int end,
                                       const DenominatorShifts& shifts)
{
    std::uint64_t sum = 0;
    for (int x = begin; x < end; ++x) sum += Arith::reference_cube(band[x], shifts);
    return sum;
}

// Netflix's per-row rounding: (row_sum + 2^(shift-1)) >> shift, signed for
// the masked sums, unsigned for the denominator.
TV_HD std::int64_t round_row_sum(std::uint64_t row_sum, int shift)
{
    return static_cast<std::int64_t>(row_sum + static_cast<std::uint64_t>(rounding_addend(shift))) >> shift;
}

TV_HD std::uint64_t round_row_sum_unsigned(std::uint64_t row_sum, int shift)
{
    return (row_sum + static_cast<std::uint64_t>(rounding_addend(shift))) >> shift;
}

}  // namespace twinvmaf::adm
