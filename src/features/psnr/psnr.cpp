#include "features/common/libm.h"
#include "features/psnr/psnr.h"

#include <cfloat>
#include <cmath>

namespace twinvmaf::psnr {

namespace {

// libvmaf's MIN(): the second operand when the comparison is false (NaN).
double nf_min(double a, double b) { return a < b ? a : b; }
double nf_max(double a, double b) { return a > b ? a : b; }

const char* const kPsnrNames[3] = {"psnr_y", "psnr_cb", "psnr_cr"};
const char* const kMseNames[3] = {"mse_y", "mse_cb", "mse_cr"};
const char* const kApsnrNames[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

}  // namespace

const std::vector<OptionSpec>& option_specs()
{
    static const std::vector<OptionSpec> specs = {
        {.name = "enable_chroma", .type = OptionType::kBool, .default_value = true,
         .help = "enable calculation for chroma channels"},
        {.name = "enable_mse", .type = OptionType::kBool, .default_value = false,
         .help = "enable MSE calculation"},
        {.name = "enable_apsnr", .type = OptionType::kBool, .default_value = false,
         .help = "enable APSNR calculation"},
        {.name = "reduced_hbd_peak", .type = OptionType::kBool, .default_value = false,
         .help = "reduce hbd peak value to align with scaled 8-bit content"},
        {.name = "min_sse", .type = OptionType::kDouble, .default_value = 0.0,
         .help = "constrain the minimum possible sse", .min = 0.0, .max = DBL_MAX},
    };
    return specs;
}

Settings Settings::from(const OptionValues& values)
{
    Settings s;
    s.enable_chroma = values.get_bool("enable_chroma");
    s.enable_mse = values.get_bool("enable_mse");
    s.enable_apsnr = values.get_bool("enable_apsnr");
    s.reduced_hbd_peak = values.get_bool("reduced_hbd_peak");
    s.min_sse = values.get_double("min_sse");
    return s;
}

void PsnrExtractor::init(const VideoFormat& format)
{
    format_ = format;
    const unsigned bpc = format.bitdepth;
    peak_ = settings_.reduced_hbd_peak ? (255u << (bpc - 8)) : (1u << bpc) - 1u;
    for (int p = 0; p < 3; ++p) {
        if (settings_.min_sse != 0.0) {
            // Netflix divides by (w/2)*(h/2) in unsigned arithmetic.
            const unsigned pixels = format.plane_width(p) * format.plane_height(p);
            const double mse = settings_.min_sse / pixels;
            psnr_max_[p] = std::ceil(10. * libm::log10(static_cast<double>(peak_ * peak_) / mse));
        } else {
            psnr_max_[p] = 6.0 * bpc + 12;
        }
    }
}

std::vector<std::string> PsnrExtractor::output_names() const
{
    std::vector<std::string> names;
    for (unsigned p = 0; p < planes(); ++p) {
        names.push_back(kPsnrNames[p]);
        if (settings_.enable_mse) names.push_back(kMseNames[p]);
    }
    return names;
}

void PsnrExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // Netflix's 8-bit path uses a fixed peak of 255; its high-bit-depth path
    // the configured peak. Both are exact in double.
    const double peak_squared = format_.bitdepth == 8 ? 255.0 * 255.0
                                                      : static_cast<double>(peak_ * peak_);
    std::size_t slot = 0;
    for (unsigned p = 0; p < planes(); ++p) {
        const std::uint64_t sse = scores.get_integer(p);
        const unsigned pixels = format_.plane_width(p) * format_.plane_height(p);
        if (settings_.enable_apsnr) {
            apsnr_sse_[p] += sse;
            apsnr_pixels_[p] += pixels;
        }
        const double mse = static_cast<double>(sse) / pixels;
        const double psnr = nf_min(10. * libm::log10(peak_squared / nf_max(mse, 1e-16)), psnr_max_[p]);
        out.write(slot++, index, psnr);
        if (settings_.enable_mse) out.write(slot++, index, mse);
    }
}

void PsnrExtractor::flush(Collector& collector)
{
    if (!settings_.enable_apsnr) return;
    // All three planes, as Netflix: a disabled chroma plane gives -inf (null).
    const std::uint32_t peak_squared = peak_ * peak_;
    for (int p = 0; p < 3; ++p) {
        const double apsnr = 10 * (libm::log10(static_cast<double>(peak_squared)) +
                                   libm::log10(static_cast<double>(apsnr_pixels_[p])) -
                                   libm::log10(static_cast<double>(apsnr_sse_[p])));
        const double max_apsnr = std::ceil(
            10 * libm::log10(static_cast<double>(peak_squared * apsnr_pixels_[p] * 2)));
        collector.set_aggregate(kApsnrNames[p], nf_min(apsnr, max_apsnr));
    }
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "psnr",
        .help = "integer PSNR of Y, Cb, Cr (psnr_y, psnr_cb, psnr_cr)",
        .options = option_specs(),
        .provided = {"psnr_y", "psnr_cb", "psnr_cr"},
        .create = [](const OptionValues& values) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<PsnrCpu>(Settings::from(values));
        },
    };
}

}  // namespace twinvmaf::psnr
