// The PSNR scale of Netflix's float extractors (float_psnr.c, float_ansnr.c,
// the table of psnr_tools.c): samples are floats on the 8-bit range
// (features/common/float_picture.h), so the peak is 255 scaled the same way,
// (2^bpc - 1) / 2^(bpc-8), and the cap is 6 dB per bit plus 12.
//
// Scores are computed on the host, in collect(), from the sums each backend
// extracts, so log10 runs in one place for every backend (as integer psnr
// does): glibc's log10, which Netflix calls.
#pragma once

#include <cmath>
#include <string>

#include "features/common/libm.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_psnr_scoring {

struct PsnrLimits {
    double peak = 0;
    double psnr_max = 0;
};

// Netflix's init of float_psnr and float_ansnr; it fails for any other depth.
inline PsnrLimits psnr_limits(unsigned bitdepth, const std::string& feature)
{
    switch (bitdepth) {
    case 8: return {255.0, 60.0};
    case 10: return {255.75, 72.0};
    case 12: return {255.9375, 84.0};
    case 16: return {255.99609375, 108.0};
    default:
        throw Error(feature + ": bit depth " + std::to_string(bitdepth) +
                    " is not supported (Netflix knows 8, 10, 12 and 16)");
    }
}

// Netflix's noise floor of the PSNR formulas (eps = 1e-10).
inline constexpr double kNoiseFloor = 1e-10;

// libvmaf's MIN() and MAX(): the second operand when the comparison is false,
// so a NaN first operand gives the second.
inline double nf_min(double a, double b) { return a < b ? a : b; }
inline double nf_max(double a, double b) { return a > b ? a : b; }

// The one log10 of the float PSNR scores (the C library's, as Netflix).
inline double log10_libm(double x) { return libm::log10(x); }

}  // namespace twinvmaf::float_psnr_scoring
