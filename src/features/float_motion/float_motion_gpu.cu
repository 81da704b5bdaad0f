// The GPU twin of float_motion: the frame's score (value 0), the CPU's
// double bit for bit.
//
// Per plane (luma; U and V with motion_add_uv) of the current reference
// picture:
//   vertical  the separable blur's vertical sums, straight from the samples
//             (float_gpu.h vertical_pass_of_samples(): the conversion of
//             float_picture.h with offset -128 inside each tap)
//   row SAD   one block per row: its threads beyond the first warp compute
//             the blur's horizontal taps (horizontal_sum(), float_filter_
//             math.h) and write the blurred row, then absolute_difference()
//             against the earlier picture's blurred row; thread 0 runs the
//             row's chain of add_absolute() in column order from 0 over them
//             while the next ones are staged (float_gpu.h overlapped_chain())
//   half      with motion_add_scale1: the bilinear half size of the blur
//             (scaled_sample() over the CPU's scaler tables), and its row SADs
//             against the earlier half in the same way
// then one block adds each plane's rows in row order, divides
// (mean_abs_difference()), adds the half size's mean in float and the
// planes' scores in double, Y + U + V: the CPU's order throughout. The
// blurred values are filter_plane()'s: every tap sum keeps its order.
//
// The blurs of the current picture are kept for the next frame, whose
// earlier picture it is (the CPU blurs both pictures every frame; a blur is a
// function of its picture alone, so the values are the same). A frame
// reuses them only when they are of frame index - 1 in the slot it reads as
// its earlier picture (frames of a run are enqueued in order on the twin's
// stream); otherwise, at frame 1 and after an engine served another pair
// (batch mode, the library's engine cache: a new pair starts at frame 0,
// which scores nothing and keeps nothing), it blurs the earlier picture
// first (float_gpu.h filter_samples(), the same sums).
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

struct AddAbsolute {
    __device__ float operator()(float accum, double absolute) const { return add_absolute(accum, absolute); }
};

constexpr unsigned kChainThreads = 64;  // a chain thread's warp and one warp staging
constexpr unsigned kChunk = 256;        // values staged at a time

// One block per row of the blur: its horizontal taps over the row of vertical
// sums, written to `current`, and the row's SAD against `earlier` into rows.
__global__ void __launch_bounds__(kChainThreads)
    blur_row_sad_kernel(const float* taps, int ntaps, const float* __restrict__ vertical,
                        const float* __restrict__ earlier, float* __restrict__ current, int w, float* rows)
{
    const std::size_t row = static_cast<std::size_t>(blockIdx.x) * w;
    float line = 0.0f;
    float_gpu::overlapped_chain<kChunk, double>(
        w, line,
        [&](int j) {
            const float blurred = float_filter::horizontal_sum(taps, ntaps, vertical + row, w, j);
            current[row + j] = blurred;
            return absolute_difference(earlier[row + j], blurred);
        },
        AddAbsolute{});
    if (threadIdx.x == 0) rows[blockIdx.x] = line;
}

// One block per row: the row's SAD of two packed planes (the half sizes).
__global__ void __launch_bounds__(kChainThreads)
    row_sad_kernel(const float* __restrict__ earlier, const float* __restrict__ current, int w, float* rows)
{
    const std::size_t row = static_cast<std::size_t>(blockIdx.x) * w;
    float line = 0.0f;
    float_gpu::overlapped_chain<kChunk, double>(
        w, line, [&](int j) { return absolute_difference(earlier[row + j], current[row + j]); }, AddAbsolute{});
    if (threadIdx.x == 0) rows[blockIdx.x] = line;
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
        std::size_t largest = 0, set = 0;
        int rows = 0;
        const auto& plans = planner_.planes();
        parts_.planes = static_cast<int>(plans.size());
        parts_.add_scale1 = settings.add_scale1;
        for (std::size_t p = 0; p < plans.size(); ++p) {
            const PlanePlan& plan = plans[p];
            const std::size_t samples = static_cast<std::size_t>(plan.width) * plan.height;
            largest = std::max(largest, samples);
            parts_.full[p] = {rows, plan.width, plan.height};
            rows += plan.height;
            full_at_[p] = set;
            set += samples;
            if (settings.add_scale1) {
                const int hw = plan.half.dst_width(), hh = plan.half.dst_height();
                parts_.half[p] = {rows, hw, hh};
                rows += hh;
                halves_[p] = float_gpu::DeviceScaler(plan.half);
                half_at_[p] = set;
                set += static_cast<std::size_t>(hw) * hh;
            }
        }
        vertical_ = gpu::DeviceArray<float>(largest, "float_motion vertical sums");
        // Two sets of every plane's blur (and half size): the kept one of the
        // frame before, and the one of this frame.
        set_size_ = set;
        blurs_ = gpu::DeviceArray<float>(2 * set, "float_motion blurs");
        rows_ = gpu::DeviceArray<float>(static_cast<std::size_t>(rows), "float_motion rows");
    }

    std::size_t result_bytes() const override { return sizeof(double); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        // Whatever happens below, the kept blurs are not of this frame until
        // its kernels are all enqueued.
        const bool reuse = kept_ && kept_index_ + 1 == frame.index && frame.previous_count >= 1 &&
                           kept_picture_ == frame.previous_ref[0];
        kept_ = false;
        // As FloatMotionCpu::extract(): frame 0 and motion_force_zero score nothing.
        if (planner_.settings().force_zero || frame.index == 0) return;
        if (frame.previous_count < 1)
            throw Error("internal: float_motion's GPU twin is missing frame " + std::to_string(frame.index - 1));
        const unsigned bitdepth = frame.format.bitdepth;
        float* earlier = blurs_.get() + kept_set_ * set_size_;
        float* current = blurs_.get() + (1 - kept_set_) * set_size_;
        for (int p = 0; p < parts_.planes; ++p) {
            const Part& full = parts_.full[p];
            float* earlier_full = earlier + full_at_[p];
            float* current_full = current + full_at_[p];
            if (!reuse) {
                float_gpu::filter_samples(taps_, frame.previous_ref_plane(1, p), bitdepth, -128.0f, vertical_.get(),
                                          earlier_full, stream);
                if (parts_.add_scale1) halves_[p].scale(earlier_full, earlier + half_at_[p], stream);
            }
            float_gpu::vertical_pass_of_samples(taps_.taps.get(), taps_.count, frame.ref_plane(p), bitdepth, -128.0f,
                                                1, full.h, vertical_.get(), stream);
            if (full.h) {
                blur_row_sad_kernel<<<full.h, kChainThreads, 0, stream>>>(taps_.taps.get(), taps_.count,
                                                                          vertical_.get(), earlier_full, current_full,
                                                                          full.w, rows_.get() + full.rows_offset);
                gpu::check_launch("float_motion blur_row_sad_kernel");
            }
            if (parts_.add_scale1) {
                const Part& half = parts_.half[p];
                halves_[p].scale(current_full, current + half_at_[p], stream);
                if (half.h) {
                    row_sad_kernel<<<half.h, kChainThreads, 0, stream>>>(earlier + half_at_[p], current + half_at_[p],
                                                                         half.w, rows_.get() + half.rows_offset);
                    gpu::check_launch("float_motion row_sad_kernel");
                }
            }
        }
        score_kernel<<<1, float_gpu::kStage, 0, stream>>>(rows_.get(), parts_, static_cast<double*>(device_result));
        gpu::check_launch("float_motion score_kernel");
        kept_set_ = 1 - kept_set_;
        kept_index_ = frame.index;
        kept_picture_ = frame.ref;
        kept_ = true;
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, *static_cast<const double*>(host_result));
    }

private:
    FloatMotionCpu planner_;  // the CPU feature's plan (sizes, half-size scalers)
    float_gpu::DeviceTaps taps_;
    float_gpu::DeviceScaler halves_[kMaxPlanes];
    Parts parts_;
    // Where each plane's blur and half size are in a set of blurs.
    std::size_t full_at_[kMaxPlanes] = {}, half_at_[kMaxPlanes] = {};
    std::size_t set_size_ = 0;
    gpu::DeviceArray<float> vertical_, blurs_, rows_;
    // The set holding the blurs of frame kept_index_'s reference picture
    // (device address kept_picture_), valid while kept_.
    unsigned kept_set_ = 0;
    bool kept_ = false;
    std::uint64_t kept_index_ = 0;
    const std::uint8_t* kept_picture_ = nullptr;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<FloatMotionTwin>(options, format);
}

}  // namespace twinvmaf::float_motion
