// What the float_ms_ssim twin (ssim_gpu.cu) shares with the twins of its
// variants: everything but the pyramid step. lusoris_float_ms_ssim
// (features/fork_ms_ssim) is Netflix's MS-SSIM with the fork's separable
// pyramid, so its twin is this twin with the fork's step.
#pragma once

#include <cstddef>
#include <memory>

#include "gpu/device_twin.h"

namespace twinvmaf::ssim {

// One step of the pyramid on the device: a packed plane of w x h floats
// into one of ceil(w / 2) x ceil(h / 2) (decimated_size(_, 2), which is
// the fork's halved() too), with `scratch` of scratch_floats(w, h) floats.
struct PyramidStep {
    void (*enqueue)(const float* in, int w, int h, float* scratch, float* out, gpuStream_t stream);
    std::size_t (*scratch_floats)(int w, int h);
};

// The MS-SSIM twin with `step` between its scales; the extractor's init()
// has refused the sizes it does not score.
std::unique_ptr<gpu::DeviceTwin> make_ms_ssim_twin(const VideoFormat& format, const PyramidStep& step);

}  // namespace twinvmaf::ssim
