#include "features/float_vif/float_vif.h"

#include <cstdio>
#include <string>

#include "core/feature_names.h"
#include "features/common/vif_debug_outputs.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_vif {

namespace {

// Netflix's internal names, in its order of writing (float_vif.c).
const std::vector<std::string>& provided_names()
{
    static const std::vector<std::string> names = {
        "VMAF_feature_vif_scale0_score",
        "VMAF_feature_vif_scale1_score",
        "VMAF_feature_vif_scale2_score",
        "VMAF_feature_vif_scale3_score",
        // debug=true only:
        "vif",
        "vif_num",
        "vif_den",
        "vif_num_scale0",
        "vif_den_scale0",
        "vif_num_scale1",
        "vif_den_scale1",
        "vif_num_scale2",
        "vif_den_scale2",
        "vif_num_scale3",
        "vif_den_scale3",
    };
    return names;
}

constexpr std::size_t kScoreNames = kScaleCount;  // the first four provided names

// libvmaf's MAX(): the second operand when the comparison is false (NaN).
double nf_max(double a, double b) { return a > b ? a : b; }

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string number_text(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

OptionSpec min_val_spec(int scale)
{
    const std::string s = std::to_string(scale);
    return {.name = "vif_scale" + s + "_min_val", .type = OptionType::kDouble, .default_value = 0.0,
            .help = "minimum value allowed; smaller values will be set to this value", .min = 0.0, .max = 1.0,
            .names_output = true, .alias = "s" + s + "miv"};
}

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    // Netflix's table, in its order.
    static const std::vector<OptionSpec> specs = {
        {.name = "debug", .type = OptionType::kBool, .default_value = false,
         .help = "debug mode: enable additional output"},
        {.name = "vif_enhn_gain_limit", .type = OptionType::kDouble, .default_value = 100.0,
         .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled",
         .min = 1.0, .max = 100.0, .names_output = true, .alias = "egl"},
        {.name = "vif_kernelscale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scaling factor for the gaussian kernel (2.0 means multiplying the standard deviation by 2 "
                 "and enlarge the kernel size accordingly",
         .min = 0.1, .max = 4.0, .names_output = true, .alias = "ks"},
        {.name = "vif_prescale", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "scaling factor for the frame (2.0 means making the image twice as large on each dimension)",
         .min = 0.1, .max = 4.0, .names_output = true, .alias = "ps"},
        min_val_spec(1),
        min_val_spec(2),
        min_val_spec(3),
        {.name = "vif_prescale_method", .type = OptionType::kString, .default_value = std::string("nearest"),
         .help = "scaling method for the frame, supported options: [nearest, bilinear, bicubic, lanczos4]",
         .names_output = true, .alias = "pm"},
        {.name = "vif_sigma_nsq", .type = OptionType::kDouble, .default_value = 2.0, .help = "neural noise variance",
         .min = 0.0, .max = 5.0, .names_output = true, .alias = "snsq"},
        {.name = "vif_skip_scale0", .type = OptionType::kBool, .default_value = false,
         .help = "when set, skip scale 0 calculations", .names_output = true, .alias = "ssclz"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.debug = values.get_bool("debug");
    s.enhn_gain_limit = values.get_double("vif_enhn_gain_limit");
    s.kernelscale = values.get_double("vif_kernelscale");
    s.prescale = values.get_double("vif_prescale");
    for (int scale = 1; scale < kScaleCount; ++scale)
        s.min_val[scale] = values.get_double("vif_scale" + std::to_string(scale) + "_min_val");
    s.prescale_method =
        float_filter::parse_scale_method(values.get_string("vif_prescale_method"), "float_vif: vif_prescale_method");
    s.sigma_nsq = values.get_double("vif_sigma_nsq");
    s.skip_scale0 = values.get_bool("vif_skip_scale0");
    // Netflix checks the kernel scale (as a float) in every frame and fails it.
    if (!float_filter::valid_kernelscale(static_cast<float>(s.kernelscale))) {
        throw Error("float_vif: invalid vif_kernelscale " + number_text(s.kernelscale) + "; Netflix knows only " +
                    float_filter::valid_kernelscales_text());
    }
    return s;
}

Plan Plan::make(const Settings& settings, unsigned width, unsigned height)
{
    Plan p;
    p.width = static_cast<int>(width);
    p.height = static_cast<int>(height);
    p.scaled_width = static_cast<int>(width * settings.prescale + 0.5);
    p.scaled_height = static_cast<int>(height * settings.prescale + 0.5);
    std::string frame = "frame " + size_text(p.width, p.height);
    if (p.prescaled())
        frame += " (" + size_text(p.scaled_width, p.scaled_height) + " after vif_prescale=" +
                 number_text(settings.prescale) + ")";
    if (settings.prescale_method == float_filter::ScaleMethod::kBilinear &&
        p.scaled_width > float_filter::kBilinearMaxWidth) {
        throw Error("float_vif: " + frame + " is too wide for bilinear prescaling (at most " +
                    std::to_string(float_filter::kBilinearMaxWidth) + " columns, as in Netflix)");
    }
    if (p.prescaled()) {
        p.scaler = float_filter::Scaler(settings.prescale_method, p.width, p.height, p.scaled_width, p.scaled_height,
                                        "float_vif: vif_prescale");
    }

    const float kernelscale = static_cast<float>(settings.kernelscale);
    for (int s = 0; s < kScaleCount; ++s) {
        p.scale_width[s] = s == 0 ? p.scaled_width : p.scale_width[s - 1] / 2;
        p.scale_height[s] = s == 0 ? p.scaled_height : p.scale_height[s - 1] / 2;
        p.taps[s] = float_filter::vif_filter(s, kernelscale);
    }
    // Every scale's filter must stay inside its plane (radius below the
    // size); the decimation before it filters the larger plane of the scale
    // above, which then fits too. Netflix mirrors past the plane there and
    // reads outside its buffers.
    for (int s = settings.first_scale(); s < kScaleCount; ++s) {
        const int taps = static_cast<int>(p.taps[s].size());
        const int needed = taps / 2 + 1;
        if (p.scale_width[s] < needed || p.scale_height[s] < needed) {
            throw Error("float_vif: " + frame + " is too small: scale " + std::to_string(s) + " is " +
                        size_text(p.scale_width[s], p.scale_height[s]) + " and its " + std::to_string(taps) +
                        "-tap filter needs at least " + size_text(needed, needed) +
                        " (Netflix reads outside its buffers there)");
        }
    }

    // Netflix: powf(vif_sigma_nsq, 2.0f) / (255.0 * 255.0) into a float. GCC
    // folds powf(x, 2) to x * x (exact, so without fast-math), in Netflix's
    // build as in ours; written out here.
    const float nsq = static_cast<float>(settings.sigma_nsq);
    p.statistic.gain_limit = static_cast<float>(settings.enhn_gain_limit);
    p.statistic.sigma_nsq = settings.sigma_nsq;
    p.statistic.sigma_max_inv = static_cast<float>(static_cast<double>(nsq * nsq) / (255.0 * 255.0));
    return p;
}

FloatVifExtractor::FloatVifExtractor(const Settings& settings, const OptionValues& options) : settings_(settings)
{
    const std::size_t count = settings.debug ? provided_names().size() : kScoreNames;
    for (std::size_t i = 0; i < count; ++i) names_.push_back(output_name(provided_names()[i], options));
}

void FloatVifExtractor::init(const VideoFormat& format)
{
    plan_ = Plan::make(settings_, format.width, format.height);
    format_ = format;
}

void FloatVifExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    const int first = settings_.first_scale();
    std::array<double, kScaleCount> num{}, den{};
    for (int s = first; s < kScaleCount; ++s) {
        num[s] = scores.get(2 * s);
        den[s] = scores.get(2 * s + 1);
    }

    // Scale 0 is not clipped; a skipped scale 0 reports 0.
    std::size_t slot = 0;
    out.write(slot++, index, first > 0 ? 0.0 : num[0] / den[0]);
    for (int s = 1; s < kScaleCount; ++s) out.write(slot++, index, nf_max(num[s] / den[s], settings_.min_val[s]));
    if (!settings_.debug) return;

    vif_debug::write(out, slot, index, num, den, first);
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_vif",
        .help = "floating-point VIF at four scales (vif_scale0..3)",
        .options = option_specs(),
        .provided = provided_names(),
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatVifCpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::float_vif
