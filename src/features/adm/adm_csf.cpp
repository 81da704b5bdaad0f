// ADM's CSF weights. The float and double types of every intermediate are
// Netflix's: they decide the bits of the weights, hence of every score.
#include "features/common/libm.h"
#include "features/adm/adm_csf.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <limits>

namespace twinvmaf::adm {

namespace {

constexpr double kPi = 3.14159265358979323846264338327;

// Display visual resolution in pixels per degree (about 56.55 by default).
float pixels_per_degree(const CsfInputs& in)
{
    return static_cast<float>(in.norm_view_dist * in.ref_display_height * kPi / 180.0);
}

// ---- Watson 1997 -------------------------------------------------------------

// Luma row of "Visibility of Wavelet Quantization Noise" (Watson, Yang,
// Solomon, Villasenor, IEEE TIP 6(8), 1997), formula (7) and Table IV.
constexpr float kWatsonA = 0.495f;
constexpr float kWatsonK = 0.466f;
constexpr float kWatsonF0 = 0.401f;
constexpr float kWatsonG[4] = {1.501f, 1.0f, 0.534f, 1.0f};

// Basis function amplitudes A(lambda, theta), Table V, transposed.
constexpr float kWatsonAmplitude[6][4] = {
    {0.62171f, 0.67234f, 0.72709f, 0.67234f},
    {0.34537f, 0.41317f, 0.49428f, 0.41317f},
    {0.18004f, 0.22727f, 0.28688f, 0.22727f},
    {0.091401f, 0.11792f, 0.15214f, 0.11792f},
    {0.045943f, 0.059758f, 0.077727f, 0.059758f},
    {0.023013f, 0.030018f, 0.039156f, 0.030018f},
};

// Quantisation step of level lambda, orientation theta (1: h/v, 2: d);
// formula (9).
float watson_quant_step(int lambda, int theta, const CsfInputs& in)
{
    const float r = pixels_per_degree(in);
    const float temp = static_cast<float>(
        libm::log10(libm::pow(2.0, lambda + 1) * kWatsonF0 * kWatsonG[theta] / r));
    const float kt = kWatsonK * temp * temp;  // float products, as Netflix
    return static_cast<float>(2.0 * kWatsonA * libm::pow(10.0, static_cast<double>(kt)) /
                              kWatsonAmplitude[lambda][theta]);
}

// ---- Barten (HDR-VDP-2.2.1) -----------------------------------------------------

constexpr double kBartenLuminance = 100.0;  // cd/m^2 (DEFAULT_ADM_CSF_LUM)

constexpr float kBartenLuminanceAnchors[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
constexpr float kBartenParams[6][5] = {
    {0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
    {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
    {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
    {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f},
};
constexpr float kBartenSa[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};
constexpr float kBartenMtfA[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                                  0.00255872352306433f};
constexpr float kBartenMtfB[4] = {0.028f, 0.37f, 37.0f, 360.0f};

float lerp(float left_position, float left_value, float right_position, float right_value, float position)
{
    return left_value + ((right_value - left_value) / (right_position - left_position)) * (position - left_position);
}

float barten_rod_cone_sensitivity(float luminance)
{
    return static_cast<float>(
        kBartenSa[0] * libm::pow(libm::pow(kBartenSa[1] / luminance, static_cast<double>(kBartenSa[2])) + 1,
                                static_cast<double>(-kBartenSa[3])));
}

float barten_mtf(float frequency)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; ++i)
        mtf = static_cast<float>(mtf + kBartenMtfA[i] * libm::exp(static_cast<double>(-kBartenMtfB[i] * frequency)));
    return mtf;
}

float barten_csf(int lambda, const CsfInputs& in, double scale)
{
    const float frequency = static_cast<float>(pixels_per_degree(in) / libm::pow(2.0, lambda + 1));
    const double anchor_low = kBartenLuminanceAnchors[0];
    const double anchor_high = kBartenLuminanceAnchors[5];
    const double luminance = kBartenLuminance > anchor_high ? anchor_high
                             : kBartenLuminance < anchor_low ? anchor_low
                                                             : kBartenLuminance;
    int left = 0, right = 0;
    for (int i = 0; i < 5; ++i) {
        if (luminance >= kBartenLuminanceAnchors[i] && luminance <= kBartenLuminanceAnchors[i + 1]) {
            left = i;
            right = i + 1;
            break;
        }
    }
    const float left_position = static_cast<float>(libm::log10(kBartenLuminanceAnchors[left]));
    const float right_position = static_cast<float>(libm::log10(kBartenLuminanceAnchors[right]));
    const float position = static_cast<float>(libm::log10(luminance));
    float p[4];
    for (int k = 0; k < 4; ++k)
        p[k] = lerp(left_position, kBartenParams[left][k + 1], right_position, kBartenParams[right][k + 1], position);

    const float a =
        static_cast<float>(1.0f + libm::pow(static_cast<double>(p[0] * frequency), static_cast<double>(p[1])));
    const float b = static_cast<float>(
        1.0f / libm::pow(1 - libm::exp(-libm::pow(static_cast<double>(frequency / 7), 2.0)), static_cast<double>(p[2])));
    const float csf = static_cast<float>(p[3] / libm::pow(static_cast<double>(a * b), 0.5));
    return static_cast<float>(csf * barten_mtf(frequency) *
                              barten_rod_cone_sensitivity(static_cast<float>(kBartenLuminance)) * scale);
}

// ---- DLM paper ------------------------------------------------------------------

// The nominal spatial frequency of the level (half the display resolution at
// level 0), in cycles per degree; the diagonal band's is divided by 0.7
// (the oblique effect: the eye is less sensitive to diagonal detail).
float dlm_csf(int lambda, const CsfInputs& in, bool diagonal)
{
    float frequency = static_cast<float>(pixels_per_degree(in) / libm::pow(2.0, lambda + 1));
    if (diagonal) frequency = static_cast<float>(frequency / 0.7);
    return static_cast<float>((0.31 + 0.69 * frequency) * libm::exp(-0.29 * frequency));
}

// ---- Barten/Watson blend tables -------------------------------------------------

// [orientation: 0 h/v, 1 d][scale]
using BlendTable = float[2][4];

constexpr BlendTable kBlend1080x3 = {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
                                     {0.004302f, 0.011778f, 0.023918f, 0.035901f}};
constexpr BlendTable kBlend1080x5 = {{0.004212f, 0.014809f, 0.029642f, 0.047464f},
                                     {0.000984f, 0.005852f, 0.0146f, 0.027574f}};
constexpr BlendTable kBlend2160x3 = {{0.00226f, 0.01183f, 0.025026f, 0.04295f},
                                     {0.000479f, 0.004302f, 0.011778f, 0.023918f}};
constexpr BlendTable kBlend2160x5 = {{0.000092f, 0.004212f, 0.014809f, 0.029642f},
                                     {0.000050f, 0.000984f, 0.005852f, 0.0146f}};
constexpr BlendTable kBlend720x3 = {{0.018715f, 0.035637f, 0.052798f, 0.061509f},
                                    {0.007999f, 0.018396f, 0.031851f, 0.037718f}};
constexpr BlendTable kBlend720x5 = {{0.010144f, 0.022561f, 0.040309f, 0.05672f},
                                    {0.003463f, 0.010282f, 0.021839f, 0.034641f}};
constexpr BlendTable kBlend480x3 = {{0.027961f, 0.045875f, 0.060275f, 0.056234f},
                                    {0.013572f, 0.026277f, 0.036959f, 0.034511f}};
constexpr BlendTable kBlend480x5 = {{0.016781f, 0.032822f, 0.05032f, 0.061594f},
                                    {0.00691f, 0.016545f, 0.029917f, 0.037777f}};

constexpr BlendTable kCorrected1080x3 = {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
                                         {0.004097f, 0.010921f, 0.021430f, 0.031313f}};
constexpr BlendTable kCorrected1080x5 = {{0.004052f, 0.013939f, 0.026298f, 0.038833f},
                                         {0.000927f, 0.005544f, 0.013415f, 0.024515f}};
constexpr BlendTable kCorrected2160x3 = {{0.002166f, 0.011249f, 0.022606f, 0.035930f},
                                         {0.000447f, 0.004097f, 0.010921f, 0.021430f}};
constexpr BlendTable kCorrected2160x5 = {{0.000077f, 0.004052f, 0.013939f, 0.026298f},
                                         {0.000045f, 0.000927f, 0.005544f, 0.013415f}};
constexpr BlendTable kCorrected720x3 = {{0.017329f, 0.030870f, 0.042134f, 0.047410f},
                                        {0.007509f, 0.016707f, 0.028072f, 0.032722f}};
constexpr BlendTable kCorrected720x5 = {{0.009689f, 0.020577f, 0.034162f, 0.044523f},
                                        {0.003302f, 0.009579f, 0.019661f, 0.030318f}};
constexpr BlendTable kCorrected480x3 = {{0.024969f, 0.037825f, 0.046676f, 0.043974f},
                                        {0.012511f, 0.023424f, 0.032139f, 0.030166f}};
constexpr BlendTable kCorrected480x5 = {{0.015665f, 0.028766f, 0.040612f, 0.047483f},
                                        {0.006514f, 0.015107f, 0.026476f, 0.032776f}};

// The table for a display height and viewing distance, or null. 2160 lines
// at 1.5 heights has the pixels per degree of 1080 at 3 (Netflix's note).
const BlendTable* blend_table(const CsfInputs& in, bool corrected)
{
    struct Entry {
        int height;
        double distance;
        const BlendTable* legacy;
        const BlendTable* fixed;
    };
    static const Entry entries[] = {
        {1080, 3.0, &kBlend1080x3, &kCorrected1080x3}, {1080, 5.0, &kBlend1080x5, &kCorrected1080x5},
        {2160, 1.5, &kBlend1080x3, &kCorrected1080x3}, {2160, 3.0, &kBlend2160x3, &kCorrected2160x3},
        {2160, 5.0, &kBlend2160x5, &kCorrected2160x5}, {720, 3.0, &kBlend720x3, &kCorrected720x3},
        {720, 5.0, &kBlend720x5, &kCorrected720x5},    {480, 3.0, &kBlend480x3, &kCorrected480x3},
        {480, 5.0, &kBlend480x5, &kCorrected480x5},
    };
    for (const Entry& e : entries) {
        if (in.ref_display_height == e.height && in.norm_view_dist == e.distance)
            return corrected ? e.fixed : e.legacy;
    }
    return nullptr;
}

float blend_weight(int scale, int orientation, const CsfInputs& in, bool corrected)
{
    const BlendTable* table = blend_table(in, corrected);
    return table ? (*table)[orientation][scale] : static_cast<float>(-EINVAL);
}

// C casts of a double to an unsigned type, as gcc compiles them for x86-64:
// a truncating conversion to int32 (uint16_t) or int64 (uint32_t) that gives
// the type's minimum when out of range, then the low bits.
std::uint16_t x86_cast_uint16(double v)
{
    const bool fits = v > -2147483649.0 && v < 2147483648.0;
    return static_cast<std::uint16_t>(fits ? static_cast<std::int32_t>(v) : std::numeric_limits<std::int32_t>::min());
}

std::uint32_t x86_cast_uint32(double v)
{
    const bool fits = v > -9223372036854775808.0 && v < 9223372036854775808.0;
    return static_cast<std::uint32_t>(fits ? static_cast<std::int64_t>(v) : std::numeric_limits<std::int64_t>::min());
}

}  // namespace

void csf_weights(int scale, const CsfInputs& in, float weights[3])
{
    float hv = 0, d = 0;
    switch (in.mode) {
    case CsfMode::kBarten:
        hv = barten_csf(scale, in, in.csf_scale);
        d = barten_csf(scale, in, in.csf_diag_scale);
        break;
    case CsfMode::kBlend:
    case CsfMode::kBlendCorrected:
        hv = blend_weight(scale, 0, in, in.mode == CsfMode::kBlendCorrected);
        d = blend_weight(scale, 1, in, in.mode == CsfMode::kBlendCorrected);
        break;
    case CsfMode::kWatson:
        hv = 1.0f / watson_quant_step(scale, 1, in);
        d = 1.0f / watson_quant_step(scale, 2, in);
        break;
    }
    weights[0] = hv;
    weights[1] = hv;
    weights[2] = d;
}

void dlm_csf_weights(int scale, const CsfInputs& in, float weights[3])
{
    weights[0] = dlm_csf(scale, in, false);
    weights[1] = weights[0];
    weights[2] = dlm_csf(scale, in, true);
}

void csf_fixed_weights(int scale, const CsfInputs& in, const float weights[3], std::uint32_t fixed[3])
{
    if (scale > 0) {
        for (int i = 0; i < 3; ++i) fixed[i] = x86_cast_uint32(weights[i] * libm::pow(2.0, 32));
        return;
    }
    // Netflix hard-codes scale 0's Watson weights at the default distance.
    const bool default_watson = std::fabs(in.norm_view_dist * in.ref_display_height - 3.0 * 1080) < 1.0e-8 &&
                                in.mode == CsfMode::kWatson;
    if (default_watson) {
        fixed[0] = 36453;
        fixed[1] = 36453;
        fixed[2] = 49417;
        return;
    }
    fixed[0] = x86_cast_uint16(weights[0] * libm::pow(2.0, 21));
    fixed[1] = x86_cast_uint16(weights[1] * libm::pow(2.0, 21));
    fixed[2] = x86_cast_uint16(weights[2] * libm::pow(2.0, 23));
}

}  // namespace twinvmaf::adm
