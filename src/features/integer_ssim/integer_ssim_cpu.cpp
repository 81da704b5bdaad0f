// The CPU path of the integer SSIM: per picture row, the horizontal moments
// (five planes of doubles holding exact integers, integer_ssim_math.h) into a
// ring of kTaps rows; per output row, the vertical sums of the rows under the
// window, each position's term, and the terms added in row-major order.
// Loops run over columns with the taps outside, so they vectorise; the
// moments are exact in any order, the terms are per position, and only the
// final chain of additions is serial, in the fork's order.
#include <array>
#include <vector>

#include "features/integer_ssim/integer_ssim.h"
#include "features/integer_ssim/integer_ssim_math.h"

namespace twinvmaf::integer_ssim {

namespace {

constexpr int kPlanes = 5;  // mux, muy, x2, xy, y2

struct SsimScratch final : Scratch {
    std::vector<double> ring;      // kTaps rows x kPlanes planes x width
    std::vector<double> vertical;  // kPlanes x width
    std::vector<double> terms;     // width
    std::vector<double> row_weight;  // width: the horizontal tap sums
};

template <class Sample>
void horizontal_row(const Sample* ref, const Sample* dis, int width, double* planes, std::size_t stride)
{
    double* mux = planes;
    double* muy = planes + stride;
    double* x2 = planes + 2 * stride;
    double* xy = planes + 3 * stride;
    double* y2 = planes + 4 * stride;
    const int edge = width < 2 * kRadius ? width : kRadius;
    auto general = [&](int x) {
        const Moments m = horizontal_moments(ref, dis, x, width);
        mux[x] = m.mux, muy[x] = m.muy, x2[x] = m.x2, xy[x] = m.xy, y2[x] = m.y2;
    };
    for (int x = 0; x < edge; ++x) general(x);
    // The whole window inside the row: the same sums, the taps unrolled.
    for (int x = edge; x < width - kRadius; ++x) {
        double a = 0, b = 0, c = 0, d = 0, e = 0;
#pragma GCC unroll 9
        for (int k = 0; k < kTaps; ++k) {
            const double s = ref[x - kRadius + k], t = dis[x - kRadius + k], w = tap(k);
            a += w * s;
            b += w * t;
            c += w * (s * s);
            d += w * (s * t);
            e += w * (t * t);
        }
        mux[x] = a, muy[x] = b, x2[x] = c, xy[x] = d, y2[x] = e;
    }
    for (int x = width - kRadius > edge ? width - kRadius : edge; x < width; ++x) general(x);
}

template <class Sample>
void frame_sums(const PlaneView& ref, const PlaneView& dis, int samplemax, SsimScratch& s, double& ssim,
                std::uint64_t& weights)
{
    const int width = static_cast<int>(ref.width), height = static_cast<int>(ref.height);
    const std::size_t stride = static_cast<std::size_t>(width);
    s.ring.resize(static_cast<std::size_t>(kTaps) * kPlanes * stride);
    s.vertical.resize(kPlanes * stride);
    s.terms.resize(stride);
    s.row_weight.resize(stride);
    for (int x = 0; x < width; ++x) s.row_weight[x] = tap_sum(x, width);
    auto ring_row = [&](int y) { return s.ring.data() + static_cast<std::size_t>(y % kTaps) * kPlanes * stride; };

    double sum = 0.0;
    std::uint64_t weight_sum = 0;
    for (int y = 0; y < height + kRadius; ++y) {
        if (y < height)
            horizontal_row(ref.row<Sample>(static_cast<unsigned>(y)), dis.row<Sample>(static_cast<unsigned>(y)),
                           width, ring_row(y), stride);
        if (y < kRadius) continue;
        const int at = y - kRadius;  // the output row
        const int k_first = first_tap(at), k_end = end_tap(at, height);
        double* v = s.vertical.data();
        for (std::size_t i = 0; i < kPlanes * stride; ++i) v[i] = 0.0;
        for (int k = k_first; k < k_end; ++k) {
            const double t = tap(k);
            const double* h = ring_row(at - kRadius + k);
            for (std::size_t i = 0; i < kPlanes * stride; ++i) v[i] += t * h[i];
        }
        const double column_weight = tap_sum(at, height);
        const double *mux = v, *muy = v + stride, *x2 = v + 2 * stride, *xy = v + 3 * stride, *y2 = v + 4 * stride;
        double* terms = s.terms.data();
        for (int x = 0; x < width; ++x)
            terms[x] = ssim_term(mux[x], muy[x], x2[x], xy[x], y2[x], column_weight * s.row_weight[x], samplemax);
        for (int x = 0; x < width; ++x) sum += terms[x];
        std::uint64_t row_weights = 0;
        for (int x = 0; x < width; ++x) row_weights += static_cast<std::uint64_t>(s.row_weight[x]);
        weight_sum += row_weights * static_cast<std::uint64_t>(column_weight);
    }
    ssim = sum;
    weights = weight_sum;
}

}  // namespace

std::unique_ptr<Scratch> IntegerSsimCpu::make_scratch() const { return std::make_unique<SsimScratch>(); }

void IntegerSsimCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    SsimScratch& s = *static_cast<SsimScratch*>(scratch);
    const PlaneView ref = inputs.ref.plane(0), dis = inputs.dis.plane(0);
    const int samplemax = static_cast<int>((1u << format().bitdepth) - 1);
    double ssim = 0.0;
    std::uint64_t weights = 0;
    if (format().bitdepth == 8)
        frame_sums<std::uint8_t>(ref, dis, samplemax, s, ssim, weights);
    else
        frame_sums<std::uint16_t>(ref, dis, samplemax, s, ssim, weights);
    scores.set(0, ssim);
    scores.set_integer(0, weights);
}

}  // namespace twinvmaf::integer_ssim
