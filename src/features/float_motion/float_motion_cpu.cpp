// The CPU reference of float_motion: the shared separable blur
// (features/common/float_filter.h) and the SAD of float_motion_math.h.
#include <vector>

#include "core/cpu_dispatch.h"
#include "features/common/float_picture.h"
#include "features/float_motion/float_motion.h"

namespace twinvmaf::float_motion {

namespace {

struct MotionScratch final : Scratch {
    std::vector<float> picture, row;                 // a plane as floats; one filter row
    std::vector<float> earlier, current;             // the two blurred planes
    std::vector<float> earlier_half, current_half;   // their half sizes (motion_add_scale1)
};

// Mean absolute difference of two packed w x h planes: rows of float sums in
// column order, added in row order.
TV_CPU_CLONES float mean_abs_difference_of(const float* a, const float* b, int w, int h)
{
    float accum = 0.0f;
    for (int i = 0; i < h; ++i) {
        const float* ra = a + static_cast<std::ptrdiff_t>(i) * w;
        const float* rb = b + static_cast<std::ptrdiff_t>(i) * w;
        float line = 0.0f;
        for (int j = 0; j < w; ++j) line = add_abs_difference(line, ra[j], rb[j]);
        accum += line;
    }
    return mean_abs_difference(accum, w, h);
}

void blur(const PlaneView& plane, unsigned bitdepth, const BlurTaps& taps, MotionScratch& s, std::vector<float>& out)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height);
    const std::size_t samples = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    s.picture.resize(samples);
    s.row.resize(static_cast<std::size_t>(w));
    out.resize(samples);
    float_picture::plane_to_float(plane, bitdepth, -128.0f, s.picture.data(), static_cast<std::size_t>(w));
    float_filter::filter_plane(taps.taps, taps.count, s.picture.data(), w, h, out.data(), s.row.data());
}

}  // namespace

std::unique_ptr<Scratch> FloatMotionCpu::make_scratch() const { return std::make_unique<MotionScratch>(); }

void FloatMotionCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    if (settings().force_zero || inputs.index == 0) return;
    MotionScratch& s = *static_cast<MotionScratch*>(scratch);
    const BlurTaps taps = blur_taps(settings().filter_size);
    const unsigned bitdepth = format().bitdepth;
    double score = 0.0;
    for (std::size_t p = 0; p < planes().size(); ++p) {
        const PlanePlan& plan = planes()[p];
        const int plane = static_cast<int>(p);
        blur(inputs.previous_ref[0]->plane(plane), bitdepth, taps, s, s.earlier);
        blur(inputs.ref.plane(plane), bitdepth, taps, s, s.current);
        float plane_score = mean_abs_difference_of(s.earlier.data(), s.current.data(), plan.width, plan.height);
        if (settings().add_scale1) {
            const int hw = plan.half.dst_width(), hh = plan.half.dst_height();
            const std::size_t half = static_cast<std::size_t>(hw) * static_cast<std::size_t>(hh);
            s.earlier_half.resize(half);
            s.current_half.resize(half);
            plan.half.apply(s.earlier.data(), s.earlier_half.data());
            plan.half.apply(s.current.data(), s.current_half.data());
            plane_score += mean_abs_difference_of(s.earlier_half.data(), s.current_half.data(), hw, hh);
        }
        // Y, then += U, += V in double.
        score = p == 0 ? plane_score : score + plane_score;
    }
    scores.set(0, score);
}

}  // namespace twinvmaf::float_motion
