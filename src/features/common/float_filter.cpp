// Netflix's float kernels, scalers and separable filter (see float_filter.h).
#include "features/common/libm.h"
#include "features/common/float_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "features/common/float_filter_kernels.h"
#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf::float_filter {

namespace {

// Netflix's list of kernel scales (vif_tools.h), as floats.
const float kValidKernelscales[] = {
    1.0f,         1.0f / 2.0f,  3.0f / 2.0f,  2.0f,  2.0f / 3.0f,  24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f,  3.5f / 3.0f,  3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f, 1.0f / 2.25f,
    1.4746f,      1.54f,        1.6f,         1.06667f, 0.711111f, 0.740740f, 1.111111f,
};

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

const char* method_name(ScaleMethod m)
{
    switch (m) {
    case ScaleMethod::kNearest: return "nearest";
    case ScaleMethod::kBilinear: return "bilinear";
    case ScaleMethod::kBicubic: return "bicubic";
    case ScaleMethod::kLanczos4: return "lanczos4";
    }
    return "?";
}

float lanczos4_weight(float x)
{
    const float a = 4.0f;
    if (x == 0.0f) return 1.0f;
    if (x > -a && x < a) {
        const double pi = 3.14159265358979323846;
        return static_cast<float>(a * std::sin(pi * x) * std::sin(pi * x / a) / (pi * pi * x * x));
    }
    return 0.0f;
}

}  // namespace

bool valid_kernelscale(float kernelscale)
{
    for (float k : kValidKernelscales)
        if (std::fabs(kernelscale - k) < 1e-3f) return true;
    return false;
}

std::string valid_kernelscales_text()
{
    std::string list;
    for (float k : kValidKernelscales) {
        char text[32];
        std::snprintf(text, sizeof text, "%s%g", list.empty() ? "" : ", ", static_cast<double>(k));
        list += text;
    }
    return list;
}

int filter_width(int scale, float kernelscale)
{
    const int n = (1 << (4 - scale)) + 1;
    int ceiling = static_cast<int>(std::ceil(static_cast<double>(n * kernelscale)));
    if (ceiling % 2 == 0) ++ceiling;
    return ceiling > 3 ? ceiling : 3;
}

std::vector<float> gaussian_taps(int window, float stdev)
{
    // Host libm's exp, once per run, as Netflix; the taps are then data
    // shared by every backend.
    std::vector<float> taps(static_cast<std::size_t>(window));
    float sum = 0;
    const int half = (window - 1) / 2;
    for (int i = 0; i < window; ++i) {
        const float x = static_cast<float>(i - half);
        const float num = static_cast<float>(libm::exp(-0.5 * x / stdev * x / stdev));
        const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * 3.14159265358979323846)));
        taps[i] = num / den;
        sum += taps[i];
    }
    for (float& t : taps) t /= sum;
    return taps;
}

std::vector<float> vif_filter(int scale, float kernelscale)
{
    const int width = filter_width(scale, kernelscale);
    return gaussian_taps(width, static_cast<float>(width) / 5.0f);
}

ScaleMethod parse_scale_method(const std::string& text, const std::string& option)
{
    for (ScaleMethod m : {ScaleMethod::kNearest, ScaleMethod::kBilinear, ScaleMethod::kBicubic, ScaleMethod::kLanczos4})
        if (text == method_name(m)) return m;
    throw Error(option + ": invalid scaling method \"" + message_text(text) + "\"; supported: nearest, bilinear, bicubic, lanczos4");
}

Scaler::Scaler(ScaleMethod method, int src_w, int src_h, int dst_w, int dst_h, const std::string& who)
    : method_(method), src_w_(src_w), src_h_(src_h), dst_w_(dst_w), dst_h_(dst_h)
{
    if (src_w == dst_w && src_h == dst_h) return;  // a copy
    ratio_x_ = static_cast<float>(src_w) / static_cast<float>(dst_w);
    ratio_y_ = static_cast<float>(src_h) / static_cast<float>(dst_h);

    bool inside = true;
    auto check = [&](int index, int size) {
        if (index < 0 || index >= size) inside = false;
        return index;
    };
    auto fill_bilinear = [&](int dst, int src, float ratio, std::vector<int>& i1, std::vector<int>& i2,
                             std::vector<float>& frac) {
        for (int o = 0; o < dst; ++o) {
            const float xx = scaler_source_coordinate(o, ratio);
            const int a = check(mirrored_index(static_cast<int>(std::floor(xx)), src), src);
            const int b = check(mirrored_index(static_cast<int>(std::ceil(xx)), src), src);
            i1.push_back(a);
            i2.push_back(b);
            frac.push_back(xx - static_cast<float>(a));
        }
    };
    // Bicubic and lanczos4 weights depend only on the fractional position, so
    // per column and per row (Netflix recomputes them per sample; same values).
    auto fill_kernel = [&](int dst, int src, float ratio, std::vector<int>& first, std::vector<float>& w) {
        const bool cubic = method_ == ScaleMethod::kBicubic;
        const int reach = cubic ? 1 : 4;
        for (int o = 0; o < dst; ++o) {
            const float xx = scaler_source_coordinate(o, ratio);
            const int x0 = static_cast<int>(std::floor(xx));
            const float d = xx - static_cast<float>(x0);
            first.push_back(x0);
            for (int i = -reach; i <= (cubic ? 2 : 4); ++i) {
                const float t = static_cast<float>(i) - d;
                w.push_back(cubic ? bicubic_kernel(t) : lanczos4_weight(t));
                check(mirrored_index(x0 + i, src), src);
            }
        }
    };
    switch (method_) {
    case ScaleMethod::kNearest:
        for (int x = 0; x < dst_w; ++x) check(static_cast<int>(static_cast<float>(x) * ratio_x_), src_w);
        for (int y = 0; y < dst_h; ++y) check(static_cast<int>(static_cast<float>(y) * ratio_y_), src_h);
        break;
    case ScaleMethod::kBilinear:
        fill_bilinear(dst_w, src_w, ratio_x_, x1_, x2_, dx_);
        fill_bilinear(dst_h, src_h, ratio_y_, y1_, y2_, dy_);
        break;
    case ScaleMethod::kBicubic:
    case ScaleMethod::kLanczos4:
        fill_kernel(dst_w, src_w, ratio_x_, x0_, wx_);
        fill_kernel(dst_h, src_h, ratio_y_, y0_, wy_);
        break;
    }
    if (!inside) {
        throw Error(who + ": scaling " + size_text(src_w, src_h) + " to " + size_text(dst_w, dst_h) + " with " +
                    method_name(method_) +
                    " would read outside the source picture (its mirrored taps need a larger source; "
                    "Netflix reads outside its buffer there)");
    }
}

ScalerView Scaler::view() const
{
    ScalerView v;
    v.method = static_cast<int>(method_);
    v.src_w = src_w_, v.src_h = src_h_, v.dst_w = dst_w_, v.dst_h = dst_h_;
    v.ratio_x = ratio_x_, v.ratio_y = ratio_y_;
    v.x1 = x1_.data(), v.x2 = x2_.data(), v.y1 = y1_.data(), v.y2 = y2_.data();
    v.dx = dx_.data(), v.dy = dy_.data();
    v.x0 = x0_.data(), v.y0 = y0_.data();
    v.wx = wx_.data(), v.wy = wy_.data();
    return v;
}

void Scaler::apply(const float* src, float* dst) const
{
    const int sw = src_w_, sh = src_h_, dw = dst_w_, dh = dst_h_;
    if (sw == dw && sh == dh) {
        std::memcpy(dst, src, sizeof(float) * static_cast<std::size_t>(sw) * static_cast<std::size_t>(sh));
        return;
    }
    const ScalerView v = view();
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x) dst[static_cast<std::ptrdiff_t>(y) * dw + x] = scaled_sample(v, src, x, y);
}

namespace {

// The edge columns, where the taps mirror, then the interior by the kernel.
void horizontal_row(const Kernels& k, const float* taps, int ntaps, const float* in, int w, float* out)
{
    const int radius = ntaps / 2;
    // Columns radius .. w-radius-1 need no mirror.
    const int lo = std::min(radius, w);
    const int hi = std::max(w - radius, lo);
    for (int j = 0; j < lo; ++j) out[j] = horizontal_sum(taps, ntaps, in, w, j);
    k.horizontal_interior(taps, ntaps, in, 1, lo, hi, out);
    for (int j = hi; j < w; ++j) out[j] = horizontal_sum(taps, ntaps, in, w, j);
}

}  // namespace

void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out)
{
    kernels().vertical_pass(taps, ntaps, src, w, h, row, out);
}

void horizontal_pass(const float* taps, int ntaps, const float* in, int w, float* out)
{
    horizontal_row(kernels(), taps, ntaps, in, w, out);
}

void filter_plane(const float* taps, int ntaps, const float* src, int w, int h, float* dst, float* row)
{
    const Kernels k = kernels();
    for (int i = 0; i < h; ++i) {
        k.vertical_pass(taps, ntaps, src, w, h, i, row);
        horizontal_row(k, taps, ntaps, row, w, dst + static_cast<std::ptrdiff_t>(i) * w);
    }
}

void filter_decimated(const float* taps, int ntaps, const float* src, int w, int h, int step, float* out,
                      int out_w, int out_h, float* row)
{
    const Kernels k = kernels();
    const int radius = ntaps / 2;
    // Outputs j whose taps j * step - radius .. j * step + radius need no mirror.
    const int lo = std::min((radius + step - 1) / step, out_w);
    const int hi = std::max(std::min(w - 1 - radius >= 0 ? (w - 1 - radius) / step + 1 : 0, out_w), lo);
    for (int i = 0; i < out_h; ++i) {
        k.vertical_pass(taps, ntaps, src, w, h, i * step, row);
        float* o = out + static_cast<std::ptrdiff_t>(i) * out_w;
        for (int j = 0; j < lo; ++j) o[j] = horizontal_sum(taps, ntaps, row, w, j * step);
        k.horizontal_interior(taps, ntaps, row, step, lo, hi, o);
        for (int j = hi; j < out_w; ++j) o[j] = horizontal_sum(taps, ntaps, row, w, j * step);
    }
}

}  // namespace twinvmaf::float_filter
