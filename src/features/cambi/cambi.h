// cambi: Netflix libvmaf's banding detector ("cambi" extractor): `cambi` and,
// with full_ref=true, `cambi_source` and `cambi_full_reference`, with every
// option Netflix's extractor has.
//
// Per frame (and per input with full_ref): the luma is converted to 10 bits
// and resampled to the encoding size, smoothed against dithering when the
// encode had fewer than 10 bits, masked to flat regions, then scored at five
// scales by the contrast of each pixel's value to its neighbouring values in
// a window, pooled over the top-k pixels. The arithmetic is in cambi_math.h.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/cambi/cambi_math.h"

namespace twinvmaf::cambi {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    int enc_width = 0;
    int enc_height = 0;
    int enc_bitdepth = 0;
    int src_width = 0;
    int src_height = 0;
    int window_size = 65;
    double topk = 0.6;
    double cambi_topk = 0.6;
    double tvi_threshold = 0.019;
    int max_log_contrast = 2;
    double vis_lum_threshold = 0.0;
    double max_val = 1000.0;
    bool full_ref = false;
    int high_res_speedup = 0;
    std::string eotf = "bt1886";
    std::string cambi_eotf = "bt1886";
    std::string heatmaps_path;

    static Settings from(const OptionValues& values);
};

// The geometry and thresholds of one scored input (distorted, or source with
// full_ref), fixed at init.
struct Plan {
    unsigned width = 0;   // after resampling (encoding or source size)
    unsigned height = 0;
    unsigned window = 0;  // adjusted window size (odd)
    // Nearest-neighbour resampling from the input: the source column of each
    // output column and the source row of each output row (Netflix steps a
    // float position, so these are tables, not a formula). Empty when the
    // plan has the input's size.
    std::vector<unsigned> source_columns;
    std::vector<unsigned> source_rows;

    unsigned pad() const { return window / 2; }
    // Scale s's size: halved (rounding up) from scale 1 on, and from scale 0
    // with the high-resolution speed-up.
    unsigned scale_width(int scale, bool high_res_speedup) const;
    unsigned scale_height(int scale, bool high_res_speedup) const;
};

// What init() derives from the options and the input format.
struct Setup {
    VideoFormat input{};
    Plan dis;
    Plan src;
    unsigned alloc_width = 0;
    unsigned alloc_height = 0;
    unsigned enc_bitdepth = 0;
    bool high_res_speedup = false;
    double topk = 0.6;
    ContrastParams contrast;
};

// The float nearest 1/n for n < kReciprocalSize ([0] = 0): Netflix's table.
const float* reciprocal_table();

// Luminance of a 10-bit limited-range code under `eotf` ("bt1886" or "pq").
double luminance(int code, const std::string& eotf);
// Netflix's visibility threshold of a step of `diff` codes at 10 bits: the
// largest code where the step is still visible (0 if never, 1023 if always).
int tvi_for_diff(int diff, double tvi_threshold, const std::string& eotf);
// The smallest code whose luminance reaches `threshold` (0 at the foot).
int vlt_luma(double threshold, const std::string& eotf);

// Derives the setup; throws twinvmaf::Error where Netflix fails or would read
// outside its buffers.
Setup make_setup(const Settings& settings, const VideoFormat& format);

// One input's cambi score (before clipping to cambi_max_val) from the exact
// top-k sums of its scales (cambi_math.h): the pooled means weighted per
// scale over the window's area. The CPU reference and the GPU twin both end here.
double score_from_pools(const Setup& setup, const Plan& plan, const FixedSum (&sums)[kScales]);

// The frame's outputs from the inputs' scores: cambi, and with full_ref
// cambi_source and cambi_full_reference, each clipped to cambi_max_val.
void set_frame_scores(FrameScores& scores, const Settings& settings, double dis, double src);

class CambiCpu final : public FeatureExtractor {
public:
    CambiCpu(const Settings& settings, const OptionValues& options);
    ~CambiCpu() override;

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return names_; }
    int planes_read() const override { return 1; }  // luma
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;

    const Setup& setup() const { return setup_; }

private:
    // The cambi score of one input (before clipping to cambi_max_val).
    double score(const Picture& picture, const Plan& plan, bool heatmaps, std::uint64_t frame,
                 Scratch& scratch) const;
    void write_heatmap(int scale, std::uint64_t frame, const float* c_values, unsigned width, unsigned height) const;

    Settings settings_;
    Setup setup_;
    std::vector<std::string> names_;
    // heatmaps_path: one file per scale, written at the frame's offset.
    std::vector<std::FILE*> heatmaps_;
    mutable std::mutex heatmaps_mutex_;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::cambi
