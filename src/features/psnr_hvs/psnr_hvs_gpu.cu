// The GPU twin of psnr_hvs, bit for bit with the CPU, every chroma format and
// bit depth (the CPU extractor's init() refuses more than 12 bits before the
// twin is made).
//
// Per plane (Y, Cb, Cr, each at its own size):
//   1. terms_kernel: one thread per 8x8 block (blocks every 7 samples,
//      block_count() along each side), block_terms() of psnr_hvs_math.h (the
//      DCTs, masking, the 64 CSF-weighted errors) into terms[64 * block],
//      and the block's count of terms that are not zero;
//   2. offsets_kernel, compact_kernel: the nonzero terms packed in the CPU's
//      order (integer prefix sums of the counts, exact);
//   3. sums_kernel: one block per plane, all three at once, whose thread 0
//      adds the packed terms in the CPU's order, ONE float chain over the
//      plane (blocks in raster order, each block's terms in raster order;
//      gpu/ordered_sum.h), then mean_plane_error() over all 64 * blocks
//      terms. Leaving out the zero terms leaves the chain's bits: every
//      term is a square, +0 or more, so the sum is +0 or more and s + 0 is
//      s; masking makes many AC terms zero, so the serial part is shorter.
// The result block is the three planes' floats, as the CPU's extract()
// writes them; collect() (log10 on the host) is shared. The CSF and mask
// tables are uploaded once, built by the same plane_tables() as the CPU's.
//
// The serial chain bounds the speed (up to 64 float additions per block, one
// thread: up to 10.8 M at 4K luma); keeping it is the contract (docs/compat.md,
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
constexpr unsigned kScanThreads = 1024;
constexpr int kPlanes = 3;

// One plane's tables as device data.
struct Tables {
    float csf[kBlockSize][kBlockSize];
    float mask[kBlockSize][kBlockSize];
};

// The block's 64 terms into terms[64 * block], and how many are not zero.
template <class Sample>
__global__ void terms_kernel(gpu::DevicePlane ref, gpu::DevicePlane dis, int blocks_x, int blocks,
                             const Tables* tables, float* terms, int* nonzero)
{
    const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (b >= blocks) return;
    const int x = (b % blocks_x) * kBlockStep, y = (b / blocks_x) * kBlockStep;
    const auto* r = reinterpret_cast<const Sample*>(ref.data + y * ref.stride) + x;
    const auto* d = reinterpret_cast<const Sample*>(dis.data + y * dis.stride) + x;
    float* t = terms + static_cast<std::size_t>(b) * kCoefficients;
    block_terms(r, ref.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), d,
                dis.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), tables->csf, tables->mask, t);
    int n = 0;
    for (int k = 0; k < kCoefficients; ++k) n += t[k] != 0.0f;
    nonzero[b] = n;
}

// One plane's arrays, per 8x8 block and per term.
struct PlaneJob {
    const float* terms;  // 64 per block
    const int* nonzero;  // per block
    int* offsets;        // per block: nonzero terms of the blocks before it
    float* kept;         // the nonzero terms, in order
    int* kept_count;
    int blocks;
};
struct PlaneJobs {
    PlaneJob plane[kPlanes];
    unsigned bitdepth;
    float* errors;  // the result block
};

// Exclusive prefix sums of the nonzero counts, one block per plane
// (integers: exact in any order).
__global__ void __launch_bounds__(kScanThreads) offsets_kernel(PlaneJobs jobs)
{
    const PlaneJob job = jobs.plane[blockIdx.x];
    const int t = static_cast<int>(threadIdx.x);
    const int per = (job.blocks + static_cast<int>(kScanThreads) - 1) / static_cast<int>(kScanThreads);
    const int begin = t * per, end = begin + per < job.blocks ? begin + per : job.blocks;
    int own = 0;
    for (int i = begin; i < end; ++i) own += job.nonzero[i];
    __shared__ int partial[kScanThreads];
    partial[t] = own;
    __syncthreads();
    for (int step = 1; step < static_cast<int>(kScanThreads); step *= 2) {
        const int before = t >= step ? partial[t - step] : 0;
        __syncthreads();
        partial[t] += before;
        __syncthreads();
    }
    int run = partial[t] - own;
    for (int i = begin; i < end; ++i) {
        job.offsets[i] = run;
        run += job.nonzero[i];
    }
    if (t == static_cast<int>(kScanThreads) - 1) *job.kept_count = partial[t];
}

// The nonzero terms of every block, in the CPU's order, packed.
__global__ void compact_kernel(PlaneJob job)
{
    const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (b >= job.blocks) return;
    const float* t = job.terms + static_cast<std::size_t>(b) * kCoefficients;
    float* out = job.kept + job.offsets[b];
    for (int k = 0; k < kCoefficients; ++k)
        if (t[k] != 0.0f) *out++ = t[k];
}

// The CPU's chain over the plane's terms, less its additions of +0 (which
// leave a sum of nonnegative terms unchanged: s + 0 is s), then the mean
// over all 64 * blocks terms.
__global__ void __launch_bounds__(kSumThreads) sums_kernel(PlaneJobs jobs)
{
    const int plane = static_cast<int>(blockIdx.x);
    const PlaneJob job = jobs.plane[plane];
    __shared__ gpu::OrderedSumStage<float, kSumChunk> stage;
    float sum = 0;
    const int kept = job.blocks ? *job.kept_count : 0;
    gpu::ordered_sum<kSumThreads, 1>(job.kept, static_cast<std::size_t>(kept), stage,
                                     [&](float term, auto) { sum += term; });
    if (threadIdx.x == 0) jobs.errors[plane] = mean_plane_error(sum, job.blocks * kCoefficients, jobs.bitdepth);
}

class PsnrHvsTwin final : public gpu::DeviceTwin {
public:
    explicit PsnrHvsTwin(const VideoFormat& format)
        : tables_(kPlanes, "psnr_hvs tables"), kept_counts_(kPlanes, "psnr_hvs counts")
    {
        std::array<Tables, kPlanes> host{};
        for (int p = 0; p < kPlanes; ++p) {
            const PlaneTables t = plane_tables(p);
            for (int i = 0; i < kBlockSize; ++i)
                for (int j = 0; j < kBlockSize; ++j) {
                    host[p].csf[i][j] = t.csf[i][j];
                    host[p].mask[i][j] = t.mask[i][j];
                }
            PlaneArrays& a = planes_[p];
            a.blocks_x = block_count(static_cast<int>(format.plane_width(p)));
            a.blocks = a.blocks_x * block_count(static_cast<int>(format.plane_height(p)));
            const auto blocks = static_cast<std::size_t>(a.blocks);
            a.terms = gpu::DeviceArray<float>(blocks * kCoefficients, "psnr_hvs terms");
            a.kept = gpu::DeviceArray<float>(blocks * kCoefficients, "psnr_hvs terms");
            a.nonzero = gpu::DeviceArray<int>(blocks, "psnr_hvs counts");
            a.offsets = gpu::DeviceArray<int>(blocks, "psnr_hvs counts");
        }
        gpu::check(gpuMemcpyAsync(tables_.get(), host.data(), sizeof host, gpuMemcpyHostToDevice, nullptr),
                   "psnr_hvs tables upload");
        gpu::check(gpuStreamSynchronize(nullptr), "psnr_hvs tables upload");
    }

    std::size_t result_bytes() const override { return kPlanes * sizeof(float); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        PlaneJobs jobs{};
        for (int p = 0; p < kPlanes; ++p) {
            PlaneArrays& a = planes_[p];
            jobs.plane[p] = {a.terms.get(), a.nonzero.get(), a.offsets.get(), a.kept.get(), kept_counts_.get() + p,
                             a.blocks};
            if (!a.blocks) continue;
            const unsigned grid = gpu::blocks_for(static_cast<std::size_t>(a.blocks), kThreads);
            if (frame.format.bitdepth > 8)
                terms_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(frame.ref_plane(p), frame.dis_plane(p),
                                                                           a.blocks_x, a.blocks, tables_.get() + p,
                                                                           a.terms.get(), a.nonzero.get());
            else
                terms_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(frame.ref_plane(p), frame.dis_plane(p),
                                                                          a.blocks_x, a.blocks, tables_.get() + p,
                                                                          a.terms.get(), a.nonzero.get());
            gpu::check_launch("psnr_hvs terms_kernel");
        }
        jobs.bitdepth = frame.format.bitdepth;
        jobs.errors = static_cast<float*>(device_result);
        offsets_kernel<<<kPlanes, kScanThreads, 0, stream>>>(jobs);
        gpu::check_launch("psnr_hvs offsets_kernel");
        for (int p = 0; p < kPlanes; ++p) {
            if (!planes_[p].blocks) continue;
            compact_kernel<<<gpu::blocks_for(static_cast<std::size_t>(planes_[p].blocks), kThreads), kThreads, 0,
                             stream>>>(jobs.plane[p]);
            gpu::check_launch("psnr_hvs compact_kernel");
        }
        sums_kernel<<<kPlanes, kSumThreads, 0, stream>>>(jobs);
        gpu::check_launch("psnr_hvs sums_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* errors = static_cast<const float*>(host_result);
        for (int p = 0; p < kPlanes; ++p) scores.set(static_cast<std::size_t>(p), errors[p]);
    }

private:
    struct PlaneArrays {
        int blocks_x = 0, blocks = 0;
        gpu::DeviceArray<float> terms, kept;
        gpu::DeviceArray<int> nonzero, offsets;
    };
    gpu::DeviceArray<Tables> tables_;
    gpu::DeviceArray<int> kept_counts_;
    std::array<PlaneArrays, kPlanes> planes_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<PsnrHvsTwin>(format);
}

}  // namespace twinvmaf::psnr_hvs
