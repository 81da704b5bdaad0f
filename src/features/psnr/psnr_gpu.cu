// The GPU twin of psnr: each plane's sum of squared errors, exact.
//
// One block per row: threads stride over the row with the shared per-sample
// arithmetic, the block adds its partial sums (integers, so any order gives
// the same result), and one thread adds the row total to the plane's sum. As
// in the CPU reference, 8-bit rows are summed in 32 bits before widening
// (integer wrap-around is associative, so even that matches bit for bit).
#include "features/psnr/psnr.h"
#include "features/psnr/psnr_math.h"
#include "gpu/device_twin.h"

namespace twinvmaf::psnr {

namespace {

constexpr unsigned kThreads = 256;

template <class Sample, class RowSum>
__global__ void plane_sse_kernel(const std::uint8_t* ref, const std::uint8_t* dis, std::ptrdiff_t stride,
                                 unsigned width, unsigned long long* plane_sse)
{
    const Sample* r = reinterpret_cast<const Sample*>(ref + blockIdx.x * stride);
    const Sample* d = reinterpret_cast<const Sample*>(dis + blockIdx.x * stride);
    RowSum partial = 0;
    for (unsigned x = threadIdx.x; x < width; x += kThreads) partial += squared_error_16bit(r[x], d[x]);

    __shared__ RowSum sums[kThreads];
    sums[threadIdx.x] = partial;
    __syncthreads();
    for (unsigned half = kThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(plane_sse, static_cast<unsigned long long>(sums[0]));
}

class PsnrTwin final : public gpu::DeviceTwin {
public:
    PsnrTwin(const Settings& settings) : planes_(settings.enable_chroma ? 3 : 1) {}

    std::size_t result_bytes() const override { return 3 * sizeof(unsigned long long); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        auto* sse = static_cast<unsigned long long*>(device_result);
        for (int p = 0; p < planes_; ++p) {
            const gpu::DevicePlane ref = frame.ref_plane(p), dis = frame.dis_plane(p);
            if (!ref.height || !ref.width) continue;
            if (frame.format.bitdepth > 8)
                plane_sse_kernel<std::uint16_t, unsigned long long>
                    <<<ref.height, kThreads, 0, stream>>>(ref.data, dis.data, ref.stride, ref.width, sse + p);
            else
                plane_sse_kernel<std::uint8_t, std::uint32_t>
                    <<<ref.height, kThreads, 0, stream>>>(ref.data, dis.data, ref.stride, ref.width, sse + p);
            gpu::check_launch("psnr plane_sse_kernel");
        }
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* sse = static_cast<const unsigned long long*>(host_result);
        for (int p = 0; p < planes_; ++p) scores.set_integer(p, sse[p]);
    }

private:
    int planes_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat&)
{
    return std::make_unique<PsnrTwin>(Settings::from(options));
}

}  // namespace twinvmaf::psnr
