// float_adm: Netflix libvmaf's float ADM ("float_adm" extractor,
// float_adm.c, adm.c, adm_tools.c): adm2, aim, adm3, adm_scale0..3 and, with
// debug, adm, adm_num, adm_den and the numerator and denominator of every
// scale, with every option Netflix's extractor has. The float VMAF models
// (vmaf_float_v0.6.1, ...) read it by its provided names
// (VMAF_feature_adm2_score, ...).
//
// Backends compute each scale's float sums (ScaleSums, float_adm_math.h);
// FloatAdmExtractor::collect() takes their p-th roots, adds the noise
// floors and pools the scales on the host, for every backend.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/float_adm/float_adm_math.h"

namespace twinvmaf::float_adm {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    bool debug = false;
    double enhn_gain_limit = 100.0;
    double norm_view_dist = 3.0;
    double noise_weight = 0.03125;
    double csf_scale = 1.0;
    double csf_diag_scale = 1.0;
    int ref_display_height = 1080;
    int csf_mode = 0;
    int bypass_cm = 0;
    bool adm3_apply_hm = false;
    double p_norm = 3.0;
    double dlm_weight = 0.5;
    double min_val = 0.0;
    // adm_f1s0..3 (h and v) and adm_f2s0..3 (d): a weight >= 0 replaces the
    // CSF's weight of that scale; -1 keeps it.
    double factor1[kScales] = {-1, -1, -1, -1};
    double factor2[kScales] = {-1, -1, -1, -1};
    int skip_aim_scale = -1;  // the scale left out of the AIM score (-1: none)
    bool skip_scale0 = false;
    // Netflix's output-name suffix of the non-default naming options.
    std::string output_suffix;

    static Settings from(const OptionValues& values);
};

// Geometry and weights of one scale.
struct ScaleParams {
    int input_width = 0;  // the scale's input: the picture, then the a band
    int input_height = 0;
    int width = 0;  // its bands: the input halved, rounded up
    int height = 0;
    Region scored;
    Region decoupled;           // where decouple and the CSF run
    float weight[kOrientations] = {};  // CSF weights of h, v, d (Netflix's rfactor)
};

struct FrameParams {
    ScaleParams scale[kScales];
    DecoupleParams decouple;
    double p_norm = 3.0;
    bool bypass_cm = false;
    bool skip_scale0 = false;  // scale 0 then only feeds scale 1's wavelet
    // A band is 1 sample wide or high (frames under 17 samples): every
    // backend runs the frame in Netflix's buffer layout (float_adm_arena.h).
    bool netflix_layout = false;
};

// Backend-independent part: options, parameters, sums -> scores.
class FloatAdmExtractor : public FeatureExtractor {
public:
    explicit FloatAdmExtractor(const Settings& settings) : settings_(settings) {}

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    int planes_read() const override { return 1; }  // luma
    // Expects every scale's ScaleSums, as written by store_sums().
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

    const FrameParams& params() const { return params_; }
    static void store_sums(int scale, const ScaleSums& sums, FrameScores& scores);

protected:
    const VideoFormat& format() const { return format_; }

private:
    struct ScaleScore {
        float num = 0;
        float den = 0;
        float aim = 0;
    };
    ScaleScore score_scale(int scale, const FrameScores& scores) const;

    Settings settings_;
    VideoFormat format_{};
    FrameParams params_{};
};

// The CPU reference.
class FloatAdmCpu final : public FloatAdmExtractor {
public:
    using FloatAdmExtractor::FloatAdmExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::float_adm
