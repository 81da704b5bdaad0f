// Pictures as floats, as Netflix's float extractors see them
// (libvmaf/src/feature/picture_copy.c): every float feature, its SIMD paths
// and its GPU twin convert samples with this one function.
//
//   8-bit:            (float) v + offset
//   10, 12, 16-bit:   (float) v / 2^(bpc-8) + offset   (so every depth has
//                     the 8-bit range 0..255.x)
//
// `offset` is 0 (psnr, moment, ssim, ms_ssim) or -128 (vif, adm, motion,
// ansnr, speed). Both steps are single IEEE float operations, so host and
// device give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::float_picture {

// Netflix's divisor for high bit depths: 2^(bpc-8) as a float (exact).
TV_HD float high_bitdepth_scaler(unsigned bitdepth) { return static_cast<float>(1u << (bitdepth - 8)); }

TV_HD float sample_to_float(unsigned v, unsigned bitdepth, float offset)
{
    if (bitdepth == 8) return static_cast<float>(v) + offset;
    return static_cast<float>(v) / high_bitdepth_scaler(bitdepth) + offset;
}

}  // namespace twinvmaf::float_picture

#if !defined(__CUDACC__) && !defined(__HIP__)
#include "twinvmaf/picture.h"

namespace twinvmaf::float_picture {

// One plane to floats: out[y * out_stride + x] for the plane's scored
// geometry; out_stride in floats (>= plane.width).
inline void plane_to_float(const PlaneView& plane, unsigned bitdepth, float offset, float* out,
                           std::size_t out_stride)
{
    for (unsigned y = 0; y < plane.height; ++y) {
        float* o = out + y * out_stride;
        if (bitdepth == 8) {
            const std::uint8_t* row = plane.row<std::uint8_t>(y);
            for (unsigned x = 0; x < plane.width; ++x) o[x] = static_cast<float>(row[x]) + offset;
        } else {
            const float scaler = high_bitdepth_scaler(bitdepth);
            const std::uint16_t* row = plane.row<std::uint16_t>(y);
            for (unsigned x = 0; x < plane.width; ++x) o[x] = static_cast<float>(row[x]) / scaler + offset;
        }
    }
}

}  // namespace twinvmaf::float_picture
#endif
