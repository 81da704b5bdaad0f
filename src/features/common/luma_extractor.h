// Base of the extractors that read luma only and need nothing of the format
// but its geometry and depth (float_psnr, float_ansnr, float_moment): every
// backend of such a feature derives from its feature's class, which derives
// from this.
#pragma once

#include "core/feature.h"

namespace twinvmaf {

class LumaExtractor : public FeatureExtractor {
public:
    void init(const VideoFormat& format) override { format_ = format; }
    int planes_read() const override { return 1; }

protected:
    const VideoFormat& format() const { return format_; }
    // Netflix's w * h (an int product in its C; at most 2^30 here), as the
    // double its scores divide by.
    double luma_pixels() const { return static_cast<double>(format_.width * format_.height); }

private:
    VideoFormat format_{};
};

}  // namespace twinvmaf
