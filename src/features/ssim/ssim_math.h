// SSIM arithmetic shared by float_ssim and float_ms_ssim, for the CPU
// reference and its GPU twins.
//
// Netflix libvmaf builds both features on IQA (libvmaf/src/feature/iqa/):
//
//   * _iqa_ssim (ssim_tools.c) filters the reference and the distorted
//     picture, their squares and their product with an 11-tap Gaussian window,
//     applied as two 1-D passes (convolve.c with IQA_CONVOLVE_1D: horizontal
//     over every row, then vertical), only where the whole window fits: the
//     five maps are (w - 10) x (h - 10). At every position it forms the
//     luminance, contrast and structure terms l, c, s (lcs_terms) and returns
//     the means of l*c*s, l, c and s over all positions.
//   * _iqa_decimate (decimate.c) applies a 2-D kernel at every factor-th
//     sample of both directions, borders mirrored: float_ssim's `scale` (a
//     scale x scale box) and the MS-SSIM pyramid (a 9x9 low-pass, factor 2).
//
// Netflix's types are kept: samples, maps and taps are float; every filter
// sum adds float products into a double, tap by tap in order, and is rounded
// to float once; l and c are double quotients, s a float one. Its constants
// are L = 255 (whatever the bit depth: float samples have the 8-bit range,
// features/common/float_picture.h), K1 = 0.01, K2 = 0.03.
//
// Reductions (a GPU twin must add in the same order):
//   * every filter output: its taps in order (left to right / top to
//     bottom, row by row for a 2-D kernel) into one double;
//   * the means: four double sums (l*c*s, l, c, s), each ONE serial chain
//     over every position of the map in row-major order (row 0 left to
//     right, then row 1, ...), divided by the number of positions at the end
//     (SsimSums, means()).
//
// Plain C++ without allocation: every function compiles for host and device.
#pragma once

#include <cmath>
#include <cstddef>

#include "core/host_device.h"

// SSIM_UNROLL_TAPS unrolls a loop over window taps completely, so that a
// loop over columns around it vectorises (the taps become constants).
#if defined(__CUDACC__) || defined(__HIP__)
#define SSIM_UNROLL_TAPS _Pragma("unroll")
#else
#define SSIM_UNROLL_TAPS _Pragma("GCC unroll 11")
#endif

namespace twinvmaf::ssim {

// Netflix's GAUSSIAN_LEN: the window is kWindow x kWindow samples.
inline constexpr int kWindow = 11;

// g_gaussian_window_h (= _v) of ssim_tools.h: a sigma-1.5 Gaussian, rounded to
// six decimals by Netflix.
struct GaussianTaps {
    float tap[kWindow];
};
TV_HD constexpr GaussianTaps gaussian_taps()
{
    return {{0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f, 0.213006f, 0.109361f, 0.036001f,
             0.007599f, 0.001028f}};
}

// The MS-SSIM pyramid's low-pass (ms_ssim.c g_lpf, a 9/7 biorthogonal wavelet
// filter): Netflix applies this 2-D table, not the product of its 1-D taps.
inline constexpr int kLowPassSize = 9;
struct LowPassKernel {
    float weight[kLowPassSize * kLowPassSize];
};
TV_HD constexpr LowPassKernel low_pass_kernel()
{
    return {{
        0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f,
        -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f,
        -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f,
        0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f,
        0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f,
        0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f,
        -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f,
        -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f,
        0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f,
    }};
}

// Weight k (row-major) of the low-pass, from constant data on the device.
TV_HD float low_pass_weight(int k)
{
    static constexpr LowPassKernel kKernel = low_pass_kernel();
    return kKernel.weight[k];
}

// (K * L)^2 in float, as _iqa_ssim computes C1 and C2 (L = 255).
TV_HD constexpr float stabilizer(float k)
{
    return (k * 255) * (k * 255);
}
inline constexpr float kC1 = stabilizer(0.01f);
inline constexpr float kC2 = stabilizer(0.03f);
inline constexpr float kC3 = kC2 / 2.0f;

// One Gaussian window: sum over k = 0..10 of sample(k) * tap[k], where
// sample(k) (a float) is the value under tap k; products in float, added in
// tap order into a double, rounded to float (convolve.c, both passes).
template <class Sample>
TV_HD float gaussian_window(const Sample& sample)
{
    constexpr GaussianTaps kTaps = gaussian_taps();
    double sum = 0.0;
    SSIM_UNROLL_TAPS
    for (int k = 0; k < kWindow; ++k) sum += static_cast<double>(sample(k) * kTaps.tap[k]);
    return static_cast<float>(sum);
}

// The five filtered maps, in LocalMoments' order.
enum MomentMap { kMuRef, kMuDis, kRefSq, kDisSq, kRefDis, kMomentMaps };

// Sample i of map kMap before filtering: ref, dis, ref^2, dis^2 or ref*dis
// (float products, as _iqa_ssim forms them).
template <int kMap>
TV_HD float moment_sample(const float* ref, const float* dis, int i)
{
    if constexpr (kMap == kMuRef) return ref[i];
    if constexpr (kMap == kMuDis) return dis[i];
    if constexpr (kMap == kRefSq) return ref[i] * ref[i];
    if constexpr (kMap == kDisSq) return dis[i] * dis[i];
    if constexpr (kMap == kRefDis) return ref[i] * dis[i];
}

// The horizontal pass of map kMap at map column x of one picture row.
template <int kMap>
TV_HD float horizontal_window(const float* ref_row, const float* dis_row, int x)
{
    return gaussian_window([&](int k) { return moment_sample<kMap>(ref_row, dis_row, x + k); });
}

// The five filtered maps at one position.
struct LocalMoments {
    float mu_ref, mu_dis;       // windowed ref, dis
    float ref_sq, dis_sq, ref_dis;  // windowed ref^2, dis^2, ref*dis
};

// _iqa_ssim's terms of one position (its default path, with Netflix's
// corrections: variances clamped at 0, and a negative covariance taken as 0
// where both are flat).
struct LcsTerms {
    double l, c, s;
};
TV_HD LcsTerms lcs_terms(const LocalMoments& m)
{
    float ref_var = m.ref_sq - m.mu_ref * m.mu_ref;
    float dis_var = m.dis_sq - m.mu_dis * m.mu_dis;
    // MAX(0.0, v): v itself when it is NaN.
    ref_var = 0.0 > ref_var ? 0.0f : ref_var;
    dis_var = 0.0 > dis_var ? 0.0f : dis_var;
    const float covariance = m.ref_dis - m.mu_ref * m.mu_dis;
    const float sigma_product = static_cast<float>(sqrt(static_cast<double>(ref_var * dis_var)));
    LcsTerms t;
    t.l = (2.0 * m.mu_ref * m.mu_dis + kC1) / (m.mu_ref * m.mu_ref + m.mu_dis * m.mu_dis + kC1);
    t.c = (2.0 * sigma_product + kC2) / (ref_var + dis_var + kC2);
    const float clamped_covariance = (covariance < 0.0f && sigma_product <= 0.0f) ? 0.0f : covariance;
    t.s = (clamped_covariance + kC3) / (sigma_product + kC3);
    return t;
}

// The terms at one map position from the horizontally filtered maps:
// row(map, k) is row k (0..10, top to bottom) under the window of map `map`,
// read at the position's column. The vertical pass, then lcs_terms.
template <class Rows>
TV_HD LcsTerms vertical_terms(const Rows& row)
{
    return lcs_terms({gaussian_window([&](int k) { return row(kMuRef, k); }),
                      gaussian_window([&](int k) { return row(kMuDis, k); }),
                      gaussian_window([&](int k) { return row(kRefSq, k); }),
                      gaussian_window([&](int k) { return row(kDisSq, k); }),
                      gaussian_window([&](int k) { return row(kRefDis, k); })});
}

// The four sums of _iqa_ssim and what each adds for one position.
enum SumIndex { kSumSsim, kSumL, kSumC, kSumS, kSums };
template <int kSum>
TV_HD double sum_term(const LcsTerms& t)
{
    if constexpr (kSum == kSumSsim) return t.l * t.c * t.s;
    if constexpr (kSum == kSumL) return t.l;
    if constexpr (kSum == kSumC) return t.c;
    if constexpr (kSum == kSumS) return t.s;
}

// The running sums of _iqa_ssim: add() once per position, in row-major order
// (four independent chains, which a twin may run in four threads).
struct SsimSums {
    double ssim = 0.0, l = 0.0, c = 0.0, s = 0.0;

    TV_HD void add(const LcsTerms& t)
    {
        ssim += sum_term<kSumSsim>(t);
        l += sum_term<kSumL>(t);
        c += sum_term<kSumC>(t);
        s += sum_term<kSumS>(t);
    }
};

// _iqa_ssim's results: the means over a map of w x h positions, as floats.
struct SsimMeans {
    float ssim, l, c, s;
};
TV_HD SsimMeans means(const SsimSums& sums, int w, int h)
{
    const double positions = static_cast<double>(w * h);
    return {static_cast<float>(sums.ssim / positions), static_cast<float>(sums.l / positions),
            static_cast<float>(sums.c / positions), static_cast<float>(sums.s / positions)};
}

// The map size of a w x h picture: positions where the window fits.
TV_HD int map_size(int n) { return n - (kWindow - 1); }

// _iqa_decimate's output size: n / factor, plus one when n is odd (for any
// factor: Netflix's formula).
TV_HD int decimated_size(int n, int factor) { return n / factor + (n & 1); }

// KBND_SYMMETRIC: mirrored with the edge sample repeated (-1 reads 0, n reads
// n - 1), once; decimation sizes are checked so that this stays inside.
TV_HD int mirror(int i, int n) { return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i); }

// One output sample of _iqa_decimate (_iqa_filter_pixel): a size x size
// kernel centred on (cx, cy) of a packed w x h image; taps from -size/2 to
// size/2 (one fewer on the right and bottom for an even size), weight(k) for
// the k-th tap in row-major order. Float products, added row by row, tap by
// tap, into a double, rounded to float. kMirrored = false skips the mirror
// where the kernel lies inside the image (the same samples, so the same
// result: Netflix, too, reads directly there).
template <bool kMirrored, class Weight>
TV_HD float decimated_sample(const float* image, int w, int h, int cx, int cy, int size, const Weight& weight)
{
    const int half = size / 2;
    const int last = half - (size % 2 == 0 ? 1 : 0);
    double sum = 0.0;
    int k = 0;
    for (int v = -half; v <= last; ++v) {
        const int y = kMirrored ? mirror(cy + v, h) : cy + v;
        const float* row = image + static_cast<std::ptrdiff_t>(y) * w;
        for (int u = -half; u <= last; ++u, ++k) {
            const int x = kMirrored ? mirror(cx + u, w) : cx + u;
            sum += static_cast<double>(row[x] * weight(k));
        }
    }
    return static_cast<float>(sum);
}

// Whether the kernel of decimated_sample at centre c lies inside [0, n).
TV_HD bool kernel_inside(int c, int n, int size)
{
    return c - size / 2 >= 0 && c + size / 2 - (size % 2 == 0 ? 1 : 0) < n;
}

}  // namespace twinvmaf::ssim
