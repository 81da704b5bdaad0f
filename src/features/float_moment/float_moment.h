// float_moment: Netflix libvmaf's first and second moments of the reference
// and distorted luma ("float_moment" extractor, float_moment.c / moment.c;
// outputs float_moment_ref1st, float_moment_dis1st, float_moment_ref2nd,
// float_moment_dis2nd). It has no options.
//
// Backends differ only in how they get each plane's sums (FrameScores values
// 0..3: ref sum, dis sum, ref sum of squares, dis sum of squares); collect()
// divides by the pixel count on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "features/common/luma_extractor.h"

namespace twinvmaf::float_moment {

class FloatMomentExtractor : public LumaExtractor {
public:
    std::vector<std::string> output_names() const override;
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
};

// The CPU reference.
class FloatMomentCpu final : public FloatMomentExtractor {
public:
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_moment
