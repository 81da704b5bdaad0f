// float_ssim's and float_ms_ssim's reference kernels (the row loops over
// ssim_math.h) and the choice between them and the SIMD ones (ssim_simd.cpp).
#include "features/ssim/ssim_kernels.h"

#include <type_traits>

#include "core/cpu_dispatch.h"
#include "core/simd.h"

namespace twinvmaf::ssim {

namespace {

// One map row of Gaussian windows: out[x] = window over sample(x, k).
template <class Sample>
void window_row(int map_width, float* __restrict out, const Sample& sample)
{
    for (int x = 0; x < map_width; ++x) out[x] = gaussian_window([&](int k) { return sample(x, k); });
}

TV_CPU_CLONES void horizontal_row(const float* __restrict ref, const float* __restrict dis, int map_width,
                                  float* const out[kMomentMaps])
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

TV_CPU_CLONES void terms_row(const float* const rows[kMomentMaps][kWindow], int map_width,
                             float* const moments[kMomentMaps], LcsTerms* terms)
{
    for (int map = 0; map < kMomentMaps; ++map) {
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

TV_CPU_CLONES void decimate(const float* in, int width, int height, int factor, int size, const float* weights,
                            float* out)
{
    const auto weight = [weights](int k) { return weights[k]; };
    const int out_w = decimated_size(width, factor), out_h = decimated_size(height, factor);
    // Columns [inside_begin, inside_end) have their kernel inside the width.
    int inside_begin = 0;
    while (inside_begin < out_w && !kernel_inside(inside_begin * factor, width, size)) ++inside_begin;
    int inside_end = inside_begin;
    while (inside_end < out_w && kernel_inside(inside_end * factor, width, size)) ++inside_end;
    for (int y = 0; y < out_h; ++y) {
        float* o = out + static_cast<std::size_t>(y) * out_w;
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

}  // namespace

Kernels reference_kernels() { return {horizontal_row, terms_row, decimate}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::ssim
