#include "features/ciede/ciede.h"

#include "features/common/libm.h"
#include "twinvmaf/error.h"

namespace twinvmaf::ciede {

void CiedeExtractor::init(const VideoFormat& format)
{
    const unsigned depth = format.bitdepth;
    if (depth != 8 && depth != 10 && depth != 12 && depth != 16)
        throw Error("ciede: bit depth " + std::to_string(depth) + " is not supported (Netflix's ciede takes 8, 10, 12 or 16)");
    // Netflix would read its whole chroma from outside its picture here.
    if (format.plane_width(1) == 0 || format.plane_height(1) == 0)
        throw Error("ciede: frame " + format.describe() + " has an empty chroma plane (" +
                    std::to_string(format.plane_width(1)) + "x" + std::to_string(format.plane_height(1)) +
                    "); ciede needs chroma samples");
    // Netflix upsamples 4:2:0 chroma by reading chroma row y / 2 for luma row
    // y: at an odd height the last luma row reads row h / 2, one past the
    // plane (past the end of its picture for V: valgrind "Invalid read" on
    // 3x3, 6x5, 17x17, 33x33, 40x39, 97x55, ...; even heights are clean), so
    // there is no reference.
    if (format.chroma == ChromaFormat::k420 && format.height % 2 != 0)
        throw Error("ciede: frame " + format.describe() + " has an odd height: its last row needs chroma row " +
                    std::to_string(format.height / 2) +
                    ", one past the plane (Netflix reads outside its picture there); ciede needs an even height in "
                    "4:2:0");
    format_ = format;
}

ChromaPlanes chroma_planes(const Picture& picture)
{
    const VideoFormat& format = picture.format();
    const PlaneView u = picture.plane(1), v = picture.plane(2);
    return ChromaPlanes{
        .data = {u.data, v.data},
        .stride = {u.stride, v.stride},
        .width = u.width,
        .height = u.height,
        .high_bitdepth = format.bitdepth > 8,
        .subsampled_x = format.chroma_shift_x() != 0,
        .subsampled_y = format.chroma_shift_y() != 0,
    };
}

void CiedeExtractor::collect(std::uint64_t index, const FrameScores& scores, SlotWriter& out)
{
    // Netflix divides by w * h in unsigned arithmetic, then in double.
    const unsigned pixels = format_.width * format_.height;
    out.write(0, index, 45. - 20. * libm::log10(scores.get(0) / pixels));
}

FeatureInfo feature_info()
{
    return FeatureInfo{
        .name = "ciede",
        .help = "CIEDE2000 colour difference (ciede2000: 45 - 20 log10 of the mean dE00)",
        .provided = {"ciede2000"},
        .create = [](const OptionValues&) -> std::unique_ptr<FeatureExtractor> {
            return std::make_unique<CiedeCpu>();
        },
    };
}

}  // namespace twinvmaf::ciede
