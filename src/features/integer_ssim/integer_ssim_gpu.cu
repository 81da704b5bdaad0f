// The GPU twin of the integer SSIM (the fork's `ssim`), bit for bit with the
// CPU reference (integer_ssim_cpu.cpp), device-resident:
//   1. terms_kernel: one block per tile of kTileW x kTileH positions. The
//      block stages the luma under the tile's windows in shared memory, forms
//      the horizontal moments of the kTileH + 2 kRadius rows under the tile
//      (in shared memory), then each thread the vertical moments of its
//      position and its term (integer_ssim_math.h's ssim_term, the CPU's
//      expression). The moments are exact integers held in doubles, so the
//      order of the tap additions does not matter; the taps outside the
//      picture are left out (first_tap / end_tap), as on the CPU.
//   2. the sum of the terms with the bits of the CPU's chain (ONE serial
//      chain of double additions in row-major order), by gpu/chain_sum.h.
// The weight sum is an integer that depends on the frame size only; it is
// computed on the host, with the CPU's tap sums. The result block is the one
// double of the chain; unpack() hands the CPU's collect() the same values.
#include "features/integer_ssim/integer_ssim.h"
#include "features/integer_ssim/integer_ssim_math.h"
#include "gpu/chain_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::integer_ssim {

namespace {

constexpr int kTileW = 32, kTileH = 16;       // output positions of a block
constexpr int kThreadsX = 32, kThreadsY = 8;  // each thread: kTileH / kThreadsY rows
constexpr int kRowsH = kTileH + 2 * kRadius;  // rows of horizontal moments under a tile
constexpr int kColsS = kTileW + 2 * kRadius;  // sample columns under a tile
constexpr int kPlanes = 5;

// The five moments of one window over values v(k) of the reference and
// w(k) of the distorted line, taps [k_first, k_end) (all nine, unrolled,
// where the window is inside the picture). Exact: integers below 2^53.
template <class Ref, class Dis>
__device__ __forceinline__ void window_moments(int k_first, int k_end, const Ref& ref, const Dis& dis, double (&m)[kPlanes])
{
    if (k_first == 0 && k_end == kTaps) {
#pragma unroll
        for (int k = 0; k < kTaps; ++k) {
            const double s = ref(k), d = dis(k), t = tap(k);
            m[0] += t * s;
            m[1] += t * d;
            m[2] += t * (s * s);
            m[3] += t * (s * d);
            m[4] += t * (d * d);
        }
        return;
    }
    for (int k = k_first; k < k_end; ++k) {
        const double s = ref(k), d = dis(k), t = tap(k);
        m[0] += t * s;
        m[1] += t * d;
        m[2] += t * (s * s);
        m[3] += t * (s * d);
        m[4] += t * (d * d);
    }
}

template <class Sample>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    terms_kernel(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis, std::ptrdiff_t dis_stride,
                 int width, int height, int samplemax, double* terms)
{
    __shared__ int samples[2][kRowsH][kColsS];
    __shared__ double moments[kPlanes][kRowsH][kTileW];
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int thread = ty * kThreadsX + tx;
    constexpr int kThreads = kThreadsX * kThreadsY;
    const int x0 = static_cast<int>(blockIdx.x) * kTileW, y0 = static_cast<int>(blockIdx.y) * kTileH;

    // The samples under the tile's windows (0 outside the picture: no tap
    // reads them).
    for (int i = thread; i < kRowsH * kColsS; i += kThreads) {
        const int r = i / kColsS, c = i % kColsS;
        const int y = y0 - kRadius + r, x = x0 - kRadius + c;
        int a = 0, b = 0;
        if (y >= 0 && y < height && x >= 0 && x < width) {
            a = reinterpret_cast<const Sample*>(ref + y * ref_stride)[x];
            b = reinterpret_cast<const Sample*>(dis + y * dis_stride)[x];
        }
        samples[0][r][c] = a;
        samples[1][r][c] = b;
    }
    __syncthreads();

    // Horizontal moments of the rows under the tile, at the tile's columns.
    {
        const int c = tx, x = x0 + c;
        const int k_first = first_tap(x), k_end = x < width ? end_tap(x, width) : k_first;
        for (int r = ty; r < kRowsH; r += kThreadsY) {
            double m[kPlanes] = {};
            window_moments(
                k_first, k_end, [&](int k) { return static_cast<double>(samples[0][r][c + k]); },
                [&](int k) { return static_cast<double>(samples[1][r][c + k]); }, m);
#pragma unroll
            for (int p = 0; p < kPlanes; ++p) moments[p][r][c] = m[p];
        }
    }
    __syncthreads();

    // The vertical moments and the term of this thread's positions.
    const int x = x0 + tx;
    if (x >= width) return;
    const double row_weight = static_cast<double>(tap_sum(x, width));
#pragma unroll
    for (int j = 0; j < kTileH / kThreadsY; ++j) {
        const int ry = ty + j * kThreadsY, y = y0 + ry;
        if (y >= height) return;
        double m[kPlanes] = {};
        const int k_first = first_tap(y), k_end = end_tap(y, height);
        if (k_first == 0 && k_end == kTaps) {
#pragma unroll
            for (int k = 0; k < kTaps; ++k) {
                const double t = tap(k);
#pragma unroll
                for (int p = 0; p < kPlanes; ++p) m[p] += t * moments[p][ry + k][tx];
            }
        } else {
            for (int k = k_first; k < k_end; ++k) {
                const double t = tap(k);
#pragma unroll
                for (int p = 0; p < kPlanes; ++p) m[p] += t * moments[p][ry + k][tx];
            }
        }
        const double w = static_cast<double>(tap_sum(y, height)) * row_weight;
        terms[static_cast<std::size_t>(y) * width + x] = ssim_term(m[0], m[1], m[2], m[3], m[4], w, samplemax);
    }
}

struct Terms {
    const double* terms;
    std::size_t positions;
    __device__ std::size_t count(unsigned) const { return positions; }
    __device__ void at(unsigned, std::size_t i, double (&out)[1]) const { out[0] = terms[i]; }
};

struct Finish {
    double* out;
    __device__ void operator()(unsigned, const double (&sums)[1]) const { *out = sums[0]; }
};

class IntegerSsimTwin final : public gpu::DeviceTwin {
public:
    explicit IntegerSsimTwin(const VideoFormat& format)
        : width_(static_cast<int>(format.width)), height_(static_cast<int>(format.height)),
          terms_(static_cast<std::size_t>(format.width) * format.height, "ssim terms"),
          sums_(1, static_cast<std::size_t>(format.width) * format.height)
    {
        // The CPU's weight sum: per output row, the sum of the horizontal
        // tap sums times the row's vertical tap sum.
        std::uint64_t row = 0;
        for (int x = 0; x < width_; ++x) row += static_cast<std::uint64_t>(tap_sum(x, width_));
        for (int y = 0; y < height_; ++y) weights_ += row * static_cast<std::uint64_t>(tap_sum(y, height_));
    }

    std::size_t result_bytes() const override { return sizeof(double); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        if (!ref.width || !ref.height) return;
        const int samplemax = static_cast<int>((1u << frame.format.bitdepth) - 1);
        const dim3 grid(gpu::blocks_for(ref.width, kTileW), gpu::blocks_for(ref.height, kTileH));
        const dim3 block(kThreadsX, kThreadsY);
        if (frame.format.bitdepth > 8)
            terms_kernel<std::uint16_t><<<grid, block, 0, stream>>>(ref.data, ref.stride, dis.data, dis.stride, width_,
                                                                    height_, samplemax, terms_.get());
        else
            terms_kernel<std::uint8_t><<<grid, block, 0, stream>>>(ref.data, ref.stride, dis.data, dis.stride, width_,
                                                                   height_, samplemax, terms_.get());
        gpu::check_launch("integer ssim terms_kernel");
        sums_.enqueue(Terms{terms_.get(), static_cast<std::size_t>(width_) * height_}, 1,
                      Finish{static_cast<double*>(device_result)}, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        scores.set(0, *static_cast<const double*>(host_result));
        scores.set_integer(0, weights_);
    }

private:
    int width_, height_;
    std::uint64_t weights_ = 0;
    gpu::DeviceArray<double> terms_;
    gpu::ChainSums<double, 1> sums_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues&, const VideoFormat& format)
{
    return std::make_unique<IntegerSsimTwin>(format);
}

}  // namespace twinvmaf::integer_ssim
