// ADM (Netflix libvmaf's integer "adm", integer_adm.c): the geometry and the
// per-scale parameters shared by the CPU reference and its GPU twins.
//
// ADM works on 4 scales of a db2 wavelet of the luma plane. At each scale the
// reference and distorted detail bands (h: horizontal, v: vertical, d:
// diagonal) are split into a "restored" part (the reference scaled toward the
// distorted picture, per coefficient) and an "additive" part (the rest),
// weighted by a contrast-sensitivity factor, masked by the local activity of
// the other part, and summed as cubes:
//
//   DLM numerator:  restored coefficients, masked by the additive part
//   AIM numerator:  additive coefficients, masked by the restored part
//   denominator:    reference coefficients
//
// Every step up to those sums is integer arithmetic (exact, order-free); the
// final steps (cube roots, ratios) are floating point on the host, once per
// frame, for every backend (AdmExtractor::collect()).
//
// The headers, by stage:
//   adm_math.h          geometry, index mirroring, per-scale parameters
//   adm_dwt_math.h      the db2 wavelet (vertical and horizontal passes)
//   adm_band_math.h     per-coefficient arithmetic of decouple, CSF, masking
//                       and the cubes, in the two precisions Netflix uses
//   adm_row_math.h      the per-row stages built on them
#pragma once

#include <cstdint>

#include "core/bit_math.h"
#include "core/host_device.h"

namespace twinvmaf::adm {

inline constexpr int kScales = 4;

// Detail orientations, in Netflix's "theta" order: band_h, band_v, band_d.
inline constexpr int kOrientations = 3;

// Netflix's mirror for filter taps that fall outside [0, size): -k reads k,
// size + k reads size - 1 - k (the edge sample repeats on the far side only).
// Netflix's tables (dwt2_src_indices_filt) and its 3x3 masking windows
// (ADM_CM_THRESH_S_*) use exactly this wherever they stay inside the data.
//
// Netflix's code does not stay inside on small planes: its wavelet reads row
// or column -1 when a scale's input is 3 or 4 samples (frames up to 32 pixels
// in a direction: noise_17x17, noise_19x23), row/column 2 of 2 samples, and
// its masking reads row/column 1 of 1 sample. There we define the result as
// this same mirror applied to the index, then clamped into [0, size): -1
// reads 1 (as Netflix's own first row does), and a plane of 1 sample reads
// itself. That is Netflix's evident intent, reads only valid data, and equals
// Netflix wherever Netflix reads valid data.
TV_HD int mirror(int index, int size)
{
    if (index < 0) index = -index;
    if (index >= size) index = 2 * size - 1 - index;
    if (index < 0) index = 0;
    if (index >= size) index = size - 1;
    return index;
}

// Rows [top, bottom) x columns [left, right) of a band.
struct Region {
    int top = 0;
    int bottom = 0;
    int left = 0;
    int right = 0;

    TV_HD int width() const { return right - left; }
    TV_HD int height() const { return bottom - top; }
};

// The scored region: 10% of each side is left out (ADM_BORDER_FACTOR). The
// expression is Netflix's, in double, truncated toward zero.
TV_HD Region scored_region(int width, int height)
{
    const int left = static_cast<int>(width * 0.1 - 0.5);
    const int top = static_cast<int>(height * 0.1 - 0.5);
    return Region{top, height - top, left, width - left};
}

// Where decouple and CSF run: the scored region grown for the 3x3 masking
// window (Netflix grows it by 1 before and 2..3 after, then clips).
TV_HD Region decoupled_region(int width, int height)
{
    const int left = static_cast<int>(width * 0.1 - 0.5 - 1);
    const int top = static_cast<int>(height * 0.1 - 0.5 - 1);
    Region r{top, height - top + 2, left, width - left + 2};
    if (r.left < 0) r.left = 0;
    if (r.right > width) r.right = width;
    if (r.top < 0) r.top = 0;
    if (r.bottom > height) r.bottom = height;
    return r;
}

// Round-to-nearest addend of a right shift. Netflix writes it as
// (uint32_t)pow(2, shift - 1) with an unsigned shift, which is 0 for a shift
// of 0 on x86 (pow gives inf); we say so directly.
TV_HD std::int64_t rounding_addend(int shift)
{
    return shift > 0 ? std::int64_t{1} << (shift - 1) : 0;
}

// Shifts that keep the contrast-masking sums of one scale in 64 bits
// (Netflix's adm_cm / i4_adm_cm). They depend on the band size only.
struct MaskingShifts {
    int cube[kOrientations] = {};  // after cubing one coefficient
    int row = 0;                   // after summing one row
};

// Scale 0: ceil(log2(w) - 4) for h and v, ceil(log2(w) - 3) for d; scales
// 1..3: ceil(log2(w)). Netflix converts a negative value to uint32_t, which
// is undefined and happens only for bands up to 8 wide (frames up to 16
// pixels wide); we clamp it to 0 there.
TV_HD MaskingShifts masking_shifts(int scale, int width, int height)
{
    MaskingShifts s;
    const int log2w = ceil_log2(width);
    for (int theta = 0; theta < kOrientations; ++theta) {
        int cube = scale == 0 ? log2w - (theta == 2 ? 3 : 4) : log2w;
        s.cube[theta] = cube > 0 ? cube : 0;
    }
    s.row = ceil_log2(height);
    return s;
}

// Shifts of the denominator sums of one scale (Netflix's adm_csf_den_scale /
// adm_csf_den_s123). They depend on the scored region's size only.
struct DenominatorShifts {
    int square = 0;  // scales 1..3: after squaring one coefficient
    int cube = 0;    // scales 1..3: after cubing one coefficient
    int row = 0;     // after summing one row
};

TV_HD DenominatorShifts denominator_shifts(int scale, const Region& scored)
{
    DenominatorShifts s;
    if (scale == 0) {
        // ceil(log2(area) - 20), at least 0: scale 0 shifts each row sum only.
        const int row = ceil_log2(static_cast<std::uint64_t>(scored.width()) * scored.height()) - 20;
        s.row = row > 0 ? row : 0;
    } else {
        const int square_shifts[3] = {31, 30, 31};
        s.square = square_shifts[scale - 1];
        s.cube = ceil_log2(scored.width());
        s.row = ceil_log2(scored.height());
    }
    return s;
}

// Everything a backend needs to compute one scale's integer sums.
struct ScaleParams {
    int width = 0;   // band size at this scale: the input size halved, rounded up
    int height = 0;
    Region scored;
    Region decoupled;
    // Fixed-point CSF weights of the h, v, d bands: Q21, Q21, Q23 in 16 bits
    // at scale 0, Q32 in 32 bits at scales 1..3.
    std::uint32_t csf_weight[kOrientations] = {};
    MaskingShifts masking;
    DenominatorShifts denominator;
};

struct FrameParams {
    int bitdepth = 8;
    double enhancement_gain_limit = 100.0;
    bool skip_scale0 = false;  // scale 0 only feeds the wavelet of scale 1
    bool skip_aim = false;
    ScaleParams scale[kScales];
};

// Integer sums of one scale, exact: what every backend hands to the host.
struct ScaleSums {
    std::int64_t dlm[kOrientations] = {};  // DLM numerator (masked restored cubes)
    std::int64_t aim[kOrientations] = {};  // AIM numerator (masked additive cubes)
    std::uint64_t den[kOrientations] = {}; // denominator (reference cubes)
};

}  // namespace twinvmaf::adm
