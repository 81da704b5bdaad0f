#include "features/motion_v2/motion_v2.h"

#include "core/feature_names.h"
#include "twinvmaf/error.h"

namespace twinvmaf::motion_v2 {

namespace {

// libvmaf's MIN(): the second operand when the comparison is false (NaN).
double nf_min(double a, double b) { return a < b ? a : b; }

const char* const kSadName = "VMAF_integer_feature_motion_v2_sad_score";
const char* const kMotion2Name = "VMAF_integer_feature_motion2_v2_score";
const char* const kMotion3Name = "VMAF_integer_feature_motion3_v2_score";

// The fork's init: the 5-tap mirror needs radius + 1 = 3 samples each way.
constexpr unsigned kMinSide = 3;

std::string size_text(unsigned w, unsigned h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    // The fork's option table (names, aliases, defaults, ranges, help), all
    // VMAF_OPT_FLAG_FEATURE_PARAM.
    static const std::vector<OptionSpec> specs = {
        {.name = "motion_force_zero", .type = OptionType::kBool, .default_value = false,
         .help = "forces motion score to be 0", .names_output = true, .alias = "force_0"},
        {.name = "motion_blend_factor", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "blend motion score given an offset", .min = 0.0, .max = 1.0,
         .names_output = true, .alias = "mbf"},
        {.name = "motion_blend_offset", .type = OptionType::kDouble, .default_value = 40.0,
         .help = "blend motion score starting from this offset", .min = 0.0, .max = 1000.0,
         .names_output = true, .alias = "mbo"},
        {.name = "motion_fps_weight", .type = OptionType::kDouble, .default_value = 1.0,
         .help = "fps-aware multiplicative weight/correction", .min = 0.0, .max = 5.0,
         .names_output = true, .alias = "mfw"},
        {.name = "motion_max_val", .type = OptionType::kDouble, .default_value = 10000.0,
         .help = "maximum value allowed; larger values will be clipped to this value",
         .min = 0.0, .max = 10000.0, .names_output = true, .alias = "mmxv"},
        {.name = "motion_five_frame_window", .type = OptionType::kBool, .default_value = false,
         .help = "use five-frame temporal window (not supported on motion_v2, as in the fork; "
                 "use motion)",
         .names_output = true, .alias = "mffw"},
        {.name = "motion_moving_average", .type = OptionType::kBool, .default_value = false,
         .help = "smooth motion3 with a 2-frame moving average", .names_output = true, .alias = "mma"},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.force_zero = values.get_bool("motion_force_zero");
    s.blend_factor = values.get_double("motion_blend_factor");
    s.blend_offset = values.get_double("motion_blend_offset");
    s.fps_weight = values.get_double("motion_fps_weight");
    s.max_val = values.get_double("motion_max_val");
    s.five_frame_window = values.get_bool("motion_five_frame_window");
    s.moving_average = values.get_bool("motion_moving_average");
    return s;
}

OptionValues sad_options(const Settings& settings)
{
    OptionValues values("motion", motion::option_specs());
    if (settings.force_zero) values.set("motion_force_zero", "true");
    return values;
}

MotionV2Extractor::MotionV2Extractor(const Settings& settings, const OptionValues& values)
    : settings_(settings)
{
    names_.push_back(output_name(kSadName, values));
    names_.push_back(output_name(kMotion2Name, values));
    names_.push_back(output_name(kMotion3Name, values));
}

void MotionV2Extractor::init(const VideoFormat& format)
{
    if (format.width < kMinSide || format.height < kMinSide)
        throw Error("motion_v2: frame " + size_text(format.width, format.height) +
                    " is below the 5-tap filter's minimum " + size_text(kMinSide, kMinSide) +
                    " (the fork refuses it: its mirror would read outside the picture)");
    if (settings_.five_frame_window)
        throw Error("motion_v2: motion_five_frame_window=true is not supported (the fork refuses it "
                    "too); use the motion feature for the five-frame window");
    format_ = format;
    sad_scores_.clear();
    indices_.clear();
}

void MotionV2Extractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    double score = 0.0;
    if (!settings_.force_zero && index > 0) {
        // The fork divides by w * h computed in unsigned int.
        const unsigned pixels = format_.width * format_.height;
        const double sad = static_cast<double>(scores.get_integer(0));
        score = nf_min(sad / 256. / pixels * settings_.fps_weight, settings_.max_val);
    }
    sad_scores_.push_back(score);
    indices_.push_back(index);
    out.write(0, index, score);
}

// The fork's motion_blend(), then clipped to motion_max_val.
double MotionV2Extractor::blend_and_clip(double motion) const
{
    const double blended = motion * settings_.blend_factor +
                           (1 - settings_.blend_factor) * nf_min(settings_.blend_offset, motion);
    return nf_min(blended, settings_.max_val);
}

void MotionV2Extractor::flush(Collector& collector)
{
    const std::vector<double>& sad = sad_scores_;
    // The fork's count: frames 0, 1, 2, ... as long as each has a sad.
    std::size_t frames = 0;
    while (frames < indices_.size() && indices_[frames] == frames) ++frames;
    if (frames == 0) return;
    const std::size_t motion2_id = collector.id(names_[1]);
    const std::size_t motion3_id = collector.id(names_[2]);

    // Frame 0's motion3 (and the moving average's start): frame 1's sad,
    // blended and clipped.
    const double stamp = frames > 1 ? blend_and_clip(sad[1]) : 0.0;
    double previous = stamp;
    for (std::size_t i = 0; i < frames; ++i) {
        const double motion2 = i + 1 < frames ? nf_min(sad[i], sad[i + 1]) : sad[i];
        double motion3 = stamp;
        if (i > 0) {
            const double processed = blend_and_clip(motion2);
            motion3 = settings_.moving_average ? (processed + previous) / 2.0 : processed;
            previous = processed;
        }
        collector.set(motion2_id, i, motion2);
        collector.set(motion3_id, i, motion3);
    }
}

MotionV2Cpu::MotionV2Cpu(const Settings& settings, const OptionValues& values)
    : MotionV2Extractor(settings, values), sad_(motion::Settings::from(sad_options(settings)), sad_options(settings))
{
}

void MotionV2Cpu::init(const VideoFormat& format)
{
    MotionV2Extractor::init(format);
    sad_.init(format);
}

void MotionV2Cpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    sad_.extract(inputs, scores, scratch);
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "motion_v2",
        .help = "lusoris/vmaf's integer motion v2 of the reference luma "
                "(VMAF_integer_feature_motion_v2_sad_score, _motion2_v2_score, _motion3_v2_score)",
        .options = option_specs(),
        .provided = {kSadName, kMotion2Name, kMotion3Name},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<MotionV2Cpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::motion_v2
