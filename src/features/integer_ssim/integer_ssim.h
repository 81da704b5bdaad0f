// ssim: the lusoris/vmaf fork's integer SSIM of the luma (extractor "ssim",
// libvmaf/src/feature/integer_ssim.c, commit c2a3c7e0; Netflix has the file
// but does not register it). No options; one output, "ssim", per frame.
// The arithmetic is integer_ssim_math.h; the CPU loops integer_ssim_cpu.cpp.
//
// Refused: 16-bit samples (the fork's samplemax * samplemax overflows int).
// The fork scores every other size and bit depth without undefined
// behaviour (valgrind clean on the noise fixtures and 1x1 .. 33x33), and so
// does this.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"

namespace twinvmaf::integer_ssim {

class IntegerSsimExtractor : public FeatureExtractor {
public:
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return {"ssim"}; }
    int planes_read() const override { return 1; }
    // Expects integer 0 = the weight sum and value 0 = the sum of the terms.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

protected:
    const VideoFormat& format() const { return format_; }

private:
    VideoFormat format_{};
};

class IntegerSsimCpu final : public IntegerSsimExtractor {
public:
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::integer_ssim
