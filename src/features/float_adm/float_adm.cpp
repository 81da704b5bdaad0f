// float_adm's options, per-scale parameters and the host-side scoring shared
// by every backend.
#include "features/float_adm/float_adm.h"

#include <cmath>
#include <string>

#include "core/feature_names.h"
#include "features/adm/adm.h"
#include "features/adm/adm_csf.h"
#include "features/float_adm/float_adm_arena.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_adm {

namespace {

// Netflix's provided_features, verbatim (models name their inputs with
// these; "adm_scale0" is provided but never written).
const char* const kProvided[] = {
    "VMAF_feature_adm2_score",       "VMAF_feature_aim_score",        "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score", "adm_num",                       "adm_den",
    "adm_scale0",                    "adm_num_scale0",                "adm_den_scale0",
    "adm_num_scale1",                "adm_den_scale1",                "adm_num_scale2",
    "adm_den_scale2",                "adm_num_scale3",                "adm_den_scale3",
};

// What Netflix writes, in its order: 7 always, 11 more with debug. "adm" is
// not a provided feature, so it keeps its name whatever the options.
const char* const kAlwaysWritten[] = {
    "VMAF_feature_adm2_score",       "VMAF_feature_aim_score",        "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score",
};
const char* const kDebugWritten[] = {
    "adm_num",        "adm_den",        "adm_num_scale0", "adm_den_scale0", "adm_num_scale1",
    "adm_den_scale1", "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
};
const char* const kUnsuffixedDebugName = "adm";

// FrameScores slots per scale: den[3], dlm[3], aim[3].
constexpr std::size_t kSlotsPerScale = 3 * kOrientations;

constexpr double kPi = 3.14159265358979323846;

// adm_f1s0 .. adm_f2s3: a CSF weight of one scale given directly.
OptionSpec factor_option(const char* name, const char* alias, const char* help)
{
    return {.name = name, .type = OptionType::kDouble, .default_value = -1.0, .help = help, .min = -1.0,
            .max = 10.0, .names_output = true, .alias = alias};
}

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> s = {
            {.name = "debug", .type = OptionType::kBool, .default_value = false,
             .help = "debug mode: enable additional output"},
            {.name = "adm_enhn_gain_limit", .type = OptionType::kDouble, .default_value = 100.0,
             .help = "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely "
                     "disabled",
             .min = 1.0, .max = 100.0, .names_output = true, .alias = "egl"},
            {.name = "adm_norm_view_dist", .type = OptionType::kDouble, .default_value = 3.0,
             .help = "normalized viewing distance = viewing distance / ref display's physical height",
             .min = 0.75, .max = 24.0, .names_output = true, .alias = "nvd"},
            {.name = "adm_noise_weight", .type = OptionType::kDouble, .default_value = 0.03125,
             .help = "noise weight", .min = 0.0, .max = 1500.0, .names_output = true, .alias = "nw"},
            {.name = "adm_csf_scale", .type = OptionType::kDouble, .default_value = 1.0,
             .help = "scale factor for the CSF", .min = 0.0, .max = 50.0, .names_output = true, .alias = "scf"},
            {.name = "adm_csf_diag_scale", .type = OptionType::kDouble, .default_value = 1.0,
             .help = "scale factor for the CSF diag", .min = 0.0, .max = 50.0, .names_output = true,
             .alias = "scfd"},
            // Netflix's alias here is "rdf" (the integer ADM's is "rdh").
            {.name = "adm_ref_display_height", .type = OptionType::kInt, .default_value = 1080,
             .help = "reference display height in pixels", .min = 1, .max = 4320, .names_output = true,
             .alias = "rdf"},
            // 0 Watson, 1 Barten, 2 the DLM paper's CSF; 3..9 are accepted and
            // give Watson's, as in Netflix.
            {.name = "adm_csf_mode", .type = OptionType::kInt, .default_value = 0,
             .help = "contrast sensitivity function", .min = 0, .max = 9, .names_output = true, .alias = "csf"},
            {.name = "adm_bypass_cm", .type = OptionType::kInt, .default_value = 0,
             .help = "bypass contrast masking (CM)", .min = 0, .max = 1, .names_output = true, .alias = "bcm"},
            {.name = "adm_adm3_apply_hm", .type = OptionType::kBool, .default_value = false,
             .help = "apply harmonic mean to combine DLM and AIM", .names_output = true, .alias = "aah"},
            {.name = "adm_p_norm", .type = OptionType::kDouble, .default_value = 3.0,
             .help = "p-norm for energy vector", .min = 1.0, .max = 20.0, .names_output = true, .alias = "apn"},
            {.name = "adm_dlm_weight", .type = OptionType::kDouble, .default_value = 0.5,
             .help = "linear weighting between DLM and AIM; 1 corresponds to DLM-only", .min = 0.0, .max = 1.0,
             .names_output = true, .alias = "dlmw"},
            {.name = "adm_min_val", .type = OptionType::kDouble, .default_value = 0.0,
             .help = "minimum value allowed; lower values will be clipped to this value", .min = 0.0, .max = 1.0,
             .names_output = true, .alias = "min"},
        };
        for (OptionSpec factor : {factor_option("adm_f1s0", "f1s0", "factor1 scale0"),
                                  factor_option("adm_f1s1", "f1s1", "factor1 scale1"),
                                  factor_option("adm_f1s2", "f1s2", "factor1 scale2"),
                                  factor_option("adm_f1s3", "f1s3", "factor1 scale3"),
                                  factor_option("adm_f2s0", "f2s0", "factor2 scale0"),
                                  factor_option("adm_f2s1", "f2s1", "factor2 scale1"),
                                  factor_option("adm_f2s2", "f2s2", "factor2 scale2"),
                                  factor_option("adm_f2s3", "f2s3", "factor2 scale3")})
            s.push_back(factor);
        // Netflix's default -1 lies outside the range it accepts (0..3).
        s.push_back({.name = "adm_skip_aim_scale", .type = OptionType::kInt, .default_value = -1,
                     .help = "when set, skip AIM calculations for that scale", .min = 0, .max = 3,
                     .names_output = true, .alias = "sasc"});
        s.push_back({.name = "adm_skip_scale0", .type = OptionType::kBool, .default_value = false,
                     .help = "skip the calculation of scale 0", .names_output = true, .alias = "ssz"});
        return s;
    }();
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.debug = values.get_bool("debug");
    s.enhn_gain_limit = values.get_double("adm_enhn_gain_limit");
    s.norm_view_dist = values.get_double("adm_norm_view_dist");
    s.noise_weight = values.get_double("adm_noise_weight");
    s.csf_scale = values.get_double("adm_csf_scale");
    s.csf_diag_scale = values.get_double("adm_csf_diag_scale");
    s.ref_display_height = values.get_int("adm_ref_display_height");
    s.csf_mode = values.get_int("adm_csf_mode");
    s.bypass_cm = values.get_int("adm_bypass_cm");
    s.adm3_apply_hm = values.get_bool("adm_adm3_apply_hm");
    s.p_norm = values.get_double("adm_p_norm");
    s.dlm_weight = values.get_double("adm_dlm_weight");
    s.min_val = values.get_double("adm_min_val");
    const char* const factor1[kScales] = {"adm_f1s0", "adm_f1s1", "adm_f1s2", "adm_f1s3"};
    const char* const factor2[kScales] = {"adm_f2s0", "adm_f2s1", "adm_f2s2", "adm_f2s3"};
    for (int scale = 0; scale < kScales; ++scale) {
        s.factor1[scale] = values.get_double(factor1[scale]);
        s.factor2[scale] = values.get_double(factor2[scale]);
    }
    s.skip_aim_scale = values.get_int("adm_skip_aim_scale");
    s.skip_scale0 = values.get_bool("adm_skip_scale0");
    s.output_suffix = values.output_suffix();
    return s;
}

void FloatAdmExtractor::init(const VideoFormat& format)
{
    format_ = format;
    params_ = FrameParams{};
    params_.decouple.enhancement_gain_limit = settings_.enhn_gain_limit;
    const double cos_1deg = std::cos(1.0 * kPi / 180.0);
    params_.decouple.cos_1deg_squared = static_cast<float>(cos_1deg * cos_1deg);
    params_.p_norm = settings_.p_norm;
    params_.bypass_cm = settings_.bypass_cm != 0;
    params_.skip_scale0 = settings_.skip_scale0;

    // Netflix's adm_csf_mode: 1 Barten, 2 the DLM paper's CSF, anything else
    // Watson (its ADM_CSF_MODE_WATSON97 is the default branch).
    adm::CsfInputs csf{
        .mode = settings_.csf_mode == 1 ? adm::CsfMode::kBarten : adm::CsfMode::kWatson,
        .norm_view_dist = settings_.norm_view_dist,
        .ref_display_height = settings_.ref_display_height,
        .csf_scale = settings_.csf_scale,
        .csf_diag_scale = settings_.csf_diag_scale,
    };
    int width = static_cast<int>(format.width);
    int height = static_cast<int>(format.height);
    for (int scale = 0; scale < kScales; ++scale) {
        ScaleParams& p = params_.scale[scale];
        p.input_width = width;
        p.input_height = height;
        width = (width + 1) / 2;
        height = (height + 1) / 2;
        p.width = width;
        p.height = height;
        p.scored = adm::scored_region(width, height);
        p.decoupled = adm::decoupled_region(width, height);
        if (settings_.csf_mode == 2)
            adm::dlm_csf_weights(scale, csf, p.weight);
        else
            adm::csf_weights(scale, csf, p.weight);
        if (settings_.factor1[scale] >= 0) p.weight[0] = p.weight[1] = static_cast<float>(settings_.factor1[scale]);
        if (settings_.factor2[scale] >= 0) p.weight[2] = static_cast<float>(settings_.factor2[scale]);
        // A wavelet input under 2 samples, or a band of 1 at a scale that is
        // analysed: Netflix reads outside the band there (float_adm_arena.h).
        const bool analysed = !(scale == 0 && settings_.skip_scale0);
        if (p.input_width < 2 || p.input_height < 2 || (analysed && (p.width == 1 || p.height == 1)))
            params_.netflix_layout = true;
    }
    // Such frames run in Netflix's buffer layout where its reads outside the
    // bands find values the frame wrote (its result is then deterministic);
    // where they find memory it never wrote there is no reference.
    if (params_.netflix_layout) {
        const std::string read =
            arena::unwritten_read(params_, static_cast<int>(format.width), static_cast<int>(format.height));
        if (!read.empty()) {
            throw Error("float_adm: frame " + std::to_string(format.width) + "x" + std::to_string(format.height) +
                        " is too small: " + read +
                        " (Netflix reads memory outside its frame's data there: no reference); float_adm scores "
                        "frames of at least 17x17 and the smaller ones where those reads stay inside the frame's "
                        "data (docs/compat.md, float ADM, \"Small frames\")");
        }
    }
}

std::vector<std::string> FloatAdmExtractor::output_names() const
{
    std::vector<std::string> names;
    for (const char* name : kAlwaysWritten) names.push_back(feature_alias(name) + settings_.output_suffix);
    if (!settings_.debug) return names;
    names.push_back(kUnsuffixedDebugName);
    for (const char* name : kDebugWritten) names.push_back(feature_alias(name) + settings_.output_suffix);
    return names;
}

void FloatAdmExtractor::store_sums(int scale, const ScaleSums& sums, FrameScores& scores)
{
    const std::size_t base = static_cast<std::size_t>(scale) * kSlotsPerScale;
    for (int theta = 0; theta < kOrientations; ++theta) {
        scores.set(base + theta, sums.den[theta]);
        scores.set(base + kOrientations + theta, sums.dlm[theta]);
        scores.set(base + 2 * kOrientations + theta, sums.aim[theta]);
    }
}

// Netflix's adm_csf_den_scale_s and adm_cm_s after their loops: the p-th root
// of each orientation's sum plus the noise floor of the scored area, the
// three added in float (h + v) + d. The AIM has no noise floor (Netflix
// passes a noise weight of 0, whose root is 0).
FloatAdmExtractor::ScaleScore FloatAdmExtractor::score_scale(int scale, const FrameScores& scores) const
{
    if (scale == 0 && settings_.skip_scale0) return {.num = 0, .den = static_cast<float>(1e-10), .aim = 0};

    const ScaleParams& p = params_.scale[scale];
    const float root = static_cast<float>(1.0 / settings_.p_norm);
    const int area = p.scored.width() * p.scored.height();
    const float noise = root_powf(static_cast<float>(area * settings_.noise_weight), root);
    const float no_noise = root_powf(static_cast<float>(area * 0.0), root);
    const std::size_t base = static_cast<std::size_t>(scale) * kSlotsPerScale;
    auto total = [&](std::size_t first, float floor) {
        float terms[kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta)
            terms[theta] = root_powf(static_cast<float>(scores.get(first + theta)), root) + floor;
        return terms[0] + terms[1] + terms[2];
    };
    return {.num = total(base + kOrientations, noise), .den = total(base, noise),
            .aim = total(base + 2 * kOrientations, no_noise)};
}

// Netflix's compute_adm after its scale loop, and float_adm.c's extract.
void FloatAdmExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // The scales' float scores added in double, scale 0 first; the AIM's
    // denominator leaves out adm_skip_aim_scale.
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    adm::FrameOutputs o;
    for (int scale = 0; scale < kScales; ++scale) {
        const ScaleScore s = score_scale(scale, scores);
        num += s.num;
        den += s.den;
        if (settings_.skip_aim_scale != scale) {
            aim_den += s.den;
            aim_num += s.aim;
        }
        o.scale_num[scale] = s.num;
        o.scale_den[scale] = s.den;
    }

    const double limit = adm::numden_limit(format_);
    o.num = num < limit ? 0 : num;
    o.den = den < limit ? 0 : den;

    // Netflix leaves the AIM score unset (stack garbage) when the denominator
    // is 0 (e.g. a flat reference with adm_noise_weight=0); we define it as 0.
    if (o.den != 0.0) {
        o.score_aim = nf_min(aim_num / aim_den, 1.0);
        o.score = o.num / o.den;
    }
    o.adm3 = settings_.adm3_apply_hm
                 ? nf_max(2 * o.score * o.score_aim / (o.score + o.score_aim), settings_.min_val)
                 : nf_max(o.score * settings_.dlm_weight + (1 - o.score_aim) * (1 - settings_.dlm_weight),
                          settings_.min_val);
    adm::write_frame_outputs(o, settings_.debug, index, out);
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_adm",
        .help = "float ADM (adm2, aim, adm3, adm_scale0..3)",
        .options = option_specs(),
        .provided = std::vector<std::string>(std::begin(kProvided), std::end(kProvided)),
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatAdmCpu>(Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::float_adm
