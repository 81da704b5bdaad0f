#include "features/null/null_feature.h"

namespace twinvmaf::null_feature {

namespace {

class NullExtractor final : public FeatureExtractor {
public:
    void init(const VideoFormat&) override {}
    std::vector<std::string> output_names() const override { return {}; }
    void extract(const FrameInputs&, FrameScores&, Scratch*) const override {}
};

}  // namespace

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "null",
        .help = "reads every frame and writes nothing (I/O and pipeline cost)",
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<NullExtractor>();
        },
    };
}

}  // namespace twinvmaf::null_feature
