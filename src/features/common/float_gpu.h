// Device stages shared by the GPU twins of the float features (float_psnr,
// float_moment, float_ansnr, float_motion, float_vif, float_adm): included by
// their .cu files only. Each stage runs the per-sample functions of the
// math headers the CPU references run (float_picture.h, float_filter_math.h),
// so every value is the CPU's bit for bit; where a CPU reduction is a serial
// chain, the stage either keeps that order or proves the order does not
// matter (ExactSumTwin below).
//
//   upload()           a host vector into a DeviceArray (set-up only)
//   to_float()         a plane of samples to packed floats (plane_to_float)
//   vertical_pass_of_samples()  to_float() and vertical_pass() in one pass,
//                      reading the samples (SampleRows; filter_samples(),
//                      filter_halved_samples(): filter_plane/_decimated)
//   vertical_pass()    the separable filter's vertical sums at every
//                      `step`-th row (float_filter.cpp's vertical_pass)
//   horizontal_pass()  the horizontal taps over those sums at every
//                      `step`-th column, for several planes at once
//                      (horizontal_pass / filter_decimated): the two give
//                      filter_plane (step 1) and filter_decimated (step 2)
//   DeviceScaler       a float_filter::Scaler's tables on the device and
//                      scale() with scaled_sample()
//   overlapped_chain() serial_chains() for one long chain per block, the
//                      next values staged while thread 0 adds the last ones
//   ExactSumTwin       a twin made of double chains of non-negative float
//                      terms, summed exactly on the depth's grid
//                      (float_psnr, float_moment; see "exact sums")
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "features/common/float_exact_sum.h"
#include "features/common/float_filter.h"
#include "features/common/float_filter_math.h"
#include "features/common/float_picture.h"
#include "gpu/block_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::float_gpu {

// Each .cu file that includes this gets its own copies (no kernel is linked
// across translation units).
namespace {

inline constexpr unsigned kThreads = 256;

template <class T>
gpu::DeviceArray<T> upload(const std::vector<T>& host, const char* what)
{
    gpu::DeviceArray<T> device(host.size(), what);
    if (!host.empty())
        gpu::check(gpuMemcpyAsync(device.get(), host.data(), sizeof(T) * host.size(), gpuMemcpyHostToDevice, nullptr),
                   what);
    return device;
}

// A 2-D launch: x over `columns` in blocks of kThreads, y over rows, z over planes.
inline dim3 grid_of(int columns, int rows, int planes = 1)
{
    return dim3(gpu::blocks_for(static_cast<std::size_t>(columns), kThreads), static_cast<unsigned>(rows),
                static_cast<unsigned>(planes));
}

// ---------------------------------------------------------------- conversion

template <class Sample>
__global__ void to_float_kernel(const std::uint8_t* plane, std::ptrdiff_t stride, int w, unsigned bitdepth,
                                float offset, float* out)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    if (x >= w) return;
    const Sample* row = reinterpret_cast<const Sample*>(plane + y * stride);
    out[static_cast<std::size_t>(y) * w + x] = float_picture::sample_to_float(row[x], bitdepth, offset);
}

// The plane's scored geometry to packed floats (row stride = width).
inline void to_float(const gpu::DevicePlane& plane, unsigned bitdepth, float offset, float* out, gpuStream_t stream)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height);
    if (!w || !h) return;
    if (bitdepth > 8)
        to_float_kernel<std::uint16_t><<<grid_of(w, h), kThreads, 0, stream>>>(plane.data, plane.stride, w, bitdepth,
                                                                               offset, out);
    else
        to_float_kernel<std::uint8_t><<<grid_of(w, h), kThreads, 0, stream>>>(plane.data, plane.stride, w, bitdepth,
                                                                              offset, out);
    gpu::check_launch("float to_float_kernel");
}

// ---------------------------------------------------------------- separable filter

// out[i][c] = sum_k f[k] * src[mirror(i * step - r + k)][c], in tap order
// from +0 (vertical_pass at row i * step); out is packed w x out_h.
__global__ void vertical_pass_kernel(const float* taps, int ntaps, const float* src, int w, int h, int step,
                                     float* out)
{
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    if (c >= w) return;
    out[static_cast<std::size_t>(i) * w + c] = float_filter::vertical_sum(taps, ntaps, src, w, h, i * step, c);
}

inline void vertical_pass(const float* taps, int ntaps, const float* src, int w, int h, int step, int out_h,
                          float* out, gpuStream_t stream)
{
    if (!w || !out_h) return;
    vertical_pass_kernel<<<grid_of(w, out_h), kThreads, 0, stream>>>(taps, ntaps, src, w, h, step, out);
    gpu::check_launch("float vertical_pass_kernel");
}

// A plane's samples as floats, converted as to_float() converts them, read
// straight from the frame: rows(row, col).
template <class Sample>
struct SampleRows {
    const std::uint8_t* data;
    std::ptrdiff_t stride;  // bytes
    unsigned bitdepth;
    float offset;
    __device__ float operator()(int row, int col) const
    {
        return float_picture::sample_to_float(reinterpret_cast<const Sample*>(data + row * stride)[col], bitdepth,
                                              offset);
    }
};

template <class Sample>
SampleRows<Sample> sample_rows(const gpu::DevicePlane& plane, unsigned bitdepth, float offset)
{
    return {plane.data, plane.stride, bitdepth, offset};
}

// A packed w-wide float plane as rows(row, col).
struct FloatRows {
    const float* data;
    int w;
    __device__ float operator()(int row, int col) const { return data[static_cast<std::size_t>(row) * w + col]; }
};

// vertical_pass() of the plane's samples: out[i][c] = sum_k f[k] *
// rows(mirror(i * step - r + k), c) in tap order from +0, the sums
// vertical_sum() gives over the converted plane (each tap's input is the same
// float), without writing and reading that plane.
template <class Sample>
__global__ void vertical_pass_of_samples_kernel(const float* taps, int ntaps, SampleRows<Sample> rows, int h, int w,
                                                int step, float* out)
{
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    if (c >= w) return;
    const int radius = ntaps / 2;
    out[static_cast<std::size_t>(i) * w + c] = float_filter::filter_taps(
        taps, ntaps, [&](int k) { return rows(float_filter::mirror_tap(i * step - radius + k, h), c); });
}

// The plane's scored geometry: out_h rows of w vertical sums, packed.
inline void vertical_pass_of_samples(const float* taps, int ntaps, const gpu::DevicePlane& plane, unsigned bitdepth,
                                     float offset, int step, int out_h, float* out, gpuStream_t stream)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height);
    if (!w || !out_h) return;
    if (bitdepth > 8)
        vertical_pass_of_samples_kernel<<<grid_of(w, out_h), kThreads, 0, stream>>>(
            taps, ntaps, sample_rows<std::uint16_t>(plane, bitdepth, offset), h, w, step, out);
    else
        vertical_pass_of_samples_kernel<<<grid_of(w, out_h), kThreads, 0, stream>>>(
            taps, ntaps, sample_rows<std::uint8_t>(plane, bitdepth, offset), h, w, step, out);
    gpu::check_launch("float vertical_pass_of_samples_kernel");
}

// For each of `planes` packed w x rows planes of vertical sums (one after the
// other), out[j] = sum_k f[k] * in[mirror(j * step - r + k)] in tap order
// from +0: horizontal_pass (step 1) and filter_decimated's columns (step 2).
__global__ void horizontal_pass_kernel(const float* taps, int ntaps, const float* in, int w, int rows, int step,
                                       int out_w, float* out)
{
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    const int p = static_cast<int>(blockIdx.z);
    if (j >= out_w) return;
    const float* row = in + (static_cast<std::size_t>(p) * rows + i) * w;
    out[(static_cast<std::size_t>(p) * rows + i) * out_w + j] = float_filter::horizontal_sum(taps, ntaps, row, w, j * step);
}

inline void horizontal_pass(const float* taps, int ntaps, const float* in, int w, int rows, int step, int out_w,
                            int planes, float* out, gpuStream_t stream)
{
    if (!out_w || !rows) return;
    horizontal_pass_kernel<<<grid_of(out_w, rows, planes), kThreads, 0, stream>>>(taps, ntaps, in, w, rows, step,
                                                                                  out_w, out);
    gpu::check_launch("float horizontal_pass_kernel");
}

// A filter's taps on the device.
struct DeviceTaps {
    gpu::DeviceArray<float> taps;
    int count = 0;

    DeviceTaps() = default;
    explicit DeviceTaps(const std::vector<float>& host)
        : taps(upload(host, "float filter taps")), count(static_cast<int>(host.size()))
    {
        // The upload ran on the legacy stream; the twins' streams do not wait for it.
        gpu::check(gpuStreamSynchronize(nullptr), "float filter taps");
    }
};

// The whole w x h plane filtered (filter_plane) into dst, through `row_sums`
// (w x h floats).
inline void filter_plane(const DeviceTaps& f, const float* src, int w, int h, float* row_sums, float* dst,
                         gpuStream_t stream)
{
    vertical_pass(f.taps.get(), f.count, src, w, h, 1, h, row_sums, stream);
    horizontal_pass(f.taps.get(), f.count, row_sums, w, h, 1, w, 1, dst, stream);
}

// filter_plane() of the plane's samples converted with `offset` (to_float()),
// without the converted plane: the same blur into dst (packed w x h), through
// `row_sums` (w x h floats).
inline void filter_samples(const DeviceTaps& f, const gpu::DevicePlane& plane, unsigned bitdepth, float offset,
                           float* row_sums, float* dst, gpuStream_t stream)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height);
    vertical_pass_of_samples(f.taps.get(), f.count, plane, bitdepth, offset, 1, h, row_sums, stream);
    horizontal_pass(f.taps.get(), f.count, row_sums, w, h, 1, w, 1, dst, stream);
}

// The samples (2i, 2j) of the filtered plane (filter_decimated, step 2) into a
// packed (w / 2) x (h / 2) plane, through `row_sums` (w x h / 2 floats).
inline void filter_halved(const DeviceTaps& f, const float* src, int w, int h, float* row_sums, float* dst,
                          gpuStream_t stream)
{
    vertical_pass(f.taps.get(), f.count, src, w, h, 2, h / 2, row_sums, stream);
    horizontal_pass(f.taps.get(), f.count, row_sums, w, h / 2, 2, w / 2, 1, dst, stream);
}

// filter_halved() of the plane's samples converted with `offset`, without
// the converted plane.
inline void filter_halved_samples(const DeviceTaps& f, const gpu::DevicePlane& plane, unsigned bitdepth, float offset,
                                  float* row_sums, float* dst, gpuStream_t stream)
{
    const int w = static_cast<int>(plane.width), h = static_cast<int>(plane.height);
    vertical_pass_of_samples(f.taps.get(), f.count, plane, bitdepth, offset, 2, h / 2, row_sums, stream);
    horizontal_pass(f.taps.get(), f.count, row_sums, w, h / 2, 2, w / 2, 1, dst, stream);
}

// ---------------------------------------------------------------- scaler

// An identity scaler copies (as Scaler::apply()).
__global__ void scale_kernel(float_filter::ScalerView view, bool identity, const float* src, float* dst)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    if (x >= view.dst_w) return;
    const std::size_t at = static_cast<std::size_t>(y) * view.dst_w + x;
    dst[at] = identity ? src[at] : float_filter::scaled_sample(view, src, x, y);
}

// A Scaler's tables copied to the device; scale() runs it on packed planes.
class DeviceScaler {
public:
    DeviceScaler() = default;
    explicit DeviceScaler(const float_filter::Scaler& scaler)
    {
        const float_filter::ScalerView host = scaler.view();
        view_ = host;
        identity_ = scaler.identity();
        if (identity_) return;
        const std::size_t w = static_cast<std::size_t>(host.dst_w), h = static_cast<std::size_t>(host.dst_h);
        const std::size_t taps = host.method == 2 ? 4 : 9;
        const bool bilinear = host.method == 1, kernel = host.method >= 2;
        x1_ = upload(copy_of(bilinear ? host.x1 : nullptr, w), "float scaler");
        x2_ = upload(copy_of(bilinear ? host.x2 : nullptr, w), "float scaler");
        y1_ = upload(copy_of(bilinear ? host.y1 : nullptr, h), "float scaler");
        y2_ = upload(copy_of(bilinear ? host.y2 : nullptr, h), "float scaler");
        dx_ = upload(copy_of(bilinear ? host.dx : nullptr, w), "float scaler");
        dy_ = upload(copy_of(bilinear ? host.dy : nullptr, h), "float scaler");
        x0_ = upload(copy_of(kernel ? host.x0 : nullptr, w), "float scaler");
        y0_ = upload(copy_of(kernel ? host.y0 : nullptr, h), "float scaler");
        wx_ = upload(copy_of(kernel ? host.wx : nullptr, w * taps), "float scaler");
        wy_ = upload(copy_of(kernel ? host.wy : nullptr, h * taps), "float scaler");
        view_.x1 = x1_.get(), view_.x2 = x2_.get(), view_.y1 = y1_.get(), view_.y2 = y2_.get();
        view_.dx = dx_.get(), view_.dy = dy_.get(), view_.x0 = x0_.get(), view_.y0 = y0_.get();
        view_.wx = wx_.get(), view_.wy = wy_.get();
        // The uploads ran on the legacy stream; the twins' streams do not wait for it.
        gpu::check(gpuStreamSynchronize(nullptr), "float scaler set-up");
    }

    // The tables on the device (for a kernel that scales several planes).
    const float_filter::ScalerView& view() const { return view_; }

    void scale(const float* src, float* dst, gpuStream_t stream) const
    {
        if (!view_.dst_w || !view_.dst_h) return;
        scale_kernel<<<grid_of(view_.dst_w, view_.dst_h), kThreads, 0, stream>>>(view_, identity_, src, dst);
        gpu::check_launch("float scale_kernel");
    }

private:
    template <class T>
    static std::vector<T> copy_of(const T* data, std::size_t count)
    {
        return data ? std::vector<T>(data, data + count) : std::vector<T>();
    }

    float_filter::ScalerView view_;
    bool identity_ = true;
    gpu::DeviceArray<int> x1_, x2_, y1_, y2_, x0_, y0_;
    gpu::DeviceArray<float> dx_, dy_, wx_, wy_;
};

// ---------------------------------------------------------------- serial chains
//
// A CPU reduction that is a serial chain (a float sum from 0 in index order,
// or another accumulating step) keeps its order on the device: the block's
// threads stage kStage values at a time in shared memory (coalesced loads,
// computed in parallel), and thread 0 runs the chain over them in order.
// One block per chain set (e.g. per row) runs side by side with the others.

inline constexpr unsigned kStage = 256;  // the block size of serial_chains()

// For i in [0, n) in order: acc[k] = step(acc[k], value k of i), where
// load(i, values) writes value k of i to values[k]. Every thread of a
// kStage-thread block calls it; acc is valid in thread 0.
template <unsigned kChains, class Value, class Acc, class Load, class Step>
__device__ void serial_chains(int n, Acc (&acc)[kChains], Load load, Step step)
{
    __shared__ Value stage[kChains][kStage];
    for (int base = 0; base < n; base += static_cast<int>(kStage)) {
        const int i = base + static_cast<int>(threadIdx.x);
        if (i < n) {
            Value values[kChains];
            load(i, values);
            for (unsigned k = 0; k < kChains; ++k) stage[k][threadIdx.x] = values[k];
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            const int count = n - base < static_cast<int>(kStage) ? n - base : static_cast<int>(kStage);
            for (int j = 0; j < count; ++j)
                for (unsigned k = 0; k < kChains; ++k) acc[k] = step(acc[k], stage[k][j]);
        }
        __syncthreads();
    }
}

// One chain of n steps per block (e.g. one per row), where the chain, not
// the values, is the cost: acc = step(acc, load(i)) for i in [0, n) in
// order, in thread 0. Threads kWarp.. (the block's other warps) stage the
// next kChunk values while thread 0 adds the staged ones (two buffers, one
// barrier per chunk), so the chain waits for no load but the first; small
// blocks let every row of a large plane run at once. Call it from every
// thread of a block of more than kWarp threads; acc is valid in thread 0.
inline constexpr unsigned kWarp = 32;

template <unsigned kChunk, class Value, class Acc, class Load, class Step>
__device__ void overlapped_chain(int n, Acc& acc, Load load, Step step)
{
    __shared__ Value stage[2][kChunk];
    const int loader = static_cast<int>(threadIdx.x) - static_cast<int>(kWarp);
    const int loaders = static_cast<int>(blockDim.x) - static_cast<int>(kWarp);
    auto fill = [&](int base, Value* buffer) {
        if (loader < 0) return;
        const int count = n - base < static_cast<int>(kChunk) ? n - base : static_cast<int>(kChunk);
        for (int j = loader; j < count; j += loaders) buffer[j] = load(base + j);
    };
    fill(0, stage[0]);
    __syncthreads();
    int buffer = 0;
    for (int base = 0; base < n; base += static_cast<int>(kChunk)) {
        // Buffer 1 - buffer was last read before the barrier above.
        fill(base + static_cast<int>(kChunk), stage[1 - buffer]);
        if (threadIdx.x == 0) {
            const int count = n - base < static_cast<int>(kChunk) ? n - base : static_cast<int>(kChunk);
            for (int j = 0; j < count; ++j) acc = step(acc, stage[buffer][j]);
        }
        __syncthreads();
        buffer = 1 - buffer;
    }
}

// The plain float sum: acc + value.
struct FloatAdd {
    __device__ float operator()(float acc, float value) const { return acc + value; }
};

// kChains float sums from 0 in index order.
template <unsigned kChains, class Load>
__device__ void ordered_sums(int n, float (&sums)[kChains], Load load)
{
    for (unsigned k = 0; k < kChains; ++k) sums[k] = 0.0f;
    serial_chains<kChains, float>(n, sums, load, FloatAdd{});
}

// ---------------------------------------------------------------- exact sums
//
// float_psnr's and float_moment's double chains, order-free where they are
// exact (features/common/float_exact_sum.h says why): the device adds the
// terms as integers of the depth's grid unit 2^-2(bpc-8) in any order (one
// block per row) and converts each total once. Only where a total reaches
// 2^53 units does one thread run the CPU's chains instead (16-bit pictures
// with large totals, e.g. bright 4K; 12-bit only above about 5e8 samples;
// never at 8 or 10 bits): the same doubles either way.

// The luma planes of a frame pair, as the terms and chains read them.
struct LumaPair {
    const std::uint8_t* ref;
    const std::uint8_t* dis;
    std::ptrdiff_t stride;  // bytes
    int w, h;
    unsigned bitdepth;

    template <class Sample>
    __device__ const Sample* ref_row(int y) const
    {
        return reinterpret_cast<const Sample*>(ref + y * stride);
    }
    template <class Sample>
    __device__ const Sample* dis_row(int y) const
    {
        return reinterpret_cast<const Sample*>(dis + y * stride);
    }
    // A sample as the CPU's float (offset 0).
    template <class Sample>
    __device__ float ref_float(int y, int x) const
    {
        return float_picture::sample_to_float(ref_row<Sample>(y)[x], bitdepth, 0.0f);
    }
    template <class Sample>
    __device__ float dis_float(int y, int x) const
    {
        return float_picture::sample_to_float(dis_row<Sample>(y)[x], bitdepth, 0.0f);
    }
};

// Sums kCount per-sample terms over the picture into `units` (one block per
// row). terms(p, y, x, out) writes the kCount float terms of sample (y, x).
template <unsigned kCount, class Terms>
__global__ void __launch_bounds__(kThreads) grid_sum_kernel(Terms terms, LumaPair p, unsigned long long* units)
{
    const int y = static_cast<int>(blockIdx.x);
    unsigned long long partial[kCount] = {};
    for (int x = static_cast<int>(threadIdx.x); x < p.w; x += kThreads) {
        float t[kCount];
        terms(p, y, x, t);
        for (unsigned k = 0; k < kCount; ++k) partial[k] += float_exact_sum::grid_units(t[k], p.bitdepth);
    }
    __shared__ gpu::BlockSumScratch<kThreads, kCount> scratch;
    gpu::block_sum<kThreads>(partial, scratch);
    if (threadIdx.x == 0)
        for (unsigned k = 0; k < kCount; ++k)
            if (partial[k]) atomicAdd(&units[k], partial[k]);
}

// The totals as the CPU's chains give them: every total exact(), converted;
// else serial(p, out) runs the CPU's chains (one thread) and writes every
// total.
template <unsigned kCount, class Serial>
__global__ void grid_sum_finish_kernel(const unsigned long long* units, Serial serial, LumaPair p, double* out)
{
    bool all_exact = true;
    for (unsigned k = 0; k < kCount; ++k) all_exact = all_exact && float_exact_sum::exact(units[k]);
    if (all_exact) {
        for (unsigned k = 0; k < kCount; ++k) out[k] = float_exact_sum::from_grid_units(units[k], p.bitdepth);
        return;
    }
    serial(p, out);
}

// A twin whose FrameScores values 0..kCount-1 are double chains over the
// luma of ref and dis: Terms<Sample> gives a sample's kCount terms (as
// grid_sum_kernel calls it), Serial<Sample> runs the CPU's chains (as
// grid_sum_finish_kernel calls it); Sample is std::uint8_t at 8 bits, else
// std::uint16_t, as the CPU references choose.
template <unsigned kCount, template <class> class Terms, template <class> class Serial>
class ExactSumTwin final : public gpu::DeviceTwin {
public:
    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        const LumaPair p{ref.data, dis.data, ref.stride, static_cast<int>(ref.width), static_cast<int>(ref.height),
                         frame.format.bitdepth};
        auto* result = static_cast<Result*>(device_result);
        if (p.bitdepth > 8)
            launch<std::uint16_t>(p, result, stream);
        else
            launch<std::uint8_t>(p, result, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const Result*>(host_result);
        for (std::size_t k = 0; k < kCount; ++k) scores.set(k, result->sums[k]);
    }

private:
    // units: the integer totals (zeroed with the block before enqueue()).
    struct Result {
        double sums[kCount];
        unsigned long long units[kCount];
    };

    template <class Sample>
    static void launch(const LumaPair& p, Result* result, gpuStream_t stream)
    {
        if (p.w && p.h) {
            grid_sum_kernel<kCount><<<p.h, kThreads, 0, stream>>>(Terms<Sample>{}, p, result->units);
            gpu::check_launch("float grid_sum_kernel");
        }
        grid_sum_finish_kernel<kCount><<<1, 1, 0, stream>>>(result->units, Serial<Sample>{}, p, result->sums);
        gpu::check_launch("float grid_sum_finish_kernel");
    }
};

}  // namespace

}  // namespace twinvmaf::float_gpu
