#include "features/integer_ssim/integer_ssim.h"

#include "twinvmaf/error.h"

namespace twinvmaf::integer_ssim {

void IntegerSsimExtractor::init(const VideoFormat& format)
{
    if (format.bitdepth >= 16)
        throw Error("ssim: " + std::to_string(format.bitdepth) +
                    "-bit input is refused: the fork's integer SSIM computes (2^16 - 1)^2 in int, which "
                    "overflows (undefined behaviour); 8- to 15-bit input is scored");
    format_ = format;
}

void IntegerSsimExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // The fork's ssim / ssimw; its ssimw, a double sum of integers under
    // 2^53, is the exact integer sum.
    out.write(0, index, scores.get(0) / static_cast<double>(scores.get_integer(0)));
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "ssim",
        .help = "lusoris/vmaf's integer (fixed-point) SSIM of the luma, 9-tap Gaussian window (ssim)",
        .options = {},
        .provided = {"ssim"},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<IntegerSsimCpu>();
        },
    };
}

}  // namespace twinvmaf::integer_ssim
