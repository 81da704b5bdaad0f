// float_psnr: Netflix libvmaf's float PSNR of luma ("float_psnr" extractor,
// float_psnr.c / psnr.c; output float_psnr). It has no options.
//
// Backends differ only in how they get the frame's sum of squared errors
// (slot 0 of FrameScores); collect() turns it into the score on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "features/common/float_psnr_scoring.h"
#include "features/common/luma_extractor.h"

namespace twinvmaf::float_psnr {

class FloatPsnrExtractor : public LumaExtractor {
public:
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // Expects value 0 = the luma sum of squared errors (float_psnr_math.h).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

private:
    float_psnr_scoring::PsnrLimits limits_{};
};

// The CPU reference.
class FloatPsnrCpu final : public FloatPsnrExtractor {
public:
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_psnr
