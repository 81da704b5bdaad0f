// Compiles the shared math headers of features that have no GPU twin yet for
// the device, so CI (which has nvcc but no GPU) notices when host-only code
// creeps into a TV_HD function. A feature leaves this file when its twin
// (<name>_gpu.cu) lands.
#include "features/motion/motion_math.h"

namespace twinvmaf::gpu {

// One thread per row: the motion SAD of `current` against `earlier`, with a
// padded row of width + 2 * kRadius values per picture row in `padded_rows`.
template <class Wide, class Sample>
__device__ void motion_row_sad(const Sample* earlier, const Sample* current, std::ptrdiff_t stride,
                               unsigned width, unsigned height, unsigned bitdepth,
                               std::int32_t* padded_rows, unsigned long long* sad)
{
    const int y = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (y >= static_cast<int>(height)) return;
    const Sample* earlier_rows[5];
    const Sample* current_rows[5];
    for (int k = 0; k < 5; ++k) {
        const int source = motion::mirror_index(y - motion::kRadius + k, static_cast<int>(height));
        earlier_rows[k] = earlier + source * stride;
        current_rows[k] = current + source * stride;
    }
    std::int32_t* padded = padded_rows + static_cast<std::ptrdiff_t>(y) * (width + 2 * motion::kRadius);
    if (!motion::vertical_blur_row<Wide>(earlier_rows, current_rows, width, bitdepth, padded)) return;
    motion::mirror_pad_row(padded, width);
    atomicAdd(sad, static_cast<unsigned long long>(motion::row_sad(padded, width)));
}

__global__ void motion_row_sad_8bit(const std::uint8_t* earlier, const std::uint8_t* current,
                                    std::ptrdiff_t stride, unsigned width, unsigned height,
                                    std::int32_t* padded_rows, unsigned long long* sad)
{
    motion_row_sad<std::int32_t>(earlier, current, stride, width, height, 8, padded_rows, sad);
}

__global__ void motion_row_sad_16bit(const std::uint16_t* earlier, const std::uint16_t* current,
                                     std::ptrdiff_t stride, unsigned width, unsigned height,
                                     std::int32_t* padded_rows, unsigned long long* sad)
{
    motion_row_sad<std::int64_t>(earlier, current, stride, width, height, 16, padded_rows, sad);
}

}  // namespace twinvmaf::gpu
