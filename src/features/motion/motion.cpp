#include "features/motion/motion.h"

#include "core/feature_names.h"
#include "twinvmaf/error.h"

namespace twinvmaf::motion {

namespace {

// libvmaf's MIN(): the second operand when the comparison is false (NaN).
double nf_min(double a, double b) { return a < b ? a : b; }

const char* const kSadName = "VMAF_integer_feature_motion_sad_score";
const char* const kMotionName = "VMAF_integer_feature_motion_score";
const char* const kMotion2Name = "VMAF_integer_feature_motion2_score";
const char* const kMotion3Name = "VMAF_integer_feature_motion3_score";

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = {
        {.name = "motion_force_zero", .type = OptionType::kBool, .default_value = false,
         .help = "forcing motion score to zero", .names_output = true, .alias = "force_0"},
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
         .help = "use five-frame temporal window", .names_output = true, .alias = "mffw"},
        {.name = "motion_moving_average", .type = OptionType::kBool, .default_value = false,
         .help = "use moving average for motion scores after first frame", .names_output = true,
         .alias = "mma"},
        {.name = "debug", .type = OptionType::kBool, .default_value = false,
         .help = "debug mode: enable additional output"},
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
    s.debug = values.get_bool("debug");
    return s;
}

MotionExtractor::MotionExtractor(const Settings& settings, const OptionValues& values)
    : settings_(settings)
{
    names_.push_back(output_name(kSadName, values));
    if (settings_.debug) names_.push_back(output_name(kMotionName, values));
    names_.push_back(output_name(kMotion2Name, values));
    names_.push_back(output_name(kMotion3Name, values));
}

void MotionExtractor::init(const VideoFormat& format)
{
    // Netflix's 5-tap blur mirrors once (-1 -> 1, -2 -> 2): from 3 samples on
    // it stays inside the picture; under 3 it reads outside its buffer
    // (valgrind: "Invalid read" on 1x8, 2x8, 8x1, 8x2, 2x2), so there is no
    // reference. motion_force_zero blurs nothing and scores every size.
    if (!settings_.force_zero && (format.width < kMinFrameSize || format.height < kMinFrameSize)) {
        throw Error("motion: frame " + std::to_string(format.width) + "x" + std::to_string(format.height) +
                    " is too small; its 5-tap blur needs at least " + std::to_string(kMinFrameSize) + "x" +
                    std::to_string(kMinFrameSize) + " (Netflix reads outside its picture below that)");
    }
    format_ = format;
    sad_scores_.clear();
}

void MotionExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    double score = 0.0;
    if (scores_frame(index)) {
        // Netflix divides by w * h computed in unsigned int.
        const unsigned pixels = format_.width * format_.height;
        const double sad = static_cast<double>(scores.get_integer(0));
        score = nf_min(sad / 256. / pixels * settings_.fps_weight, settings_.max_val);
    }
    sad_scores_.push_back(score);
    out.write(0, index, score);
    if (settings_.debug) out.write(1, index, score);
}

// Netflix's motion_blend(), then clipped to motion_max_val.
double MotionExtractor::blend_and_clip(double motion) const
{
    const double blended = motion * settings_.blend_factor +
                           (1 - settings_.blend_factor) * nf_min(settings_.blend_offset, motion);
    return nf_min(blended, settings_.max_val);
}

// motion2 of frame i is the smaller of the scores around it: frames i and i+1,
// or with the five-frame window frames i-1 and i+1 (only i+1 for the first
// scored frame); the last frame keeps its own score. motion3 is motion2
// blended and clipped, optionally averaged with the previous frame's; the
// unscored first frames take the first scored frame's blended score.
void MotionExtractor::flush(Collector& collector)
{
    const std::vector<double>& sad = sad_scores_;
    const std::size_t frames = sad.size();
    const std::size_t first = settings_.frame_distance();
    if (frames == 0) return;
    const std::size_t motion2_id = collector.id(names_[names_.size() - 2]);
    const std::size_t motion3_id = collector.id(names_[names_.size() - 1]);

    const double first_blended = frames > first ? blend_and_clip(sad[first]) : 0.0;
    double previous = 0.0;
    for (std::size_t i = 0; i < frames; ++i) {
        double motion2 = 0.0;
        double motion3 = first_blended;
        if (i < first) {
            previous = first_blended;
        } else {
            if (i + 1 == frames) {
                motion2 = sad[i];
            } else {
                const std::size_t low = settings_.five_frame_window ? i - 1 : i;
                motion2 = low >= first ? nf_min(sad[low], sad[i + 1]) : sad[i + 1];
            }
            const double processed = blend_and_clip(motion2);
            motion3 = settings_.moving_average ? (processed + previous) / 2.0 : processed;
            previous = processed;
        }
        collector.set(motion2_id, i, motion2);
        collector.set(motion3_id, i, motion3);
    }
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "motion",
        .help = "integer motion of the reference luma (VMAF_integer_feature_motion_sad_score, "
                "integer_motion2, integer_motion3)",
        .options = option_specs(),
        .provided = {kSadName, kMotionName, kMotion2Name, kMotion3Name},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<MotionCpu>(Settings::from(values), values);
        },
    };
}

}  // namespace twinvmaf::motion
