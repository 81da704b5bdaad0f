#include "features/float_ansnr/float_ansnr.h"

#include "features/float_ansnr/float_ansnr_math.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_ansnr {

namespace {

constexpr const char* kProvided = "float_ansnr";

}  // namespace

void FloatAnsnrExtractor::init(const VideoFormat& format)
{
    constexpr unsigned kMinSize = kDistortedTaps / 2 + 1;
    if (format.width < kMinSize || format.height < kMinSize)
        throw Error("float_ansnr: frame " + std::to_string(format.width) + "x" + std::to_string(format.height) +
                    " is too small; its 5x5 filter needs at least " + std::to_string(kMinSize) + "x" +
                    std::to_string(kMinSize) + " (Netflix reads outside its buffers below that)");
    LumaExtractor::init(format);
    limits_ = float_psnr_scoring::psnr_limits(format.bitdepth, kProvided);
}

std::vector<std::string> FloatAnsnrExtractor::output_names() const
{
    // Netflix's order of writing; its provided name is just "float_ansnr".
    return {kProvided, "float_anpsnr"};
}

void FloatAnsnrExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    using namespace float_psnr_scoring;
    const float signal = static_cast<float>(scores.get(0));
    const float noise = static_cast<float>(scores.get(1));
    const double psnr_max = limits_.psnr_max;
    // Netflix: noise == 0 ? psnr_max : 10.0 * log10(sig / noise), with the
    // quotient of the two floats taken in float.
    const double ansnr = noise == 0.0f ? psnr_max : 10.0 * log10_libm(static_cast<double>(signal / noise));
    // MIN(10 * log10(peak * peak * w * h / MAX(noise, eps)), psnr_max), the
    // products from the left in double.
    const double peak = limits_.peak;
    const double numerator = peak * peak * static_cast<double>(format().width) * static_cast<double>(format().height);
    const double anpsnr =
        nf_min(10 * log10_libm(numerator / nf_max(static_cast<double>(noise), kNoiseFloor)), psnr_max);
    out.write(0, index, ansnr);
    out.write(1, index, anpsnr);
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_ansnr",
        .help = "ANSNR of luma: filtered-signal SNR and its PSNR (float_ansnr, float_anpsnr)",
        .provided = {kProvided},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatAnsnrCpu>();
        },
    };
}

}  // namespace twinvmaf::float_ansnr
