// float_vif: Netflix libvmaf's floating-point VIF ("float_vif" extractor,
// float_vif.c over vif.c / vif_tools.c): vif_scale0..3 and, with debug=true,
// vif, vif_num, vif_den and the numerator and denominator of every scale,
// with every option of Netflix's extractor. The vmaf_float_* models read
// VMAF_feature_vif_scale0..3_score from it.
//
// Per frame: luma to floats (offset -128), optional prescale
// (vif_prescale, vif_prescale_method), then four scales. Scale s > 0 is the
// previous scale filtered with scale s's Gaussian and decimated by 2; on
// each scale the Gaussian gives the means and second moments of reference
// and distorted, and vif_statistic's per-sample terms (float_vif_math.h)
// are summed into the scale's numerator and denominator.
//
// Floating-point reductions (a GPU twin must add in the same order):
//   * every filter output: f[k] * x[k] added in tap order from +0, vertical
//     pass first (float_filter.h);
//   * a scale's numerator and denominator: per row, the float terms added
//     in column order from +0; then the row sums added in row order, in
//     float, from +0;
//   * vif_num / vif_den (debug): the scales' floats as doubles, the first
//     computed scale plus the next ones in scale order.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/float_vif/float_vif_math.h"

namespace twinvmaf::float_vif {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool debug = false;
    double enhn_gain_limit = 100.0;
    double kernelscale = 1.0;
    double prescale = 1.0;
    float_filter::ScaleMethod prescale_method = float_filter::ScaleMethod::kNearest;
    std::array<double, kScaleCount> min_val{};  // vif_scale1..3_min_val ([0] unused)
    double sigma_nsq = 2.0;
    bool skip_scale0 = false;

    // Throws twinvmaf::Error for a kernel scale Netflix does not know or an
    // unknown scaling method (Netflix fails every frame / its init there).
    static Settings from(const OptionValues& values);
    int first_scale() const { return skip_scale0 ? 1 : 0; }
};

// Sizes of the scored picture and its scales, and the filters, fixed at init.
struct Plan {
    int width = 0, height = 0;                // the luma plane
    int scaled_width = 0, scaled_height = 0;  // after vif_prescale
    std::array<int, kScaleCount> scale_width{}, scale_height{};
    std::array<std::vector<float>, kScaleCount> taps;  // vif_get_filter(scale)
    float_filter::Scaler scaler;                       // used when the size changes
    StatisticParams statistic{};

    bool prescaled() const { return scaled_width != width || scaled_height != height; }
    // Throws twinvmaf::Error where Netflix reads outside its buffers.
    static Plan make(const Settings& settings, unsigned width, unsigned height);
};

// Backend-independent part: options, names, raw sums -> scores.
class FloatVifExtractor : public FeatureExtractor {
public:
    FloatVifExtractor(const Settings& settings, const OptionValues& options);

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return names_; }
    int planes_read() const override { return 1; }  // luma
    // Expects values 2 * scale + {0: numerator, 1: denominator} (floats, as
    // doubles) for the scales computed.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

protected:
    const Settings& settings() const { return settings_; }
    const VideoFormat& format() const { return format_; }
    const Plan& plan() const { return plan_; }

private:
    Settings settings_;
    VideoFormat format_{};
    Plan plan_;
    std::vector<std::string> names_;
};

// The CPU reference.
class FloatVifCpu final : public FloatVifExtractor {
public:
    using FloatVifExtractor::FloatVifExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_vif
