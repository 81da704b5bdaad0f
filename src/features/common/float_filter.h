// Netflix's float filtering tools (libvmaf vif_tools.c, common/convolution.c),
// one implementation for SpEED, float VIF and float motion:
//
//   * the Gaussian kernels of vif_tools.c (widths from a scale and a kernel
//     scale, taps from exp() on the host, once per run: data for every backend);
//   * the frame scalers (nearest, bilinear, bicubic, lanczos4) with their
//     per-column / per-row tables;
//   * the separable filter on the CPU: per output row a vertical pass over
//     the mirrored rows, then a horizontal pass over the mirrored columns
//     (vif_filter1d_s, convolution_f32_c_s and its AVX2 twin give the same
//     sums: each output adds f[k] * x[k] in tap order from +0); its row
//     loops are float_filter_kernels.h's (the reference or Highway SIMD,
//     the same bits).
//
// Planes here are packed floats (row stride = width). The per-sample
// arithmetic is float_filter_math.h.
#pragma once

#include <string>
#include <vector>

#include "features/common/float_filter_math.h"

namespace twinvmaf::float_filter {

// ---------------------------------------------------------------- kernels

// Whether Netflix knows this kernel scale (its list of 21, within 1e-3).
bool valid_kernelscale(float kernelscale);
// Netflix's list, for error messages ("1, 0.5, 1.5, ...").
std::string valid_kernelscales_text();

// vif_get_filter_size: 2^(4-scale)+1 taps times the kernel scale, rounded up
// to odd, at least 3.
int filter_width(int scale, float kernelscale);

// get_1d_gaussian_kernel: `window` taps of a Gaussian of `stdev`, normalised
// to sum 1 (float sum in tap order).
std::vector<float> gaussian_taps(int window, float stdev);

// vif_get_filter: the Gaussian of scale `scale`, stdev = width / 5.
std::vector<float> vif_filter(int scale, float kernelscale);

// ---------------------------------------------------------------- scalers

enum class ScaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };

// "nearest", "bilinear", "bicubic", "lanczos4" (vif_get_scaling_method);
// throws twinvmaf::Error naming `option` (e.g. "speed_chroma: speed_prescale_method").
ScaleMethod parse_scale_method(const std::string& text, const std::string& option);

// VIF_BILINEAR_MAX_WIDTH: Netflix's bilinear column tables live on the stack
// and hold at most this many output columns (it refuses wider outputs).
inline constexpr int kBilinearMaxWidth = 7680;

// A packed src_w x src_h plane to dst_w x dst_h (vif_scale_frame_s); equal
// sizes copy. Tables fixed at init, computed on the host.
class Scaler {
public:
    Scaler() = default;
    // Throws twinvmaf::Error (prefixed with `who`) where Netflix's mirror
    // would still land outside the source (a source too small for the
    // method's taps): Netflix reads outside its picture there.
    Scaler(ScaleMethod method, int src_w, int src_h, int dst_w, int dst_h, const std::string& who);

    void apply(const float* src, float* dst) const;
    // The tables, for scaled_sample() (float_filter_math.h); a GPU twin
    // copies the arrays to the device and points a copy of this at them.
    ScalerView view() const;
    bool identity() const { return src_w_ == dst_w_ && src_h_ == dst_h_; }

    int src_width() const { return src_w_; }
    int src_height() const { return src_h_; }
    int dst_width() const { return dst_w_; }
    int dst_height() const { return dst_h_; }

private:
    ScaleMethod method_ = ScaleMethod::kNearest;
    int src_w_ = 0, src_h_ = 0, dst_w_ = 0, dst_h_ = 0;
    float ratio_x_ = 0, ratio_y_ = 0;
    // Bilinear: per output column / row the two source indices and weight.
    std::vector<int> x1_, x2_, y1_, y2_;
    std::vector<float> dx_, dy_;
    // Bicubic / lanczos4: per output column / row the first source index
    // (floor of the coordinate) and the 4 or 9 kernel weights.
    std::vector<int> x0_, y0_;
    std::vector<float> wx_, wy_;
};

// ---------------------------------------------------------------- CPU filters

// out[c] = sum_k f[k] * src[mirror(row - r + k)][c] for c < w (r = ntaps / 2).
void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int row, float* out);

// out[j] = sum_k f[k] * in[mirror(j - r + k)] for j < w.
void horizontal_pass(const float* taps, int ntaps, const float* in, int w, float* out);

// The whole w x h plane filtered into dst; `row` holds w floats.
void filter_plane(const float* taps, int ntaps, const float* src, int w, int h, float* dst, float* row);

// Only the filtered samples (i * step, j * step) for i < out_h, j < out_w,
// into a packed out_w x out_h plane: each is the same sum as in
// filter_plane (decimation after a full filter, without the discarded work).
void filter_decimated(const float* taps, int ntaps, const float* src, int w, int h, int step, float* out,
                      int out_w, int out_h, float* row);

}  // namespace twinvmaf::float_filter
