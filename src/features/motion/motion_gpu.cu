// The GPU twin of integer motion: the frame's SAD of the blurred difference
// of the current reference luma and an earlier one, exact.
//
// One kernel per frame. A block owns a band of kRows output rows across the
// whole width and walks it in tiles:
//   1. vertical pass: thread i takes column tile - 2 + i (a tile's outputs
//      plus the kRadius columns each side that its horizontal taps read),
//      reads the kRows + 4 picture rows under the band's taps once, keeps
//      their differences in registers and writes kRows blurred values to
//      shared memory;
//   2. horizontal pass: the first kTileOutputs threads each blur one output
//      column of every row of the band from shared memory and add |value| to
//      their running uint32 sum of that row.
// Adjacent threads read adjacent samples. All of it is motion_math.h's
// per-sample arithmetic (sample_difference, vertical_blur, horizontal_blur,
// absolute_value) at mirror_index()'s rows and columns, i.e. the values the
// CPU's row functions produce: a column outside the picture holds the
// vertical blur of the mirrored column, which is what the CPU's
// mirror_pad_row() copies there.
//
// Exactness: everything is integer. Because a block covers whole rows, each
// row's SAD is summed in uint32 (RowSad, as Netflix and the CPU do) before
// widening: uint32 addition wraps modulo 2^32 whatever the order, so the
// per-thread sums and the block's tree reduction give the CPU's row sum bit
// for bit. The rows are then widened and added in uint64 (thread 0 of the
// block, then one atomicAdd per block), which is order-free.
#include "features/motion/motion.h"
#include "features/motion/motion_math.h"
#include "gpu/device_twin.h"

namespace twinvmaf::motion {

namespace {

constexpr int kThreads = 256;                         // threads of a block = columns of a tile
constexpr int kTileOutputs = kThreads - 2 * kRadius;  // output columns of a tile
constexpr int kRows = 4;                              // output rows of a band
constexpr int kSourceRows = kRows + 2 * kRadius;      // picture rows under a band's taps

template <class Wide, class Sample>
__global__ void __launch_bounds__(kThreads)
    frame_sad_kernel(const std::uint8_t* earlier, const std::uint8_t* current, std::ptrdiff_t stride, int width,
                     int height, unsigned bitdepth, unsigned long long* sad)
{
    __shared__ std::int32_t blurred[kRows][kThreads];
    __shared__ RowSad row_sums[kRows][kThreads];

    const int thread = static_cast<int>(threadIdx.x);
    const int band = static_cast<int>(blockIdx.x) * kRows;
    const int rows = min(kRows, height - band);

    // Byte offsets of the picture rows under the band's taps. Rows past the
    // band's last output row (in the last band) are mirrored into the picture
    // as well; their blurred values are computed but not added.
    std::ptrdiff_t source_row[kSourceRows];
#pragma unroll
    for (int k = 0; k < kSourceRows; ++k) source_row[k] = mirror_index(band - kRadius + k, height) * stride;

    RowSad sums[kRows] = {};
    for (int tile = 0; tile < width; tile += kTileOutputs) {
        // 1. Vertical pass. Columns past width + 1 are read by no output.
        const int column = tile - kRadius + thread;
        if (column <= width - 1 + kRadius) {
            const int source = mirror_index(column, width);
            Wide difference[kSourceRows];
#pragma unroll
            for (int k = 0; k < kSourceRows; ++k) {
                const Sample* e = reinterpret_cast<const Sample*>(earlier + source_row[k]);
                const Sample* c = reinterpret_cast<const Sample*>(current + source_row[k]);
                difference[k] = sample_difference<Wide>(e[source], c[source]);
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r)
                blurred[r][thread] = vertical_blur<Wide>(difference[r], difference[r + 1], difference[r + 2],
                                                         difference[r + 3], difference[r + 4], bitdepth);
        }
        __syncthreads();
        // 2. Horizontal pass at column x: blurred[r][thread .. thread + 4]
        //    are columns x - 2 .. x + 2.
        const int x = tile + thread;
        if (thread < kTileOutputs && x < width) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) sums[r] += absolute_value(horizontal_blur(&blurred[r][thread]));
        }
        __syncthreads();
    }

    // Each row's SAD in uint32, then the band's rows widened and added.
#pragma unroll
    for (int r = 0; r < kRows; ++r) row_sums[r][thread] = sums[r];
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (thread < half) {
#pragma unroll
            for (int r = 0; r < kRows; ++r) row_sums[r][thread] += row_sums[r][thread + half];
        }
        __syncthreads();
    }
    if (thread == 0) {
        unsigned long long band_sad = 0;
        for (int r = 0; r < rows; ++r) band_sad += row_sums[r][0];
        if (band_sad) atomicAdd(sad, band_sad);
    }
}

class MotionTwin final : public gpu::DeviceTwin {
public:
    explicit MotionTwin(const Settings& settings) : settings_(settings) {}

    std::size_t result_bytes() const override { return sizeof(unsigned long long); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        // As MotionCpu::extract(): the first frames (and every frame with
        // motion_force_zero) have no earlier picture and keep the zeroed SAD.
        const unsigned distance = settings_.frame_distance();
        if (settings_.force_zero || frame.index < distance) return;
        if (frame.previous_count < distance)
            throw Error("internal: motion's GPU twin is missing frame " + std::to_string(frame.index - distance));
        const gpu::DevicePlane current = frame.ref_plane(0);
        const gpu::DevicePlane earlier = frame.previous_ref_plane(distance, 0);
        if (!current.width || !current.height) return;

        auto* sad = static_cast<unsigned long long*>(device_result);
        const unsigned blocks = gpu::blocks_for(current.height, kRows);
        const int width = static_cast<int>(current.width), height = static_cast<int>(current.height);
        const unsigned bitdepth = frame.format.bitdepth;
        // The types of the CPU reference (motion_cpu.cpp).
        if (bitdepth == 8)
            frame_sad_kernel<std::int32_t, std::uint8_t><<<blocks, kThreads, 0, stream>>>(
                earlier.data, current.data, current.stride, width, height, bitdepth, sad);
        else if (bitdepth < 16)
            frame_sad_kernel<std::int32_t, std::uint16_t><<<blocks, kThreads, 0, stream>>>(
                earlier.data, current.data, current.stride, width, height, bitdepth, sad);
        else
            frame_sad_kernel<std::int64_t, std::uint16_t><<<blocks, kThreads, 0, stream>>>(
                earlier.data, current.data, current.stride, width, height, bitdepth, sad);
        gpu::check_launch("motion frame_sad_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set_integer(0, *static_cast<const unsigned long long*>(host_result));
    }

private:
    Settings settings_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat&)
{
    return std::make_unique<MotionTwin>(Settings::from(options));
}

}  // namespace twinvmaf::motion
