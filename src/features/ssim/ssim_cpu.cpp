// The CPU path of float_ssim and float_ms_ssim: row kernels (ssim_kernels.h:
// the reference loops over ssim_math.h, or their SIMD twins of the same bits).
//
// _iqa_ssim filters whole maps, one pass after the other; here the horizontal
// pass fills a ring of the last kWindow rows of its five maps and each map
// row is finished (vertical pass, terms, sums) as soon as its rows are there.
// Every output is the same arithmetic on the same inputs, and the sums are
// added in Netflix's order (one serial chain per sum over the map, row-major),
// so the results are Netflix's bits with far less memory.
#include <cstddef>

#include "features/common/float_picture.h"
#include "features/ssim/ssim.h"

namespace twinvmaf::ssim {

namespace {

constexpr int kMaps = kMomentMaps;

}  // namespace

SsimSums ssim_sums(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    const Kernels& kernels = work.kernels;
    const int map_w = map_size(width), map_h = map_size(height);
    // No window fits (a side under 11): Netflix's sums stay 0, and means()
    // divides them by its map size as Netflix does (+0, -0 or NaN).
    if (map_w <= 0 || map_h <= 0) return SsimSums{};
    const std::size_t row = static_cast<std::size_t>(map_w);
    work.horizontal.resize(kMaps * kWindow * row);
    work.moments.resize(kMaps * row);
    work.terms.resize(row);
    // Row r of map m in the ring: slot r % kWindow.
    auto ring_row = [&](int map, int r) { return work.horizontal.data() + (map * kWindow + r % kWindow) * row; };
    auto filter_picture_row = [&](int r) {
        float* out[kMaps];
        for (int map = 0; map < kMaps; ++map) out[map] = ring_row(map, r);
        kernels.horizontal_row(ref + static_cast<std::size_t>(r) * width, dis + static_cast<std::size_t>(r) * width,
                               map_w, out);
    };
    float* moments[kMaps];
    for (int map = 0; map < kMaps; ++map) moments[map] = work.moments.data() + map * row;

    for (int r = 0; r < kWindow - 1; ++r) filter_picture_row(r);
    SsimSums sums;
    for (int y = 0; y < map_h; ++y) {
        filter_picture_row(y + kWindow - 1);
        const float* rows[kMaps][kWindow];
        for (int map = 0; map < kMaps; ++map)
            for (int k = 0; k < kWindow; ++k) rows[map][k] = ring_row(map, y + k);
        kernels.terms_row(rows, map_w, moments, work.terms.data());
        // Netflix's order: one chain per sum, position after position.
        for (int x = 0; x < map_w; ++x) sums.add(work.terms[x]);
    }
    return sums;
}

SsimMeans ssim_means(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    return means(ssim_sums(ref, dis, width, height, work), map_size(width), map_size(height));
}

void decimate_box(const float* in, int width, int height, int factor, float weight, std::vector<float>& out,
                  const Kernels& kernels)
{
    out.resize(static_cast<std::size_t>(decimated_size(width, factor)) * decimated_size(height, factor));
    const std::vector<float> weights(static_cast<std::size_t>(factor) * factor, weight);
    kernels.decimate(in, width, height, factor, factor, weights.data(), out.data());
}

void decimate_low_pass(const float* in, int width, int height, std::vector<float>& out, const Kernels& kernels)
{
    static constexpr LowPassKernel kLowPass = low_pass_kernel();
    out.resize(static_cast<std::size_t>(decimated_size(width, 2)) * decimated_size(height, 2));
    kernels.decimate(in, width, height, 2, kLowPassSize, kLowPass.weight, out.data());
}

namespace {

// The luma as packed floats, offset 0 (features/common/float_picture.h).
void luma_to_float(const Picture& picture, std::vector<float>& out)
{
    const PlaneView luma = picture.plane(0);
    out.resize(static_cast<std::size_t>(luma.width) * luma.height);
    float_picture::plane_to_float(luma, picture.format().bitdepth, 0.0f, out.data(), luma.width);
}

}  // namespace

void FloatSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    SsimScratch& s = *static_cast<SsimScratch*>(scratch);
    luma_to_float(inputs.ref, s.ref[0]);
    luma_to_float(inputs.dis, s.dis[0]);
    int w = static_cast<int>(format_.width), h = static_cast<int>(format_.height);
    int level = 0;
    if (factor_ > 1) {
        decimate_box(s.ref[0].data(), w, h, factor_, box_weight_, s.ref[1], s.work.kernels);
        decimate_box(s.dis[0].data(), w, h, factor_, box_weight_, s.dis[1], s.work.kernels);
        w = decimated_size(w, factor_);
        h = decimated_size(h, factor_);
        level = 1;
    }
    store(ssim_means(s.ref[level].data(), s.dis[level].data(), w, h, s.work), scores);
}

void FloatMsSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    SsimScratch& s = *static_cast<SsimScratch*>(scratch);
    luma_to_float(inputs.ref, s.ref[0]);
    luma_to_float(inputs.dis, s.dis[0]);
    std::array<SsimMeans, kMsScales> means;
    int w = static_cast<int>(format_.width), h = static_cast<int>(format_.height);
    for (int scale = 0; scale < kMsScales; ++scale) {
        if (scale > 0) {
            decimate_low_pass(s.ref[scale - 1].data(), w, h, s.ref[scale], s.work.kernels);
            decimate_low_pass(s.dis[scale - 1].data(), w, h, s.dis[scale], s.work.kernels);
            w = decimated_size(w, 2);
            h = decimated_size(h, 2);
        }
        means[scale] = ssim_means(s.ref[scale].data(), s.dis[scale].data(), w, h, s.work);
    }
    store(means, scores);
}

}  // namespace twinvmaf::ssim
