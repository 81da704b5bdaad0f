#include "features/float_moment/float_moment.h"

namespace twinvmaf::float_moment {

std::vector<std::string> FloatMomentExtractor::output_names() const
{
    // Netflix's order of writing; its provided name is just "float_moment".
    return {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"};
}

void FloatMomentExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // Netflix: cum /= (w * h).
    for (std::size_t slot = 0; slot < 4; ++slot) out.write(slot, index, scores.get(slot) / luma_pixels());
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_moment",
        .help = "1st and 2nd moments of reference and distorted luma (float_moment_ref1st, ...)",
        .provided = {"float_moment"},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatMomentCpu>();
        },
    };
}

}  // namespace twinvmaf::float_moment
