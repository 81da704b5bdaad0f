// The GPU twin of lusoris_float_ms_ssim: the float_ms_ssim twin
// (ssim_gpu.h) with the fork's pyramid step, the two separable passes of
// fork_ms_ssim_math.h, each output one chain of float fused multiply-adds
// (pass_value: tv::fused_multiply_add, the PTX/IR checks count them as
// explicit) in the CPU's order, one thread per output:
//   horizontal_pass: every input row, ceil(w / 2) outputs, into scratch;
//   vertical_pass:   ceil(h / 2) rows of those, into the next scale.
// Inside the picture the CPU leaves the mirror out (it is the identity
// there); the kernels take the mirrored form everywhere: the same samples,
// so the same bits.
#include "features/fork_ms_ssim/fork_ms_ssim.h"
#include "features/fork_ms_ssim/fork_ms_ssim_math.h"
#include "features/ssim/ssim_gpu.h"
#include "gpu/device_twin.h"

namespace twinvmaf::fork_ms_ssim {

namespace {

constexpr unsigned kThreads = 128;

__global__ void horizontal_pass(const float* in, int w, float* out, int out_w)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= out_w) return;
    const float* row = in + static_cast<std::size_t>(blockIdx.y) * w;
    out[static_cast<std::size_t>(blockIdx.y) * out_w + x] = pass_value([&](int i) { return row[i]; }, x, w);
}

__global__ void vertical_pass(const float* in, int h, int w, float* out)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= w) return;
    const int y = static_cast<int>(blockIdx.y);
    out[static_cast<std::size_t>(y) * w + x] =
        pass_value([&](int i) { return in[static_cast<std::size_t>(i) * w + x]; }, y, h);
}

void fork_pyramid_step(const float* in, int w, int h, float* scratch, float* out, gpuStream_t stream)
{
    const int out_w = halved(w), out_h = halved(h);
    if (w <= 0 || h <= 0) return;
    const unsigned column_blocks = gpu::blocks_for(static_cast<unsigned>(out_w), kThreads);
    horizontal_pass<<<dim3(column_blocks, static_cast<unsigned>(h)), kThreads, 0, stream>>>(in, w, scratch, out_w);
    gpu::check_launch("fork_ms_ssim horizontal_pass");
    vertical_pass<<<dim3(column_blocks, static_cast<unsigned>(out_h)), kThreads, 0, stream>>>(scratch, h, out_w, out);
    gpu::check_launch("fork_ms_ssim vertical_pass");
}

std::size_t fork_scratch_floats(int w, int h)
{
    return w > 0 && h > 0 ? static_cast<std::size_t>(halved(w)) * static_cast<std::size_t>(h) : 0;
}

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return ssim::make_ms_ssim_twin(format, ssim::PyramidStep{fork_pyramid_step, fork_scratch_floats});
}

}  // namespace twinvmaf::fork_ms_ssim
