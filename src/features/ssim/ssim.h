// float_ssim and float_ms_ssim: Netflix libvmaf's float SSIM and MS-SSIM of
// the luma (float_ssim.c / ssim.c and float_ms_ssim.c / ms_ssim.c over IQA),
// with every option Netflix's extractors have.
//
//   float_ssim     the picture, decimated by `scale` (0: automatic,
//                  max(1, round(min(w, h) / 256))) with a box filter, then
//                  SSIM over the 11x11 Gaussian window: float_ssim, and with
//                  enable_lcs float_ssim_l, _c, _s (the means of the terms).
//   float_ms_ssim  a 5-scale pyramid (9x9 low-pass, factor 2), SSIM's terms
//                  at each scale, combined as Wang's MS-SSIM:
//                  prod over scales of l^alpha * c^beta * s^gamma;
//                  float_ms_ssim, and with enable_lcs
//                  float_ms_ssim_{l,c,s}_scale0..4.
//
// Both: enable_db writes -10 log10(1 - score), clip_db caps that at
// ceil(10 log10(peak^2 / (0.5 / (w h)))). No option changes the output names
// (none is a VMAF_OPT_FLAG_FEATURE_PARAM in Netflix).
//
// Backends hand collect() the per-scale means of the terms (floats, as
// _iqa_ssim returns them); collect() does the rest (pow, log10) on the host
// with the C library, as Netflix, for every backend. The arithmetic of the
// means is ssim_math.h; the CPU loops are ssim_cpu.cpp.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/ssim/ssim_kernels.h"
#include "features/ssim/ssim_math.h"

namespace twinvmaf::ssim {

// Netflix's SCALES of MS-SSIM.
inline constexpr int kMsScales = 5;

struct Settings {
    bool enable_lcs = false;
    bool enable_db = false;
    bool clip_db = false;
    int scale = 0;  // float_ssim only; 0: automatic

    static Settings from(const OptionValues& values);
};

// float_ssim's decimation factor for a w x h picture: `scale`, or for 0
// max(1, round(min(w, h) / 256)) with IQA's _round.
int decimation_factor(int scale, unsigned width, unsigned height);
// The box's tap weight for that factor: 1 / factor^2 in float, as Netflix.
inline float box_weight(int factor) { return 1.0f / static_cast<float>(factor * factor); }

// The cap of enable_db's values: ceil(10 log10(peak^2 / mse)) for
// mse = 0.5 / (w h) with clip_db, else infinity.
double max_db(bool clip_db, unsigned bitdepth, unsigned width, unsigned height);
// min(-10 log10(1 - score), max_db), Netflix's convert_to_db.
double to_db(double score, double max_db);

// Wang's MS-SSIM of the five scales' mean terms (ms_ssim.c): the product
// over the scales of pow(l, alpha) * pow(c, beta) * pow(s, gamma) in double,
// with the C library's pow; nothing where Netflix fails (the product is
// +infinity after some scale: "ms_ssim is INFINITY", no score).
std::optional<double> ms_ssim_score(const float* l, const float* c, const float* s);

// Per-thread working memory of the CPU path.
struct SsimWork {
    std::vector<float> horizontal;  // 5 maps x kWindow rows (a ring) x map width
    std::vector<float> moments;     // 5 maps x map width: one row of local moments
    std::vector<LcsTerms> terms;    // one row of terms
    Kernels kernels = ssim::kernels();
};
struct SsimScratch final : Scratch {
    std::array<std::vector<float>, kMsScales> ref, dis;  // the picture as floats, then its decimations
    SsimWork work;
};

// The CPU reference of _iqa_ssim on packed w x h pictures (w, h >= kWindow):
// its four sums over the map_size(w) x map_size(h) positions, and their means.
SsimSums ssim_sums(const float* ref, const float* dis, int width, int height, SsimWork& work);
SsimMeans ssim_means(const float* ref, const float* dis, int width, int height, SsimWork& work);
// _iqa_decimate of a packed w x h picture into `out`
// (decimated_size(w, factor) x decimated_size(h, factor)): float_ssim's box
// of factor x factor taps of `weight`, and MS-SSIM's low-pass with factor 2.
void decimate_box(const float* in, int width, int height, int factor, float weight, std::vector<float>& out,
                  const Kernels& kernels = ssim::kernels());
void decimate_low_pass(const float* in, int width, int height, std::vector<float>& out,
                       const Kernels& kernels = ssim::kernels());

// What both extractors share: options, format, luma only, and the score
// written as it is or in dB.
class SsimExtractorBase : public FeatureExtractor {
public:
    explicit SsimExtractorBase(const Settings& settings) : settings_(settings) {}
    int planes_read() const override { return 1; }  // luma

protected:
    // Keeps the format and sets the dB cap.
    void set_format(const VideoFormat& format);
    // The score as written: in dB with enable_db.
    double output_score(double score) const;

    Settings settings_;
    VideoFormat format_{};

private:
    double max_db_ = 0.0;
};

class FloatSsimExtractor : public SsimExtractorBase {
public:
    using SsimExtractorBase::SsimExtractorBase;

    // Refuses a decimated picture below the 11x11 window (an undecimated one
    // gives Netflix's empty-map means).
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // Expects slots 0..3: the means of l*c*s, l, c, s (SsimMeans).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    static void store(const SsimMeans& means, FrameScores& scores);

protected:
    int factor_ = 1;           // decimation factor (1: none)
    float box_weight_ = 1.0f;  // 1 / factor^2, in float as Netflix
};

class FloatSsimCpu final : public FloatSsimExtractor {
public:
    using FloatSsimExtractor::FloatSsimExtractor;
    std::unique_ptr<Scratch> make_scratch() const override { return std::make_unique<SsimScratch>(); }
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

class FloatMsSsimExtractor : public SsimExtractorBase {
public:
    using SsimExtractorBase::SsimExtractorBase;

    // Refuses a picture too small for five scales (Netflix: "scale below 1x1").
    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override;
    // Expects slots 0..14: l of scales 0..4, then c, then s (see store()).
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;
    static void store(const std::array<SsimMeans, kMsScales>& means, FrameScores& scores);
};

class FloatMsSsimCpu final : public FloatMsSsimExtractor {
public:
    using FloatMsSsimExtractor::FloatMsSsimExtractor;
    std::unique_ptr<Scratch> make_scratch() const override { return std::make_unique<SsimScratch>(); }
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo float_ssim_feature_info();
FeatureInfo float_ms_ssim_feature_info();

}  // namespace twinvmaf::ssim
