// ssimulacra2: the lusoris/vmaf fork's SSIMULACRA 2 extractor
// (libvmaf/src/feature/ssimulacra2.c at commit
// c2a3c7e0febd98a6831b9bfebe5e298e229b1244, a port of libjxl's
// tools/ssimulacra2.cc), with its one option and output name:
//
//   yuv_matrix  int 0..3, default 0: the YUV -> RGB matrix, 0 BT.709
//               limited, 1 BT.601 limited, 2 BT.709 full, 3 BT.601 full.
//               Not in the output name (no VMAF_OPT_FLAG_FEATURE_PARAM).
//   output      "ssimulacra2", 0..100 (100: identical).
//
// Per frame, both pictures: every luma position gets its chroma samples
// (chroma_position(): nearest, no filter) and becomes linear RGB. The fork's
// pictures have chroma planes of ceil(w / 2) (src/picture.c), unlike
// Netflix's floor: on odd sizes the last chroma column / row, which our
// pictures hold in memory but do not score elsewhere, is read here too
// (arithmetic: ssimulacra2_math.h). Then up to kScales scales, scale s + 1 the 2x2 box
// of scale s's linear RGB (odd sides: the last row / column repeated), a
// scale computed only while both sides are >= 8 (a picture under 8x8 has
// no scale and scores 100). Per scale: XYB of both, and per channel the
// recursive Gaussian (horizontal pass, then vertical, each over
// n = -4 .. size - 1 with zero padding) of ref, dis, ref^2, dis^2 and
// ref*dis; the SSIM and edge-difference terms at every position.
//
// Floating-point reductions (a GPU twin must add in the same order):
//   * per scale and channel, six double sums (ChannelSums), each ONE serial
//     chain over the plane in raster order (row 0 left to right, row 1, ...);
//   * the pool: the 108 weighted norms added in the fork's order
//     (channel, scale, norm), done on the host in collect() for every
//     backend, with glibc's pow.
//
// Backends store the 6 x 3 x 6 norms (slot (scale * 3 + channel) * 6 + k,
// channel_norms()'s order) and the number of scales computed (integer 0).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "features/ssimulacra2/ssimulacra2_math.h"

namespace twinvmaf::ssimulacra2 {

const std::vector<OptionSpec>& option_specs();

struct Settings {
    YuvMatrix matrix = YuvMatrix::kBt709Limited;
    static Settings from(const OptionValues& values);
};

inline constexpr std::size_t kNormSlots = static_cast<std::size_t>(kScales) * kNormsPerScale;

// The scales computed for a width x height picture (0..kScales) and their
// sizes.
struct Plan {
    int scales = 0;
    std::array<unsigned, kScales> width{}, height{};
    static Plan make(unsigned width, unsigned height);
};

// The fork's pool_score(): norms[(scale * 3 + c) * 6 + k] for the `scales`
// computed (the rest count as 0) -> 0..100.
double pool_score(const double* norms, int scales);

class Ssimulacra2Extractor : public FeatureExtractor {
public:
    explicit Ssimulacra2Extractor(const Settings& settings) : settings_(settings) {}

    void init(const VideoFormat& format) override;
    std::vector<std::string> output_names() const override { return {"ssimulacra2"}; }
    void collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out) override;

protected:
    Settings settings_;
    VideoFormat format_{};
    Plan plan_;
    RgbParams rgb_{};
};

class Ssimulacra2Cpu final : public Ssimulacra2Extractor {
public:
    using Ssimulacra2Extractor::Ssimulacra2Extractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::ssimulacra2
