#include "features/ssimulacra2/ssimulacra2.h"

#include <cmath>

#include "features/common/libm.h"

namespace twinvmaf::ssimulacra2 {

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = {
        {.name = "yuv_matrix", .type = OptionType::kInt, .default_value = 0,
         .help = "YUV\u2192RGB matrix: 0=bt709_limited (default), 1=bt601_limited, 2=bt709_full, 3=bt601_full",
         .min = 0, .max = 3},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.matrix = static_cast<YuvMatrix>(values.get_int("yuv_matrix"));
    return s;
}

Plan Plan::make(unsigned width, unsigned height)
{
    Plan p;
    unsigned w = width, h = height;
    for (int s = 0; s < kScales; ++s) {
        if (w < kMinScaleSide || h < kMinScaleSide) break;
        p.width[s] = w;
        p.height[s] = h;
        p.scales = s + 1;
        w = (w + 1) / 2;
        h = (h + 1) / 2;
    }
    return p;
}

double pool_score(const double* norms, int scales)
{
    double ssim = 0.0;
    std::size_t i = 0;
    for (int c = 0; c < 3; ++c) {
        for (int scale = 0; scale < kScales; ++scale) {
            const double* n = norms + (static_cast<std::size_t>(scale) * 3 + c) * kNormsPerChannel;
            for (int k = 0; k < 2; ++k) {
                const double s_term = scale < scales ? n[k] : 0.0;
                const double r_term = scale < scales ? n[kSsimNorms + k] : 0.0;
                const double b_term = scale < scales ? n[kSsimNorms + 2 + k] : 0.0;
                ssim += kWeights[i++] * std::fabs(s_term);
                ssim += kWeights[i++] * std::fabs(r_term);
                ssim += kWeights[i++] * std::fabs(b_term);
            }
        }
    }
    ssim = ssim * 0.9562382616834844;
    ssim = 2.326765642916932 * ssim - 0.020884521182843837 * ssim * ssim +
           6.248496625763138e-05 * ssim * ssim * ssim;
    if (ssim > 0.0) return 100.0 - 10.0 * libm::pow(ssim, 0.6276336467831387);
    return 100.0;
}

void Ssimulacra2Extractor::init(const VideoFormat& format)
{
    format_ = format;
    plan_ = Plan::make(format.width, format.height);
    rgb_ = rgb_params(settings_.matrix, format.bitdepth);
}

void Ssimulacra2Extractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    double norms[kNormSlots] = {};
    const int scales = static_cast<int>(scores.get_integer(0));
    for (std::size_t i = 0; i < static_cast<std::size_t>(scales) * kNormsPerScale; ++i) norms[i] = scores.get(i);
    out.write(0, index, pool_score(norms, scales));
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "ssimulacra2",
        .help = "SSIMULACRA 2 (the lusoris/vmaf fork's extractor): 0..100, 100 for identical pictures",
        .options = option_specs(),
        .provided = {"ssimulacra2"},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<Ssimulacra2Cpu>(Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::ssimulacra2
