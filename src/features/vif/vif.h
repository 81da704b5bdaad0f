// vif: Netflix libvmaf's integer VIF ("vif" extractor): integer_vif_scale0..3
// and, with debug=true, integer_vif, its numerator and denominator and those
// of every scale, with every option Netflix's extractor has.
//
// Backends differ only in how they get each scale's four integer counters
// (vif_math.h, ScaleSums); VifExtractor::collect() turns them into scores on
// the host, so the CPU reference and every GPU twin share the scoring code.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/feature.h"
#include "features/vif/vif_math.h"

namespace twinvmaf::vif {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool debug = false;
    double enhn_gain_limit = 100.0;
    bool skip_scale0 = false;

    static Settings from(const OptionValues& values);
};

// The smallest height VIF scores: its 4th scale is (w >> 3) x (h >> 3), and
// with no rows Netflix crashes. Any width scores: a scale with no columns
// gives 0 / 0 (NaN) as in Netflix; at 8..15 samples the 4th scale is one
// sample wide or high, and under 8 columns the 2nd or 3rd can be; see
// statistics() in vif_cpu.cpp.
inline constexpr unsigned kMinFrameHeight = 8;

// Netflix's Q11 log2 table (entry i = round(2048 * log2f(32768 + i))).
const std::uint16_t* log2_table();

// Backend-independent part: options, names, counters -> scores.
class VifExtractor : public FeatureExtractor {
public:
    VifExtractor(const Settings& settings, const OptionValues& options);

    // Refuses frames under kMinFrameHeight rows.
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return names_; }
    int planes_read() const override { return 1; }  // luma
    // Expects integers 4 * scale + {0: num_log, 1: den_log, 2: num_non_log,
    // 3: den_non_log} (two's complement), see store_sums().
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    // What every backend's extract() writes: the counters above.
    static void store_sums(const std::array<ScaleSums, kScaleCount>& sums, FrameScores& scores);

protected:
    const Settings& settings() const { return settings_; }
    const VideoFormat& format() const { return format_; }

private:
    Settings settings_;
    VideoFormat format_{};
    std::vector<std::string> names_;
};

// The CPU reference.
class VifCpu final : public VifExtractor {
public:
    using VifExtractor::VifExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::vif
