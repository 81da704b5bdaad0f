// Compiles the shared math headers for the device, so CI (which has nvcc but
// no GPU) notices when host-only code creeps into a TV_HD function.
#include "features/psnr/psnr_math.h"

namespace twinvmaf::gpu {

__global__ void psnr_row_sse_8bit(const std::uint8_t* ref, const std::uint8_t* dis, std::ptrdiff_t stride_samples,
                                  unsigned width, unsigned height, unsigned long long* sse)
{
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) return;
    atomicAdd(sse, static_cast<unsigned long long>(psnr::row_sse(ref + y * stride_samples, dis + y * stride_samples, width)));
}

__global__ void psnr_row_sse_16bit(const std::uint16_t* ref, const std::uint16_t* dis, std::ptrdiff_t stride_samples,
                                   unsigned width, unsigned height, unsigned long long* sse)
{
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) return;
    atomicAdd(sse, static_cast<unsigned long long>(psnr::row_sse(ref + y * stride_samples, dis + y * stride_samples, width, 16)));
}

}  // namespace twinvmaf::gpu
