// adm: Netflix libvmaf's integer ADM ("adm" extractor, integer_adm.c):
// integer_adm2, integer_aim, integer_adm3, integer_adm_scale0..3 and, with
// debug, the numerators and denominators, with every option Netflix has.
//
// Backends only differ in how they get each scale's exact integer sums
// (ScaleSums, adm_math.h); AdmExtractor::collect() turns them into scores on
// the host, so the CPU reference and every GPU twin share the floating-point
// code and its order of operations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/adm/adm_csf.h"
#include "features/adm/adm_math.h"

namespace twinvmaf::adm {

// The smallest width and height Netflix's integer ADM has a reference for:
// every scale's input then has 5 samples or more (init()).
inline constexpr unsigned kMinFrameSize = 33;

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool debug = false;
    double csf_scale = 1.0;
    double csf_diag_scale = 1.0;
    double dlm_weight = 0.5;
    double enhn_gain_limit = 100.0;
    double norm_view_dist = 3.0;
    int ref_display_height = 1080;
    int csf_mode = 0;
    double noise_weight = 0.03125;
    bool skip_aim = false;
    bool skip_scale0 = false;
    double min_val = 0.0;
    // Netflix's output-name suffix of the non-default naming options
    // ("_egl_1.2", "_csf_2_dlmw_0.7_min_0.5_nw_0.02").
    std::string output_suffix;

    static Settings from(const OptionValues& values);
};

// One frame's ADM scores, written by both Netflix ADM extractors (integer
// and float) in the same order: adm2, aim, adm3, scale0..3 (num / den); with
// debug also the score again, num, den, and num and den of each scale.
struct FrameOutputs {
    double score = 1.0;  // adm2: num / den
    double score_aim = 0.0;
    double adm3 = 0.0;
    double num = 0.0;
    double den = 0.0;
    double scale_num[kScales] = {};
    double scale_den[kScales] = {};
};
void write_frame_outputs(const FrameOutputs& scores, bool debug, std::uint64_t index, SlotWriter& out);

// Netflix's floor for the numerator and denominator summed over scales: below
// it they count as 0.
double numden_limit(const VideoFormat& format);

// Backend-independent part: options, per-scale parameters, sums -> scores.
class AdmExtractor : public FeatureExtractor {
public:
    explicit AdmExtractor(const Settings& settings) : settings_(settings) {}

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    int planes_read() const override { return 1; }  // luma
    // Expects ScaleSums of every scale, as written by store_sums().
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

    // After init(): the per-scale parameters, and where the sums go in
    // FrameScores (public for the GPU twin, which computes the same sums).
    const FrameParams& params() const { return params_; }
    static void store_sums(int scale, const ScaleSums& sums, FrameScores& scores);

protected:
    const VideoFormat& format() const { return format_; }

    static ScaleSums load_sums(int scale, const FrameScores& scores);

private:
    // The float numerator/denominator of one scale, as Netflix computes them.
    struct ScaleScore {
        float dlm = 0;
        float aim = 0;
        float den = 0;
    };
    ScaleScore score_scale(int scale, const ScaleSums& sums) const;

    Settings settings_;
    VideoFormat format_{};
    FrameParams params_{};
    float csf_weight_[kScales][kOrientations] = {};
};

// The CPU reference.
class AdmCpu final : public AdmExtractor {
public:
    using AdmExtractor::AdmExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::adm
