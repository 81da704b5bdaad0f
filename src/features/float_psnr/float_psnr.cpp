#include "features/float_psnr/float_psnr.h"

namespace twinvmaf::float_psnr {

namespace {

constexpr const char* kProvided = "float_psnr";

}  // namespace

void FloatPsnrExtractor::init(const VideoFormat& format)
{
    LumaExtractor::init(format);
    limits_ = float_psnr_scoring::psnr_limits(format.bitdepth, kProvided);
}

std::vector<std::string> FloatPsnrExtractor::output_names() const { return {kProvided}; }

void FloatPsnrExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    using namespace float_psnr_scoring;
    // Netflix: noise /= (w * h) in int, then
    // MIN(10 * log10(peak * peak / MAX(noise, eps)), psnr_max).
    const double mse = scores.get(0) / luma_pixels();
    const double peak = limits_.peak;
    out.write(0, index, nf_min(10 * log10_libm(peak * peak / nf_max(mse, kNoiseFloor)), limits_.psnr_max));
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "float_psnr",
        .help = "float PSNR of luma (float_psnr)",
        .provided = {kProvided},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<FloatPsnrCpu>();
        },
    };
}

}  // namespace twinvmaf::float_psnr
