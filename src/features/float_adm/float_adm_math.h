// float_adm (Netflix libvmaf's "float_adm": adm.c, adm_tools.c): the
// per-coefficient and per-row arithmetic, shared by the CPU reference and its
// GPU twins. The algorithm is the integer ADM's (features/adm/adm_math.h
// explains it) in IEEE single precision, with Netflix's order of operations:
//
//   wavelet    db2, one output row at a time: a vertical pass over the 4 input
//              rows 2i-1 .. 2i+2, then a horizontal pass over columns
//              2j-1 .. 2j+2 (both mirrored, adm::mirror), each tap sum
//              accumulated from 0 in tap order
//   decouple   per coefficient: restored = clamp(t / o, 0, 1) * o (Netflix
//              divides by multiplying with an RCPSS estimate refined once,
//              reproduced bit for bit by core/intel_rcp.h), the enhancement
//              gain limit where the h/v angles agree within 1 degree, and
//              additive = t - restored
//   csf        per coefficient: the band's weight times the value, and 1/30
//              of its magnitude for the masking window (in double, rounded)
//   masking    per coefficient: a threshold from the 3x3 window of the other
//              part (all three orientations), subtracted from the magnitude,
//              cubed (or raised to adm_p_norm)
//   sums       per orientation, in float: each row of the scored region
//              summed serially from left to right, then the row sums added
//              to the total serially from top to bottom (masked_row_sum(),
//              reference_row_sum()); a GPU twin must keep exactly that order
//
// The cube roots (powf) of those sums, the noise floors and the pooling over
// scales run once per frame on the host (FloatAdmExtractor::collect()), for
// both backends, with glibc's powf (root_powf()). With adm_p_norm != 3 each
// term is x^p (term_powf()): the project's correctly rounded powf on CPU
// and device alike, where Netflix calls glibc's (docs/compat.md, "float_adm
// with adm_p_norm != 3").
#pragma once

#include <cmath>

#include "core/glibc_powf.h"
#include "core/host_device.h"
#include "core/intel_rcp.h"
#include "features/adm/adm_math.h"

namespace twinvmaf::float_adm {

using adm::kOrientations;
using adm::kScales;
using adm::mirror;
using adm::Region;

// float_adm's powf calls, as Netflix makes them with glibc's powf: our
// implementation of glibc's algorithm (core/glibc_powf.h), the same bits on
// every host and device. The per-scale roots, sum^(1/p), and the noise
// floors run on the host only (collect()); the per-coefficient x^p for
// p != 3 (x >= +0, finite; p in [1, 20]) on both backends.
inline float root_powf(float x, float y) { return tv::glibc::powf(x, y); }
TV_HD float term_powf(float x, float y) { return tv::glibc::powf(x, y); }

// Netflix's FLOAT_ONE_BY_30 and FLOAT_ONE_BY_15: double constants (not the
// floats nearest 1/30 and 1/15), so the products they enter are double.
inline constexpr double kOneBy30 = 0.0333333351;
inline constexpr double kOneBy15 = 0.0666666701;

// db2 analysis filters: Netflix's double literals rounded to float. Made by
// functions (not namespace-scope arrays) so that device code can use them.
struct Filter {
    float tap[4];
};
TV_HD Filter low_pass()
{
    return Filter{{0.482962913144690, 0.836516303737469, 0.224143868041857, -0.129409522550921}};
}
TV_HD Filter high_pass()
{
    return Filter{{-0.129409522550921, -0.224143868041857, 0.836516303737469, -0.482962913144690}};
}

// One tap sum, accumulated from 0 in tap order (0 + x is +0 for x = -0, as
// in Netflix).
TV_HD float filter4(const Filter& f, float s0, float s1, float s2, float s3)
{
    float sum = 0.0f;
    sum += f.tap[0] * s0;
    sum += f.tap[1] * s1;
    sum += f.tap[2] * s2;
    sum += f.tap[3] * s3;
    return sum;
}

// The vertical pass of one output row: `rows` are input rows 2i-1 .. 2i+2
// (mirrored), `width` the input width; low and high pass into `low`, `high`.
// Column x of it (a GPU twin's unit).
// dwt_vertical_taps(): the same from the four input values (the GPU twin's
// scale 0 converts them from the samples as it reads them).
TV_HD void dwt_vertical_taps(float s0, float s1, float s2, float s3, float* low, float* high)
{
    *low = filter4(low_pass(), s0, s1, s2, s3);
    *high = filter4(high_pass(), s0, s1, s2, s3);
}

TV_HD void dwt_vertical_column(const float* const rows[4], int x, float* low, float* high)
{
    dwt_vertical_taps(rows[0][x], rows[1][x], rows[2][x], rows[3][x], low, high);
}

TV_HD void dwt_vertical_row(const float* const rows[4], int width, float* low, float* high)
{
    for (int x = 0; x < width; ++x) dwt_vertical_column(rows, x, low + x, high + x);
}

// The four bands at output column j of one row, from the vertical pass's
// rows of `width` input columns. Any output pointer may be null (skipped).
TV_HD void dwt_horizontal(const float* low, const float* high, int width, int j, float* a, float* v, float* h,
                          float* d)
{
    const Filter lo = low_pass();
    const Filter hi = high_pass();
    const int c0 = mirror(2 * j - 1, width), c1 = mirror(2 * j, width), c2 = mirror(2 * j + 1, width),
              c3 = mirror(2 * j + 2, width);
    if (a) *a = filter4(lo, low[c0], low[c1], low[c2], low[c3]);
    if (v) *v = filter4(hi, low[c0], low[c1], low[c2], low[c3]);
    if (h) *h = filter4(lo, high[c0], high[c1], high[c2], high[c3]);
    if (d) *d = filter4(hi, high[c0], high[c1], high[c2], high[c3]);
}

// Netflix's DIVS(n, d) on SSE2: n times Intel's reciprocal estimate of d after
// one Newton step.
TV_HD float rcp_divide(float n, float d)
{
    const float estimate = intel_rcpss(d);
    return n * (estimate + estimate * (1.0f - d * estimate));
}

// libvmaf's MIN and MAX of a double and a float, in double.
TV_HD double nf_min(double a, double b) { return a < b ? a : b; }
TV_HD double nf_max(double a, double b) { return a > b ? a : b; }

struct DecoupleParams {
    double enhancement_gain_limit = 100.0;
    float cos_1deg_squared = 0;  // (float)(cos(pi/180)^2), computed on the host
};

// One coefficient of each orientation (h, v, d) of the reference `o` and the
// distorted `t` into the restored and additive parts.
TV_HD void decouple(const float o[kOrientations], const float t[kOrientations], const DecoupleParams& p,
                    float restored[kOrientations], float additive[kOrientations])
{
    const float eps = 1e-30;
    float r[kOrientations];
    for (int theta = 0; theta < kOrientations; ++theta) {
        float k = rcp_divide(t[theta], o[theta] + eps);
        k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
        r[theta] = k * o[theta];
    }
    // Is the angle between (oh, ov) and (th, tv) below 1 degree? Netflix's
    // trigonometry-free test (ADM_OPT_AVOID_ATAN).
    const float dot = o[0] * t[0] + o[1] * t[1];
    const float o_squared = o[0] * o[0] + o[1] * o[1];
    const float t_squared = t[0] * t[0] + t[1] * t[1];
    const bool aligned = dot >= 0.0f && dot * dot >= p.cos_1deg_squared * o_squared * t_squared;
    for (int theta = 0; theta < kOrientations; ++theta) {
        // Two tests in a row, the second seeing the first's result, as Netflix.
        if (aligned && r[theta] > 0.0f)
            r[theta] = static_cast<float>(nf_min(r[theta] * p.enhancement_gain_limit, t[theta]));
        if (aligned && r[theta] < 0.0f)
            r[theta] = static_cast<float>(nf_max(r[theta] * p.enhancement_gain_limit, t[theta]));
        restored[theta] = r[theta];
        additive[theta] = t[theta] - r[theta];
    }
}

// The CSF-weighted value and what the masking window reads of it.
TV_HD float csf_weighted(float weight, float value) { return weight * value; }
TV_HD float masking_part(float weighted) { return static_cast<float>(kOneBy30 * std::fabs(weighted)); }

// One coefficient of each orientation through decouple and the CSF: for the
// restored (part 0) and additive (part 1) parts, the CSF-weighted values and
// their masking parts.
TV_HD void decouple_and_weigh(const float o[kOrientations], const float t[kOrientations], const DecoupleParams& p,
                              const float weight[kOrientations], float weighted[2][kOrientations],
                              float masking[2][kOrientations])
{
    float parts[2][kOrientations];
    decouple(o, t, p, parts[0], parts[1]);
    for (int part = 0; part < 2; ++part) {
        for (int theta = 0; theta < kOrientations; ++theta) {
            weighted[part][theta] = csf_weighted(weight[theta], parts[part][theta]);
            masking[part][theta] = masking_part(weighted[part][theta]);
        }
    }
}

// x^p as Netflix computes it: x*x*x for p = 3, else powf(x, (float)p)
// (correctly rounded here, see term_powf()).
TV_HD float power(float x, double p_norm)
{
    if (p_norm == 3.0) return x * x * x;
    return term_powf(x, static_cast<float>(p_norm));
}

// Planes of one part (restored or additive) of the three orientations after
// the CSF: `weighted` (the CSF's output) and `masking` (masking_part() of
// it); `stride` in floats; valid on the scale's decoupled region.
struct CsfPlanes {
    const float* weighted[kOrientations];
    const float* masking[kOrientations];
    int stride = 0;
};

// The masking threshold at (i, j) of a width x height band: for each
// orientation, the 3x3 window of `masking` around (i, j) (mirrored), with
// 1/15 of |weighted| at the centre instead, summed row by row from the top
// left; the three sums added in orientation order.
TV_HD float masking_threshold(const CsfPlanes& other, int width, int height, int i, int j)
{
    const int rows[3] = {mirror(i - 1, height), i, mirror(i + 1, height)};
    const int cols[3] = {mirror(j - 1, width), j, mirror(j + 1, width)};
    float threshold = 0.0f;
    for (int theta = 0; theta < kOrientations; ++theta) {
        const float* m = other.masking[theta];
        float sum = 0.0f;
        for (int dy = 0; dy < 3; ++dy) {
            const float* row = m + rows[dy] * other.stride;
            for (int dx = 0; dx < 3; ++dx) {
                if (dy == 1 && dx == 1) {
                    const float centre = other.weighted[theta][i * other.stride + j];
                    sum = static_cast<float>(sum + kOneBy15 * std::fabs(centre));
                } else {
                    sum += row[cols[dx]];
                }
            }
        }
        threshold += sum;
    }
    return threshold;
}

// One masked term: the CSF-weighted magnitude above the threshold, to the
// power p (0 below it).
TV_HD float masked_term(float weighted, float threshold, double p_norm)
{
    float x = std::fabs(weighted) - threshold;
    x = x < 0.0f ? 0.0f : x;
    return power(x, p_norm);
}

// The sum of masked terms of row i over the scored columns, serially from the
// left: `measured` is one orientation's CSF-weighted part, `threshold` the
// row's thresholds (indexed by column).
TV_HD float masked_row_sum(const float* measured_row, const float* threshold, const Region& scored,
                           double p_norm)
{
    float sum = 0.0f;
    for (int j = scored.left; j < scored.right; ++j) sum += masked_term(measured_row[j], threshold[j], p_norm);
    return sum;
}

// The denominator's row sum: |weight * reference|^p over the scored columns,
// serially from the left.
// One term of it.
TV_HD float reference_term(float reference, float weight, double p_norm)
{
    return power(std::fabs(weight * reference), p_norm);
}

TV_HD float reference_row_sum(const float* reference_row, float weight, const Region& scored, double p_norm)
{
    float sum = 0.0f;
    for (int j = scored.left; j < scored.right; ++j) sum += reference_term(reference_row[j], weight, p_norm);
    return sum;
}

// Per scale, what a backend hands to the host: the float sums of each
// orientation (h, v, d) before their p-th root.
struct ScaleSums {
    float den[kOrientations] = {};  // reference (denominator)
    float dlm[kOrientations] = {};  // restored part, masked by the additive part
    float aim[kOrientations] = {};  // additive part, masked by the restored part
};

}  // namespace twinvmaf::float_adm
