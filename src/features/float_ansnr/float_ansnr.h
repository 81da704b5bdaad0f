// float_ansnr: Netflix libvmaf's ANSNR of luma ("float_ansnr" extractor,
// float_ansnr.c / ansnr.c; outputs float_ansnr and float_anpsnr). It has no
// options (ansnr_options.h is compile-time only and leaves every switch off).
//
// Backends differ only in how they get the frame's signal and noise sums
// (FrameScores values 0 and 1, floats as Netflix keeps them); collect()
// turns them into the scores on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "features/common/float_psnr_scoring.h"
#include "features/common/luma_extractor.h"

namespace twinvmaf::float_ansnr {

class FloatAnsnrExtractor : public LumaExtractor {
public:
    // Throws for a plane under 3 samples in a direction: Netflix's 5x5
    // mirror reads outside its buffers there.
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // Expects value 0 = signal, 1 = noise (float_ansnr_math.h).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

private:
    float_psnr_scoring::PsnrLimits limits_{};
};

// The CPU reference.
class FloatAnsnrCpu final : public FloatAnsnrExtractor {
public:
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_ansnr
