// The GPU twin of ciede: dE00 per luma position with the CPU's own
// ciede_math.h (its libm calls are core/glibc_*.h, our implementations of
// glibc's algorithms, on both sides), then the frame's sum in the CPU's order.
//
// One thread per luma position writes its float dE00 to a device buffer;
// then the CPU reference's one serial chain of double additions in raster
// order (ciede_cpu.cpp) is computed with its bits by gpu/chain_sum.h
// (chunks followed from guessed starts, then moved onto the true start
// where that is provably exact). The log10 of the mean is taken on the host
// in the shared collect().
#include "features/ciede/ciede.h"
#include "features/ciede/ciede_math.h"
#include "gpu/chain_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::ciede {

namespace {

constexpr unsigned kThreads = 128;

struct DeviceLuma {
    const std::uint8_t* data;
    std::ptrdiff_t stride;
};

TV_HD unsigned luma_at(const DeviceLuma& luma, bool high_bitdepth, unsigned x, unsigned y)
{
    const std::uint8_t* row = luma.data + static_cast<std::ptrdiff_t>(y) * luma.stride;
    return high_bitdepth ? reinterpret_cast<const std::uint16_t*>(row)[x] : row[x];
}

__device__ Lab device_pixel_lab(const DeviceLuma& luma, const ChromaPlanes& chroma, unsigned bitdepth, unsigned x,
                                unsigned y)
{
    return lab_from_yuv(luma_at(luma, bitdepth > 8, x, y), netflix_upsampled_chroma(chroma, 0, x, y),
                        netflix_upsampled_chroma(chroma, 1, x, y), bitdepth);
}

// One thread per luma position (blockIdx.y = row).
__global__ void delta_e_kernel(DeviceLuma ref_luma, ChromaPlanes ref_chroma, DeviceLuma dis_luma,
                               ChromaPlanes dis_chroma, unsigned width, unsigned bitdepth, float* delta_e)
{
    const unsigned x = blockIdx.x * kThreads + threadIdx.x;
    const unsigned y = blockIdx.y;
    if (x >= width) return;
    const Lab ref = device_pixel_lab(ref_luma, ref_chroma, bitdepth, x, y);
    const Lab dis = device_pixel_lab(dis_luma, dis_chroma, bitdepth, x, y);
    delta_e[static_cast<std::size_t>(y) * width + x] = delta_e_2000(ref, dis, kNetflixWeights);
}

// The chain's terms (each float dE00 added as a double), for gpu::ChainSums.
struct DeltaETerms {
    const float* delta_e;
    std::size_t pixels;
    __device__ std::size_t count(unsigned) const { return pixels; }
    __device__ void at(unsigned, std::size_t i, double (&out)[1]) const { out[0] = delta_e[i]; }
};

// The sum is the result block.
struct StoreSum {
    double* out;
    __device__ void operator()(unsigned, const double (&sum)[1]) const { *out = sum[0]; }
};

ChromaPlanes device_chroma(const gpu::DeviceFrame& frame, bool reference)
{
    const gpu::DevicePlane u = reference ? frame.ref_plane(1) : frame.dis_plane(1);
    const gpu::DevicePlane v = reference ? frame.ref_plane(2) : frame.dis_plane(2);
    return ChromaPlanes{
        .data = {u.data, v.data},
        .stride = {u.stride, v.stride},
        .width = u.width,
        .height = u.height,
        .high_bitdepth = frame.format.bitdepth > 8,
        .subsampled_x = frame.format.chroma_shift_x() != 0,
        .subsampled_y = frame.format.chroma_shift_y() != 0,
    };
}

class CiedeTwin final : public gpu::DeviceTwin {
public:
    explicit CiedeTwin(const VideoFormat& format)
        : pixels_(static_cast<std::size_t>(format.width) * format.height),
          delta_e_(pixels_, "ciede dE00 buffer"),
          sum_(1, pixels_)
    {
    }

    std::size_t result_bytes() const override { return sizeof(double); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        if (!pixels_) return;
        const dim3 grid(gpu::blocks_for(ref.width, kThreads), ref.height);
        delta_e_kernel<<<grid, kThreads, 0, stream>>>(DeviceLuma{ref.data, ref.stride}, device_chroma(frame, true),
                                                      DeviceLuma{dis.data, dis.stride}, device_chroma(frame, false),
                                                      ref.width, frame.format.bitdepth, delta_e_.get());
        gpu::check_launch("ciede delta_e_kernel");
        sum_.enqueue(DeltaETerms{delta_e_.get(), pixels_}, 1, StoreSum{static_cast<double*>(device_result)}, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, *static_cast<const double*>(host_result));
    }

private:
    std::size_t pixels_;
    gpu::DeviceArray<float> delta_e_;
    gpu::ChainSums<double, 1> sum_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<CiedeTwin>(format);
}

}  // namespace twinvmaf::ciede
