// SpEED (Netflix libvmaf speed.c): "speed_chroma" (speed_chroma_u, _v, _uv:
// spatial entropic differences of the U and V planes) and "speed_temporal"
// (speed_temporal: the same statistic on the luma difference of consecutive
// frames, computed for reference and distorted).
//
// Per plane: optional prescale (speed_prescale, speed_prescale_method), a
// Gaussian anti-aliasing filter and decimation by 16, local mean removal with
// a small Gaussian, then over 5x5 blocks: the 25x25 covariance matrix of the
// block samples, its eigenvalues, a linear solve for each block's variance
// and an entropy per block; the score is the mean over blocks of the
// variance-weighted entropy difference of reference and distorted.
//
// The per-block arithmetic is speed_math.h; the loops are speed_cpu.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/common/float_filter.h"
#include "features/speed/speed_kernels.h"

namespace twinvmaf::speed {

using float_filter::ScaleMethod;

struct Settings {
    double kernelscale = 1.0;
    double prescale = 1.0;
    ScaleMethod prescale_method = ScaleMethod::kNearest;
    double sigma_nn = 0.29;
    double nn_floor = 0.0;
    double max_val = 1000.0;
    int weight_var_mode = 0;    // speed_chroma only
    bool use_ref_diff = false;  // speed_temporal only

    // Throws twinvmaf::Error for a kernelscale Netflix does not know or an
    // unknown scaling method.
    static Settings from(const OptionValues& values, const std::string& feature);
};

// speed_init_dimensions() of one plane.
struct Geometry {
    unsigned width = 0, height = 0;            // the plane
    unsigned scaled_width = 0, scaled_height = 0;
    unsigned operating_width = 0, operating_height = 0;  // scaled >> 4
    unsigned truncated_width = 0, truncated_height = 0;  // multiple of 5
    unsigned blocks_x = 0, blocks_y = 0;
    unsigned sub_width = 0, sub_height = 0;    // truncated - 4
    bool rescale = false;                      // prescale not within 1e-3 of 1

    static Geometry of(unsigned width, unsigned height, double prescale);
    unsigned blocks() const { return blocks_x * blocks_y; }
};

// Filters and the prescaler fixed at init (host-computed, shared by backends).
struct Filters {
    std::vector<float> antialias;  // full-resolution anti-aliasing taps
    std::vector<float> local;      // scale-4 taps for the local mean
    float_filter::Scaler scaler;   // plane -> scaled plane (used when geometry.rescale)

    static Filters make(const Settings& settings, const Geometry& geometry, const std::string& feature);
};

// Block statistics of one plane (est_params).
struct PlaneStats {
    std::vector<float> entropies;
    std::vector<float> variances;
    bool singular = false;  // covariance not invertible: variances are 0
};

// Working memory for one plane (per worker thread).
struct PlaneScratch final : Scratch {
    Kernels kernels = speed::kernels();
    std::vector<float> plane, scaled, row, decimated, local, work;
    std::vector<double> centered, sums;
    PlaneStats ref, dis;
    std::vector<float> ref_plane2, dis_plane2;
};

// The CPU path from a float plane (width x height, packed) to its stats.
void plane_stats(const Settings& settings, const Geometry& geometry, const Filters& filters,
                 const float* plane, PlaneScratch& scratch, PlaneStats& out);

// Score of a reference / distorted pair of stats (get_speed_score), as float.
float speed_score(const Settings& settings, const Geometry& geometry, const PlaneStats& ref,
                  const PlaneStats& dis);

// Frames whose covariance matrix was singular (Netflix logs it per plane and
// frame; we say it once, after the last frame, so it cannot break into the
// progress line or flood a long run's log).
struct SingularFrames {
    std::uint64_t frames = 0;
    std::uint64_t first = 0;
    std::uint64_t planes = 0;  // union of the frames' flags
    void add(std::uint64_t index, std::uint64_t flags);
    void report(const char* feature, const std::vector<std::string>& plane_names) const;
};

// What speed_chroma and speed_temporal share: the operating geometry and
// filters set at init, the output names, the per-frame collect (scores in
// name order, integer 0 = singular-covariance flags) and the report.
class SpeedExtractor : public FeatureExtractor {
public:
    struct Kind {
        const char* feature;                   // "speed_chroma"
        const char* plane_description;         // for the too-small message
        int plane;                             // 1: chroma, 0: luma
        std::vector<std::string> flag_planes;  // the singular flags' bits, in order
    };
    SpeedExtractor(Kind kind, const Settings& settings, std::vector<std::string> names);
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return names_; }
    std::unique_ptr<Scratch> make_scratch() const override;
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    void flush(Collector& collector) override;

    // What init() fixed, for a GPU twin built from this extractor.
    const Settings& settings() const { return settings_; }
    const Geometry& geometry() const { return geometry_; }
    const Filters& filters() const { return filters_; }

protected:
    Kind kind_;
    Settings settings_;
    std::vector<std::string> names_;
    VideoFormat format_{};
    Geometry geometry_{};
    Filters filters_{};

private:
    SingularFrames singular_;
};

class SpeedChroma final : public SpeedExtractor {
public:
    SpeedChroma(const Settings& settings, const OptionValues& values);
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;

    // The frame's outputs from the channel scores (CPU and twin): each
    // clipped to speed_max_val as libvmaf's MIN(float, double); integer 0
    // holds the singular-covariance flags.
    static void set_scores(FrameScores& scores, const Settings& settings, float u, float v, float uv,
                           std::uint64_t flags);
};

class SpeedTemporal final : public SpeedExtractor {
public:
    SpeedTemporal(const Settings& settings, const OptionValues& values);
    unsigned history() const override { return 1; }
    bool temporal() const override { return true; }
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;

    // The frame's output (not clipped: Netflix ignores speed_max_val here)
    // and its singular flags, for the CPU and the twin.
    static void set_scores(FrameScores& scores, float score, std::uint64_t flags);
};

FeatureInfo chroma_feature_info();
FeatureInfo temporal_feature_info();

}  // namespace twinvmaf::speed
