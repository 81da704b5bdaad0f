// The GPU twin of ciede: dE00 per luma position with the CPU's own
// ciede_math.h (its libm calls are the correctly rounded core/cr_libm.h
// functions on both sides), then the frame's sum in the CPU's order.
//
// Three kernels: one thread per luma position writes its float dE00 to a
// device buffer; chunks of those values are summarised in parallel; then a
// single thread follows the CPU reference's one serial chain of double
// additions in raster order (ciede_cpu.cpp), chunk by chunk, adding a whole
// chunk at once where ciede_sum.h proves that no addition inside it rounds
// and value by value elsewhere, so the sum is the same double. What stays
// serial is the twin's bottleneck at large sizes (docs/compat.md, "ciede on
// the GPU"). The log10 of the mean is taken on the host in the shared
// collect().
#include "features/ciede/ciede.h"
#include "features/ciede/ciede_math.h"
#include "features/ciede/ciede_sum.h"
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

// Per chunk of kSumChunk values: the summary of ciede_sum.h (the sum in a
// fixed tree order, the least ulp exponent). One block per chunk.
__global__ void summarize_kernel(const float* delta_e, std::size_t count, ChunkSummary* summaries)
{
    __shared__ double sums[kSumChunk];
    __shared__ int exponents[kSumChunk];
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kSumChunk + threadIdx.x;
    const float v = i < count ? delta_e[i] : 0.0f;
    sums[threadIdx.x] = v;
    exponents[threadIdx.x] = ulp_exponent_of(v);
    __syncthreads();
    for (unsigned half = kSumChunk / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            sums[threadIdx.x] += sums[threadIdx.x + half];
            exponents[threadIdx.x] = combine_ulp_exponents(exponents[threadIdx.x], exponents[threadIdx.x + half]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) summaries[blockIdx.x] = ChunkSummary{sums[0], exponents[0]};
}

// The CPU's reduction, one serial chain of double additions of the float
// values in raster order from 0, run by thread 0 chunk by chunk: a chunk
// that ciede_sum.h proves exact is added as its summary's sum, any other
// value by value. The other warps of the block stage the next group of
// chunks (values and summaries) into shared memory meanwhile (double
// buffered), so the chain waits on shared, not global, memory.
constexpr unsigned kSumThreads = 512;
constexpr unsigned kStageChunks = 16;
constexpr unsigned kStage = kStageChunks * kSumChunk;

__global__ void chain_kernel(const float* delta_e, const ChunkSummary* summaries, std::size_t count, double* sum)
{
    __shared__ float staged[2][kStage];
    __shared__ ChunkSummary staged_summaries[2][kStageChunks];
    const std::size_t stages = (count + kStage - 1) / kStage;
    const std::size_t chunks = (count + kSumChunk - 1) / kSumChunk;
    auto stage = [&](std::size_t g, unsigned first_thread) {
        const std::size_t base = g * kStage;
        const std::size_t n = count - base < kStage ? count - base : kStage;
        for (std::size_t i = threadIdx.x - first_thread; i < n; i += kSumThreads - first_thread)
            staged[g & 1][i] = delta_e[base + i];
        const std::size_t first_chunk = g * kStageChunks;
        for (std::size_t c = threadIdx.x - first_thread; c < kStageChunks && first_chunk + c < chunks;
             c += kSumThreads - first_thread)
            staged_summaries[g & 1][c] = summaries[first_chunk + c];
    };
    if (stages) stage(0, 0);
    __syncthreads();
    double s = 0.;
    for (std::size_t g = 0; g < stages; ++g) {
        if (threadIdx.x >= 32) {
            if (g + 1 < stages) stage(g + 1, 32);
        } else if (threadIdx.x == 0) {
            const std::size_t base = g * kStage;
            const unsigned n = static_cast<unsigned>(count - base < kStage ? count - base : kStage);
            const float* values = staged[g & 1];
            for (unsigned c = 0; c * kSumChunk < n; ++c) {
                if (add_chunk_exactly(s, staged_summaries[g & 1][c])) continue;
                const unsigned end = (c + 1) * kSumChunk < n ? (c + 1) * kSumChunk : n;
#pragma unroll 16
                for (unsigned i = c * kSumChunk; i < end; ++i) s += values[i];
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) *sum = s;
}

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
          summaries_((pixels_ + kSumChunk - 1) / kSumChunk, "ciede chunk summaries")
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
        const unsigned chunks = gpu::blocks_for(pixels_, kSumChunk);
        summarize_kernel<<<chunks, kSumChunk, 0, stream>>>(delta_e_.get(), pixels_, summaries_.get());
        gpu::check_launch("ciede summarize_kernel");
        chain_kernel<<<1, kSumThreads, 0, stream>>>(delta_e_.get(), summaries_.get(), pixels_,
                                                     static_cast<double*>(device_result));
        gpu::check_launch("ciede chain_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, *static_cast<const double*>(host_result));
    }

private:
    std::size_t pixels_;
    gpu::DeviceArray<float> delta_e_;
    gpu::DeviceArray<ChunkSummary> summaries_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<CiedeTwin>(format);
}

}  // namespace twinvmaf::ciede
