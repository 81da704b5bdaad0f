// The GPU twin of float_vif: every computed scale's numerator and
// denominator floats (values 2s, 2s + 1), the CPU's bit for bit.
//
//   convert     both luma planes to floats, offset -128 (float_gpu.h)
//   prescale    with vif_prescale: scaled_sample() over the CPU's scaler
//               tables (float_gpu.h DeviceScaler)
//   decimate    scale s > 0: scale s's taps over the scale above at every
//               2nd row and column, the shared separable filter
//               (float_gpu.h filter_halved(): the CPU's filter_decimated())
//   moments     per column, the five vertical passes of add_moment_tap() in
//               tap order from +0; then the shared horizontal pass over the
//               five planes
//   terms       per sample: pixel_terms()
//   rows        one block per row: the terms added in column order from 0
//               (floats) by one thread from the block's staging, as the CPU's
//               row_sums() (float_gpu.h ordered_sums())
//   frame       one block: each scale's row sums added in row order from 0
// The taps, the scaler tables and the statistic's parameters are the CPU
// feature's own (Plan::make()).
#include "features/common/float_gpu.h"
#include "features/float_vif/float_vif.h"

namespace twinvmaf::float_vif {

namespace {

constexpr int kMoments = 5;  // mu1, mu2, xx, yy, xy

__global__ void vertical_moments_kernel(const float* taps, int ntaps, const float* a, const float* b, int w, int h,
                                        float* out)
{
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    if (c >= w) return;
    const int radius = ntaps / 2;
    float mu1 = 0.0f, mu2 = 0.0f, xx = 0.0f, yy = 0.0f, xy = 0.0f;
    for (int k = 0; k < ntaps; ++k) {
        const std::size_t at = static_cast<std::size_t>(float_filter::mirror_tap(i - radius + k, h)) * w + c;
        add_moment_tap(taps[k], a[at], b[at], mu1, mu2, xx, yy, xy);
    }
    const std::size_t plane = static_cast<std::size_t>(w) * h, at = static_cast<std::size_t>(i) * w + c;
    out[at] = mu1;
    out[plane + at] = mu2;
    out[2 * plane + at] = xx;
    out[3 * plane + at] = yy;
    out[4 * plane + at] = xy;
}

__global__ void terms_kernel(const float* filtered, int w, int h, StatisticParams params, float* num, float* den)
{
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    if (j >= w) return;
    const std::size_t plane = static_cast<std::size_t>(w) * h, at = static_cast<std::size_t>(i) * w + j;
    pixel_terms(filtered[at], filtered[plane + at], filtered[2 * plane + at], filtered[3 * plane + at],
                filtered[4 * plane + at], params, &num[at], &den[at]);
}

// One block per row: rows[2i], rows[2i + 1] = row i's numerator and
// denominator, float sums in column order from 0.
__global__ void row_sums_kernel(const float* num, const float* den, int w, float* rows)
{
    const std::size_t at = static_cast<std::size_t>(blockIdx.x) * w;
    float sums[2];
    float_gpu::ordered_sums<2>(w, sums, [&](int j, float (&terms)[2]) {
        terms[0] = num[at + j];
        terms[1] = den[at + j];
    });
    if (threadIdx.x == 0) {
        rows[2 * blockIdx.x] = sums[0];
        rows[2 * blockIdx.x + 1] = sums[1];
    }
}

struct Result {
    float num[kScaleCount];
    float den[kScaleCount];
};

struct ScaleRows {
    int offset[kScaleCount];  // of each scale's row sums (pairs)
    int height[kScaleCount];
    int first;
};

// One block: each scale's row sums in row order from 0.
__global__ void frame_sums_kernel(const float* rows, ScaleRows scales, Result* result)
{
    for (int s = scales.first; s < kScaleCount; ++s) {
        const float* r = rows + 2 * static_cast<std::size_t>(scales.offset[s]);
        float totals[2];
        float_gpu::ordered_sums<2>(scales.height[s], totals, [&](int i, float (&row)[2]) {
            row[0] = r[2 * i];
            row[1] = r[2 * i + 1];
        });
        if (threadIdx.x == 0) {
            result->num[s] = totals[0];
            result->den[s] = totals[1];
        }
    }
}

class FloatVifTwin final : public gpu::DeviceTwin {
public:
    FloatVifTwin(const OptionValues& options, const VideoFormat& format)
        : settings_(Settings::from(options)), plan_(Plan::make(settings_, format.width, format.height))
    {
        for (int s = 0; s < kScaleCount; ++s) taps_[s] = float_gpu::DeviceTaps(plan_.taps[s]);
        if (plan_.prescaled()) scaler_ = float_gpu::DeviceScaler(plan_.scaler);
        const std::size_t picture = static_cast<std::size_t>(plan_.width) * plan_.height;
        top_ = static_cast<std::size_t>(plan_.scale_width[0]) * plan_.scale_height[0];
        int rows = 0;
        for (int s = 0; s < kScaleCount; ++s) {
            scales_.offset[s] = rows;
            scales_.height[s] = plan_.scale_height[s];
            rows += plan_.scale_height[s];
        }
        scales_.first = settings_.first_scale();
        pictures_ = gpu::DeviceArray<float>(2 * picture, "float_vif pictures");
        // ref and dis of the prescaled picture and of two scales (alternating),
        // the five vertical and five filtered planes, the two term planes.
        work_ = gpu::DeviceArray<float>((6 + 2 * kMoments + 2) * top_, "float_vif planes");
        rows_ = gpu::DeviceArray<float>(2 * static_cast<std::size_t>(rows), "float_vif rows");
    }

    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const unsigned bitdepth = frame.format.bitdepth;
        const std::size_t picture = static_cast<std::size_t>(plan_.width) * plan_.height;
        float* ref = pictures_.get();
        float* dis = ref + picture;
        float_gpu::to_float(frame.ref_plane(0), bitdepth, -128.0f, ref, stream);
        float_gpu::to_float(frame.dis_plane(0), bitdepth, -128.0f, dis, stream);
        float* scale_planes[3][2];  // prescaled, then the two alternating scales
        for (int k = 0; k < 3; ++k)
            for (int side = 0; side < 2; ++side) scale_planes[k][side] = work_.get() + (2 * k + side) * top_;
        float* vertical = work_.get() + 6 * top_;
        float* filtered = vertical + kMoments * top_;
        float* num = filtered + kMoments * top_;
        float* den = num + top_;
        if (plan_.prescaled()) {
            scaler_.scale(ref, scale_planes[0][0], stream);
            scaler_.scale(dis, scale_planes[0][1], stream);
            ref = scale_planes[0][0];
            dis = scale_planes[0][1];
        }
        int w = plan_.scale_width[0], h = plan_.scale_height[0];
        for (int scale = settings_.first_scale(); scale < kScaleCount; ++scale) {
            const float_gpu::DeviceTaps& taps = taps_[scale];
            if (scale > 0) {
                float* const* next = scale_planes[1 + scale % 2];
                // The decimation's vertical sums use the (free) filtered planes.
                float_gpu::filter_halved(taps, ref, w, h, filtered, next[0], stream);
                float_gpu::filter_halved(taps, dis, w, h, filtered, next[1], stream);
                ref = next[0];
                dis = next[1];
                w /= 2;
                h /= 2;
            }
            if (!w || !h) continue;
            vertical_moments_kernel<<<float_gpu::grid_of(w, h), float_gpu::kThreads, 0, stream>>>(
                taps.taps.get(), taps.count, ref, dis, w, h, vertical);
            gpu::check_launch("float_vif vertical_moments_kernel");
            // The five planes as one stack of 5h rows: rows never mix.
            float_gpu::horizontal_pass(taps.taps.get(), taps.count, vertical, w, kMoments * h, 1, w, 1, filtered,
                                       stream);
            terms_kernel<<<float_gpu::grid_of(w, h), float_gpu::kThreads, 0, stream>>>(filtered, w, h,
                                                                                      plan_.statistic, num, den);
            gpu::check_launch("float_vif terms_kernel");
            row_sums_kernel<<<h, float_gpu::kStage, 0, stream>>>(
                num, den, w, rows_.get() + 2 * static_cast<std::size_t>(scales_.offset[scale]));
            gpu::check_launch("float_vif row_sums_kernel");
        }
        frame_sums_kernel<<<1, float_gpu::kStage, 0, stream>>>(rows_.get(), scales_,
                                                               static_cast<Result*>(device_result));
        gpu::check_launch("float_vif frame_sums_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const Result*>(host_result);
        for (int s = settings_.first_scale(); s < kScaleCount; ++s) {
            scores.set(2 * static_cast<std::size_t>(s), result->num[s]);
            scores.set(2 * static_cast<std::size_t>(s) + 1, result->den[s]);
        }
    }

private:
    Settings settings_;
    Plan plan_;
    float_gpu::DeviceTaps taps_[kScaleCount];
    float_gpu::DeviceScaler scaler_;
    ScaleRows scales_{};
    std::size_t top_ = 0;  // samples of scale 0
    gpu::DeviceArray<float> pictures_, work_, rows_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<FloatVifTwin>(options, format);
}

}  // namespace twinvmaf::float_vif
