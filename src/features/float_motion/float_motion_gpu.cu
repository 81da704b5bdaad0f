// The GPU twin of float_motion: the frame's score (value 0), the CPU's
// double bit for bit.
//
// Per plane (luma; U and V with motion_add_uv), for the earlier and the
// current reference picture:
//   convert   to floats, offset -128 (float_gpu.h)
//   blur      the shared separable filter: vertical sums, then horizontal
//             taps (float_gpu.h filter_plane(), float_filter_math.h), the
//             sums of the CPU's filter_plane()
//   half      with motion_add_scale1: the bilinear half size of both blurs
//             (scaled_sample() over the CPU's scaler tables)
// then one block per row runs the row's chain of add_abs_difference() in
// column order from 0 (a float, as the CPU; the block stages the
// differences, one thread adds: float_gpu.h serial_chains()), and one block
// adds the rows in row order, divides (mean_abs_difference()), adds the half
// size's mean in float and the planes' scores in double, Y + U + V: the CPU's
// order throughout.
#include <algorithm>

#include "features/common/float_gpu.h"
#include "features/float_motion/float_motion.h"

namespace twinvmaf::float_motion {

namespace {

constexpr int kMaxPlanes = 3;

// Where each plane's (and half size's) row sums are, and its geometry.
struct Part {
    int rows_offset = 0;
    int w = 0, h = 0;
};
struct Parts {
    Part full[kMaxPlanes];
    Part half[kMaxPlanes];
    int planes = 0;
    bool add_scale1 = false;
};

struct AddAbs {
    __device__ float operator()(float accum, float difference) const { return add_abs(accum, difference); }
};

// One block per row: the differences staged by the block, the row's chain
// of add_abs() (add_abs_difference()) in column order from 0 in one thread.
__global__ void row_sad_kernel(const float* earlier, const float* current, int w, float* rows)
{
    const float* a = earlier + static_cast<std::size_t>(blockIdx.x) * w;
    const float* b = current + static_cast<std::size_t>(blockIdx.x) * w;
    float line[1] = {0.0f};
    float_gpu::serial_chains<1, float>(
        w, line, [&](int j, float (&difference)[1]) { difference[0] = a[j] - b[j]; }, AddAbs{});
    if (threadIdx.x == 0) rows[blockIdx.x] = line[0];
}

// The rows in row order, over the pixel count (every thread calls it).
__device__ float part_mean(const float* rows, const Part& part)
{
    float accum[1];
    float_gpu::ordered_sums<1>(part.h, accum,
                               [&](int i, float (&row)[1]) { row[0] = rows[part.rows_offset + i]; });
    return mean_abs_difference(accum[0], part.w, part.h);
}

// One block.
__global__ void score_kernel(const float* rows, Parts parts, double* score)
{
    double total = 0.0;
    for (int p = 0; p < parts.planes; ++p) {
        float plane_score = part_mean(rows, parts.full[p]);
        if (parts.add_scale1) plane_score += part_mean(rows, parts.half[p]);
        total = p == 0 ? plane_score : total + plane_score;
    }
    if (threadIdx.x == 0) *score = total;
}

class FloatMotionTwin final : public gpu::DeviceTwin {
public:
    FloatMotionTwin(const OptionValues& options, const VideoFormat& format)
        : planner_(Settings::from(options), options)
    {
        planner_.init(format);
        const Settings& settings = planner_.settings();
        if (settings.force_zero) return;
        const BlurTaps blur = blur_taps(settings.filter_size);
        taps_ = float_gpu::DeviceTaps(std::vector<float>(blur.taps, blur.taps + blur.count));
        std::size_t largest = 0, largest_half = 0;
        int rows = 0;
        const auto& plans = planner_.planes();
        parts_.planes = static_cast<int>(plans.size());
        parts_.add_scale1 = settings.add_scale1;
        for (std::size_t p = 0; p < plans.size(); ++p) {
            const PlanePlan& plan = plans[p];
            largest = std::max(largest, static_cast<std::size_t>(plan.width) * plan.height);
            parts_.full[p] = {rows, plan.width, plan.height};
            rows += plan.height;
            if (settings.add_scale1) {
                const int hw = plan.half.dst_width(), hh = plan.half.dst_height();
                largest_half = std::max(largest_half, static_cast<std::size_t>(hw) * hh);
                parts_.half[p] = {rows, hw, hh};
                rows += hh;
                halves_[p] = float_gpu::DeviceScaler(plan.half);
            }
        }
        // earlier and current: picture, vertical sums, blur; then their halves.
        pictures_ = gpu::DeviceArray<float>(6 * largest + 2 * largest_half, "float_motion planes");
        largest_ = largest;
        rows_ = gpu::DeviceArray<float>(static_cast<std::size_t>(rows), "float_motion rows");
    }

    std::size_t result_bytes() const override { return sizeof(double); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        // As FloatMotionCpu::extract(): frame 0 and motion_force_zero score nothing.
        if (planner_.settings().force_zero || frame.index == 0) return;
        if (frame.previous_count < 1)
            throw Error("internal: float_motion's GPU twin is missing frame " + std::to_string(frame.index - 1));
        const unsigned bitdepth = frame.format.bitdepth;
        float* earlier = pictures_.get() + 2 * largest_;
        float* current = earlier + largest_;
        float* earlier_half = pictures_.get() + 6 * largest_;
        for (int p = 0; p < parts_.planes; ++p) {
            const Part& full = parts_.full[p];
            blur(frame.previous_ref_plane(1, p), bitdepth, full, earlier, stream);
            blur(frame.ref_plane(p), bitdepth, full, current, stream);
            row_sad(earlier, current, full, stream);
            if (parts_.add_scale1) {
                const Part& half = parts_.half[p];
                float* current_half = earlier_half + static_cast<std::size_t>(half.w) * half.h;
                halves_[p].scale(earlier, earlier_half, stream);
                halves_[p].scale(current, current_half, stream);
                row_sad(earlier_half, current_half, half, stream);
            }
        }
        score_kernel<<<1, float_gpu::kStage, 0, stream>>>(rows_.get(), parts_, static_cast<double*>(device_result));
        gpu::check_launch("float_motion score_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, *static_cast<const double*>(host_result));
    }

private:
    // The plane as floats into the buffers' first part, its vertical sums
    // into the second, the blur into `out`.
    void blur(const gpu::DevicePlane& plane, unsigned bitdepth, const Part& part, float* out, gpuStream_t stream)
    {
        float* picture = pictures_.get();
        float* vertical = picture + largest_;
        float_gpu::to_float(plane, bitdepth, -128.0f, picture, stream);
        float_gpu::filter_plane(taps_, picture, part.w, part.h, vertical, out, stream);
    }

    void row_sad(const float* a, const float* b, const Part& part, gpuStream_t stream)
    {
        if (!part.h) return;
        row_sad_kernel<<<part.h, float_gpu::kStage, 0, stream>>>(a, b, part.w, rows_.get() + part.rows_offset);
        gpu::check_launch("float_motion row_sad_kernel");
    }

    FloatMotionCpu planner_;  // the CPU feature's plan (sizes, half-size scalers)
    float_gpu::DeviceTaps taps_;
    float_gpu::DeviceScaler halves_[kMaxPlanes];
    Parts parts_;
    std::size_t largest_ = 0;
    gpu::DeviceArray<float> pictures_, rows_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<FloatMotionTwin>(options, format);
}

}  // namespace twinvmaf::float_motion
