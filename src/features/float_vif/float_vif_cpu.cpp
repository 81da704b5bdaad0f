// The CPU reference of float_vif: loops over float_vif_math.h and the shared
// filters of features/common/float_filter.h.
//
// Work saved without changing an operation: Netflix filters whole planes
// into five buffers (means and second moments) and then runs the statistic;
// here one output row at a time is filtered (the five vertical passes share
// their reads of the source rows) and scored. Before decimating, only the
// kept rows and columns are filtered. Every filtered sample is the same sum
// of the same products in the same order.
#include <vector>

#include "features/common/float_picture.h"
#include "features/float_vif/float_vif.h"
#include "features/float_vif/float_vif_kernels.h"

namespace twinvmaf::float_vif {

namespace {

struct VifScratch final : Scratch {
    std::vector<float> ref, dis;                // the luma as floats
    std::vector<float> ref_scaled, dis_scaled;  // after vif_prescale
    std::vector<float> ref_scale, dis_scale;    // the current scale > 0
    std::vector<float> ref_next, dis_next;      // the next scale, while decimating
    std::vector<float> vertical, horizontal;    // 5 rows each: mu1, mu2, xx, yy, xy
    std::vector<float> terms;                   // a row's numerator, then denominator terms
};

// One row's terms (kernels().pixel_terms_row), added in column order
// (Netflix's inner accumulators: one float chain per row).
void row_sums(const Kernels& k, const float* filtered, int w, const StatisticParams& p, float* terms, float* num,
              float* den)
{
    float* num_terms = terms;
    float* den_terms = terms + w;
    k.pixel_terms_row(filtered, w, p, num_terms, den_terms);
    float row_num = 0.0f, row_den = 0.0f;
    for (int j = 0; j < w; ++j) {
        row_num += num_terms[j];
        row_den += den_terms[j];
    }
    *num = row_num;
    *den = row_den;
}

// A scale's numerator and denominator: row sums added in row order, float.
void scale_sums(const std::vector<float>& taps, const float* ref, const float* dis, int w, int h,
                const StatisticParams& p, VifScratch& s, float* num, float* den)
{
    const int ntaps = static_cast<int>(taps.size());
    s.vertical.resize(5 * static_cast<std::size_t>(w));
    s.horizontal.resize(5 * static_cast<std::size_t>(w));
    s.terms.resize(2 * static_cast<std::size_t>(w));
    const Kernels k = kernels();
    float total_num = 0.0f, total_den = 0.0f;
    for (int i = 0; i < h; ++i) {
        k.vertical_moments(taps.data(), ntaps, ref, dis, w, h, i, s.vertical.data());
        for (int m = 0; m < 5; ++m)
            float_filter::horizontal_pass(taps.data(), ntaps, s.vertical.data() + m * static_cast<std::ptrdiff_t>(w), w,
                                          s.horizontal.data() + m * static_cast<std::ptrdiff_t>(w));
        float row_num, row_den;
        row_sums(k, s.horizontal.data(), w, p, s.terms.data(), &row_num, &row_den);
        total_num += row_num;
        total_den += row_den;
    }
    *num = total_num;
    *den = total_den;
}

}  // namespace

std::unique_ptr<Scratch> FloatVifCpu::make_scratch() const { return std::make_unique<VifScratch>(); }

void FloatVifCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    VifScratch& s = *static_cast<VifScratch*>(scratch);
    const Plan& p = plan();
    const unsigned bitdepth = format().bitdepth;
    const std::size_t samples = static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height);
    s.ref.resize(samples);
    s.dis.resize(samples);
    float_picture::plane_to_float(inputs.ref.plane(0), bitdepth, -128.0f, s.ref.data(), static_cast<std::size_t>(p.width));
    float_picture::plane_to_float(inputs.dis.plane(0), bitdepth, -128.0f, s.dis.data(), static_cast<std::size_t>(p.width));

    const float* ref = s.ref.data();
    const float* dis = s.dis.data();
    if (p.prescaled()) {
        const std::size_t scaled = static_cast<std::size_t>(p.scaled_width) * static_cast<std::size_t>(p.scaled_height);
        s.ref_scaled.resize(scaled);
        s.dis_scaled.resize(scaled);
        p.scaler.apply(ref, s.ref_scaled.data());
        p.scaler.apply(dis, s.dis_scaled.data());
        ref = s.ref_scaled.data();
        dis = s.dis_scaled.data();
    }

    int w = p.scale_width[0], h = p.scale_height[0];
    for (int scale = settings().first_scale(); scale < kScaleCount; ++scale) {
        const std::vector<float>& taps = p.taps[scale];
        if (scale > 0) {
            // This scale's filter on the scale above, every 2nd row and column.
            const int ntaps = static_cast<int>(taps.size());
            const int next_w = w / 2, next_h = h / 2;
            const std::size_t next = static_cast<std::size_t>(next_w) * static_cast<std::size_t>(next_h);
            s.ref_next.resize(next);
            s.dis_next.resize(next);
            s.vertical.resize(static_cast<std::size_t>(w));
            float_filter::filter_decimated(taps.data(), ntaps, ref, w, h, 2, s.ref_next.data(), next_w, next_h,
                                           s.vertical.data());
            float_filter::filter_decimated(taps.data(), ntaps, dis, w, h, 2, s.dis_next.data(), next_w, next_h,
                                           s.vertical.data());
            s.ref_scale.swap(s.ref_next);
            s.dis_scale.swap(s.dis_next);
            ref = s.ref_scale.data();
            dis = s.dis_scale.data();
            w = next_w;
            h = next_h;
        }
        float num, den;
        scale_sums(taps, ref, dis, w, h, p.statistic, s, &num, &den);
        scores.set(2 * static_cast<std::size_t>(scale), num);
        scores.set(2 * static_cast<std::size_t>(scale) + 1, den);
    }
}

}  // namespace twinvmaf::float_vif
