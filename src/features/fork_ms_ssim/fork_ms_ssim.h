// lusoris_float_ms_ssim: the lusoris/vmaf fork's float_ms_ssim (its CPU
// float_ms_ssim.c / ms_ssim.c, commit c2a3c7e0), which its
// integer_ms_ssim_{cuda,hip,sycl} files are GPU twins of. It is Netflix's
// MS-SSIM (features/ssim: options, outputs, refusals, the SSIM of each scale)
// with the fork's separable pyramid step (fork_ms_ssim_math.h), and so 5e-8
// to 1.5e-6 away from Netflix's float_ms_ssim. Its outputs have the fork's
// names (float_ms_ssim, and with enable_lcs float_ms_ssim_{l,c,s}_scale0..4),
// the same as Netflix's float_ms_ssim: ask for one of the two in a run.
#pragma once

#include "features/ssim/ssim.h"

namespace twinvmaf::fork_ms_ssim {

class ForkMsSsimCpu final : public ssim::FloatMsSsimExtractor {
public:
    using FloatMsSsimExtractor::FloatMsSsimExtractor;
    std::unique_ptr<Scratch> make_scratch() const override;
    void extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const override;
};

FeatureInfo feature_info();

}  // namespace twinvmaf::fork_ms_ssim
