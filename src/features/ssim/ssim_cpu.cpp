// The CPU reference of float_ssim and float_ms_ssim: row loops over
// ssim_math.h.
//
// _iqa_ssim filters whole maps, one pass after the other; here the horizontal
// pass fills a ring of the last kWindow rows of its five maps and each map
// row is finished (vertical pass, terms, sums) as soon as its rows are there.
// Every output is the same arithmetic on the same inputs, and the sums are
// added in Netflix's order (one serial chain per sum over the map, row-major),
// so the results are Netflix's bits with far less memory.
#include <cstddef>

#include "core/cpu_dispatch.h"
#include "features/common/float_picture.h"
#include "features/ssim/ssim.h"

namespace twinvmaf::ssim {

namespace {

// The five filtered maps, in LocalMoments' order.
enum Map { kMuRef, kMuDis, kRefSq, kDisSq, kRefDis, kMaps };

// Horizontal pass of one picture row: map_width outputs per map.
void horizontal_row(const float* ref, const float* dis, int map_width, float* const* out)
{
    for (int x = 0; x < map_width; ++x) {
        const float* a = ref + x;
        const float* b = dis + x;
        out[kMuRef][x] = gaussian_window([a](int k) { return a[k]; });
        out[kMuDis][x] = gaussian_window([b](int k) { return b[k]; });
        out[kRefSq][x] = gaussian_window([a](int k) { return a[k] * a[k]; });
        out[kDisSq][x] = gaussian_window([b](int k) { return b[k] * b[k]; });
        out[kRefDis][x] = gaussian_window([a, b](int k) { return a[k] * b[k]; });
    }
}

// Vertical pass of one map row from the kWindow horizontally filtered rows
// under the window, then each position's terms.
void terms_row(const float* const rows[kMaps][kWindow], int map_width, float* const* moments, LcsTerms* terms)
{
    for (int map = 0; map < kMaps; ++map) {
        const float* const* r = rows[map];
        float* out = moments[map];
        for (int x = 0; x < map_width; ++x) out[x] = gaussian_window([r, x](int k) { return r[k][x]; });
    }
    for (int x = 0; x < map_width; ++x)
        terms[x] = lcs_terms({moments[kMuRef][x], moments[kMuDis][x], moments[kRefSq][x], moments[kDisSq][x],
                              moments[kRefDis][x]});
}

TV_CPU_CLONES SsimMeans ssim_means_clone(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    const int map_w = map_size(width), map_h = map_size(height);
    const std::size_t row = static_cast<std::size_t>(map_w);
    work.horizontal.resize(kMaps * kWindow * row);
    work.moments.resize(kMaps * row);
    work.terms.resize(row);
    // Row r of map m in the ring: slot r % kWindow.
    auto ring_row = [&](int map, int r) { return work.horizontal.data() + (map * kWindow + r % kWindow) * row; };
    auto filter_picture_row = [&](int r) {
        float* out[kMaps];
        for (int map = 0; map < kMaps; ++map) out[map] = ring_row(map, r);
        horizontal_row(ref + static_cast<std::size_t>(r) * width, dis + static_cast<std::size_t>(r) * width, map_w,
                       out);
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
        terms_row(rows, map_w, moments, work.terms.data());
        // Netflix's order: one chain per sum, position after position.
        for (int x = 0; x < map_w; ++x) sums.add(work.terms[x]);
    }
    return means(sums, map_w, map_h);
}

template <class Weight>
void decimate(const float* in, int width, int height, int factor, int size, const Weight& weight,
              std::vector<float>& out)
{
    const int out_w = decimated_size(width, factor), out_h = decimated_size(height, factor);
    out.resize(static_cast<std::size_t>(out_w) * out_h);
    for (int y = 0; y < out_h; ++y)
        for (int x = 0; x < out_w; ++x)
            out[static_cast<std::size_t>(y) * out_w + x] =
                decimated_sample(in, width, height, x * factor, y * factor, size, weight);
}

TV_CPU_CLONES void decimate_box_clone(const float* in, int width, int height, int factor, float weight,
                                      std::vector<float>& out)
{
    decimate(in, width, height, factor, factor, [weight](int) { return weight; }, out);
}

TV_CPU_CLONES void decimate_low_pass_clone(const float* in, int width, int height, std::vector<float>& out)
{
    static constexpr LowPassKernel kKernel = low_pass_kernel();
    decimate(in, width, height, 2, kLowPassSize, [](int k) { return kKernel.weight[k]; }, out);
}

// The luma as packed floats, offset 0 (features/common/float_picture.h).
void luma_to_float(const Picture& picture, std::vector<float>& out)
{
    const PlaneView luma = picture.plane(0);
    out.resize(static_cast<std::size_t>(luma.width) * luma.height);
    float_picture::plane_to_float(luma, picture.format().bitdepth, 0.0f, out.data(), luma.width);
}

}  // namespace

SsimMeans ssim_means(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    return ssim_means_clone(ref, dis, width, height, work);
}

void decimate_box(const float* in, int width, int height, int factor, float weight, std::vector<float>& out)
{
    decimate_box_clone(in, width, height, factor, weight, out);
}

void decimate_low_pass(const float* in, int width, int height, std::vector<float>& out)
{
    decimate_low_pass_clone(in, width, height, out);
}

void FloatSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    SsimScratch& s = *static_cast<SsimScratch*>(scratch);
    luma_to_float(inputs.ref, s.ref[0]);
    luma_to_float(inputs.dis, s.dis[0]);
    int w = static_cast<int>(format_.width), h = static_cast<int>(format_.height);
    int level = 0;
    if (factor_ > 1) {
        decimate_box(s.ref[0].data(), w, h, factor_, box_weight_, s.ref[1]);
        decimate_box(s.dis[0].data(), w, h, factor_, box_weight_, s.dis[1]);
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
            decimate_low_pass(s.ref[scale - 1].data(), w, h, s.ref[scale]);
            decimate_low_pass(s.dis[scale - 1].data(), w, h, s.dis[scale]);
            w = decimated_size(w, 2);
            h = decimated_size(h, 2);
        }
        means[scale] = ssim_means(s.ref[scale].data(), s.dis[scale].data(), w, h, s.work);
    }
    store(means, scores);
}

}  // namespace twinvmaf::ssim
