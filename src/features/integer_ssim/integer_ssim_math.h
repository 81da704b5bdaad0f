// Integer SSIM arithmetic (the lusoris/vmaf fork's `ssim` extractor,
// libvmaf/src/feature/integer_ssim.c: Xiph/Daala's fixed-point SSIM), shared
// by the CPU reference and its GPU twin.
//
// The luma of both pictures is filtered with a 9-tap integer Gaussian
// (sigma 1.5, weights summing to 256), horizontally and then vertically,
// into six integer moments per position: sums of w*x, w*y, w*x^2, w*x*y,
// w*y^2 and of the weights w themselves. At the picture's edges the window is
// cut, not mirrored: only the taps inside the picture count, and the weight
// sum says how many. Every moment is an exact integer (any order of addition).
// Each position then gives one double term (ssim_term below, the fork's
// expression with its operand order), and the score is
//     sum of the terms / sum of the weights
// where the sum of the terms is ONE serial chain of double additions over the
// positions in row-major order (row 0 left to right, then row 1, ...), the
// fork's order. The weight sum is an exact integer (<= 2^16 per position).
// The weight of a position is the product of its horizontal and vertical tap
// sums (tap_sum()), as the fork's two passes give it.
//
// The fork computes samplemax * samplemax in int: for 16-bit samples that
// overflows (undefined behaviour), so 16-bit input is refused (integer_ssim.h).
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::integer_ssim {

inline constexpr int kTaps = 9;
inline constexpr int kRadius = kTaps / 2;

// gaussian_filter_init(sigma 1.5, max length 5) of the fork: taps 1..4 from
// the centre are (unsigned)(256 * exp(-k^2 / 4.5) / (sqrt(2 pi) 1.5) + 0.5)
// = 55, 28, 9, 2 (before rounding 55.02, 28.49, 9.71, 2.44), and the centre
// takes the rest of 256. tests/unit/test_integer_ssim.cpp recomputes them.
TV_HD constexpr int tap(int k)
{
    const int d = k < kRadius ? kRadius - k : k - kRadius;
    return d == 0 ? 68 : d == 1 ? 55 : d == 2 ? 28 : d == 3 ? 9 : 2;
}

// The six moments of a position (or of a row's horizontal pass). The fork
// keeps them in int64; they are integers below 2^53 (for 15-bit samples
// the largest, the vertical x2, is at most 256 * 256 * 32767^2 < 2^47), so a
// double holds each exactly and every product of a tap (<= 68) and a moment,
// and every sum of them, is exact too: in double, the moments are the
// fork's int64 values in any order of addition, and the conversions of its
// term (double)m.mux etc. are the identity.
struct Moments {
    double mux = 0, muy = 0, x2 = 0, xy = 0, y2 = 0, w = 0;
};

// The fork's first and one-past-last tap inside a line of `size` samples for
// the window centred at `at`.
TV_HD int first_tap(int at) { return kRadius - at <= 0 ? 0 : kRadius - at; }
TV_HD int end_tap(int at, int size) { return at + kRadius - size + 1 <= 0 ? kTaps : kTaps - (at + kRadius - size + 1); }

// The sum of the taps inside the line (the fork's m.w of one pass).
TV_HD int tap_sum(int at, int size)
{
    int sum = 0;
    for (int k = first_tap(at); k < end_tap(at, size); ++k) sum += tap(k);
    return sum;
}

// The horizontal moments at column x of a row of `width` samples.
template <class Sample>
TV_HD Moments horizontal_moments(const Sample* ref, const Sample* dis, int x, int width)
{
    Moments m;
    const int k_end = end_tap(x, width);
    for (int k = first_tap(x); k < k_end; ++k) {
        const double s = ref[x - kRadius + k], d = dis[x - kRadius + k], t = tap(k);
        m.mux += t * s;
        m.muy += t * d;
        m.x2 += t * (s * s);
        m.xy += t * (s * d);
        m.y2 += t * (d * d);
        m.w += t;
    }
    return m;
}

// acc += weight * m, every moment (exact, see Moments).
TV_HD void add_weighted(Moments& acc, double weight, const Moments& m)
{
    acc.mux += weight * m.mux;
    acc.muy += weight * m.muy;
    acc.x2 += weight * m.x2;
    acc.xy += weight * m.xy;
    acc.y2 += weight * m.y2;
    acc.w += weight * m.w;
}

// One position's term of the SSIM sum, from its 2-D moments: the fork's
//   w * (2 mxy + c1) * (c2 + 2 (xy w - mxy)) / ((mx2 + my2 + c1) * (x2 w - mx2 + y2 w - my2 + c2))
// in double, evaluated left to right as C does, with
//   c1 = samplemax * samplemax * (0.01 * 0.01) * w * w (samplemax^2 an int),
//   c2 the same with 0.03, mx2 = mux * mux, mxy = mux * muy, my2 = muy * muy.
TV_HD double ssim_term(double mux, double muy, double x2, double xy, double y2, double w, int samplemax)
{
    const int peak2 = samplemax * samplemax;
    const double c1 = peak2 * (0.01 * 0.01) * w * w;
    const double c2 = peak2 * (0.03 * 0.03) * w * w;
    const double mx2 = mux * mux;
    const double mxy = mux * muy;
    const double my2 = muy * muy;
    const double numerator = w * (2 * mxy + c1) * (c2 + 2 * (xy * w - mxy));
    const double denominator = (mx2 + my2 + c1) * (x2 * w - mx2 + y2 * w - my2 + c2);
    return numerator / denominator;
}
TV_HD double ssim_term(const Moments& m, int samplemax)
{
    return ssim_term(m.mux, m.muy, m.x2, m.xy, m.y2, m.w, samplemax);
}

}  // namespace twinvmaf::integer_ssim
