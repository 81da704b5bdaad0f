// VIF's debug outputs as Netflix writes them, the same for its integer VIF
// (integer_vif.c) and its float VIF (float_vif.c): the whole score, its
// numerator and denominator, then each scale's numerator and denominator.
#pragma once

#include <array>
#include <cstdint>

#include "core/feature.h"

namespace twinvmaf::vif_debug {

inline constexpr int kScaleCount = 4;

// Writes slots `slot`, `slot` + 1, ...: vif, vif_num, vif_den, then
// vif_num_scaleN, vif_den_scaleN for N = 0..3. The totals add the scales
// from `first` on as doubles, in scale order; vif is 1 where the
// denominator is 0. A skipped scale 0 (first = 1) reports 0 and -1.
inline void write(SlotWriter& out, std::size_t slot, std::uint64_t index, const std::array<double, kScaleCount>& num,
                  const std::array<double, kScaleCount>& den, int first)
{
    double total_num = num[first], total_den = den[first];
    for (int s = first + 1; s < kScaleCount; ++s) {
        total_num += num[s];
        total_den += den[s];
    }
    out.write(slot++, index, total_den == 0.0 ? 1.0 : total_num / total_den);
    out.write(slot++, index, total_num);
    out.write(slot++, index, total_den);
    for (int s = 0; s < kScaleCount; ++s) {
        const bool skipped = s < first;
        out.write(slot++, index, skipped ? 0.0 : num[s]);
        out.write(slot++, index, skipped ? -1.0 : den[s]);
    }
}

}  // namespace twinvmaf::vif_debug
