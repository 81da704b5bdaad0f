// ADM's options, per-scale parameters and the host-side scoring shared by
// every backend.
#include "features/common/libm.h"
#include "features/adm/adm.h"

#include <cmath>
#include <string>

#include "core/feature_names.h"
#include "twinvmaf/error.h"

namespace twinvmaf::adm {

namespace {

// Netflix's provided_features, in its output order; the first 7 always, the
// rest with debug=true.
const char* const kProvided[] = {
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score", "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",              "integer_adm_scale1",             "integer_adm_scale2",
    "integer_adm_scale3",              "integer_adm",                    "integer_adm_num",
    "integer_adm_den",                 "integer_adm_num_scale0",         "integer_adm_den_scale0",
    "integer_adm_num_scale1",          "integer_adm_den_scale1",         "integer_adm_num_scale2",
    "integer_adm_den_scale2",          "integer_adm_num_scale3",         "integer_adm_den_scale3",
};
constexpr std::size_t kAlwaysWritten = 7;
constexpr std::size_t kWithDebug = sizeof kProvided / sizeof kProvided[0];

// Below this angular resolution Netflix's 16-bit pipeline does not work; it
// refuses every frame there (extract returns -EINVAL).
constexpr double kMinViewDistTimesHeight = 3.0 * 1080;

// Integers per scale in FrameScores: dlm[3], aim[3], den[3].
constexpr std::size_t kIntegersPerScale = 3 * kOrientations;

// libvmaf's MAX(): the second operand when the comparison is false (NaN).
double nf_max(double a, double b) { return a > b ? a : b; }

float cube_root(float x) { return libm::powf(x, 1.0f / 3.0f); }

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = {
        {.name = "debug", .type = OptionType::kBool, .default_value = false,
         .help = "debug mode: enable additional output"},
        {.name = "adm_csf_scale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scale coefficient for the horizontal & vertical direction terms of CSF", .min = 0.0,
         .max = 50.0, .names_output = true, .alias = "scf"},
        {.name = "adm_csf_diag_scale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scale coefficient for the diagonal direction term of CSF", .min = 0.0, .max = 50.0,
         .names_output = true, .alias = "scfd"},
        {.name = "adm_dlm_weight", .type = OptionType::kDouble, .default_value = 0.5,
         .help = "linear weighting between DLM and AIM; 1 corresponds to DLM-only", .min = 0.0, .max = 1.0,
         .names_output = true, .alias = "dlmw"},
        {.name = "adm_enhn_gain_limit", .type = OptionType::kDouble, .default_value = 100.0,
         .help = "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely "
                 "disabled",
         .min = 1.0, .max = 100.0, .names_output = true, .alias = "egl"},
        {.name = "adm_norm_view_dist", .type = OptionType::kDouble, .default_value = 3.0,
         .help = "normalized viewing distance = viewing distance / ref display's physical height", .min = 0.75,
         .max = 24.0, .names_output = true, .alias = "nvd"},
        {.name = "adm_ref_display_height", .type = OptionType::kInt, .default_value = 1080,
         .help = "reference display height in pixels", .min = 1, .max = 4320, .names_output = true,
         .alias = "rdh"},
        {.name = "adm_csf_mode", .type = OptionType::kInt, .default_value = 0,
         .help = "contrast sensitivity function", .min = 0, .max = 3, .names_output = true, .alias = "csf"},
        {.name = "adm_noise_weight", .type = OptionType::kDouble, .default_value = 0.03125,
         .help = "noise weight", .min = 0.0, .max = 1500.0, .names_output = true, .alias = "nw"},
        {.name = "adm_skip_aim", .type = OptionType::kBool, .default_value = false,
         .help = "skip the calculation of AIM"},
        {.name = "adm_skip_scale0", .type = OptionType::kBool, .default_value = false,
         .help = "skip the calculation of scale 0", .names_output = true, .alias = "ssz"},
        {.name = "adm_min_val", .type = OptionType::kDouble, .default_value = 0.0,
         .help = "minimum value allowed; lower values will be clipped to this value", .min = 0.0, .max = 1.0,
         .names_output = true, .alias = "min"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.debug = values.get_bool("debug");
    s.csf_scale = values.get_double("adm_csf_scale");
    s.csf_diag_scale = values.get_double("adm_csf_diag_scale");
    s.dlm_weight = values.get_double("adm_dlm_weight");
    s.enhn_gain_limit = values.get_double("adm_enhn_gain_limit");
    s.norm_view_dist = values.get_double("adm_norm_view_dist");
    s.ref_display_height = values.get_int("adm_ref_display_height");
    s.csf_mode = values.get_int("adm_csf_mode");
    s.noise_weight = values.get_double("adm_noise_weight");
    s.skip_aim = values.get_bool("adm_skip_aim");
    s.skip_scale0 = values.get_bool("adm_skip_scale0");
    s.min_val = values.get_double("adm_min_val");
    s.output_suffix = values.output_suffix();
    return s;
}

void AdmExtractor::init(const VideoFormat& format)
{
    if (settings_.norm_view_dist * settings_.ref_display_height < kMinViewDistTimesHeight) {
        throw Error("adm: adm_norm_view_dist * adm_ref_display_height is " +
                    std::to_string(settings_.norm_view_dist * settings_.ref_display_height) +
                    "; the integer ADM needs at least 3240 (3.0 * 1080): its 16-bit pipeline cannot handle a "
                    "lower angular frequency");
    }
    // Netflix's wavelet reads row / column -1 of a scale's input of 3 or 4
    // samples and row 2 of one of 2, and its masking window reads past a
    // band 1 sample wide: on every frame with a side of 32 or less (scale
    // 3's input is then 4 samples or fewer) it reads outside its buffers or
    // crashes (valgrind on 17x17, 32x32, 32x40, 40x32; 33x33, 33x40, 40x33
    // are clean), so there is no reference.
    if (format.width < kMinFrameSize || format.height < kMinFrameSize) {
        throw Error("adm: frame " + std::to_string(format.width) + "x" + std::to_string(format.height) +
                    " is too small; the integer ADM needs at least " + std::to_string(kMinFrameSize) + "x" +
                    std::to_string(kMinFrameSize) +
                    " (below that Netflix's wavelet and masking read outside its buffers)");
    }
    format_ = format;
    params_ = FrameParams{};
    params_.bitdepth = static_cast<int>(format.bitdepth);
    params_.enhancement_gain_limit = settings_.enhn_gain_limit;
    params_.skip_scale0 = settings_.skip_scale0;
    params_.skip_aim = settings_.skip_aim;

    const CsfInputs csf{
        .mode = static_cast<CsfMode>(settings_.csf_mode),
        .norm_view_dist = settings_.norm_view_dist,
        .ref_display_height = settings_.ref_display_height,
        .csf_scale = settings_.csf_scale,
        .csf_diag_scale = settings_.csf_diag_scale,
    };
    int width = static_cast<int>(format.width);
    int height = static_cast<int>(format.height);
    for (int scale = 0; scale < kScales; ++scale) {
        width = (width + 1) / 2;
        height = (height + 1) / 2;
        ScaleParams& p = params_.scale[scale];
        p.width = width;
        p.height = height;
        p.scored = scored_region(width, height);
        p.decoupled = decoupled_region(width, height);
        p.masking = masking_shifts(scale, width, height);
        p.denominator = denominator_shifts(scale, p.scored);
        csf_weights(scale, csf, csf_weight_[scale]);
        csf_fixed_weights(scale, csf, csf_weight_[scale], p.csf_weight);
    }
}

std::vector<std::string> AdmExtractor::output_names() const
{
    const std::size_t count = settings_.debug ? kWithDebug : kAlwaysWritten;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < count; ++i) names.push_back(feature_alias(kProvided[i]) + settings_.output_suffix);
    return names;
}

void AdmExtractor::store_sums(int scale, const ScaleSums& sums, FrameScores& scores)
{
    const std::size_t base = static_cast<std::size_t>(scale) * kIntegersPerScale;
    for (int theta = 0; theta < kOrientations; ++theta) {
        scores.set_integer(base + theta, static_cast<std::uint64_t>(sums.dlm[theta]));
        scores.set_integer(base + kOrientations + theta, static_cast<std::uint64_t>(sums.aim[theta]));
        scores.set_integer(base + 2 * kOrientations + theta, sums.den[theta]);
    }
}

ScaleSums AdmExtractor::load_sums(int scale, const FrameScores& scores)
{
    const std::size_t base = static_cast<std::size_t>(scale) * kIntegersPerScale;
    ScaleSums sums;
    for (int theta = 0; theta < kOrientations; ++theta) {
        sums.dlm[theta] = static_cast<std::int64_t>(scores.get_integer(base + theta));
        sums.aim[theta] = static_cast<std::int64_t>(scores.get_integer(base + kOrientations + theta));
        sums.den[theta] = scores.get_integer(base + 2 * kOrientations + theta);
    }
    return sums;
}

// Netflix's adm_cm / i4_adm_cm (numerators) and adm_csf_den_scale /
// adm_csf_den_s123 (denominator) after their integer loops: undo the shifts
// (as a power of two of an unsigned exponent, which wraps as Netflix's does),
// cube root in float, plus the noise floor.
AdmExtractor::ScaleScore AdmExtractor::score_scale(int scale, const ScaleSums& sums) const
{
    const ScaleParams& p = params_.scale[scale];
    const int area = p.scored.width() * p.scored.height();
    const auto two_to = [](int exponent) {
        return libm::pow(2.0, static_cast<double>(static_cast<std::uint32_t>(exponent)));
    };

    // Cubes before the shifts: 3 * (6 bits from the wavelet + the weight's
    // bits) at scale 0; fixed per scale above.
    auto numerator = [&](const std::int64_t accum[kOrientations], double noise_weight) {
        const float noise = cube_root(static_cast<float>(area * noise_weight));
        float terms[kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta) {
            float f;
            if (scale == 0) {
                const int pending = theta == 2 ? 57 : 52;
                f = static_cast<float>(static_cast<double>(accum[theta]) /
                                       two_to(pending - p.masking.cube[theta] - p.masking.row));
            } else {
                const int pending[3] = {45, 39, 36};
                const float unshift =
                    static_cast<float>(two_to(pending[scale - 1] - p.masking.cube[theta] - p.masking.row));
                f = static_cast<float>(accum[theta]) / unshift;  // in float, as Netflix
            }
            terms[theta] = cube_root(f) + noise;
        }
        return terms[0] + terms[1] + terms[2];
    };

    ScaleScore s;
    s.dlm = numerator(sums.dlm, settings_.noise_weight);
    if (!settings_.skip_aim) s.aim = numerator(sums.aim, 0.0);

    // Scale 0's exponent is signed in Netflix, the others unsigned.
    const int pending_den[4] = {18, 32, 27, 23};
    const double den_unshift = scale == 0 ? libm::pow(2.0, pending_den[0] - p.denominator.row)
                                          : two_to(pending_den[scale] - p.denominator.row - p.denominator.cube);
    const float noise = cube_root(static_cast<float>(area * settings_.noise_weight));
    float terms[kOrientations];
    for (int theta = 0; theta < kOrientations; ++theta) {
        const double csf = static_cast<double>(sums.den[theta]) / den_unshift *
                           libm::pow(static_cast<double>(csf_weight_[scale][theta]), 3.0);
        terms[theta] = cube_root(static_cast<float>(csf)) + noise;
    }
    s.den = terms[0] + terms[1] + terms[2];
    return s;
}

void AdmExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // Netflix adds the float scale scores in double, scale 0 first.
    double num = 0, den = 0, aim_num = 0;
    FrameOutputs o;
    for (int scale = 0; scale < kScales; ++scale) {
        ScaleScore s;
        if (scale == 0 && settings_.skip_scale0) {
            s.den = static_cast<float>(1e-10);  // Netflix: "avoid divide by zero"
        } else {
            s = score_scale(scale, load_sums(scale, scores));
        }
        num += s.dlm;
        den += s.den;
        aim_num += s.aim;
        o.scale_num[scale] = s.dlm;
        o.scale_den[scale] = s.den;
    }

    const double limit = numden_limit(format_);
    o.num = num < limit ? 0 : num;
    o.den = den < limit ? 0 : den;

    // Netflix leaves the AIM score uninitialised when the denominator is 0
    // (a flat reference with adm_noise_weight=0); we define it as 0 there.
    if (o.den != 0.0) {
        o.score_aim = aim_num / o.den;
        o.score = o.num / o.den;
    }
    o.adm3 = nf_max(o.score * settings_.dlm_weight + (1 - o.score_aim) * (1 - settings_.dlm_weight),
                    settings_.min_val);
    write_frame_outputs(o, settings_.debug, index, out);
}

double numden_limit(const VideoFormat& format)
{
    const int w = static_cast<int>(format.width);
    const int h = static_cast<int>(format.height);
    return 1e-10 * (w * h) / (1920.0 * 1080.0);
}

void write_frame_outputs(const FrameOutputs& o, bool debug, std::uint64_t index, SlotWriter& out)
{
    std::size_t slot = 0;
    out.write(slot++, index, o.score);
    out.write(slot++, index, o.score_aim);
    out.write(slot++, index, o.adm3);
    for (int scale = 0; scale < kScales; ++scale) out.write(slot++, index, o.scale_num[scale] / o.scale_den[scale]);
    if (!debug) return;
    out.write(slot++, index, o.score);
    out.write(slot++, index, o.num);
    out.write(slot++, index, o.den);
    for (int scale = 0; scale < kScales; ++scale) {
        out.write(slot++, index, o.scale_num[scale]);
        out.write(slot++, index, o.scale_den[scale]);
    }
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "adm",
        .help = "integer ADM (integer_adm2, integer_aim, integer_adm3, integer_adm_scale0..3)",
        .options = option_specs(),
        .provided = std::vector<std::string>(kProvided, kProvided + kWithDebug),
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<AdmCpu>(Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::adm
