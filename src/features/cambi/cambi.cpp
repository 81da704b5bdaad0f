#include "features/common/libm.h"
#include "features/cambi/cambi.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/feature_names.h"
#include "twinvmaf/error.h"

namespace twinvmaf::cambi {

namespace {

const std::vector<std::string>& provided_names()
{
    // Netflix's names, in its order of writing (cambi.c, extract()).
    static const std::vector<std::string> names = {
        "Cambi_feature_cambi_score",
        "cambi_source",          // full_ref=true only
        "cambi_full_reference",  // full_ref=true only
    };
    return names;
}

constexpr double kDefaultTopk = 0.6;
constexpr const char* kDefaultEotf = "bt1886";
constexpr unsigned k4kHeight = 2160;

// 10-bit limited range: codes 64..940 map to 0..1.
constexpr int kFoot = 64;
constexpr int kHead = 940;

std::string size_text(unsigned w, unsigned h) { return std::to_string(w) + "x" + std::to_string(h); }

// Netflix's bisection for the step `diff` (cambi.c, get_tvi_for_diff).
enum class Bisect { kTooSmall, kCorrect, kTooBig };

bool visible(int code, int diff, double threshold, const std::string& eotf)
{
    const double mean = luminance(code, eotf);
    const double stepped = luminance(code + diff, eotf);
    return stepped - mean > threshold * mean;
}

Bisect classify(int code, int diff, double threshold, const std::string& eotf)
{
    if (!visible(code, diff, threshold, eotf)) return Bisect::kTooBig;
    if (visible(code + 1, diff, threshold, eotf)) return Bisect::kTooSmall;
    return Bisect::kCorrect;
}

// Netflix's nearest-neighbour steps: a float position advanced by the ratio
// per output sample (accumulated, not multiplied).
std::vector<unsigned> resample_indices(unsigned in_size, unsigned out_size)
{
    std::vector<unsigned> indices(out_size);
    const ResampleAxis axis = resample_axis(in_size, out_size);
    float position = axis.start;
    for (unsigned i = 0; i < out_size; ++i, position += axis.ratio) indices[i] = resample_source(position);
    return indices;
}

Plan make_plan(unsigned in_w, unsigned in_h, unsigned w, unsigned h, unsigned window)
{
    Plan plan{w, h, window, {}, {}};
    if (w != in_w || h != in_h) {
        plan.source_columns = resample_indices(in_w, w);
        plan.source_rows = resample_indices(in_h, h);
    }
    return plan;
}

}  // namespace

unsigned Plan::scale_width(int scale, bool high_res_speedup) const
{
    unsigned size = width;
    for (int s = high_res_speedup ? 0 : 1; s <= scale; ++s) size = (size + 1) >> 1;
    return size;
}

unsigned Plan::scale_height(int scale, bool high_res_speedup) const
{
    unsigned size = height;
    for (int s = high_res_speedup ? 0 : 1; s <= scale; ++s) size = (size + 1) >> 1;
    return size;
}

double score_from_pools(const Setup& setup, const Plan& plan, const FixedSum (&sums)[kScales])
{
    double weighted = 0.0;
    for (int scale = 0; scale < kScales; ++scale) {
        const int k = topk_count(setup.topk, plan.scale_width(scale, setup.high_res_speedup),
                                 plan.scale_height(scale, setup.high_res_speedup));
        weighted += pooled_mean(sums[scale], k) * kScaleWeights[scale];
    }
    const unsigned pad = plan.pad();
    const unsigned window_pixels = (2 * pad + 1) * (2 * pad + 1);
    return weighted / static_cast<std::uint16_t>(window_pixels);
}

void set_frame_scores(FrameScores& scores, const Settings& settings, double dis, double src)
{
    const double max_val = settings.max_val;
    scores.set(0, std::min(dis, max_val));
    if (!settings.full_ref) return;
    scores.set(1, std::min(src, max_val));
    scores.set(2, std::min(std::max(0.0, dis - src), max_val));
}

const std::vector<OptionSpec>& option_specs()
{
    // Netflix's option table, in its order; names_output = its
    // VMAF_OPT_FLAG_FEATURE_PARAM.
    static const std::vector<OptionSpec> specs = {
        {.name = "cambi_max_val", .type = OptionType::kDouble, .default_value = 1000.0,
         .help = "maximum value allowed; larger values will be clipped to this value", .min = 0.0, .max = 1000.0,
         .names_output = true, .alias = "cmxv"},
        {.name = "enc_width", .type = OptionType::kInt, .default_value = 0, .help = "Encoding width", .min = 180,
         .max = 7680, .names_output = true, .alias = "encw"},
        {.name = "enc_height", .type = OptionType::kInt, .default_value = 0, .help = "Encoding height", .min = 150,
         .max = 7680, .names_output = true, .alias = "ench"},
        {.name = "enc_bitdepth", .type = OptionType::kInt, .default_value = 0, .help = "Encoding bitdepth", .min = 6,
         .max = 16, .names_output = true, .alias = "encbd"},
        {.name = "src_width", .type = OptionType::kInt, .default_value = 0,
         .help = "Source width. Only used when full_ref=true.", .min = 320, .max = 7680, .names_output = true,
         .alias = "srcw"},
        {.name = "src_height", .type = OptionType::kInt, .default_value = 0,
         .help = "Source height. Only used when full_ref=true.", .min = 200, .max = 4320, .names_output = true,
         .alias = "srch"},
        {.name = "window_size", .type = OptionType::kInt, .default_value = 65,
         .help = "Window size to compute CAMBI: 65 corresponds to ~1 degree at 4k", .min = 15, .max = 127,
         .names_output = true, .alias = "ws"},
        {.name = "topk", .type = OptionType::kDouble, .default_value = kDefaultTopk,
         .help = "Ratio of pixels for the spatial pooling computation, must be 0 < topk <= 1.0", .min = 0.0001,
         .max = 1.0, .names_output = true},
        {.name = "cambi_topk", .type = OptionType::kDouble, .default_value = kDefaultTopk,
         .help = "Ratio of pixels for the spatial pooling computation, must be 0 < cambi_topk <= 1.0",
         .min = 0.0001, .max = 1.0, .names_output = true, .alias = "ctpk"},
        {.name = "tvi_threshold", .type = OptionType::kDouble, .default_value = 0.019,
         .help = "Visibilty threshold for luminance ΔL < tvi_threshold*L_mean", .min = 0.0001, .max = 1.0,
         .names_output = true, .alias = "tvit"},
        {.name = "cambi_vis_lum_threshold", .type = OptionType::kDouble, .default_value = 0.0,
         .help = "Luminance value below which we assume any banding is not visible", .min = 0.0, .max = 300.0,
         .names_output = true, .alias = "vlt"},
        {.name = "max_log_contrast", .type = OptionType::kInt, .default_value = 2,
         .help = "Maximum contrast in log luma level (2^max_log_contrast) at 10-bits, e.g., 2 is equivalent to 4 "
                 "luma levels at 10-bit and 1 luma level at 8-bit. From 0 to 5: default 2 is recommended for "
                 "banding from compression.",
         .min = 0, .max = 5, .names_output = true, .alias = "mlc"},
        {.name = "heatmaps_path", .type = OptionType::kString, .default_value = std::string(),
         .help = "Path where heatmaps will be dumped."},
        {.name = "full_ref", .type = OptionType::kBool, .default_value = false,
         .help = "If true, CAMBI will be run in full-reference mode and will be computed on both the reference and "
                 "distorted inputs"},
        {.name = "eotf", .type = OptionType::kString, .default_value = std::string(kDefaultEotf),
         .help = "Determines the EOTF used to compute the visibility thresholds. Possible values: ['bt1886', 'pq']. "
                 "Default: 'bt1886'",
         .names_output = true},
        {.name = "cambi_eotf", .type = OptionType::kString, .default_value = std::string(kDefaultEotf),
         .help = "Determines the EOTF used to compute the visibility thresholds. Possible values: ['bt1886', 'pq']. "
                 "Default: 'bt1886'. If both eotf and cambi_eotf are set, cambi_eotf takes precedence.",
         .names_output = true, .alias = "ceot"},
        {.name = "cambi_high_res_speedup", .type = OptionType::kInt, .default_value = 0,
         .help = "Speed up the processing by downsampling post spatial mask for resolutions >= 1080p. Min speed-up "
                 "resolution possible values: [1080, 1440, 2160, 0]. Default: 0 (not applied)Note some loss of "
                 "accuracy is expected with this speedup.",
         .min = 0, .max = k4kHeight, .names_output = true, .alias = "hrs"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.max_val = values.get_double("cambi_max_val");
    s.enc_width = values.get_int("enc_width");
    s.enc_height = values.get_int("enc_height");
    s.enc_bitdepth = values.get_int("enc_bitdepth");
    s.src_width = values.get_int("src_width");
    s.src_height = values.get_int("src_height");
    s.window_size = values.get_int("window_size");
    s.topk = values.get_double("topk");
    s.cambi_topk = values.get_double("cambi_topk");
    s.tvi_threshold = values.get_double("tvi_threshold");
    s.vis_lum_threshold = values.get_double("cambi_vis_lum_threshold");
    s.max_log_contrast = values.get_int("max_log_contrast");
    s.heatmaps_path = values.get_string("heatmaps_path");
    s.full_ref = values.get_bool("full_ref");
    s.eotf = values.get_string("eotf");
    s.cambi_eotf = values.get_string("cambi_eotf");
    s.high_res_speedup = values.get_int("cambi_high_res_speedup");
    return s;
}

const float* reciprocal_table()
{
    // Netflix's table is 1/n in double, printed with 9 significant digits
    // and read back as a float: 42 of its entries are one float off the
    // float nearest 1/n (e.g. n = 82, 504). Built the same way here, it
    // equals Netflix's table entry for entry (tests/unit/test_cambi.cpp).
    static const std::vector<float> table = [] {
        std::vector<float> t(kReciprocalSize);
        t[0] = 0.0f;
        for (int i = 1; i < kReciprocalSize; ++i) {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", 1.0 / i);
            t[i] = std::strtof(text, nullptr);
        }
        return t;
    }();
    return table.data();
}

double luminance(int code, const std::string& eotf)
{
    const int clipped = std::clamp(code, kFoot, kHead);
    const double v = static_cast<double>(clipped - kFoot) / (kHead - kFoot);
    if (eotf == "bt1886") {
        // ITU-R BT.1886 with Lw = 300 and Lb = 0.01 cd/m2, gamma 2.4, term by
        // term as Netflix (luminance_tools.c).
        constexpr double gamma = 2.4, lw = 300.0, lb = 0.01;
        const double a = libm::pow(libm::pow(lw, 1.0 / gamma) - libm::pow(lb, 1.0 / gamma), gamma);
        const double b = libm::pow(lb, 1.0 / gamma) / (libm::pow(lw, 1.0 / gamma) - libm::pow(lb, 1.0 / gamma));
        return a * libm::pow(std::max(v + b, 0.0), gamma);
    }
    if (eotf == "pq") {
        // SMPTE ST 2084.
        constexpr double m1 = 0.1593017578125, m2 = 78.84375;
        constexpr double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
        const double num = libm::pow(v, 1.0 / m2) - c1;
        const double den = c2 - c3 * libm::pow(v, 1.0 / m2);
        return 10000 * libm::pow(std::max(num, 0.0) / den, 1.0 / m1);
    }
    throw Error("cambi: unknown eotf '" + eotf + "'; valid: bt1886, pq");
}

int tvi_for_diff(int diff, double threshold, const std::string& eotf)
{
    constexpr int max_code = 1023;
    int foot = kFoot;
    int head = kHead - diff - 1;
    Bisect b = classify(foot, diff, threshold, eotf);
    if (b == Bisect::kTooBig) return 0;
    if (b == Bisect::kCorrect) return foot;
    b = classify(head, diff, threshold, eotf);
    if (b == Bisect::kTooSmall) return max_code;
    if (b == Bisect::kCorrect) return head;
    for (;;) {
        const int mid = foot + (head - foot) / 2;
        b = classify(mid, diff, threshold, eotf);
        if (b == Bisect::kTooBig) head = mid;
        else if (b == Bisect::kTooSmall) foot = mid;
        else return mid;
        if (head - foot <= 1 && mid == foot) {
            // Netflix loops forever here (a condition that is not monotonic);
            // never seen with its EOTFs.
            throw Error("cambi: no visibility threshold for a step of " + std::to_string(diff));
        }
    }
}

int vlt_luma(double threshold, const std::string& eotf)
{
    if (luminance(kHead, eotf) < threshold) {
        // Netflix counts up forever: no code is bright enough.
        char text[160];
        std::snprintf(text, sizeof text,
                      "cambi: cambi_vis_lum_threshold %g is above the peak luminance %.17g of eotf %s", threshold,
                      luminance(kHead, eotf), eotf.c_str());
        throw Error(text);
    }
    int code = kFoot;
    while (luminance(code, eotf) < threshold) ++code;
    return code == kFoot ? 0 : code;
}

Setup make_setup(const Settings& settings, const VideoFormat& format)
{
    Setup s;
    s.input = format;
    const unsigned w = format.width, h = format.height;
    s.enc_bitdepth = settings.enc_bitdepth ? static_cast<unsigned>(settings.enc_bitdepth) : format.bitdepth;

    unsigned enc_w = settings.enc_width, enc_h = settings.enc_height;
    if (enc_w == 0 || enc_h == 0) enc_w = w, enc_h = h;
    unsigned src_w = settings.src_width, src_h = settings.src_height;
    if (src_w == 0 || src_h == 0) src_w = w, src_h = h;
    // An encode that was downscaled is scored at the input size: no upscaling.
    if (enc_h > h || enc_w > w) enc_w = w, enc_h = h;

    if (enc_w < kMinWidthHeight && enc_h < kMinWidthHeight) {
        const bool is_input = enc_w == w && enc_h == h;
        throw Error("cambi: frame " + size_text(enc_w, enc_h) + (is_input ? "" : " (the encoding size)") +
                    " is too small; cambi scores only frames with a width or height of at least " +
                    std::to_string(kMinWidthHeight) + " (Netflix writes no scores)");
    }
    if (src_w < kMinWidthHeight && src_h < kMinWidthHeight) {
        throw Error("cambi: source size " + size_text(src_w, src_h) +
                    " is too small; cambi needs a width or height of at least " + std::to_string(kMinWidthHeight));
    }
    if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h)) {
        throw Error("cambi: source size " + size_text(src_w, src_h) + " and encoding size " +
                    size_text(enc_w, enc_h) + " are not scaled alike (one is wider, the other higher)");
    }

    const unsigned enc_pixels = enc_w * enc_h;
    switch (settings.high_res_speedup) {
    case 1080: s.high_res_speedup = enc_pixels >= 1920u * 1080u; break;
    case 1440: s.high_res_speedup = enc_pixels >= 2560u * 1440u; break;
    case 2160: s.high_res_speedup = enc_pixels >= 3840u * 2160u; break;
    default: s.high_res_speedup = false; break;
    }

    s.alloc_width = settings.full_ref ? std::max(src_w, enc_w) : enc_w;
    s.alloc_height = settings.full_ref ? std::max(src_h, enc_h) : enc_h;

    // The thresholds, on 10-bit limited-range codes.
    const std::string& eotf = settings.cambi_eotf != kDefaultEotf ? settings.cambi_eotf : settings.eotf;
    luminance(kFoot, eotf);  // refuses an unknown eotf
    ContrastParams& c = s.contrast;
    c.num_diffs = 1 << settings.max_log_contrast;
    for (int d = 0; d < c.num_diffs; ++d)
        c.tvi[d] = static_cast<std::uint16_t>(tvi_for_diff(d + 1, settings.tvi_threshold, eotf) + c.num_diffs);
    c.vlt_luma = static_cast<std::uint16_t>(vlt_luma(settings.vis_lum_threshold, eotf));
    for (int d = 0; d < c.num_diffs; ++d) {
        if (c.tvi[d] > c.tvi[c.num_diffs - 1])
            throw Error("cambi: visibility thresholds that fall with the step size (tvi_threshold " +
                        std::to_string(settings.tvi_threshold) + "): Netflix reads outside its histograms");
    }
    set_band(c);

    s.dis = make_plan(w, h, enc_w, enc_h, adjusted_window(settings.window_size, enc_w, enc_h, s.high_res_speedup));
    s.src = make_plan(w, h, src_w, src_h, adjusted_window(settings.window_size, src_w, src_h, s.high_res_speedup));
    const unsigned max_window = std::max(s.dis.window, s.src.window);
    if (max_window * max_window >= static_cast<unsigned>(kReciprocalSize)) {
        throw Error("cambi: window_size " + std::to_string(settings.window_size) + " gives a window of " +
                    std::to_string(max_window) + " samples at " + size_text(enc_w, enc_h) +
                    ", too large (Netflix: too large for its reciprocal table; at most 65)");
    }

    // Sizes where Netflix's window reaches outside its picture buffers (it
    // then reads and writes before its buffers): refused, there is no reference.
    auto check_plan = [&](const Plan& plan, const char* which) {
        const unsigned pad = plan.window / 2;
        unsigned sw = plan.width, sh = plan.height;
        if (pad > plan.width || (!s.high_res_speedup && pad >= plan.height)) {
            throw Error("cambi: " + std::string(which) + " frame " + size_text(plan.width, plan.height) +
                        " is too small for its window of " + std::to_string(plan.window) +
                        " samples (Netflix reads outside its buffers)");
        }
        for (int scale = 0; scale < kScales; ++scale) {
            if (scale > 0 || s.high_res_speedup) sw = (sw + 1) >> 1, sh = (sh + 1) >> 1;
            if (sh < pad) {
                throw Error("cambi: " + std::string(which) + " frame " + size_text(plan.width, plan.height) +
                            " is too flat for its window of " + std::to_string(plan.window) + " samples: scale " +
                            std::to_string(scale) + " is " + std::to_string(sh) +
                            " rows high (Netflix reads and writes outside its buffers)");
            }
        }
    };
    check_plan(s.dis, "the");
    if (settings.full_ref) check_plan(s.src, "the source");

    // Netflix copies a 10-bit frame of the input size row for row with the
    // input's stride into a buffer whose stride follows the larger source
    // size: rows land in the wrong place.
    auto stride_of = [](unsigned width) { return (width + 31u) & ~31u; };
    if (settings.full_ref && format.bitdepth == 10 && stride_of(s.alloc_width) != stride_of(w)) {
        throw Error("cambi: full_ref with src_width " + std::to_string(src_w) + " above the input width " +
                    std::to_string(w) + " at 10 bits: Netflix misplaces the rows of the distorted frame");
    }

    s.topk = settings.topk != kDefaultTopk ? settings.topk : settings.cambi_topk;
    return s;
}

CambiCpu::CambiCpu(const Settings& settings, const OptionValues& options) : settings_(settings)
{
    const std::size_t count = settings.full_ref ? 3 : 1;
    for (std::size_t i = 0; i < count; ++i) names_.push_back(output_name(provided_names()[i], options));
}

CambiCpu::~CambiCpu()
{
    for (std::FILE* f : heatmaps_) {
        if (f) std::fclose(f);
    }
}

void CambiCpu::init(const VideoFormat& format)
{
    setup_ = make_setup(settings_, format);
    reciprocal_table();  // built once, before frames run in parallel

    if (!settings_.heatmaps_path.empty()) {
        // As Netflix: one file of 16-bit samples per scale, named with the
        // encoding size halved per scale (also with the speed-up, whose scale
        // 0 is already halved), each frame at its own offset.
        std::error_code error;
        std::filesystem::create_directories(settings_.heatmaps_path, error);
        if (error)
            throw Error("cambi: cannot create heatmaps_path " + settings_.heatmaps_path + ": " + error.message());
        unsigned w = setup_.dis.width, h = setup_.dis.height;
        for (int scale = 0; scale < kScales; ++scale) {
            const std::string path = settings_.heatmaps_path + "/cambi_heatmap_scale_" + std::to_string(scale) +
                                     "_" + size_text(w, h) + "_16b.gray";
            std::FILE* f = std::fopen(path.c_str(), "wb");
            if (!f) throw Error("cambi: could not open heatmaps_path file " + path);
            heatmaps_.push_back(f);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
    }
}

void CambiCpu::write_heatmap(int scale, std::uint64_t frame, const float* c_values, unsigned width,
                             unsigned height) const
{
    int max_weight = contrast_weight(0);
    for (int d = 0; d < setup_.contrast.num_diffs; ++d) max_weight = std::max(max_weight, contrast_weight(d));
    const int window = static_cast<int>(setup_.dis.window);
    const int max_c_value = max_weight * window * window / 4;
    const double scaling = static_cast<double>(65535) / max_c_value;
    std::vector<std::uint16_t> row(width);
    std::lock_guard<std::mutex> lock(heatmaps_mutex_);
    std::FILE* f = heatmaps_[scale];
    for (unsigned i = 0; i < height; ++i) {
        for (unsigned j = 0; j < width; ++j)
            row[j] = static_cast<std::uint16_t>(scaling * c_values[std::size_t{i} * width + j]);
        const long offset = static_cast<long>((frame * height + i) * width * sizeof(std::uint16_t));
        if (std::fseek(f, offset, SEEK_SET) != 0 || std::fwrite(row.data(), sizeof(std::uint16_t), width, f) != width)
            throw Error("cambi: cannot write heatmap of scale " + std::to_string(scale));
    }
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "cambi",
        .help = "banding detector (cambi; with full_ref also cambi_source, cambi_full_reference)",
        .options = option_specs(),
        .provided = {provided_names()[0]},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<CambiCpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::cambi
