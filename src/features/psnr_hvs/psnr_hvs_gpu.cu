// The GPU twin of psnr_hvs, bit for bit with the CPU, every chroma format and
// bit depth (the CPU extractor's init() refuses more than 12 bits before the
// twin is made).
//
// Per plane (Y, Cb, Cr, each at its own size):
//   1. terms_kernel: one thread per 8x8 block (blocks every 7 samples,
//      block_count() along each side), block_terms() of psnr_hvs_math.h (the
//      DCTs, masking, the 64 CSF-weighted errors) into terms[64 * block];
//   2. sums_kernel: one block per plane, all three at once, whose thread 0
//      adds the terms in the CPU's order, ONE float chain over the plane
//      (blocks in raster order, each block's 64 terms in raster order;
//      gpu/ordered_sum.h), then mean_plane_error().
// The result block is the three planes' floats, as the CPU's extract()
// writes them; collect() (log10 on the host) is shared. The CSF and mask
// tables are uploaded once, built by the same plane_tables() as the CPU's.
//
// The serial chain bounds the speed (64 float additions per block, one
// thread: 10.8 M at 4K luma); keeping it is the contract (docs/compat.md,
// "libm and reduction order of ciede and psnr_hvs").
#include <array>

#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_math.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"
#include "gpu/ordered_sum.h"

namespace twinvmaf::psnr_hvs {

namespace {

constexpr unsigned kThreads = 64;
constexpr unsigned kSumThreads = 256;
constexpr unsigned kSumChunk = 2048;  // floats per staged chunk: 2 x 8 KiB of shared memory
constexpr int kPlanes = 3;

// One plane's tables as device data.
struct Tables {
    float csf[kBlockSize][kBlockSize];
    float mask[kBlockSize][kBlockSize];
};

template <class Sample>
__global__ void terms_kernel(gpu::DevicePlane ref, gpu::DevicePlane dis, int blocks_x, int blocks,
                             const Tables* tables, float* terms)
{
    const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (b >= blocks) return;
    const int x = (b % blocks_x) * kBlockStep, y = (b / blocks_x) * kBlockStep;
    const auto* r = reinterpret_cast<const Sample*>(ref.data + y * ref.stride) + x;
    const auto* d = reinterpret_cast<const Sample*>(dis.data + y * dis.stride) + x;
    block_terms(r, ref.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), d,
                dis.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), tables->csf, tables->mask,
                terms + static_cast<std::size_t>(b) * kCoefficients);
}

struct SumJobs {
    const float* terms[kPlanes];
    int count[kPlanes];  // terms of the plane
    unsigned bitdepth;
    float* errors;       // the result block
};

__global__ void __launch_bounds__(kSumThreads) sums_kernel(SumJobs jobs)
{
    const int plane = static_cast<int>(blockIdx.x);
    __shared__ gpu::OrderedSumStage<float, kSumChunk> stage;
    float sum = 0;
    gpu::ordered_sum<kSumThreads, 1>(jobs.terms[plane], static_cast<std::size_t>(jobs.count[plane]), stage,
                                     [&](float term, auto) { sum += term; });
    if (threadIdx.x == 0) jobs.errors[plane] = mean_plane_error(sum, jobs.count[plane], jobs.bitdepth);
}

class PsnrHvsTwin final : public gpu::DeviceTwin {
public:
    explicit PsnrHvsTwin(const VideoFormat& format) : tables_(kPlanes, "psnr_hvs tables")
    {
        std::array<Tables, kPlanes> host{};
        for (int p = 0; p < kPlanes; ++p) {
            const PlaneTables t = plane_tables(p);
            for (int i = 0; i < kBlockSize; ++i)
                for (int j = 0; j < kBlockSize; ++j) {
                    host[p].csf[i][j] = t.csf[i][j];
                    host[p].mask[i][j] = t.mask[i][j];
                }
            blocks_x_[p] = block_count(static_cast<int>(format.plane_width(p)));
            blocks_[p] = blocks_x_[p] * block_count(static_cast<int>(format.plane_height(p)));
            terms_[p] = gpu::DeviceArray<float>(static_cast<std::size_t>(blocks_[p]) * kCoefficients, "psnr_hvs terms");
        }
        gpu::check(gpuMemcpyAsync(tables_.get(), host.data(), sizeof host, gpuMemcpyHostToDevice, nullptr),
                   "psnr_hvs tables upload");
        gpu::check(gpuStreamSynchronize(nullptr), "psnr_hvs tables upload");
    }

    std::size_t result_bytes() const override { return kPlanes * sizeof(float); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        SumJobs jobs{};
        for (int p = 0; p < kPlanes; ++p) {
            jobs.terms[p] = terms_[p].get();
            jobs.count[p] = blocks_[p] * kCoefficients;
            if (!blocks_[p]) continue;
            const unsigned grid = gpu::blocks_for(static_cast<std::size_t>(blocks_[p]), kThreads);
            if (frame.format.bitdepth > 8)
                terms_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(
                    frame.ref_plane(p), frame.dis_plane(p), blocks_x_[p], blocks_[p], tables_.get() + p, terms_[p].get());
            else
                terms_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(
                    frame.ref_plane(p), frame.dis_plane(p), blocks_x_[p], blocks_[p], tables_.get() + p, terms_[p].get());
            gpu::check_launch("psnr_hvs terms_kernel");
        }
        jobs.bitdepth = frame.format.bitdepth;
        jobs.errors = static_cast<float*>(device_result);
        sums_kernel<<<kPlanes, kSumThreads, 0, stream>>>(jobs);
        gpu::check_launch("psnr_hvs sums_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* errors = static_cast<const float*>(host_result);
        for (int p = 0; p < kPlanes; ++p) scores.set(static_cast<std::size_t>(p), errors[p]);
    }

private:
    gpu::DeviceArray<Tables> tables_;
    std::array<gpu::DeviceArray<float>, kPlanes> terms_;
    int blocks_x_[kPlanes] = {};
    int blocks_[kPlanes] = {};
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<PsnrHvsTwin>(format);
}

}  // namespace twinvmaf::psnr_hvs
