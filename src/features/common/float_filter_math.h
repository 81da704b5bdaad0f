// The per-sample arithmetic of Netflix's float filters and scalers
// (libvmaf vif_tools.c, common/convolution.c), shared by SpEED, float VIF and
// float motion, for the CPU reference and a GPU twin alike. All float (fp32),
// with the double promotions of Netflix's C written out; compile without
// contraction (-ffp-contract=off; nvcc --fmad=false).
#pragma once

#include "core/host_device.h"

namespace twinvmaf::float_filter {

// Mirror of the 1-D filters at the plane's edges: -k -> k, n-1+k -> n-1-k.
// Inside the plane only while k <= n-1, i.e. a filter's radius must be below
// the plane's size (the features refuse smaller planes; Netflix reads outside
// its buffers there).
TV_HD int mirror_tap(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); }

// One output of a 1-D filter: accum += f[k] * x[k] in tap order, from +0.
// `at(k)` gives the k-th input sample (already mirrored). Netflix's C and
// AVX2 convolutions both add in this order, so they agree.
template <class At>
TV_HD float filter_taps(const float* f, int width, At at)
{
    float accum = 0.0f;
    for (int k = 0; k < width; ++k) accum += f[k] * at(k);
    return accum;
}

// The vertical pass of the separable filter at (row, col) of a packed w x h
// plane: the taps over the mirrored rows, in order from +0.
TV_HD float vertical_sum(const float* taps, int ntaps, const float* src, int w, int h, int row, int col)
{
    const int radius = ntaps / 2;
    return filter_taps(taps, ntaps, [&](int k) { return src[mirror_tap(row - radius + k, h) * w + col]; });
}

// The horizontal pass at column `col` of a row of w vertical sums: the taps
// over the mirrored columns, in order from +0 (float_filter.cpp's
// horizontal_pass and filter_decimated compute each output as this sum).
TV_HD float horizontal_sum(const float* taps, int ntaps, const float* row, int w, int col)
{
    const int radius = ntaps / 2;
    return filter_taps(taps, ntaps, [&](int k) { return row[mirror_tap(col - radius + k, w)]; });
}

// One output sample (row, col) of the separable filter: the horizontal taps
// over the vertical sums of the mirrored columns. The CPU's filter_plane and
// filter_decimated compute each sample as exactly this sum (they keep a
// row of vertical sums instead of recomputing them); a GPU twin computes it
// per sample.
TV_HD float separable_sample(const float* taps, int ntaps, const float* src, int w, int h, int row, int col)
{
    const int radius = ntaps / 2;
    return filter_taps(taps, ntaps,
                       [&](int k) { return vertical_sum(taps, ntaps, src, w, h, row, mirror_tap(col - radius + k, w)); });
}

// ---------------------------------------------------------------------------
// Scalers (vif_scale_frame_s), per output sample.

// Netflix's float mirror(i, left, right) of the scalers.
TV_HD float mirror_f(float i, float left, float right)
{
    return i < left ? -i : (i > right ? 2 * right - i : i);
}

// The source coordinate of output sample `o` for a scale ratio src/dst:
// (o + 0.5) * ratio - 0.5 in double, kept as float.
TV_HD float scaler_source_coordinate(int o, float ratio)
{
    return static_cast<float>((o + 0.5) * static_cast<double>(ratio) - 0.5);
}

TV_HD float bilinear_sample(float r1x1, float r1x2, float r2x1, float r2x2, float dx, float dy)
{
    return (1 - dy) * (1 - dx) * r1x1 + (1 - dy) * dx * r1x2 + dy * (1 - dx) * r2x1 + dy * dx * r2x2;
}

// Netflix's mirror of a scaler tap, as the int it indexes with.
TV_HD int mirrored_index(int i, int size)
{
    return static_cast<int>(mirror_f(static_cast<float>(i), 0, static_cast<float>(size - 1)));
}

TV_HD float bicubic_kernel(float t)
{
    const float a = -0.75f;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

// The tables of a frame scaler (class Scaler in float_filter.h), as
// pointers: into the host's vectors, or into a GPU twin's device copies.
// method: 0 nearest, 1 bilinear, 2 bicubic, 3 lanczos4 (ScaleMethod).
struct ScalerView {
    int method = 0;
    int src_w = 0, src_h = 0, dst_w = 0, dst_h = 0;
    float ratio_x = 0, ratio_y = 0;
    const int *x1 = nullptr, *x2 = nullptr, *y1 = nullptr, *y2 = nullptr;  // bilinear
    const float *dx = nullptr, *dy = nullptr;
    const int *x0 = nullptr, *y0 = nullptr;  // bicubic / lanczos4: first source index
    const float *wx = nullptr, *wy = nullptr;  // and 4 or 9 weights per column / row
};

// Output sample (x, y) of the scaled plane: source rows outer, columns inner,
// the value (and for lanczos4 the weight sum) added in that order.
TV_HD float scaled_sample(const ScalerView& s, const float* src, int x, int y)
{
    switch (s.method) {
    case 0: {
        const int sy = static_cast<int>(static_cast<float>(y) * s.ratio_y);
        const int sx = static_cast<int>(static_cast<float>(x) * s.ratio_x);
        return src[sy * s.src_w + sx];
    }
    case 1: {
        const float* r1 = src + s.y1[y] * s.src_w;
        const float* r2 = src + s.y2[y] * s.src_w;
        return bilinear_sample(r1[s.x1[x]], r1[s.x2[x]], r2[s.x1[x]], r2[s.x2[x]], s.dx[x], s.dy[y]);
    }
    default: {
        const bool cubic = s.method == 2;
        const int taps = cubic ? 4 : 9;
        const int first = cubic ? -1 : -4;
        const float* wy = s.wy + y * taps;
        const float* wx = s.wx + x * taps;
        float value = 0, weight_sum = 0;
        for (int j = 0; j < taps; ++j) {
            const int yi = mirrored_index(s.y0[y] + first + j, s.src_h);
            for (int i = 0; i < taps; ++i) {
                const int xi = mirrored_index(s.x0[x] + first + i, s.src_w);
                const float weight = wx[i] * wy[j];
                weight_sum += weight;
                value += src[yi * s.src_w + xi] * weight;
            }
        }
        return cubic ? value : value / weight_sum;
    }
    }
}

}  // namespace twinvmaf::float_filter
