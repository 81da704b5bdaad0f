// The GPU twin of float_vif: every computed scale's numerator and
// denominator floats (values 2s, 2s + 1), the CPU's bit for bit.
//
//   convert     with vif_prescale: both luma planes to floats, offset -128
//               (float_gpu.h), then scaled_sample() over the CPU's scaler
//               tables (float_gpu.h DeviceScaler); without, the stages of
//               scale 0 read the samples and convert each as they do
//               (float_gpu.h SampleRows)
//   decimate    scale s > 0: scale s's taps over the scale above at every
//               2nd row and column, the shared separable filter
//               (float_gpu.h filter_halved(), filter_halved_samples(): the
//               CPU's filter_decimated())
//   moments     per column, the five vertical passes of add_moment_tap() in
//               tap order from +0, into five planes
//   rows        one block per row: its threads beyond the first warp compute
//               each column's five horizontal sums (horizontal_sum(), the
//               CPU's horizontal_pass()) and pixel_terms(); thread 0 adds the
//               terms in column order from 0 (floats), as the CPU's
//               row_sums(), while the next ones are staged (float_gpu.h
//               overlapped_chain())
//   frame       one block: each scale's row sums added in row order from 0
// The taps, the scaler tables and the statistic's parameters are the CPU
// feature's own (Plan::make()).
#include "features/common/float_gpu.h"
#include "features/float_vif/float_vif.h"

namespace twinvmaf::float_vif {

namespace {

constexpr int kMoments = 5;  // mu1, mu2, xx, yy, xy

template <class Rows>
__global__ void vertical_moments_kernel(const float* taps, int ntaps, Rows a, Rows b, int w, int h, float* out)
{
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    if (c >= w) return;
    const int radius = ntaps / 2;
    float mu1 = 0.0f, mu2 = 0.0f, xx = 0.0f, yy = 0.0f, xy = 0.0f;
    for (int k = 0; k < ntaps; ++k) {
        const int row = float_filter::mirror_tap(i - radius + k, h);
        add_moment_tap(taps[k], a(row, c), b(row, c), mu1, mu2, xx, yy, xy);
    }
    const std::size_t plane = static_cast<std::size_t>(w) * h, at = static_cast<std::size_t>(i) * w + c;
    out[at] = mu1;
    out[plane + at] = mu2;
    out[2 * plane + at] = xx;
    out[3 * plane + at] = yy;
    out[4 * plane + at] = xy;
}

template <class Rows>
void vertical_moments(const float_gpu::DeviceTaps& taps, Rows a, Rows b, int w, int h, float* out, gpuStream_t stream)
{
    vertical_moments_kernel<<<float_gpu::grid_of(w, h), float_gpu::kThreads, 0, stream>>>(taps.taps.get(), taps.count,
                                                                                          a, b, w, h, out);
    gpu::check_launch("float_vif vertical_moments_kernel");
}

struct Terms {
    float num, den;
};
struct AddTerms {
    __device__ Terms operator()(Terms sums, Terms terms) const { return {sums.num + terms.num, sums.den + terms.den}; }
};

constexpr unsigned kRowThreads = 128;  // the chain thread's warp and three staging
constexpr unsigned kChunk = 256;       // terms staged at a time

// One block per row: rows[2i], rows[2i + 1] = row i's numerator and
// denominator, float sums in column order from 0 of the terms of the five
// filtered moments (the horizontal taps over the vertical planes).
__global__ void __launch_bounds__(kRowThreads)
    row_sums_kernel(const float* taps, int ntaps, const float* __restrict__ vertical, int w, int h,
                    StatisticParams params, float* rows)
{
    const std::size_t plane = static_cast<std::size_t>(w) * h, at = static_cast<std::size_t>(blockIdx.x) * w;
    Terms sums{0.0f, 0.0f};
    float_gpu::overlapped_chain<kChunk, Terms>(
        w, sums,
        [&](int j) {
            float m[kMoments];
            for (int k = 0; k < kMoments; ++k)
                m[k] = float_filter::horizontal_sum(taps, ntaps, vertical + k * plane + at, w, j);
            Terms terms;
            pixel_terms(m[0], m[1], m[2], m[3], m[4], params, &terms.num, &terms.den);
            return terms;
        },
        AddTerms{});
    if (threadIdx.x == 0) {
        rows[2 * blockIdx.x] = sums.num;
        rows[2 * blockIdx.x + 1] = sums.den;
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
        top_ = static_cast<std::size_t>(plan_.scale_width[0]) * plan_.scale_height[0];
        if (plan_.prescaled()) {
            scaler_ = float_gpu::DeviceScaler(plan_.scaler);
            pictures_ = gpu::DeviceArray<float>(2 * static_cast<std::size_t>(plan_.width) * plan_.height,
                                                "float_vif pictures");
        }
        int rows = 0;
        for (int s = 0; s < kScaleCount; ++s) {
            scales_.offset[s] = rows;
            scales_.height[s] = plan_.scale_height[s];
            rows += plan_.scale_height[s];
        }
        scales_.first = settings_.first_scale();
        // ref and dis of the prescaled picture and of two scales (alternating),
        // the five vertical planes.
        work_ = gpu::DeviceArray<float>((6 + kMoments) * top_, "float_vif planes");
        rows_ = gpu::DeviceArray<float>(2 * static_cast<std::size_t>(rows), "float_vif rows");
    }

    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const unsigned bitdepth = frame.format.bitdepth;
        float* scale_planes[3][2];  // prescaled, then the two alternating scales
        for (int k = 0; k < 3; ++k)
            for (int side = 0; side < 2; ++side) scale_planes[k][side] = work_.get() + (2 * k + side) * top_;
        float* vertical = work_.get() + 6 * top_;
        // The current scale as floats; none while scale 0 is the frame's samples.
        const float* ref = nullptr;
        const float* dis = nullptr;
        if (plan_.prescaled()) {
            const std::size_t picture = static_cast<std::size_t>(plan_.width) * plan_.height;
            float* ref_float = pictures_.get();
            float* dis_float = ref_float + picture;
            float_gpu::to_float(frame.ref_plane(0), bitdepth, -128.0f, ref_float, stream);
            float_gpu::to_float(frame.dis_plane(0), bitdepth, -128.0f, dis_float, stream);
            scaler_.scale(ref_float, scale_planes[0][0], stream);
            scaler_.scale(dis_float, scale_planes[0][1], stream);
            ref = scale_planes[0][0];
            dis = scale_planes[0][1];
        }
        int w = plan_.scale_width[0], h = plan_.scale_height[0];
        for (int scale = settings_.first_scale(); scale < kScaleCount; ++scale) {
            const float_gpu::DeviceTaps& taps = taps_[scale];
            if (scale > 0) {
                float* const* next = scale_planes[1 + scale % 2];
                // The decimation's vertical sums use the (free) vertical planes.
                if (ref) {
                    float_gpu::filter_halved(taps, ref, w, h, vertical, next[0], stream);
                    float_gpu::filter_halved(taps, dis, w, h, vertical, next[1], stream);
                } else {
                    float_gpu::filter_halved_samples(taps, frame.ref_plane(0), bitdepth, -128.0f, vertical, next[0],
                                                     stream);
                    float_gpu::filter_halved_samples(taps, frame.dis_plane(0), bitdepth, -128.0f, vertical, next[1],
                                                     stream);
                }
                ref = next[0];
                dis = next[1];
                w /= 2;
                h /= 2;
            }
            if (!w || !h) continue;
            if (ref) {
                vertical_moments(taps, float_gpu::FloatRows{ref, w}, float_gpu::FloatRows{dis, w}, w, h, vertical,
                                 stream);
            } else if (bitdepth > 8) {
                vertical_moments(taps, float_gpu::sample_rows<std::uint16_t>(frame.ref_plane(0), bitdepth, -128.0f),
                                 float_gpu::sample_rows<std::uint16_t>(frame.dis_plane(0), bitdepth, -128.0f), w, h,
                                 vertical, stream);
            } else {
                vertical_moments(taps, float_gpu::sample_rows<std::uint8_t>(frame.ref_plane(0), bitdepth, -128.0f),
                                 float_gpu::sample_rows<std::uint8_t>(frame.dis_plane(0), bitdepth, -128.0f), w, h,
                                 vertical, stream);
            }
            row_sums_kernel<<<h, kRowThreads, 0, stream>>>(taps.taps.get(), taps.count, vertical, w, h,
                                                            plan_.statistic,
                                                            rows_.get() + 2 * static_cast<std::size_t>(scales_.offset[scale]));
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
