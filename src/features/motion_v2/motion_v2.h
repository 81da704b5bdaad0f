// motion_v2: the integer_motion_v2 extractor of the lusoris/vmaf fork
// (libvmaf/src/feature/integer_motion_v2.c, commit c2a3c7e0; registered as
// "motion_v2"): VMAF_integer_feature_motion_v2_sad_score per frame, and
// VMAF_integer_feature_motion2_v2_score / VMAF_integer_feature_motion3_v2_score
// written at the end of the run. The fork prints these internal names as
// they are (its alias table has no entry for them).
//
// The fork's per-frame SAD is exactly Netflix's integer motion SAD (the
// 5-tap blur of the difference of the current and the previous reference
// luma, vertical pass rounded by the bit depth, horizontal by 16 bits, |.|
// summed per row in uint32): motion_v2 computes it with motion's code
// (features/motion, motion_math.h) on the CPU and on the GPU, one
// implementation of that behaviour. What differs from motion is around it:
//   * options: motion's, less `debug`; motion_five_frame_window is accepted
//     by the fork's option table but refused at init (-ENOTSUP), as here;
//   * frames narrower or lower than 3 samples are refused (the fork's init:
//     its mirror reads outside the picture below that);
//   * motion2 of frame i is min(sad[i], sad[i + 1]) for every frame but the
//     last (frame 0 included, whose sad is 0), the last keeps its own sad;
//     motion3 as motion's (blend, clip, optional 2-frame moving average; frame
//     0 takes frame 1's blended sad);
//   * the fork's flush() counts the frames 0, 1, 2, ... that have a sad and
//     stops at the first without: with --subsample N > 1 that is frame 0
//     alone, so motion2 and motion3 are written for frame 0 only (both 0).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/motion/motion.h"

namespace twinvmaf::motion_v2 {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool force_zero = false;
    double blend_factor = 1.0;
    double blend_offset = 40.0;
    double fps_weight = 1.0;
    double max_val = 10000.0;
    bool five_frame_window = false;  // refused at init, as the fork
    bool moving_average = false;

    static Settings from(const OptionValues& values);
};

// The options of motion's extractor that give motion_v2's SAD: motion's
// defaults with motion_force_zero as given (the other options act only on
// the scores, which motion_v2 computes itself).
OptionValues sad_options(const Settings& settings);

class MotionV2Extractor : public FeatureExtractor {
public:
    MotionV2Extractor(const Settings& settings, const OptionValues& values);

    void init(const VideoFormat& format) override;
    // Slots: sad score, motion2, motion3; collect() writes the first,
    // flush() the others.
    std::vector<std::string> output_names() const override { return names_; }
    int planes_read() const override { return 1; }
    unsigned history() const override { return settings_.force_zero ? 0u : 1u; }
    // Unlike Netflix's motion, the fork's framework extracts motion_v2 only on
    // the frames it writes (--subsample), each against the frame before it
    // (history()); see flush() for what that does to motion2 / motion3.
    bool every_frame() const override { return false; }
    // Expects integer 0 = the frame's SAD (0 on frame 0 and with force_zero).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    void flush(Collector& collector) override;

protected:
    const Settings& settings() const { return settings_; }

private:
    double blend_and_clip(double motion) const;

    Settings settings_;
    std::vector<std::string> names_;
    VideoFormat format_{};
    std::vector<double> sad_scores_;       // per collected frame, in frame order
    std::vector<std::uint64_t> indices_;   // their frame numbers
};

// The CPU reference: motion's CPU SAD (motion::MotionCpu, scalar or SIMD
// kernels, the same bits).
class MotionV2Cpu final : public MotionV2Extractor {
public:
    MotionV2Cpu(const Settings& settings, const OptionValues& values);
    void init(const VideoFormat& format) override;
    std::unique_ptr<Scratch> make_scratch() const override { return sad_.make_scratch(); }
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;

private:
    motion::MotionCpu sad_;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::motion_v2
