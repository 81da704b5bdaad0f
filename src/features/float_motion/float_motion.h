// float_motion: Netflix libvmaf's floating-point motion ("float_motion"
// extractor, float_motion.c over motion.c): motion (debug, on by default),
// motion2 and motion3, with every option of Netflix's extractor. The
// vmaf_float_* models read VMAF_feature_motion2_score from it.
//
// A frame's score is the mean absolute difference of the blurred reference
// luma of that frame and the one before (0 for frame 0); optionally plus
// the same at half size (motion_add_scale1) and over the chroma planes
// (motion_add_uv). motion2 of frame i is the smaller of the scores of i and
// i+1 (the last frame keeps its own), motion3 motion2 blended, both scaled
// by motion_fps_weight and clipped to motion_max_val.
//
// Temporal design, as the integer motion: extract() reads the previous
// reference through history() and blurs both pictures itself, so frames are
// scored in parallel with nothing carried between them (Netflix keeps the
// last blurs instead; a blur is a pure function of its picture, so the
// values are the same). collect() writes each value when Netflix does:
// motion2 and motion of a frame at that frame, motion2 and motion3 of frame
// i-1 at frame i, and the last frame's at flush().
//
// Floating-point reductions (a GPU twin must add in the same order):
//   * each blurred sample: f[k] * x[k] in tap order from +0, vertical pass
//     first (float_filter.h);
//   * a plane's SAD: per row, |a - b| added in column order from +0 (float
//     accumulator, each step rounded from double); then the row sums added
//     in row order in float from +0; divided by (float) w*h;
//   * with motion_add_scale1 the half-size mean is added to it in float;
//     with motion_add_uv the planes' scores are added as doubles, Y + U + V.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/float_motion/float_motion_math.h"

namespace twinvmaf::float_motion {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool debug = true;
    bool force_zero = false;
    double fps_weight = 1.0;
    double blend_factor = 1.0;
    double blend_offset = 40.0;
    bool add_scale1 = false;
    int filter_size = 5;
    bool add_uv = false;
    double max_val = 10000.0;

    static Settings from(const OptionValues& values);
};

// One plane's geometry and half-size scaler (motion_add_scale1), fixed at init.
struct PlanePlan {
    int width = 0, height = 0;
    float_filter::Scaler half;
};

// Backend-independent part: names, scores -> motion, motion2, motion3.
class FloatMotionExtractor : public FeatureExtractor {
public:
    FloatMotionExtractor(const Settings& settings, const OptionValues& values);

    // Refuses planes smaller than the blur's reach and the options Netflix
    // computes from memory it never wrote (see float_motion.cpp).
    void init(const VideoFormat& format) override;
    // Slots: motion2, motion3, [motion with debug]; collect() writes them in
    // Netflix's order.
    std::vector<std::string> output_names() const override { return names_; }
    unsigned history() const override { return settings_.force_zero ? 0u : 1u; }
    int planes_read() const override { return settings_.add_uv ? 3 : 1; }
    // Netflix's VMAF_FEATURE_EXTRACTOR_TEMPORAL.
    bool temporal() const override { return true; }
    // Expects value 0 = the frame's score, for every frame after the first.
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    void flush(Collector& collector) override;

    const Settings& settings() const { return settings_; }
    // Luma, then (motion_add_uv) U and V; set by init() (a GPU twin plans
    // with it too).
    const std::vector<PlanePlan>& planes() const { return planes_; }

protected:
    const VideoFormat& format() const { return format_; }

private:
    double weighted(double score) const;         // MIN(score * fps, max)
    double blended(double score) const;          // MIN(blend(score * fps), max)

    Settings settings_;
    VideoFormat format_{};
    std::vector<PlanePlan> planes_;
    std::vector<std::string> names_;
    std::uint64_t frames_ = 0;  // collected so far
    double last_score_ = 0.0;   // of frame frames_ - 1
};

// The CPU reference.
class FloatMotionCpu final : public FloatMotionExtractor {
public:
    using FloatMotionExtractor::FloatMotionExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_motion
