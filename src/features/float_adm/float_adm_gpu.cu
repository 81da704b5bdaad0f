// The GPU twin of float_adm: every scale's ScaleSums (the float sums of each
// orientation), the CPU's bit for bit; collect() (host) takes their roots.
//
// Per scale, on the CPU's band layout (planes of the scale's width, buffers
// of scale 0's size, as float_adm_cpu.cpp):
//   wavelet     vertical pass per input column (dwt_vertical_column();
//               scale 0 converts the samples as it reads them, as to_float()
//               would), then the four bands per output column
//               (dwt_horizontal()); ref and dis in one launch
//   den rows    one block per (scored row, orientation): reference_row_sum()'s
//               terms (reference_term()), its chain in one thread
//   decouple    per coefficient of the decoupled region:
//               decouple_and_weigh() (Intel's RCPSS emulated bit for bit by
//               core/intel_rcp.h: integer arithmetic, the same on a device)
//   thresholds  per scored coefficient and part: masking_threshold() of the
//               other part (0 with adm_bypass_cm)
//   masked rows one block per (scored row, orientation, part):
//               masked_row_sum()'s terms (masked_term()), its chain in one
//               thread
//   sums        one block: each orientation's rows added in row order from
//               0, as the CPU's loops
// (A chain's terms are computed and staged in shared memory by the block's
// threads, and one thread adds them in order: float_gpu.h ordered_sums().)
// Every row sum is serial from the left and every total serial from the top,
// exactly the CPU's order. Every option runs here: with adm_p_norm != 3 the
// terms are term_powf() (float_adm_math.h), our implementation of glibc's
// powf (core/glibc_powf.h) that the CPU reference calls too. Frames with a
// band 1 sample wide or high (at most 48x48) run float_adm_arena.h's
// frame_sums() in one device thread, in Netflix's buffer layout, as the CPU.

#include "features/adm/adm_dwt_math.h"
#include "features/common/float_gpu.h"
#include "features/float_adm/float_adm.h"
#include "features/float_adm/float_adm_arena.h"

namespace twinvmaf::float_adm {

namespace {

constexpr int kSides = 2;  // ref, dis
constexpr int kParts = 2;  // restored, additive
constexpr int kRowKinds = 1 + kParts;  // den, dlm (restored), aim (additive)

// The device buffers of one side or part, as pointers.
struct Bands {
    float* approx[kSides][2];               // a bands of ref, dis; scales alternate
    float* detail[kSides][kOrientations];   // h, v, d
    float* low[kSides];                     // the vertical pass (input width x height)
    float* high[kSides];
    float* weighted[kParts][kOrientations];
    float* masking[kParts][kOrientations];
    float* threshold[kParts];  // of the measured part, from the other one
    float* rows;               // [kind][orientation][scored row] of one scale
};

__global__ void dwt_vertical_kernel(ScaleParams p, const float* ref_input, const float* dis_input, Bands b)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    const int side = static_cast<int>(blockIdx.z);
    if (x >= p.input_width) return;
    const float* input = side == 0 ? ref_input : dis_input;
    const adm::Taps taps = adm::dwt_taps(y, p.input_height);
    const float* rows[4];
    for (int k = 0; k < 4; ++k) rows[k] = input + static_cast<std::ptrdiff_t>(taps.index[k]) * p.input_width;
    const std::size_t at = static_cast<std::size_t>(y) * p.input_width + x;
    dwt_vertical_column(rows, x, b.low[side] + at, b.high[side] + at);
}

// Scale 0's vertical pass read from the frame's samples: each tap's input is
// the float to_float() would have written (float_gpu::SampleRows), so the
// bands are the same without writing and reading a float picture per side.
template <class Sample>
__global__ void dwt_vertical_of_samples_kernel(ScaleParams p, float_gpu::SampleRows<Sample> ref,
                                               float_gpu::SampleRows<Sample> dis, Bands b)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    const int side = static_cast<int>(blockIdx.z);
    if (x >= p.input_width) return;
    const float_gpu::SampleRows<Sample>& input = side == 0 ? ref : dis;
    const adm::Taps taps = adm::dwt_taps(y, p.input_height);
    const std::size_t at = static_cast<std::size_t>(y) * p.input_width + x;
    dwt_vertical_taps(input(taps.index[0], x), input(taps.index[1], x), input(taps.index[2], x),
                      input(taps.index[3], x), b.low[side] + at, b.high[side] + at);
}

__global__ void dwt_horizontal_kernel(ScaleParams p, int scale, Bands b)
{
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    const int side = static_cast<int>(blockIdx.z);
    if (j >= p.width) return;
    const std::size_t row = static_cast<std::size_t>(y) * p.input_width;
    const std::size_t at = static_cast<std::size_t>(y) * p.width + j;
    float* const* detail = b.detail[side];
    dwt_horizontal(b.low[side] + row, b.high[side] + row, p.input_width, j, b.approx[side][scale % 2] + at,
                   detail[1] + at, detail[0] + at, detail[2] + at);
}

__device__ float* row_sum_at(const Bands& b, const ScaleParams& p, int kind, int theta, int row)
{
    const int rows = p.scored.height();
    return b.rows + (static_cast<std::size_t>(kind) * kOrientations + theta) * rows + row;
}

// The per-coefficient power of the row kernels: kCube is adm_p_norm == 3
// made a compile-time constant, so that the default kernels hold only
// power()'s x * x * x and none of the general powf's code (which
// slowed them by a fifth on the H200 as a branch never taken).
template <bool kCube>
__device__ double p_norm_of(double p_norm)
{
    return kCube ? 3.0 : p_norm;
}

// One block per (scored row, orientation): reference_row_sum()'s terms
// staged by the block, its float chain from the left in one thread.
template <bool kCube>
__global__ void den_rows_kernel(ScaleParams p, double p_norm_option, Bands b)
{
    const double p_norm = p_norm_of<kCube>(p_norm_option);
    const int r = static_cast<int>(blockIdx.x), theta = static_cast<int>(blockIdx.y);
    const float* reference = b.detail[0][theta] + static_cast<std::size_t>(p.scored.top + r) * p.width + p.scored.left;
    const float weight = p.weight[theta];
    float sum[1];
    float_gpu::ordered_sums<1>(p.scored.width(), sum, [&](int j, float (&term)[1]) {
        term[0] = reference_term(reference[j], weight, p_norm);
    });
    if (threadIdx.x == 0) *row_sum_at(b, p, 0, theta, r) = sum[0];
}

__global__ void decouple_kernel(ScaleParams p, DecoupleParams decouple, Bands b)
{
    const int x = p.decoupled.left + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = p.decoupled.top + static_cast<int>(blockIdx.y);
    if (x >= p.decoupled.right) return;
    const std::size_t at = static_cast<std::size_t>(y) * p.width + x;
    float o[kOrientations], t[kOrientations], weighted[kParts][kOrientations], masking[kParts][kOrientations];
    for (int theta = 0; theta < kOrientations; ++theta) {
        o[theta] = b.detail[0][theta][at];
        t[theta] = b.detail[1][theta][at];
    }
    decouple_and_weigh(o, t, decouple, p.weight, weighted, masking);
    for (int part = 0; part < kParts; ++part) {
        for (int theta = 0; theta < kOrientations; ++theta) {
            b.weighted[part][theta][at] = weighted[part][theta];
            b.masking[part][theta][at] = masking[part][theta];
        }
    }
}

__global__ void threshold_kernel(ScaleParams p, bool bypass_cm, Bands b)
{
    const int x = p.scored.left + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = p.scored.top + static_cast<int>(blockIdx.y);
    const int measured = static_cast<int>(blockIdx.z);
    if (x >= p.scored.right) return;
    const int other = 1 - measured;
    CsfPlanes planes;
    for (int theta = 0; theta < kOrientations; ++theta) {
        planes.weighted[theta] = b.weighted[other][theta];
        planes.masking[theta] = b.masking[other][theta];
    }
    planes.stride = p.width;
    b.threshold[measured][static_cast<std::size_t>(y) * p.width + x] =
        bypass_cm ? 0.0f : masking_threshold(planes, p.width, p.height, y, x);
}

// One block per (scored row, orientation, part): masked_row_sum()'s terms
// (masked_term()) staged by the block, its float chain from the left in one
// thread.
template <bool kCube>
__global__ void masked_rows_kernel(ScaleParams p, double p_norm_option, Bands b)
{
    const double p_norm = p_norm_of<kCube>(p_norm_option);
    const int r = static_cast<int>(blockIdx.x), theta = static_cast<int>(blockIdx.y);
    const int measured = static_cast<int>(blockIdx.z);
    const std::size_t row = static_cast<std::size_t>(p.scored.top + r) * p.width + p.scored.left;
    const float* measured_row = b.weighted[measured][theta] + row;
    const float* threshold = b.threshold[measured] + row;
    float sum[1];
    float_gpu::ordered_sums<1>(p.scored.width(), sum, [&](int j, float (&term)[1]) {
        term[0] = masked_term(measured_row[j], threshold[j], p_norm);
    });
    if (threadIdx.x == 0) *row_sum_at(b, p, 1 + measured, theta, r) = sum[0];
}

// One block: each orientation's den, dlm and aim rows in row order from 0.
__global__ void scale_sums_kernel(ScaleParams p, Bands b, ScaleSums* out)
{
    constexpr unsigned kChains = kRowKinds * kOrientations;
    float sums[kChains];
    float_gpu::ordered_sums<kChains>(p.scored.height(), sums, [&](int r, float (&rows)[kChains]) {
        for (int kind = 0; kind < kRowKinds; ++kind)
            for (int theta = 0; theta < kOrientations; ++theta)
                rows[kind * kOrientations + theta] = *row_sum_at(b, p, kind, theta, r);
    });
    if (threadIdx.x != 0) return;
    ScaleSums result;
    for (int theta = 0; theta < kOrientations; ++theta) {
        result.den[theta] = sums[theta];
        result.dlm[theta] = sums[kOrientations + theta];
        result.aim[theta] = sums[2 * kOrientations + theta];
    }
    *out = result;
}

struct Result {
    ScaleSums scale[kScales];
};

// FrameParams::netflix_layout: the whole frame in one thread (a tiny frame).
__global__ void arena_kernel(FrameParams frame, int width, int height, const float* ref, const float* dis,
                             float* memory, float* low, float* high, Result* out)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    arena::frame_sums(ref, dis, width, height, frame, memory, low, high, out->scale);
}

class FloatAdmTwin final : public gpu::DeviceTwin {
public:
    FloatAdmTwin(const OptionValues& options, const VideoFormat& format) : planner_(Settings::from(options))
    {
        planner_.init(format);
        const FrameParams& frame = planner_.params();
        picture_ = static_cast<std::size_t>(format.width) * format.height;
        width_ = static_cast<int>(format.width);
        height_ = static_cast<int>(format.height);
        if (frame.netflix_layout) {
            // The pictures, Netflix's planes and the vertical pass's two rows.
            arena_floats_ = static_cast<std::size_t>(arena::layout(width_, height_).floats());
            memory_ = gpu::DeviceArray<float>(kSides * picture_ + arena_floats_ + 2 * format.width,
                                              "float_adm planes");
            return;
        }
        const std::size_t band = static_cast<std::size_t>(frame.scale[0].width) * frame.scale[0].height;
        const std::size_t vertical = static_cast<std::size_t>(format.width) * frame.scale[0].height;
        rows_per_scale_ = static_cast<std::size_t>(kRowKinds) * kOrientations * frame.scale[0].height;
        const std::size_t bands = kSides * 2 + kSides * kOrientations + 2 * kParts * kOrientations + kParts;
        // No float pictures: scale 0's vertical pass reads the samples.
        memory_ = gpu::DeviceArray<float>(kSides * 2 * vertical + bands * band + kScales * rows_per_scale_,
                                          "float_adm planes");
        float* next = memory_.get();
        auto take = [&](std::size_t count) {
            float* at = next;
            next += count;
            return at;
        };
        for (int side = 0; side < kSides; ++side) {
            bands_.low[side] = take(vertical);
            bands_.high[side] = take(vertical);
            for (float*& a : bands_.approx[side]) a = take(band);
            for (float*& d : bands_.detail[side]) d = take(band);
        }
        for (int part = 0; part < kParts; ++part) {
            for (float*& w : bands_.weighted[part]) w = take(band);
            for (float*& m : bands_.masking[part]) m = take(band);
            bands_.threshold[part] = take(band);
        }
        rows_ = next;
        // As the CPU's scratch starts: zeroed.
        gpu::check(gpuMemsetAsync(memory_.get(), 0, (next - memory_.get() + kScales * rows_per_scale_) * sizeof(float),
                                  nullptr),
                   "float_adm set-up");
        gpu::check(gpuStreamSynchronize(nullptr), "float_adm set-up");
    }

    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const FrameParams& params = planner_.params();
        const unsigned bitdepth = frame.format.bitdepth;
        auto* result = static_cast<Result*>(device_result);
        if (params.netflix_layout) {
            float* pictures[kSides] = {memory_.get(), memory_.get() + picture_};
            float_gpu::to_float(frame.ref_plane(0), bitdepth, -128.0f, pictures[0], stream);
            float_gpu::to_float(frame.dis_plane(0), bitdepth, -128.0f, pictures[1], stream);
            float* arena = memory_.get() + kSides * picture_;
            float* low = arena + arena_floats_;
            arena_kernel<<<1, 1, 0, stream>>>(params, width_, height_, pictures[0], pictures[1], arena, low,
                                              low + width_, result);
            gpu::check_launch("float_adm arena_kernel");
            return;
        }
        for (int scale = 0; scale < kScales; ++scale) {
            const ScaleParams& p = params.scale[scale];
            Bands b = bands_;
            b.rows = rows_ + scale * rows_per_scale_;
            if (!p.width || !p.height) continue;
            const dim3 vertical_grid = float_gpu::grid_of(p.input_width, p.height, kSides);
            if (scale > 0) {
                dwt_vertical_kernel<<<vertical_grid, float_gpu::kThreads, 0, stream>>>(
                    p, bands_.approx[0][(scale - 1) % 2], bands_.approx[1][(scale - 1) % 2], b);
            } else if (bitdepth > 8) {
                dwt_vertical_of_samples_kernel<std::uint16_t><<<vertical_grid, float_gpu::kThreads, 0, stream>>>(
                    p, float_gpu::sample_rows<std::uint16_t>(frame.ref_plane(0), bitdepth, -128.0f),
                    float_gpu::sample_rows<std::uint16_t>(frame.dis_plane(0), bitdepth, -128.0f), b);
            } else {
                dwt_vertical_of_samples_kernel<std::uint8_t><<<vertical_grid, float_gpu::kThreads, 0, stream>>>(
                    p, float_gpu::sample_rows<std::uint8_t>(frame.ref_plane(0), bitdepth, -128.0f),
                    float_gpu::sample_rows<std::uint8_t>(frame.dis_plane(0), bitdepth, -128.0f), b);
            }
            gpu::check_launch("float_adm dwt_vertical_kernel");
            dwt_horizontal_kernel<<<float_gpu::grid_of(p.width, p.height, kSides), float_gpu::kThreads, 0, stream>>>(
                p, scale, b);
            gpu::check_launch("float_adm dwt_horizontal_kernel");
            if (scale == 0 && params.skip_scale0) continue;  // the result keeps ScaleSums{} (zeroed)
            const int scored_rows = p.scored.height(), scored_cols = p.scored.width();
            if (scored_rows > 0) {
                const dim3 grid(scored_rows, kOrientations);
                if (params.p_norm == 3.0)
                    den_rows_kernel<true><<<grid, float_gpu::kStage, 0, stream>>>(p, params.p_norm, b);
                else
                    den_rows_kernel<false><<<grid, float_gpu::kStage, 0, stream>>>(p, params.p_norm, b);
                gpu::check_launch("float_adm den_rows_kernel");
            }
            if (p.decoupled.height() > 0 && p.decoupled.width() > 0) {
                decouple_kernel<<<float_gpu::grid_of(p.decoupled.width(), p.decoupled.height()), float_gpu::kThreads,
                                  0, stream>>>(p, params.decouple, b);
                gpu::check_launch("float_adm decouple_kernel");
            }
            if (scored_rows > 0 && scored_cols > 0) {
                threshold_kernel<<<float_gpu::grid_of(scored_cols, scored_rows, kParts), float_gpu::kThreads, 0,
                                   stream>>>(p, params.bypass_cm, b);
                gpu::check_launch("float_adm threshold_kernel");
            }
            if (scored_rows > 0) {
                const dim3 grid(scored_rows, kOrientations, kParts);
                if (params.p_norm == 3.0)
                    masked_rows_kernel<true><<<grid, float_gpu::kStage, 0, stream>>>(p, params.p_norm, b);
                else
                    masked_rows_kernel<false><<<grid, float_gpu::kStage, 0, stream>>>(p, params.p_norm, b);
                gpu::check_launch("float_adm masked_rows_kernel");
            }
            scale_sums_kernel<<<1, float_gpu::kStage, 0, stream>>>(p, b, &result->scale[scale]);
            gpu::check_launch("float_adm scale_sums_kernel");
        }
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const Result*>(host_result);
        for (int scale = 0; scale < kScales; ++scale)
            FloatAdmExtractor::store_sums(scale, result->scale[scale], scores);
    }

private:
    FloatAdmCpu planner_;  // the CPU feature's parameters (geometry, CSF weights)
    std::size_t picture_ = 0, rows_per_scale_ = 0, arena_floats_ = 0;
    int width_ = 0, height_ = 0;
    gpu::DeviceArray<float> memory_;
    Bands bands_{};
    float* rows_ = nullptr;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<FloatAdmTwin>(options, format);
}

}  // namespace twinvmaf::float_adm
