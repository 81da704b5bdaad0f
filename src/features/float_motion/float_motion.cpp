#include "features/float_motion/float_motion.h"

#include "core/feature_names.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_motion {

namespace {

const char* const kMotionName = "VMAF_feature_motion_score";
const char* const kMotion2Name = "VMAF_feature_motion2_score";
const char* const kMotion3Name = "VMAF_feature_motion3_score";

enum Slot : std::size_t { kMotion2 = 0, kMotion3 = 1, kMotion = 2 };

// libvmaf's MIN(): the second operand when the comparison is false (NaN).
double nf_min(double a, double b) { return a < b ? a : b; }

// libvmaf's ALIGN_CEIL: a row of floats in bytes, rounded up to 32.
std::size_t aligned_row_bytes(int width)
{
    const std::size_t bytes = static_cast<std::size_t>(width) * sizeof(float);
    return bytes % 32 ? bytes + 32 - bytes % 32 : bytes;
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    // Netflix's table, in its order.
    static const std::vector<OptionSpec> specs = {
        {.name = "debug", .type = OptionType::kBool, .default_value = true,
         .help = "debug mode: enable additional output"},
        {.name = "motion_force_zero", .type = OptionType::kBool, .default_value = false,
         .help = "forcing motion score to zero", .names_output = true, .alias = "force_0"},
        {.name = "motion_fps_weight", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "fps-aware multiplicative weight/correction", .min = 0.0, .max = 5.0, .names_output = true,
         .alias = "mfw"},
        {.name = "motion_blend_factor", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "blend motion score given an offset", .min = 0.0, .max = 1.0, .names_output = true,
         .alias = "mbf"},
        {.name = "motion_blend_offset", .type = OptionType::kDouble, .default_value = 40.0,
         .help = "blend motion score starting from this offset", .min = 0.0, .max = 1000.0, .names_output = true,
         .alias = "mbo"},
        {.name = "motion_add_scale1", .type = OptionType::kBool, .default_value = false,
         .help = "add motion score from scale1", .names_output = true, .alias = "mdc"},
        {.name = "motion_filter_size", .type = OptionType::kInt, .default_value = 5, .help = "filtering size",
         .min = 0, .max = 9, .names_output = true, .alias = "mfs"},
        {.name = "motion_add_uv", .type = OptionType::kBool, .default_value = false,
         .help = "include U and V terms", .names_output = true, .alias = "mau"},
        {.name = "motion_max_val", .type = OptionType::kDouble, .default_value = 10000.0,
         .help = "maximum value allowed; larger values will be clipped to this value", .min = 0.0, .max = 10000.0,
         .names_output = true, .alias = "mmxv"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.debug = values.get_bool("debug");
    s.force_zero = values.get_bool("motion_force_zero");
    s.fps_weight = values.get_double("motion_fps_weight");
    s.blend_factor = values.get_double("motion_blend_factor");
    s.blend_offset = values.get_double("motion_blend_offset");
    s.add_scale1 = values.get_bool("motion_add_scale1");
    s.filter_size = values.get_int("motion_filter_size");
    s.add_uv = values.get_bool("motion_add_uv");
    s.max_val = values.get_double("motion_max_val");
    return s;
}

FloatMotionExtractor::FloatMotionExtractor(const Settings& settings, const OptionValues& values) : settings_(settings)
{
    names_.push_back(output_name(kMotion2Name, values));
    names_.push_back(output_name(kMotion3Name, values));
    if (settings_.debug) names_.push_back(output_name(kMotionName, values));
}

void FloatMotionExtractor::init(const VideoFormat& format)
{
    format_ = format;
    frames_ = 0;
    last_score_ = 0.0;
    planes_.clear();
    if (settings_.force_zero) return;  // nothing is computed

    const int radius = blur_taps(settings_.filter_size).count / 2;
    const int plane_count = settings_.add_uv ? 3 : 1;
    for (int p = 0; p < plane_count; ++p) {
        PlanePlan plan;
        plan.width = static_cast<int>(format.plane_width(p));
        plan.height = static_cast<int>(format.plane_height(p));
        const char* what = p == 0 ? "luma" : "chroma";
        // The blur mirrors once at the edges; a plane within its radius makes
        // Netflix read (and write) outside its buffers.
        if (plan.width <= radius || plan.height <= radius) {
            throw Error(std::string("float_motion: ") + what + " plane " + size_text(plan.width, plan.height) +
                        " is too small for the " + std::to_string(2 * radius + 1) + "-tap blur (needs at least " +
                        size_text(radius + 1, radius + 1) + "; Netflix reads outside its buffers there)");
        }
        if (settings_.add_scale1) {
            const int half_w = static_cast<int>(plan.width * 0.5 + 0.5);
            const int half_h = static_cast<int>(plan.height * 0.5 + 0.5);
            if (p == 0 && half_w > float_filter::kBilinearMaxWidth) {
                throw Error("float_motion: frame " + size_text(plan.width, plan.height) +
                            " is too wide for motion_add_scale1 (its half size may have at most " +
                            std::to_string(float_filter::kBilinearMaxWidth) + " columns, as in Netflix)");
            }
            // Netflix scales a chroma blur with the row stride of a chroma
            // plane, but the blur was written with the luma's: it reads
            // rows at wrong offsets, into never-written padding.
            if (p > 0 && aligned_row_bytes(plan.width) != aligned_row_bytes(static_cast<int>(format.width))) {
                throw Error("float_motion: motion_add_scale1 with motion_add_uv on " +
                            std::string(chroma_format_name(format.chroma)) +
                            " is not supported: Netflix reads uninitialised memory there (its half-size chroma "
                            "uses the chroma plane's row stride on buffers laid out with the luma's)");
            }
            plan.half = float_filter::Scaler(float_filter::ScaleMethod::kBilinear, plan.width, plan.height, half_w,
                                             half_h, "float_motion: motion_add_scale1");
        }
        planes_.push_back(std::move(plan));
    }
}

double FloatMotionExtractor::weighted(double score) const
{
    return nf_min(score * settings_.fps_weight, settings_.max_val);
}

// MIN(motion_blend(score * fps), max): score * factor + (1 - factor) * MIN(offset, score).
double FloatMotionExtractor::blended(double score) const
{
    const double s = score * settings_.fps_weight;
    const double blend = s * settings_.blend_factor + (1 - settings_.blend_factor) * nf_min(settings_.blend_offset, s);
    return nf_min(blend, settings_.max_val);
}

void FloatMotionExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    ++frames_;
    if (settings_.force_zero) {
        out.write(kMotion2, index, 0.0);
        out.write(kMotion3, index, 0.0);
        if (settings_.debug) out.write(kMotion, index, 0.0);
        return;
    }
    if (index == 0) {
        out.write(kMotion2, 0, 0.0);
        if (settings_.debug) out.write(kMotion, 0, 0.0);
        // Netflix writes motion3 of frame 0 when it extracts frame 1, before
        // frame 0's other (non-temporal) features; a one-frame run writes it
        // at flush() instead, which moves it to the end.
        out.collector().id(names_[kMotion3]);
        return;
    }
    const double score = scores.get(0);
    if (settings_.debug) out.write(kMotion, index, weighted(score));
    if (index == 1) {
        out.write(kMotion3, 0, blended(score));
    } else {
        const double previous = last_score_;
        const double motion2 = previous < score ? previous : score;
        out.write(kMotion2, index - 1, weighted(motion2));
        out.write(kMotion3, index - 1, blended(motion2));
    }
    last_score_ = score;
}

void FloatMotionExtractor::flush(Collector& collector)
{
    if (settings_.force_zero || frames_ == 0) return;
    const std::uint64_t last = frames_ - 1;
    const std::size_t motion2 = collector.id(names_[kMotion2]);
    const std::size_t motion3 = collector.id(names_[kMotion3]);
    if (last > 0) {
        collector.set(motion2, last, weighted(last_score_));
        collector.set(motion3, last, blended(last_score_));
    } else {
        collector.set(motion3, 0, 0.0);
        collector.move_to_end(motion3);
    }
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_motion",
        .help = "floating-point motion of the reference luma (motion, motion2, motion3)",
        .options = option_specs(),
        .provided = {kMotionName, kMotion2Name, kMotion3Name},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatMotionCpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::float_motion
