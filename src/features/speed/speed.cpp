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


// Netflix's list of kernel scales (vif_tools.h), as floats.
const float kValidKernelscales[] = {
    1.0f,         1.0f / 2.0f,  3.0f / 2.0f,  2.0f,  2.0f / 3.0f,  24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f,  3.5f / 3.0f,  3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f,      1.54f,        1.6f,         1.06667f, 0.711111f, 0.740740f, 1.111111f,
};

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

bool valid_kernelscale(float kernelscale)
{
    for (float k : kValidKernelscales)
        if (std::fabs(kernelscale - k) < 1e-3f) return true;
    return false;
}

int filter_width(int scale, float kernelscale)
{
    const int n = (1 << (4 - scale)) + 1;
    int ceiling = static_cast<int>(std::ceil(static_cast<double>(n * kernelscale)));
    if (ceiling % 2 == 0) ++ceiling;
    return ceiling > 3 ? ceiling : 3;
}

std::vector<float> gaussian_taps(int window, float stdev)
{
    // Host libm's exp, once per run, as Netflix; the taps are then data
    // shared by every backend.
    std::vector<float> taps(static_cast<std::size_t>(window));
    float sum = 0;
    const int half = (window - 1) / 2;
    for (int i = 0; i < window; ++i) {
        const float x = static_cast<float>(i - half);
        const float num = static_cast<float>(std::exp(-0.5 * x / stdev * x / stdev));
        const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * 3.14159265358979323846)));
        taps[i] = num / den;
        sum += taps[i];
    }
    for (float& t : taps) t /= sum;
    return taps;
}

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
    const std::string& method = values.get_string("speed_prescale_method");
    if (method == "nearest")
        s.prescale_method = ScaleMethod::kNearest;
    else if (method == "bilinear")
        s.prescale_method = ScaleMethod::kBilinear;
    else if (method == "bicubic")
        s.prescale_method = ScaleMethod::kBicubic;
    else if (method == "lanczos4")
        s.prescale_method = ScaleMethod::kLanczos4;
    else
        throw Error(feature + ": invalid speed_prescale_method \"" + method +
                    "\"; supported: nearest, bilinear, bicubic, lanczos4");
    if (!valid_kernelscale(static_cast<float>(s.kernelscale))) {
        std::string list;
        for (float k : kValidKernelscales) {
            char text[32];
            std::snprintf(text, sizeof text, "%s%g", list.empty() ? "" : ", ", static_cast<double>(k));
            list += text;
        }
        char text[32];
        std::snprintf(text, sizeof text, "%g", s.kernelscale);
        throw Error(feature + ": invalid speed_kernelscale " + text + "; Netflix knows only " + list);
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

Filters Filters::make(const Settings& settings, const Geometry& geometry)
{
    Filters f;
    const float ks = static_cast<float>(settings.kernelscale);
    const int wa = filter_width(1, ks);
    f.antialias = gaussian_taps(wa, static_cast<float>(std::sqrt(4.0) * wa / 5.0f));
    const int wl = filter_width(kScales, ks);
    f.local = gaussian_taps(wl, static_cast<float>(wl) / 5.0f);

    if (!geometry.rescale) return f;
    const int sw = static_cast<int>(geometry.width), sh = static_cast<int>(geometry.height);
    const int dw = static_cast<int>(geometry.scaled_width), dh = static_cast<int>(geometry.scaled_height);
    const float ratio_x = static_cast<float>(sw) / static_cast<float>(dw);
    const float ratio_y = static_cast<float>(sh) / static_cast<float>(dh);
    auto fill_bilinear = [](int dst, int src, float ratio, std::vector<int>& i1, std::vector<int>& i2,
                            std::vector<float>& frac) {
        for (int o = 0; o < dst; ++o) {
            const float xx = scaler_source_coordinate(o, ratio);
            const int a = static_cast<int>(mirror_f(static_cast<float>(std::floor(xx)), 0, static_cast<float>(src - 1)));
            const int b = static_cast<int>(mirror_f(static_cast<float>(std::ceil(xx)), 0, static_cast<float>(src - 1)));
            i1.push_back(a);
            i2.push_back(b);
            frac.push_back(xx - static_cast<float>(a));
        }
    };
    // Bicubic and lanczos4 weights depend only on the fractional position, so
    // per column and per row (Netflix recomputes them per sample; same values).
    auto fill_kernel = [&](int dst, float ratio, std::vector<int>& first, std::vector<float>& w) {
        for (int o = 0; o < dst; ++o) {
            const float xx = scaler_source_coordinate(o, ratio);
            const int x0 = static_cast<int>(std::floor(xx));
            const float d = xx - static_cast<float>(x0);
            first.push_back(x0);
            if (settings.prescale_method == ScaleMethod::kBicubic) {
                for (int i = -1; i <= 2; ++i) w.push_back(bicubic_kernel(static_cast<float>(i) - d));
            } else {
                const float a = 4.0f;
                for (int i = -4; i <= 4; ++i) {
                    const float x = static_cast<float>(i) - d;
                    float k = 0.0f;
                    if (x == 0.0f)
                        k = 1.0f;
                    else if (x > -a && x < a) {
                        const double pi = 3.14159265358979323846;
                        k = static_cast<float>(a * std::sin(pi * x) * std::sin(pi * x / a) / (pi * pi * x * x));
                    }
                    w.push_back(k);
                }
            }
        }
    };
    switch (settings.prescale_method) {
    case ScaleMethod::kNearest: break;
    case ScaleMethod::kBilinear:
        fill_bilinear(dw, sw, ratio_x, f.x1, f.x2, f.dx);
        fill_bilinear(dh, sh, ratio_y, f.y1, f.y2, f.dy);
        break;
    case ScaleMethod::kBicubic:
    case ScaleMethod::kLanczos4:
        fill_kernel(dw, ratio_x, f.x0, f.wx);
        fill_kernel(dh, ratio_y, f.y0, f.wy);
        break;
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
    filters_ = Filters::make(settings_, geometry_);
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
