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
#include <type_traits>

#include "core/cpu_dispatch.h"
#include "features/common/float_picture.h"
#include "features/ssim/ssim.h"

namespace twinvmaf::ssim {

namespace {

constexpr int kMaps = kMomentMaps;

// One map row of Gaussian windows: out[x] = window over sample(x, k).
template <class Sample>
void window_row(int map_width, float* __restrict out, const Sample& sample)
{
    for (int x = 0; x < map_width; ++x) out[x] = gaussian_window([&](int k) { return sample(x, k); });
}

// Horizontal pass of one picture row: map_width outputs per map.
void horizontal_row(const float* __restrict ref, const float* __restrict dis, int map_width, float* const* out)
{
    auto map_row = [&](auto map) {
        constexpr int kMap = decltype(map)::value;
        float* __restrict o = out[kMap];
        for (int x = 0; x < map_width; ++x) o[x] = horizontal_window<kMap>(ref, dis, x);
    };
    map_row(std::integral_constant<int, kMuRef>{});
    map_row(std::integral_constant<int, kMuDis>{});
    map_row(std::integral_constant<int, kRefSq>{});
    map_row(std::integral_constant<int, kDisSq>{});
    map_row(std::integral_constant<int, kRefDis>{});
}

// Vertical pass of one map row from the kWindow horizontally filtered rows
// under the window, then each position's terms.
void terms_row(const float* const rows[kMaps][kWindow], int map_width, float* const* moments, LcsTerms* terms)
{
    for (int map = 0; map < kMaps; ++map) {
        const float* r[kWindow];
        for (int k = 0; k < kWindow; ++k) r[k] = rows[map][k];
        window_row(map_width, moments[map], [&r](int x, int k) { return r[k][x]; });
    }
    const float* __restrict mu_ref = moments[kMuRef];
    const float* __restrict mu_dis = moments[kMuDis];
    const float* __restrict ref_sq = moments[kRefSq];
    const float* __restrict dis_sq = moments[kDisSq];
    const float* __restrict ref_dis = moments[kRefDis];
    for (int x = 0; x < map_width; ++x)
        terms[x] = lcs_terms({mu_ref[x], mu_dis[x], ref_sq[x], dis_sq[x], ref_dis[x]});
}

TV_CPU_CLONES SsimSums ssim_sums_clone(const float* ref, const float* dis, int width, int height, SsimWork& work)
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
    return sums;
}

template <class Weight>
void decimate(const float* in, int width, int height, int factor, int size, const Weight& weight,
              std::vector<float>& out)
{
    const int out_w = decimated_size(width, factor), out_h = decimated_size(height, factor);
    out.resize(static_cast<std::size_t>(out_w) * out_h);
    // Columns [inside_begin, inside_end) have their kernel inside the width.
    int inside_begin = 0;
    while (inside_begin < out_w && !kernel_inside(inside_begin * factor, width, size)) ++inside_begin;
    int inside_end = inside_begin;
    while (inside_end < out_w && kernel_inside(inside_end * factor, width, size)) ++inside_end;
    for (int y = 0; y < out_h; ++y) {
        float* o = out.data() + static_cast<std::size_t>(y) * out_w;
        const int cy = y * factor;
        auto mirrored = [&](int x) { o[x] = decimated_sample<true>(in, width, height, x * factor, cy, size, weight); };
        if (!kernel_inside(cy, height, size)) {
            for (int x = 0; x < out_w; ++x) mirrored(x);
            continue;
        }
        for (int x = 0; x < inside_begin; ++x) mirrored(x);
        for (int x = inside_begin; x < inside_end; ++x)
            o[x] = decimated_sample<false>(in, width, height, x * factor, cy, size, weight);
        for (int x = inside_end; x < out_w; ++x) mirrored(x);
    }
}

TV_CPU_CLONES void decimate_box_clone(const float* in, int width, int height, int factor, float weight,
                                      std::vector<float>& out)
{
    decimate(in, width, height, factor, factor, [weight](int) { return weight; }, out);
}

TV_CPU_CLONES void decimate_low_pass_clone(const float* in, int width, int height, std::vector<float>& out)
{
    decimate(in, width, height, 2, kLowPassSize, [](int k) { return low_pass_weight(k); }, out);
}

// The luma as packed floats, offset 0 (features/common/float_picture.h).
void luma_to_float(const Picture& picture, std::vector<float>& out)
{
    const PlaneView luma = picture.plane(0);
    out.resize(static_cast<std::size_t>(luma.width) * luma.height);
    float_picture::plane_to_float(luma, picture.format().bitdepth, 0.0f, out.data(), luma.width);
}

}  // namespace

SsimSums ssim_sums(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    return ssim_sums_clone(ref, dis, width, height, work);
}

SsimMeans ssim_means(const float* ref, const float* dis, int width, int height, SsimWork& work)
{
    return means(ssim_sums(ref, dis, width, height, work), map_size(width), map_size(height));
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
