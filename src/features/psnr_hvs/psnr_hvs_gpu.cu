// The GPU twin of psnr_hvs, bit for bit with the CPU, every chroma format and
// bit depth (the CPU extractor's init() refuses more than 12 bits before the
// twin is made).
//
// Per plane (Y, Cb, Cr, each at its own size):
//   1. terms_kernel: one thread per 8x8 block (blocks every 7 samples,
//      block_count() along each side), block_terms() of psnr_hvs_math.h (the
//      DCTs, masking, the 64 CSF-weighted errors) into terms[64 * block],
//      and the block's count of terms that are not zero;
//   2. the plane's sum with the bits of the CPU's chain: ONE float chain
//      over the plane (blocks in raster order, each block's terms in raster
//      order), all three planes at once, computed in parallel by
//      gpu/chain_sum.h (chunks followed from guessed starts, then moved onto
//      the true start where that is provably exact), then
//      mean_plane_error() over all 64 * blocks terms.
// The result block is the three planes' floats, as the CPU's extract()
// writes them; collect() (log10 on the host) is shared. The CSF and mask
// tables are uploaded once, built by the same plane_tables() as the CPU's.
//
// The chain's order is the contract (docs/compat.md, "libm and reduction
// order of ciede and psnr_hvs"); up to 10.8 M additions at 4K luma.
#include <algorithm>
#include <array>

#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_math.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"
#include "gpu/chain_sum.h"

namespace twinvmaf::psnr_hvs {

namespace {

constexpr unsigned kThreads = 64;
constexpr int kPlanes = 3;

// One plane's tables as device data.
struct Tables {
    float csf[kBlockSize][kBlockSize];
    float mask[kBlockSize][kBlockSize];
};

// The block's 64 terms into terms[64 * block].
template <class Sample>
__global__ void terms_kernel(gpu::DevicePlane ref, gpu::DevicePlane dis, int blocks_x, int blocks,
                             const Tables* tables, float* terms)
{
    const int b = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (b >= blocks) return;
    const int x = (b % blocks_x) * kBlockStep, y = (b / blocks_x) * kBlockStep;
    const auto* r = reinterpret_cast<const Sample*>(ref.data + y * ref.stride) + x;
    const auto* d = reinterpret_cast<const Sample*>(dis.data + y * dis.stride) + x;
    float* t = terms + static_cast<std::size_t>(b) * kCoefficients;
    block_terms(r, ref.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), d,
                dis.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), tables->csf, tables->mask, t);
}

// Each plane's chain over its terms (one job per plane), for gpu::ChainSums.
struct PlaneTerms {
    const float* terms[kPlanes];
    std::size_t positions[kPlanes];  // 64 per block
    __device__ std::size_t count(unsigned plane) const { return positions[plane]; }
    __device__ void at(unsigned plane, std::size_t i, float (&out)[1]) const { out[0] = terms[plane][i]; }
};

// A plane's score from its sum (the result block's float), as the CPU's.
struct PlaneFinish {
    float* errors;
    int coefficients[kPlanes];
    unsigned bitdepth;
    __device__ void operator()(unsigned plane, const float (&sum)[1]) const
    {
        errors[plane] = mean_plane_error(sum[0], coefficients[plane], bitdepth);
    }
};

class PsnrHvsTwin final : public gpu::DeviceTwin {
public:
    explicit PsnrHvsTwin(const VideoFormat& format) : tables_(kPlanes, "psnr_hvs tables")
    {
        std::array<Tables, kPlanes> host{};
        std::size_t most_terms = 0;
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
            const std::size_t terms = static_cast<std::size_t>(a.blocks) * kCoefficients;
            most_terms = std::max(most_terms, terms);
            a.terms = gpu::DeviceArray<float>(std::max<std::size_t>(1, terms), "psnr_hvs terms");
        }
        sums_ = gpu::ChainSums<float, 1>(kPlanes, most_terms);
        gpu::check(gpuMemcpyAsync(tables_.get(), host.data(), sizeof host, gpuMemcpyHostToDevice, nullptr),
                   "psnr_hvs tables upload");
        gpu::check(gpuStreamSynchronize(nullptr), "psnr_hvs tables upload");
    }

    std::size_t result_bytes() const override { return kPlanes * sizeof(float); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        PlaneTerms terms{};
        PlaneFinish finish{static_cast<float*>(device_result), {}, frame.format.bitdepth};
        for (int p = 0; p < kPlanes; ++p) {
            PlaneArrays& a = planes_[p];
            terms.terms[p] = a.terms.get();
            terms.positions[p] = static_cast<std::size_t>(a.blocks) * kCoefficients;
            finish.coefficients[p] = a.blocks * kCoefficients;
            if (!a.blocks) continue;
            const unsigned grid = gpu::blocks_for(static_cast<std::size_t>(a.blocks), kThreads);
            if (frame.format.bitdepth > 8)
                terms_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(frame.ref_plane(p), frame.dis_plane(p),
                                                                           a.blocks_x, a.blocks, tables_.get() + p,
                                                                           a.terms.get());
            else
                terms_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(frame.ref_plane(p), frame.dis_plane(p),
                                                                          a.blocks_x, a.blocks, tables_.get() + p,
                                                                          a.terms.get());
            gpu::check_launch("psnr_hvs terms_kernel");
        }
        sums_.enqueue(terms, kPlanes, finish, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* errors = static_cast<const float*>(host_result);
        for (int p = 0; p < kPlanes; ++p) scores.set(static_cast<std::size_t>(p), errors[p]);
    }

private:
    struct PlaneArrays {
        int blocks_x = 0, blocks = 0;
        gpu::DeviceArray<float> terms;
    };
    gpu::DeviceArray<Tables> tables_;
    std::array<PlaneArrays, kPlanes> planes_;
    gpu::ChainSums<float, 1> sums_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<PsnrHvsTwin>(format);
}

}  // namespace twinvmaf::psnr_hvs
