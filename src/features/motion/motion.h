// motion: Netflix libvmaf's integer motion ("motion" extractor, current
// integer_motion.c): VMAF_integer_feature_motion_sad_score per frame,
// integer_motion (= the same score, with debug=true), and integer_motion2 /
// integer_motion3, which depend on the following frame and are written at the
// end of the run, as Netflix does.
//
// Temporal design. Netflix no longer blurs each picture and compares blurs: it
// blurs the *difference* of the current reference picture and an earlier one
// (frame index-1, or index-2 with motion_five_frame_window), rounding in
// between, so there is no per-picture blur to keep. extract() therefore reads
// the earlier picture through history() and computes that frame's SAD on its
// own: one filter pass per frame (the same work as Netflix), fully parallel,
// nothing carried between frames. collect() turns each SAD into the frame's
// score and keeps the scores; flush() derives motion2 and motion3 from them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"

namespace twinvmaf::motion {

const std::vector<OptionSpec>& option_specs();

// The smallest width and height the blur has a reference for (init()).
inline constexpr unsigned kMinFrameSize = 3;

struct Settings {
    bool force_zero = false;
    double blend_factor = 1.0;
    double blend_offset = 40.0;
    double fps_weight = 1.0;
    double max_val = 10000.0;
    bool five_frame_window = false;
    bool moving_average = false;
    bool debug = false;

    static Settings from(const OptionValues& values);

    // How many frames back the compared picture is (Netflix's min_idx): the
    // first frames, which have no such picture, score 0.
    unsigned frame_distance() const { return five_frame_window ? 2u : 1u; }
};

// Backend-independent part: names, SAD -> score, motion2 / motion3.
class MotionExtractor : public FeatureExtractor {
public:
    MotionExtractor(const Settings& settings, const OptionValues& values);

    void init(const VideoFormat& format) override;
    // Slots: sad score, [integer_motion with debug], motion2, motion3. Only
    // the per-frame ones are written by collect(); flush() writes the rest.
    std::vector<std::string> output_names() const override { return names_; }
    int planes_read() const override { return 1; }  // luma
    unsigned history() const override { return settings_.force_zero ? 0u : settings_.frame_distance(); }
    // Netflix's VMAF_FEATURE_EXTRACTOR_PREV_REF (not TEMPORAL): runs on
    // every frame even with --subsample, since each frame needs the one
    // before, but is collected in registration order.
    bool every_frame() const override { return true; }
    // Expects integer 0 = the frame's SAD (0 where there is no earlier picture).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    void flush(Collector& collector) override;

protected:
    const Settings& settings() const { return settings_; }
    const VideoFormat& format() const { return format_; }
    // Whether frame `index` is compared with an earlier picture at all.
    bool scores_frame(std::uint64_t index) const
    {
        return !settings_.force_zero && index >= settings_.frame_distance();
    }

private:
    double blend_and_clip(double motion) const;

    Settings settings_;
    std::vector<std::string> names_;
    VideoFormat format_{};
    std::vector<double> sad_scores_;  // per frame, in frame order
};

// The CPU reference.
class MotionCpu final : public MotionExtractor {
public:
    using MotionExtractor::MotionExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::motion
