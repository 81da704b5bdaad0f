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

TV_HD float bicubic_kernel(float t)
{
    const float a = -0.75f;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

}  // namespace twinvmaf::float_filter
