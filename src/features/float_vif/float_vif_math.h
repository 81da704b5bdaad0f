// float VIF's per-sample arithmetic (Netflix libvmaf vif_tools.c,
// vif_statistic_s with VIF_OPT_FAST_LOG2 and the 'matching_matlab'
// statistic), shared by the CPU reference and a GPU twin. float (fp32)
// throughout, with the double promotions of Netflix's C written out (its
// vif_sigma_nsq is a double, so two divisions run in double). No C library
// call: the log2 is Netflix's own polynomial. Compile without contraction
// (-ffp-contract=off; nvcc --fmad=false).
//
// Facts taken from Netflix libvmaf (BSD-2-Clause-Patent): the statistic, its
// constants (eps 1e-10, the log2 polynomial) and the order of operations;
// the code is our own.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/host_device.h"

namespace twinvmaf::float_vif {

inline constexpr int kScaleCount = 4;
inline constexpr float kEps = 1.0e-10f;

// Netflix's log2f_approx: the exponent plus a degree-8 polynomial in the
// mantissa - 1 (Horner, float). A NaN argument (0/0 when vif_sigma_nsq = 0
// on a flat block) is read as x86's default NaN, 0xFFC00000, which is what
// the host produces there; a GPU's canonical NaN has other mantissa bits.
TV_HD float log2f_approx(float x)
{
    if (x == 0) return -INFINITY;
    if (x < 0) return NAN;
    // The table of log2_poly_s: double constants stored as floats.
    const float poly[9] = {
        static_cast<float>(-0.012671635276421), static_cast<float>(0.064841182402670),
        static_cast<float>(-0.157048836463065), static_cast<float>(0.257167726303123),
        static_cast<float>(-0.353800560300520), static_cast<float>(0.480131410397451),
        static_cast<float>(-0.721314327952201), static_cast<float>(1.442694803896991),
        0.0f,
    };
    std::uint32_t bits = tv::bit_cast<std::uint32_t>(x);
    if (x != x) bits = 0xFFC00000u;
    const std::uint32_t exponent = (bits & 0x7F800000u) >> 23;
    const std::uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;
    const float mantissa = tv::bit_cast<float>(mantissa_bits);
    const float log_base = static_cast<float>(static_cast<std::int32_t>(exponent) - 127);
    const float t = mantissa - 1.0f;
    float log_remain = 0;
    for (int i = 0; i < 9; ++i) log_remain = log_remain * t + poly[i];
    return log_base + log_remain;
}

// What the statistic needs of the options, fixed at init.
struct StatisticParams {
    float gain_limit;     // (float) vif_enhn_gain_limit
    double sigma_nsq;     // vif_sigma_nsq
    float sigma_max_inv;  // powf(sigma_nsq, 2) / 255^2, see float_vif.cpp
};

// The filtered products of the vertical pass: f * (x * x) and f * (x * y).
TV_HD float weighted_square(float f, float x) { return f * (x * x); }
TV_HD float weighted_product(float f, float x, float y) { return f * (x * y); }

// One sample's numerator and denominator terms from the filtered means and
// second moments of reference (1) and distorted (2).
TV_HD void pixel_terms(float mu1, float mu2, float xx_filt, float yy_filt, float xy_filt, const StatisticParams& p,
                       float* num, float* den)
{
    const float mu1_sq = mu1 * mu1;
    const float mu2_sq = mu2 * mu2;
    const float mu1_mu2 = mu1 * mu2;
    float sigma1_sq = xx_filt - mu1_sq;
    float sigma2_sq = yy_filt - mu2_sq;
    const float sigma12 = xy_filt - mu1_mu2;

    // libvmaf's MAX / MIN macros (a NaN gives the second operand).
    sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
    sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;

    float g = sigma12 / (sigma1_sq + kEps);
    float sv_sq = sigma2_sq - g * sigma12;
    if (sigma1_sq < kEps) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    }
    if (sigma2_sq < kEps) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (g < 0.0f) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = sv_sq > kEps ? sv_sq : kEps;
    g = g < p.gain_limit ? g : p.gain_limit;

    // The divisions by (sv_sq + sigma_nsq) and sigma_nsq are double; the
    // sums with 1.0f too; log2f_approx takes them rounded to float.
    float num_val = log2f_approx(
        static_cast<float>(1.0 + static_cast<double>(g * g * sigma1_sq) / (static_cast<double>(sv_sq) + p.sigma_nsq)));
    float den_val = log2f_approx(static_cast<float>(1.0 + static_cast<double>(sigma1_sq) / p.sigma_nsq));

    if (sigma12 < 0.0f) num_val = 0.0f;
    if (static_cast<double>(sigma1_sq) < p.sigma_nsq) {
        num_val = 1.0f - sigma2_sq * p.sigma_max_inv;
        den_val = 1.0f;
    }
    *num = num_val;
    *den = den_val;
}

}  // namespace twinvmaf::float_vif
