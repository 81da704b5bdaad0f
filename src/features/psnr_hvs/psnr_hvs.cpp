#include "features/psnr_hvs/psnr_hvs.h"

#include "features/common/libm.h"
#include "twinvmaf/error.h"

namespace twinvmaf::psnr_hvs {

namespace {

const char* const kNames[4] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

// Netflix's convert_score_db(score, 1.0): 10 * (-1 * log10(1.0 * score)).
double to_db(double score) { return 10 * (-1 * libm::log10(1.0 * score)); }

}  // namespace

PlaneTables plane_tables(int plane)
{
    const float (*csf[3])[kBlockSize] = {kCsfY, kCsfCb, kCsfCr};
    PlaneTables tables;
    tables.csf = csf[plane];
    for (int i = 0; i < kBlockSize; ++i)
        for (int j = 0; j < kBlockSize; ++j) tables.mask[i][j] = masking_weight(csf[plane][i][j]);
    return tables;
}

PsnrHvsExtractor::PsnrHvsExtractor()
{
    for (int p = 0; p < 3; ++p) tables_[p] = plane_tables(p);
}

void PsnrHvsExtractor::init(const VideoFormat& format)
{
    if (format.bitdepth > kMaxBitdepth)
        throw Error("psnr_hvs: invalid bit depth " + std::to_string(format.bitdepth) +
                    "; Netflix's psnr_hvs takes at most 12 bits");
    format_ = format;
}

std::vector<std::string> PsnrHvsExtractor::output_names() const { return {kNames, kNames + 4}; }

void PsnrHvsExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    for (std::size_t p = 0; p < 3; ++p) out.write(p, index, to_db(scores.get(p)));
    const double combined = scores.get(0) * .8 + .1 * (scores.get(1) + scores.get(2));
    out.write(3, index, to_db(combined));
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "psnr_hvs",
        .help = "PSNR-HVS of Y, Cb, Cr and their 0.8/0.1/0.1 blend (psnr_hvs_y, _cb, _cr, psnr_hvs)",
        .provided = {kNames, kNames + 4},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<PsnrHvsCpu>();
        },
    };
}

}  // namespace twinvmaf::psnr_hvs
