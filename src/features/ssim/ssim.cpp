#include "features/common/libm.h"
#include "features/ssim/ssim.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "twinvmaf/error.h"

namespace twinvmaf::ssim {

namespace {

// Wang's exponents per scale (ms_ssim.c g_alphas, g_betas, g_gammas).
constexpr float kAlphas[kMsScales] = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
constexpr float kBetas[kMsScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
constexpr float kGammas[kMsScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

const char* const kTermNames[3] = {"l", "c", "s"};

// The options both extractors have; `what` names the score in enable_db's help.
std::vector<OptionSpec> common_specs(const std::string& what)
{
    return {
        {.name = "enable_lcs", .type = OptionType::kBool, .default_value = false,
         .help = "enable luminance, contrast and structure intermediate output"},
        {.name = "enable_db", .type = OptionType::kBool, .default_value = false,
         .help = "write " + what + " values as dB"},
        {.name = "clip_db", .type = OptionType::kBool, .default_value = false, .help = "clip dB scores"},
    };
}

const std::vector<OptionSpec>& ssim_specs()
{
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> s = common_specs("SSIM");
        s.push_back({.name = "scale", .type = OptionType::kInt, .default_value = 0,
                     .help = "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)", .min = 0,
                     .max = 10});
        return s;
    }();
    return specs;
}

const std::vector<OptionSpec>& ms_ssim_specs()
{
    static const std::vector<OptionSpec> specs = common_specs("MS-SSIM");
    return specs;
}

// IQA's _round (math_utils.c): a - (int)a in float; halves away from zero.
int iqa_round(float a)
{
    const int sign = a > 0.0f ? 1 : -1;
    const int truncated = static_cast<int>(a);
    return a - truncated >= 0.5 ? truncated + sign : truncated;
}

std::string size_text(unsigned w, unsigned h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.enable_lcs = values.get_bool("enable_lcs");
    s.enable_db = values.get_bool("enable_db");
    s.clip_db = values.get_bool("clip_db");
    if (values.feature() == "float_ssim") s.scale = values.get_int("scale");
    return s;
}

int decimation_factor(int scale, unsigned width, unsigned height)
{
    if (scale > 0) return scale;
    const int smaller = static_cast<int>(std::min(width, height));
    return std::max(1, iqa_round(static_cast<float>(smaller) / 256.0f));
}

double max_db(bool clip_db, unsigned bitdepth, unsigned width, unsigned height)
{
    if (!clip_db) return INFINITY;
    const unsigned peak = (1u << bitdepth) - 1u;
    // As Netflix: the pixel count and peak^2 in unsigned arithmetic.
    const double mse = 0.5 / (width * height);
    return std::ceil(10. * libm::log10(peak * peak / mse));
}

double to_db(double score, double max_db)
{
    const double db = -10. * libm::log10(1 - score);
    return db < max_db ? db : max_db;  // MIN(): max_db where db is NaN
}

std::optional<double> ms_ssim_score(const float* l, const float* c, const float* s)
{
    double product = 1.0;
    for (int i = 0; i < kMsScales; ++i) {
        product *= libm::pow(static_cast<double>(l[i]), static_cast<double>(kAlphas[i])) *
                   libm::pow(static_cast<double>(c[i]), static_cast<double>(kBetas[i])) *
                   libm::pow(static_cast<double>(s[i]), static_cast<double>(kGammas[i]));
        if (product == INFINITY) return std::nullopt;
    }
    return product;
}

void SsimExtractorBase::set_format(const VideoFormat& format)
{
    format_ = format;
    max_db_ = max_db(settings_.clip_db, format.bitdepth, format.width, format.height);
}

double SsimExtractorBase::output_score(double score) const
{
    return settings_.enable_db ? to_db(score, max_db_) : score;
}

// ---- float_ssim

void FloatSsimExtractor::init(const VideoFormat& format)
{
    set_format(format);
    factor_ = decimation_factor(settings_.scale, format.width, format.height);
    box_weight_ = box_weight(factor_);
    const int w = static_cast<int>(format.width), h = static_cast<int>(format.height);
    const int map_w = factor_ > 1 ? decimated_size(w, factor_) : w;
    const int map_h = factor_ > 1 ? decimated_size(h, factor_) : h;
    // Undecimated, a picture with a side under the window gives Netflix's
    // empty-map means (ssim_math.h, means(): +0, -0, or NaN where a side is
    // 10), valgrind-clean from 1x1 on. Decimated, Netflix reads outside its
    // picture where the scale exceeds twice a side, and the rest is unchecked.
    if (factor_ > 1 && (map_w < kWindow || map_h < kWindow)) {
        std::string text = "float_ssim: frame " + size_text(format.width, format.height) + " is too small";
        text += ": decimated by " + std::to_string(factor_) + " (scale " + std::to_string(settings_.scale) +
                (settings_.scale ? "" : ": automatic") + ") it is " + size_text(map_w, map_h);
        text += "; SSIM's Gaussian window needs at least " + size_text(kWindow, kWindow) +
                " samples (Netflix reads outside its picture while decimating, or divides empty sums)";
        throw Error(text);
    }
}

std::vector<std::string> FloatSsimExtractor::output_names() const
{
    std::vector<std::string> names = {"float_ssim"};
    if (settings_.enable_lcs)
        for (const char* term : kTermNames) names.push_back(std::string("float_ssim_") + term);
    return names;
}

void FloatSsimExtractor::store(const SsimMeans& means, FrameScores& scores)
{
    scores.set(0, means.ssim);
    scores.set(1, means.l);
    scores.set(2, means.c);
    scores.set(3, means.s);
}

void FloatSsimExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    const double ssim = scores.get(0);
    out.write(0, index, output_score(ssim));
    if (settings_.enable_lcs)
        for (std::size_t slot = 1; slot <= 3; ++slot) out.write(slot, index, scores.get(slot));
}

// ---- float_ms_ssim

void FloatMsSsimExtractor::init(const VideoFormat& format)
{
    set_format(format);
    // Netflix's check: every scale, halved without rounding up, at least the
    // window (so 176x176 and up).
    unsigned w = format.width, h = format.height;
    for (int scale = 0; scale < kMsScales; ++scale) {
        if (w < unsigned{kWindow} || h < unsigned{kWindow})
            throw Error("float_ms_ssim: frame " + size_text(format.width, format.height) +
                        " is too small for MS-SSIM's " + std::to_string(kMsScales) + " scales: it needs " +
                        size_text(kWindow << (kMsScales - 1), kWindow << (kMsScales - 1)) +
                        " or more (every scale, the frame halved and rounded down, must hold SSIM's " +
                        size_text(kWindow, kWindow) + " window; scale " + std::to_string(scale) + " would be " +
                        size_text(w, h) + "); Netflix writes no scores (\"scale below 1x1\")");
        w /= 2;
        h /= 2;
    }
}

std::vector<std::string> FloatMsSsimExtractor::output_names() const
{
    std::vector<std::string> names = {"float_ms_ssim"};
    if (settings_.enable_lcs)
        for (const char* term : kTermNames)
            for (int scale = 0; scale < kMsScales; ++scale)
                names.push_back(std::string("float_ms_ssim_") + term + "_scale" + std::to_string(scale));
    return names;
}

void FloatMsSsimExtractor::store(const std::array<SsimMeans, kMsScales>& means, FrameScores& scores)
{
    for (int scale = 0; scale < kMsScales; ++scale) {
        scores.set(scale, means[scale].l);
        scores.set(kMsScales + scale, means[scale].c);
        scores.set(2 * kMsScales + scale, means[scale].s);
    }
}

void FloatMsSsimExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    float terms[3][kMsScales];
    for (int t = 0; t < 3; ++t)
        for (int scale = 0; scale < kMsScales; ++scale)
            terms[t][scale] = static_cast<float>(scores.get(t * kMsScales + scale));
    const std::optional<double> product = ms_ssim_score(terms[0], terms[1], terms[2]);
    if (!product)
        throw Error("float_ms_ssim: frame " + std::to_string(index) +
                    ": the MS-SSIM product is infinite (Netflix writes no score for such a frame)");
    out.write(0, index, output_score(*product));
    if (settings_.enable_lcs)
        for (std::size_t slot = 0; slot < 3 * kMsScales; ++slot)
            out.write(slot + 1, index, static_cast<double>(terms[slot / kMsScales][slot % kMsScales]));
}

// ---- registration

FeatureInfo float_ssim_feature_info()
{
    return FeatureInfo{
        .name = "float_ssim",
        .help = "SSIM of the luma, float (float_ssim; float_ssim_l, _c, _s with enable_lcs)",
        .options = ssim_specs(),
        .provided = {"float_ssim"},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatSsimCpu>(Settings::from(values));
        },
    };
}

FeatureInfo float_ms_ssim_feature_info()
{
    return FeatureInfo{
        .name = "float_ms_ssim",
        .help = "MS-SSIM of the luma, float (float_ms_ssim; float_ms_ssim_{l,c,s}_scale0..4 with enable_lcs)",
        .options = ms_ssim_specs(),
        .provided = {"float_ms_ssim"},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatMsSsimCpu>(Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::ssim
