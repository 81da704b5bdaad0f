// The GPU twin of float_ansnr: the frame's signal and noise floats, the CPU's
// bit for bit.
//
//   convert   both luma planes to floats (offset -128), float_gpu.h
//   filter    per sample: the 3x3 reference and 5x5 distorted filters
//             (filtered_sample_at(), the sums of filter_row())
//   rows      one block per row: row_energy()'s terms (signal_term(),
//             noise_term()) staged by the block, and its float sums in
//             column order from 0 run by one thread (float_gpu.h
//             ordered_sums()), as the CPU
//   frame     one block: the row sums added in row order from 0, likewise
#include "features/common/float_gpu.h"
#include "features/float_ansnr/float_ansnr.h"
#include "features/float_ansnr/float_ansnr_math.h"

namespace twinvmaf::float_ansnr {

namespace {

constexpr float kOffset = -128.0f;  // Netflix's picture_copy offset for ANSNR

__global__ void filter_kernel(const float* reference, const float* distorted, int w, int h, float* reference_filtered,
                              float* distorted_filtered)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    if (x >= w) return;
    const float* reference_rows[kReferenceTaps];
    const float* distorted_rows[kDistortedTaps];
    kernel_rows(reference, w, h, y, reference_rows);
    kernel_rows(distorted, w, h, y, distorted_rows);
    const std::size_t at = static_cast<std::size_t>(y) * w + x;
    reference_filtered[at] = filtered_sample_at(reference_kernel(), reference_rows, x, w);
    distorted_filtered[at] = filtered_sample_at(distorted_kernel(), distorted_rows, x, w);
}

// One block per row: row_energy()'s two float chains in column order.
__global__ void row_energy_kernel(const float* reference_filtered, const float* distorted_filtered, int w,
                                  RowEnergy* rows)
{
    const std::size_t at = static_cast<std::size_t>(blockIdx.x) * w;
    const float* r = reference_filtered + at;
    const float* d = distorted_filtered + at;
    float sums[2];
    float_gpu::ordered_sums<2>(w, sums, [&](int x, float (&terms)[2]) {
        terms[0] = signal_term(r[x]);
        terms[1] = noise_term(r[x], d[x]);
    });
    if (threadIdx.x == 0) rows[blockIdx.x] = RowEnergy{sums[0], sums[1]};
}

// The rows in row order.
__global__ void frame_energy_kernel(const RowEnergy* rows, int h, RowEnergy* frame)
{
    float sums[2];
    float_gpu::ordered_sums<2>(h, sums, [&](int y, float (&terms)[2]) {
        terms[0] = rows[y].signal;
        terms[1] = rows[y].noise;
    });
    if (threadIdx.x == 0) *frame = RowEnergy{sums[0], sums[1]};
}

class FloatAnsnrTwin final : public gpu::DeviceTwin {
public:
    explicit FloatAnsnrTwin(const VideoFormat& format)
        : w_(static_cast<int>(format.width)), h_(static_cast<int>(format.height)),
          planes_(4 * static_cast<std::size_t>(w_) * h_, "float_ansnr planes"), rows_(h_, "float_ansnr rows")
    {
    }

    std::size_t result_bytes() const override { return sizeof(RowEnergy); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const std::size_t plane = static_cast<std::size_t>(w_) * h_;
        float* reference = planes_.get();
        float* distorted = reference + plane;
        float* reference_filtered = distorted + plane;
        float* distorted_filtered = reference_filtered + plane;
        const unsigned bitdepth = frame.format.bitdepth;
        float_gpu::to_float(frame.ref_plane(0), bitdepth, kOffset, reference, stream);
        float_gpu::to_float(frame.dis_plane(0), bitdepth, kOffset, distorted, stream);
        filter_kernel<<<float_gpu::grid_of(w_, h_), float_gpu::kThreads, 0, stream>>>(
            reference, distorted, w_, h_, reference_filtered, distorted_filtered);
        gpu::check_launch("float_ansnr filter_kernel");
        row_energy_kernel<<<h_, float_gpu::kStage, 0, stream>>>(reference_filtered, distorted_filtered, w_,
                                                                 rows_.get());
        gpu::check_launch("float_ansnr row_energy_kernel");
        frame_energy_kernel<<<1, float_gpu::kStage, 0, stream>>>(rows_.get(), h_,
                                                                 static_cast<RowEnergy*>(device_result));
        gpu::check_launch("float_ansnr frame_energy_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* frame = static_cast<const RowEnergy*>(host_result);
        scores.set(0, frame->signal);
        scores.set(1, frame->noise);
    }

private:
    int w_, h_;
    gpu::DeviceArray<float> planes_;  // reference, distorted and both filtered
    gpu::DeviceArray<RowEnergy> rows_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<FloatAnsnrTwin>(format);
}

}  // namespace twinvmaf::float_ansnr
