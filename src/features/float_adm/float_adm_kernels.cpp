// float_adm's reference kernels (the loops over float_adm_math.h that the
// CPU path ran before it had SIMD) and the choice between them and the SIMD
// ones.
#include "features/float_adm/float_adm_kernels.h"

#include <array>

#include "core/cpu_dispatch.h"
#include "core/simd.h"

namespace twinvmaf::float_adm {

namespace {

TV_CPU_CLONES void vertical(const float* const rows[4], int width, float* low, float* high)
{
    dwt_vertical_row(rows, width, low, high);
}

TV_CPU_CLONES void horizontal(const float* low, const float* high, int input_width, int width, float* a, float* v,
                              float* h, float* d)
{
    for (int j = 0; j < width; ++j) {
        if (!v) {
            dwt_horizontal(low, high, input_width, j, a + j, nullptr, nullptr, nullptr);
        } else {
            dwt_horizontal(low, high, input_width, j, a + j, v + j, h + j, d + j);
        }
    }
}

TV_CPU_CLONES void decouple_row(const DecoupleRow& row, int left, int right, const DecoupleParams& params,
                                const float weight[kOrientations])
{
    for (int x = left; x < right; ++x) {
        float o[kOrientations], t[kOrientations], weighted[2][kOrientations], masking[2][kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta) {
            o[theta] = row.o[theta][x];
            t[theta] = row.t[theta][x];
        }
        decouple_and_weigh(o, t, params, weight, weighted, masking);
        for (int part = 0; part < 2; ++part) {
            for (int theta = 0; theta < kOrientations; ++theta) {
                row.weighted[part][theta][x] = weighted[part][theta];
                row.masking[part][theta][x] = masking[part][theta];
            }
        }
    }
}

TV_CPU_CLONES void masked_row_sums(const CsfPlanes& other, int width, int height, int y,
                                   const float* const measured[kOrientations], const Region& scored, bool bypass_cm,
                                   double p_norm, float* threshold, float* /*terms*/, float row_sums[kOrientations])
{
    for (int x = scored.left; x < scored.right; ++x)
        threshold[x] = bypass_cm ? 0.0f : masking_threshold(other, width, height, y, x);
    for (int theta = 0; theta < kOrientations; ++theta)
        row_sums[theta] = masked_row_sum(measured[theta], threshold, scored, p_norm);
}

TV_CPU_CLONES void reference_sums(const float* const reference_rows[kOrientations], const float weight[kOrientations],
                                  const Region& scored, double p_norm, float* /*terms*/,
                                  float row_sums[kOrientations])
{
    for (int theta = 0; theta < kOrientations; ++theta)
        row_sums[theta] = reference_row_sum(reference_rows[theta], weight[theta], scored, p_norm);
}

}  // namespace

const std::uint32_t* intel_rcp_table()
{
    static const std::array<std::uint32_t, 2048> table = [] {
        std::array<std::uint32_t, 2048> t{};
        for (std::uint32_t i = 0; i < t.size(); ++i) t[i] = intel_rcp_fraction(i) << 11;
        return t;
    }();
    return table.data();
}

Kernels reference_kernels() { return {vertical, horizontal, decouple_row, masked_row_sums, reference_sums}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::float_adm
