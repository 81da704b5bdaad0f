// The CPU reference of psnr_hvs: every block of every plane, summed as
// Netflix does.
#include "features/psnr_hvs/psnr_hvs.h"

namespace twinvmaf::psnr_hvs {

namespace {

template <class Sample>
float plane_error(const PlaneView& ref, const PlaneView& dis, unsigned bitdepth, const PlaneTables& tables)
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
    float terms[kCoefficients];
    for (int by = 0; by < block_count(height); ++by) {
        const int y = by * kBlockStep;
        for (int bx = 0; bx < block_count(width); ++bx) {
            const int x = bx * kBlockStep;
            block_terms(ref.row<Sample>(y) + x, ref_stride, dis.row<Sample>(y) + x, dis_stride, tables.csf,
                        tables.mask, terms);
            for (const float term : terms) sum += term;
            terms_added += kCoefficients;
        }
    }
    return mean_plane_error(sum, terms_added, bitdepth);
}

}  // namespace

void PsnrHvsCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const unsigned bitdepth = format().bitdepth;
    for (int p = 0; p < 3; ++p) {
        const PlaneView ref = inputs.ref.plane(p), dis = inputs.dis.plane(p);
        const float error = bitdepth > 8 ? plane_error<std::uint16_t>(ref, dis, bitdepth, tables(p))
                                         : plane_error<std::uint8_t>(ref, dis, bitdepth, tables(p));
        scores.set(static_cast<std::size_t>(p), error);
    }
}

}  // namespace twinvmaf::psnr_hvs
