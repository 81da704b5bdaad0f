// psnr: Netflix libvmaf's integer PSNR ("psnr" extractor; psnr_y, psnr_cb,
// psnr_cr, and mse_* / apsnr_* on request), with every option it has.
//
// Backends only differ in how they get each plane's sum of squared errors
// (SSE): PsnrExtractor::collect() turns SSEs into scores on the host, so the
// CPU reference and every GPU twin share the scoring code.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/feature.h"

namespace twinvmaf::psnr {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool enable_chroma = true;
    bool enable_mse = false;
    bool enable_apsnr = false;
    bool reduced_hbd_peak = false;
    double min_sse = 0.0;

    static Settings from(const OptionValues& values);
};

// Backend-independent part: names, SSE -> PSNR, the APSNR aggregate.
class PsnrExtractor : public FeatureExtractor {
public:
    explicit PsnrExtractor(const Settings& settings) : settings_(settings) {}

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // libvmaf marks psnr temporal (APSNR sums every frame), so it runs on
    // every frame even with --subsample.
    bool temporal() const override { return true; }
    int planes_read() const override { return static_cast<int>(planes()); }
    // Expects integer i = SSE of plane i, for each scored plane.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    void flush(Collector& collector) override;

protected:
    unsigned planes() const { return settings_.enable_chroma ? 3u : 1u; }
    const VideoFormat& format() const { return format_; }

private:
    Settings settings_;
    VideoFormat format_{};
    std::uint32_t peak_ = 0;
    std::array<double, 3> psnr_max_{};
    std::array<std::uint64_t, 3> apsnr_sse_{};
    std::array<std::uint64_t, 3> apsnr_pixels_{};
};

// The CPU reference.
class PsnrCpu final : public PsnrExtractor {
public:
    using PsnrExtractor::PsnrExtractor;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::psnr
