// The CPU reference of ciede: dE00 per luma position, summed as Netflix does.
#include "features/ciede/ciede.h"

namespace twinvmaf::ciede {

namespace {

unsigned luma_sample(const PlaneView& luma, bool high_bitdepth, unsigned x, unsigned y)
{
    return high_bitdepth ? luma.row<std::uint16_t>(y)[x] : luma.row<std::uint8_t>(y)[x];
}

Lab pixel_lab(const PlaneView& luma, const ChromaPlanes& chroma, unsigned bitdepth, unsigned x, unsigned y)
{
    return lab_from_yuv(luma_sample(luma, bitdepth > 8, x, y), netflix_upsampled_chroma(chroma, 0, x, y),
                        netflix_upsampled_chroma(chroma, 1, x, y), bitdepth);
}

}  // namespace

void CiedeCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch*) const
{
    const unsigned bitdepth = format().bitdepth;
    const PlaneView ref_luma = inputs.ref.plane(0), dis_luma = inputs.dis.plane(0);
    const ChromaPlanes ref_chroma = chroma_planes(inputs.ref), dis_chroma = chroma_planes(inputs.dis);
    // Reduction order (a twin must keep it): one serial chain of double
    // additions of the float dE00 values over every luma position in raster
    // order (rows top to bottom, each left to right), starting from 0.
    double sum = 0.;
    for (unsigned y = 0; y < ref_luma.height; ++y) {
        for (unsigned x = 0; x < ref_luma.width; ++x) {
            const Lab ref = pixel_lab(ref_luma, ref_chroma, bitdepth, x, y);
            const Lab dis = pixel_lab(dis_luma, dis_chroma, bitdepth, x, y);
            sum += delta_e_2000(ref, dis, kNetflixWeights);
        }
    }
    scores.set(0, sum);
}

}  // namespace twinvmaf::ciede
