// The CPU path of psnr_hvs: every block of every plane, its terms from the
// block kernels of psnr_hvs_kernels.h (the reference or SIMD), summed as
// Netflix does.
#include <algorithm>

#include "features/psnr_hvs/psnr_hvs.h"
#include "features/psnr_hvs/psnr_hvs_kernels.h"

namespace twinvmaf::psnr_hvs {

namespace {

// Blocks handed to a kernel at once (their terms: 16 KiB on the stack).
constexpr int kChunkBlocks = 64;

template <class Sample>
float plane_error(const PlaneView& ref, const PlaneView& dis, unsigned bitdepth, const PlaneTables& tables,
                  BlockRowFn<Sample> block_row)
{
    const auto ref_stride = static_cast<std::ptrdiff_t>(ref.stride / sizeof(Sample));
    const auto dis_stride = static_cast<std::ptrdiff_t>(dis.stride / sizeof(Sample));
    const int width = static_cast<int>(ref.width), height = static_cast<int>(ref.height);
    // Reduction order (a twin must keep it): one serial chain of float
    // additions, blocks in raster order (block rows top to bottom, blocks
    // left to right, at multiples of 7 while 8 samples fit), each block's 64
    // terms in raster order; then / (64 * blocks) and / peak^2 in float.
    float sum = 0;
    int terms_added = 0;
    float terms[kCoefficients * kChunkBlocks];
    const int row_blocks = block_count(width);
    for (int by = 0; by < block_count(height); ++by) {
        const int y = by * kBlockStep;
        for (int bx = 0; bx < row_blocks; bx += kChunkBlocks) {
            const int x = bx * kBlockStep;
            const int blocks = std::min(kChunkBlocks, row_blocks - bx);
            sum = block_row(ref.row<Sample>(y) + x, ref_stride, dis.row<Sample>(y) + x, dis_stride, blocks,
                            tables.csf, tables.mask, terms, sum);
            terms_added += kCoefficients * blocks;
        }
    }
    return mean_plane_error(sum, terms_added, bitdepth);
}

}  // namespace

void PsnrHvsCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const unsigned bitdepth = format().bitdepth;
    const Kernels kernels = psnr_hvs::kernels();
    for (int p = 0; p < 3; ++p) {
        const PlaneView ref = inputs.ref.plane(p), dis = inputs.dis.plane(p);
        const float error = bitdepth > 8
                                ? plane_error<std::uint16_t>(ref, dis, bitdepth, tables(p), kernels.block_row_16bit)
                                : plane_error<std::uint8_t>(ref, dis, bitdepth, tables(p), kernels.block_row_8bit);
        scores.set(static_cast<std::size_t>(p), error);
    }
}

}  // namespace twinvmaf::psnr_hvs
