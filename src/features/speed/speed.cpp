// SpEED: options, geometry, filters and the two extractors' frame logic.
#include "features/speed/speed.h"

#include <cmath>
#include <cstdio>

#include "core/feature_names.h"
#include "features/speed/speed_math.h"
#include "twinvmaf/error.h"

namespace twinvmaf::speed {

namespace {

const char* const kChromaU = "Speed_chroma_feature_speed_chroma_u_score";
const char* const kChromaV = "Speed_chroma_feature_speed_chroma_v_score";
const char* const kChromaUV = "Speed_chroma_feature_speed_chroma_uv_score";
const char* const kTemporal = "Speed_temporal_feature_speed_temporal_score";

// The options both extractors share (Netflix's tables, same order).
std::vector<OptionSpec> common_specs(const char* max_val_help)
{
    return {
        {.name = "speed_kernelscale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation "
                 "by 2 and enlarge the kernel size accordingly",
         .min = 0.1, .max = 4.0, .names_output = true, .alias = "ks"},
        {.name = "speed_prescale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scaling factor for the frame (2.0 means making the image twice as large on each dimension)",
         .min = 0.1, .max = 4.0, .names_output = true, .alias = "ps"},
        {.name = "speed_prescale_method", .type = OptionType::kString, .default_value = std::string("nearest"),
         .help = "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]",
         .names_output = true, .alias = "psm"},
        {.name = "speed_sigma_nn", .type = OptionType::kDouble, .default_value = 0.29,
         .help = "standard deviation of neural noise", .min = 0.1, .max = 2.0, .names_output = true,
         .alias = "snn"},
        {.name = "speed_nn_floor", .type = OptionType::kDouble, .default_value = 0.0,
         .help = "neural noise floor, expressed in percentage of sigma_nn", .min = 0.0, .max = 1.0,
         .names_output = true, .alias = "nnf"},
        {.name = "speed_max_val", .type = OptionType::kDouble, .default_value = 1000.0, .help = max_val_help,
         .min = 0.0, .max = 1000.0, .names_output = true, .alias = "mxv"},
    };
}

const std::vector<OptionSpec>& chroma_specs()
{
    static const std::vector<OptionSpec> specs = [] {
        auto s = common_specs("maximum value allowed; larger values will be clipped to this value");
        s.push_back({.name = "speed_weight_var_mode", .type = OptionType::kInt, .default_value = 0,
                     .help = "different approaches to perform variance-absed weighting", .min = 0, .max = 6,
                     .names_output = true, .alias = "wvm"});
        return s;
    }();
    return specs;
}

const std::vector<OptionSpec>& temporal_specs()
{
    static const std::vector<OptionSpec> specs = [] {
        // Netflix accepts speed_max_val here but never applies it.
        auto s = common_specs("maximum value allowed; larger values will be clipped to this value "
                              "(accepted, not applied, as in Netflix's speed_temporal)");
        s.push_back({.name = "speed_use_ref_diff", .type = OptionType::kBool, .default_value = false,
                     .help = "use the reference's frame difference for the distorted (dis[i-1] - ref[i])",
                     .names_output = true, .alias = "urd"});
        return s;
    }();
    return specs;
}


std::string size_text(unsigned w, unsigned h) { return std::to_string(w) + "x" + std::to_string(h); }

void check_geometry(const std::string& feature, const std::string& what, const Geometry& g, double prescale)
{
    if (g.truncated_width == 0 || g.truncated_height == 0) {
        std::string scaled;
        if (prescale != 1.0) {
            char text[64];
            std::snprintf(text, sizeof text, "%g", prescale);
            scaled = ", " + size_text(g.scaled_width, g.scaled_height) + " after speed_prescale=" + text;
        }
        throw Error(feature + ": " + what + " " + size_text(g.width, g.height) + scaled +
                    " is too small: its operating size (decimated by 16, cut to 5x5 blocks) is " +
                    size_text(g.truncated_width, g.truncated_height) +
                    "; operating size is 0 (SpEED needs at least 80x80 samples; Netflix crashes here)");
    }
    if (!g.rescale && (g.scaled_width != g.width || g.scaled_height != g.height)) {
        // Netflix skips scaling within 1e-3 of 1 but still uses the scaled
        // size, reading samples it never wrote.
        throw Error(feature + ": speed_prescale within 0.001 of 1 would change the " + what + " size " +
                    size_text(g.width, g.height) + " to " + size_text(g.scaled_width, g.scaled_height) +
                    " without scaling it; Netflix reads uninitialised memory there. Use 1 or a value further from 1");
    }
}

}  // namespace

Settings Settings::from(const OptionValues& values, const std::string& feature)
{
    Settings s;
    s.kernelscale = values.get_double("speed_kernelscale");
    s.prescale = values.get_double("speed_prescale");
    s.sigma_nn = values.get_double("speed_sigma_nn");
    s.nn_floor = values.get_double("speed_nn_floor");
    s.max_val = values.get_double("speed_max_val");
    if (feature == "speed_chroma")
        s.weight_var_mode = values.get_int("speed_weight_var_mode");
    else
        s.use_ref_diff = values.get_bool("speed_use_ref_diff");
    s.prescale_method =
        float_filter::parse_scale_method(values.get_string("speed_prescale_method"), feature + ": speed_prescale_method");
    if (!float_filter::valid_kernelscale(static_cast<float>(s.kernelscale))) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", s.kernelscale);
        throw Error(feature + ": invalid speed_kernelscale " + std::string(text) + "; Netflix knows only " +
                    float_filter::valid_kernelscales_text());
    }
    return s;
}

Geometry Geometry::of(unsigned width, unsigned height, double prescale)
{
    Geometry g;
    g.width = width;
    g.height = height;
    g.scaled_width = static_cast<unsigned>(static_cast<int>(static_cast<std::size_t>(width) * prescale + 0.5));
    g.scaled_height = static_cast<unsigned>(static_cast<int>(static_cast<std::size_t>(height) * prescale + 0.5));
    g.operating_width = g.scaled_width >> kScales;
    g.operating_height = g.scaled_height >> kScales;
    g.truncated_width = g.operating_width / kBlock * kBlock;
    g.truncated_height = g.operating_height / kBlock * kBlock;
    g.blocks_x = g.truncated_width / kBlock;
    g.blocks_y = g.truncated_height / kBlock;
    g.sub_width = g.truncated_width ? g.truncated_width - kBlock + 1 : 0;
    g.sub_height = g.truncated_height ? g.truncated_height - kBlock + 1 : 0;
    g.rescale = !(std::fabs(prescale - 1.0) < 1.0e-3);
    return g;
}

Filters Filters::make(const Settings& settings, const Geometry& geometry, const std::string& feature)
{
    Filters f;
    const float ks = static_cast<float>(settings.kernelscale);
    // The anti-aliasing filter has the width of scale 1 and the stdev of
    // scale 4 (speed_get_antialias_filter), the local mean that of scale 4.
    const int wa = float_filter::filter_width(1, ks);
    f.antialias = float_filter::gaussian_taps(wa, static_cast<float>(std::sqrt(4.0) * wa / 5.0f));
    f.local = float_filter::vif_filter(kScales, ks);
    if (geometry.rescale) {
        f.scaler = float_filter::Scaler(settings.prescale_method, static_cast<int>(geometry.width),
                                        static_cast<int>(geometry.height), static_cast<int>(geometry.scaled_width),
                                        static_cast<int>(geometry.scaled_height), feature + ": speed_prescale");
    }
    return f;
}

// ---------------------------------------------------------------- both

void SingularFrames::add(std::uint64_t index, std::uint64_t flags)
{
    if (!flags) return;
    if (!frames) first = index;
    ++frames;
    planes |= flags;
}

void SingularFrames::report(const char* feature, const std::vector<std::string>& plane_names) const
{
    if (!frames) return;
    std::string which;
    for (std::size_t bit = 0; bit < plane_names.size(); ++bit) {
        if (planes & (1u << bit)) which += (which.empty() ? "" : ", ") + plane_names[bit];
    }
    std::fprintf(stderr,
                 "twinvmaf: warning: %s: covariance matrix singular on %llu frame%s (first: frame %llu; %s); "
                 "their variances were taken as 0, as Netflix does\n",
                 feature, static_cast<unsigned long long>(frames), frames == 1 ? "" : "s",
                 static_cast<unsigned long long>(first), which.c_str());
}

SpeedExtractor::SpeedExtractor(Kind kind, const Settings& settings, std::vector<std::string> names)
    : kind_(std::move(kind)), settings_(settings), names_(std::move(names))
{
}

void SpeedExtractor::init(const VideoFormat& format)
{
    format_ = format;
    geometry_ = Geometry::of(format.plane_width(kind_.plane), format.plane_height(kind_.plane), settings_.prescale);
    check_geometry(kind_.feature, kind_.plane_description, geometry_, settings_.prescale);
    filters_ = Filters::make(settings_, geometry_, kind_.feature);
}

void SpeedExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    singular_.add(index, scores.get_integer(0));
    for (std::size_t slot = 0; slot < names_.size(); ++slot) out.write(slot, index, scores.get(slot));
}

void SpeedExtractor::flush(Collector&) { singular_.report(kind_.feature, kind_.flag_planes); }

// ---------------------------------------------------------------- chroma

// Singular flags: bit 0 U ref, 1 U dis, 2 V ref, 3 V dis.
SpeedChroma::SpeedChroma(const Settings& settings, const OptionValues& values)
    : SpeedExtractor({"speed_chroma", "chroma plane", 1, {"U ref", "U dis", "V ref", "V dis"}}, settings,
                     {output_name(kChromaU, values), output_name(kChromaV, values), output_name(kChromaUV, values)})
{
}

// ---------------------------------------------------------------- temporal

// Singular flags: bit 0 ref, 1 dis.
SpeedTemporal::SpeedTemporal(const Settings& settings, const OptionValues& values)
    : SpeedExtractor({"speed_temporal", "frame", 0, {"ref", "dis"}}, settings, {output_name(kTemporal, values)})
{
}

// ---------------------------------------------------------------- registry

FeatureInfo chroma_feature_info()
{
    return FeatureInfo{
        .name = "speed_chroma",
        .help = "SpEED spatial entropic differences of the chroma planes (speed_chroma_u, _v, _uv)",
        .options = chroma_specs(),
        .provided = {kChromaU, kChromaV, kChromaUV},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<SpeedChroma>(Settings::from(values, "speed_chroma"), values);
        },
    };
}

FeatureInfo temporal_feature_info()
{
    return FeatureInfo{
        .name = "speed_temporal",
        .help = "SpEED temporal entropic differences of the luma (speed_temporal)",
        .options = temporal_specs(),
        .provided = {kTemporal},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<SpeedTemporal>(Settings::from(values, "speed_temporal"), values);
        },
    };
}

}  // namespace twinvmaf::speed
