// ciede: Netflix libvmaf's "ciede" extractor (ciede.c): ciede2000, the mean
// CIEDE2000 colour difference of each frame pair as a dB-like score,
// 45 - 20 log10(mean dE00). Netflix's extractor has no options.
//
// Backends differ only in how they get the frame's sum of dE00 (a double,
// summed in raster order); CiedeExtractor::collect() turns it into the score
// on the host, so no backend needs a device log10.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/ciede/ciede_math.h"

namespace twinvmaf::ciede {

// The two chroma planes of `picture`, for netflix_upsampled_chroma().
ChromaPlanes chroma_planes(const Picture& picture);

// Backend-independent part: the refusals, the name, sum -> score.
class CiedeExtractor : public FeatureExtractor {
public:
    // Refuses bit depths other than Netflix's 8, 10, 12 and 16 and frames
    // with an empty chroma plane (1 sample wide, or 1 high in 4:2:0).
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return {"ciede2000"}; }
    // Expects value 0 = the frame's sum of dE00 over every luma position.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

protected:
    const VideoFormat& format() const { return format_; }

private:
    VideoFormat format_{};
};

// The CPU reference.
class CiedeCpu final : public CiedeExtractor {
public:
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::ciede
