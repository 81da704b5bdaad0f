// psnr_hvs: Netflix libvmaf's "psnr_hvs" extractor (Xiph/Daala PSNR-HVS):
// psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and psnr_hvs (0.8 Y + 0.1 Cb + 0.1 Cr,
// combined before the conversion to dB). Netflix's extractor has no options.
//
// Backends differ only in how they get each plane's mean masked error (a
// float, see psnr_hvs_math.h); PsnrHvsExtractor::collect() turns the three
// into scores on the host, so no backend needs a device log10.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/psnr_hvs/psnr_hvs_math.h"

namespace twinvmaf::psnr_hvs {

// Netflix refuses deeper samples ("bpc must be less than or equal to 12").
inline constexpr unsigned kMaxBitdepth = 12;

// The CSF table of plane 0..2 and its masking weights.
struct PlaneTables {
    const float (*csf)[kBlockSize];
    float mask[kBlockSize][kBlockSize];
};

// Plane p's tables (Y, Cb, Cr), the masks from masking_weight().
PlaneTables plane_tables(int plane);

// Backend-independent part: the refusal, the names, errors -> scores.
class PsnrHvsExtractor : public FeatureExtractor {
public:
    PsnrHvsExtractor();

    // Refuses bit depths above 12, as Netflix does. Planes under 8 samples in
    // a direction hold no block; Netflix (and we) then score NaN (0 / 0).
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // Expects value p = the mean masked error of plane p (0..2), already
    // divided by the squared peak sample value.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

protected:
    const VideoFormat& format() const { return format_; }
    const PlaneTables& tables(int plane) const { return tables_[plane]; }

private:
    VideoFormat format_{};
    PlaneTables tables_[3];
};

// The CPU reference.
class PsnrHvsCpu final : public PsnrHvsExtractor {
public:
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::psnr_hvs
