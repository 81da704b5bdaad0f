// ADM's stages after the wavelet, one band row at a time, for either
// precision (`Arith` is Scale0Arithmetic or ScaleNArithmetic).
//
//   decouple_row()           reference + distorted -> restored + additive,
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

// The masking weights of one orientation-summed pixel: Netflix's threshold
// is the sum over h, v, d of 8 neighbours' weights plus the centre's, so the
// orientations are summed per pixel first (integer sums: same result).
struct MaskingRow {
    std::int32_t* neighbour;  // sum over h, v, d of neighbour_weight(csf)
    std::int32_t* centre;     // sum over h, v, d of centre_weight(csf)
};

// Decouples columns [begin, end) of one row. ref/dis/restored/additive are
// the h, v, d rows. The DLM is masked by the additive part, the AIM by the
// restored part; both weights come out here.
template <class Arith>
TV_HD void decouple_row(const typename Arith::Coef* const ref[kOrientations],
                        const typename Arith::Coef* const dis[kOrientations], int begin, int end,
                        const std::uint32_t csf_weight[kOrientations], double gain_limit,
                        const std::int32_t* reciprocal, typename Arith::Coef* const restored[kOrientations],
                        typename Arith::Coef* const additive[kOrientations], MaskingRow dlm_mask,
                        MaskingRow aim_mask)
{
    using Coef = typename Arith::Coef;
    for (int x = begin; x < end; ++x) {
        const bool aligned = within_one_degree(ref[0][x], ref[1][x], dis[0][x], dis[1][x]);
        std::uint32_t dlm_neighbour = 0, dlm_centre = 0, aim_neighbour = 0, aim_centre = 0;
        for (int theta = 0; theta < kOrientations; ++theta) {
            const Coef o = ref[theta][x];
            const Coef t = dis[theta][x];
            const std::int64_t k = Arith::gain(o, t, reciprocal);
            const Coef r = restored_coefficient(o, t, k, aligned, gain_limit);
            const Coef a = static_cast<Coef>(t - r);
            restored[theta][x] = r;
            additive[theta][x] = a;
            const Coef csf_a = Arith::csf(a, csf_weight[theta], theta);
            const Coef csf_r = Arith::csf(r, csf_weight[theta], theta);
            dlm_neighbour += static_cast<std::uint32_t>(Arith::neighbour_weight(csf_a));
            dlm_centre += static_cast<std::uint32_t>(Arith::centre_weight(csf_a));
            aim_neighbour += static_cast<std::uint32_t>(Arith::neighbour_weight(csf_r));
            aim_centre += static_cast<std::uint32_t>(Arith::centre_weight(csf_r));
        }
        dlm_mask.neighbour[x] = static_cast<std::int32_t>(dlm_neighbour);
        dlm_mask.centre[x] = static_cast<std::int32_t>(dlm_centre);
        aim_mask.neighbour[x] = static_cast<std::int32_t>(aim_neighbour);
        aim_mask.centre[x] = static_cast<std::int32_t>(aim_centre);
    }
}

// The masking threshold of columns [begin, end) of one row: the sum of the
// neighbour weights of the 3x3 window around each pixel (rows `above` and
// `below` are the mirror()ed rows y-1 and y+1; columns are mirror()ed here)
// without the centre's own, plus the centre weight. `column_sums` is scratch
// of `width` entries. Sums wrap as Netflix's int32 sums do.
TV_HD void masking_threshold_row(const std::int32_t* above, const std::int32_t* row, const std::int32_t* below,
                                 const std::int32_t* centre, int width, int begin, int end,
                                 std::int32_t* column_sums, std::int32_t* threshold)
{
    const int first = begin > 0 ? begin - 1 : 0;
    const int last = end < width ? end + 1 : width;
    for (int x = first; x < last; ++x) {
        column_sums[x] = static_cast<std::int32_t>(static_cast<std::uint32_t>(above[x]) +
                                                   static_cast<std::uint32_t>(row[x]) +
                                                   static_cast<std::uint32_t>(below[x]));
    }
    auto one = [&](int x, int left, int right) {
        const std::uint32_t window = static_cast<std::uint32_t>(column_sums[left]) +
                                     static_cast<std::uint32_t>(column_sums[x]) +
                                     static_cast<std::uint32_t>(column_sums[right]);
        threshold[x] = static_cast<std::int32_t>(window - static_cast<std::uint32_t>(row[x]) +
                                                 static_cast<std::uint32_t>(centre[x]));
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

// Sums over columns [begin, end) of one row of the masked cubes of `source`
// (restored for the DLM, additive for the AIM), per orientation. The sums
// wrap as Netflix's int64 sums would.
template <class Arith>
TV_HD void masked_cube_row(const typename Arith::Coef* const source[kOrientations],
                           const std::uint32_t csf_weight[kOrientations], const std::int32_t* threshold,
                           int begin, int end, const MaskingShifts& shifts, std::uint64_t row_sums[kOrientations])
{
    for (int theta = 0; theta < kOrientations; ++theta) {
        const typename Arith::Coef* src = source[theta];
        const std::uint32_t weight = csf_weight[theta];
        std::uint64_t sum = 0;
        for (int x = begin; x < end; ++x)
            sum += static_cast<std::uint64_t>(Arith::masked_cube(src[x], weight, threshold[x], shifts, theta));
        row_sums[theta] = sum;
    }
}

// Sum over columns [begin, end) of one reference band row's cubes.
template <class Arith>
TV_HD std::uint64_t reference_cube_row(const typename Arith::Coef* band, int begin, int end,
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
