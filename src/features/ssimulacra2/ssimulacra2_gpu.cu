// The GPU twin of ssimulacra2: the six sums of every scale and channel
// (ChannelSums), the CPU's bit for bit; unpack() turns them into the same
// norms (channel_norms(), on the host) and collect() pools them as for the
// CPU.
//
//   rgb         per position of scale 0: the samples (chroma rounded up, as
//               the fork's pictures) -> linear RGB (yuv_to_linear_rgb)
//   downsample  per position of scale s > 0: box_2x2 of scale s - 1
//   xyb         per position: linear_rgb_to_xyb
//   transpose   XYB of both images transposed, so that the rows' chains
//               read one line per warp and step
//   horizontal  one thread per row, map and channel: the map's recursive
//               Gaussian along the row (iir_step, the CPU's block_step),
//               its input formed where it is read (blur_input); outputs
//               staged in shared memory so that stores are whole rows
//   vertical    one thread per column, map and channel: the map down the
//               column (iir_step, the CPU's vertical_step)
//   terms       per position and channel: d (ssim_term) and the edge ratio
//               (edge_ratio), two planes of doubles per channel; the chain
//               sums form the six terms from them (quartic, edge_terms)
//   chains      the 18 serial sums of the scale, three jobs (channels) of
//               six chains, with the CPU's bits: gpu/chain_sum.h (chunks
//               followed from guessed starts, then moved onto the true
//               start where core/chain_sum.h proves it exact)
// Everything is the math header's float and double operations in its
// order, built with strict floating point (no contraction; DESIGN.md §3).
#include "features/ssimulacra2/ssimulacra2.h"
#include "gpu/chain_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::ssimulacra2 {

namespace {

constexpr unsigned kThreads = 256;
constexpr int kMaps = 5;
constexpr int kTerms = 6;                   // d, d^4, ringing, ^4, blurring, ^4
constexpr int kChains = 3 * kTerms;         // of one scale
// Stored per position and channel: d and the edge ratio; the six terms are
// formed from them where the chain sums read them (quartic, edge_terms: the
// same functions, so the same values), a third of the bytes of six planes.
constexpr int kStored = 2;

struct Samples {
    const std::uint8_t* y;
    const std::uint8_t* u;
    const std::uint8_t* v;
    std::ptrdiff_t luma_stride, chroma_stride;  // bytes
    unsigned w, h, chroma_w, chroma_h;          // chroma: the fork's (rounded up)
};

template <class Sample>
__global__ void rgb_kernel(Samples p, RgbParams params, float* out)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= p.w) return;
    const unsigned cx = chroma_position(x, p.chroma_w, p.w), cy = chroma_position(y, p.chroma_h, p.h);
    const Sample ys = reinterpret_cast<const Sample*>(p.y + static_cast<std::ptrdiff_t>(y) * p.luma_stride)[x];
    const Sample us = reinterpret_cast<const Sample*>(p.u + static_cast<std::ptrdiff_t>(cy) * p.chroma_stride)[cx];
    const Sample vs = reinterpret_cast<const Sample*>(p.v + static_cast<std::ptrdiff_t>(cy) * p.chroma_stride)[cx];
    const LinearRgb c = yuv_to_linear_rgb(params, ys, us, vs);
    const std::size_t plane = static_cast<std::size_t>(p.w) * p.h, at = static_cast<std::size_t>(y) * p.w + x;
    out[at] = c.r;
    out[plane + at] = c.g;
    out[2 * plane + at] = c.b;
}

__global__ void downsample_kernel(const float* in, unsigned iw, unsigned ih, float* out, unsigned ow, unsigned oh)
{
    const unsigned ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y, c = blockIdx.z;
    if (ox >= ow) return;
    const float* ip = in + static_cast<std::size_t>(c) * iw * ih;
    const unsigned x0 = 2 * ox, x1 = 2 * ox + 1 < iw ? 2 * ox + 1 : iw - 1;
    const unsigned y0 = 2 * oy, y1 = 2 * oy + 1 < ih ? 2 * oy + 1 : ih - 1;
    const float* r0 = ip + static_cast<std::size_t>(y0) * iw;
    const float* r1 = ip + static_cast<std::size_t>(y1) * iw;
    out[static_cast<std::size_t>(c) * ow * oh + static_cast<std::size_t>(oy) * ow + ox] =
        box_2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
}

__global__ void xyb_kernel(const float* lin, std::size_t plane, float* xyb)
{
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= plane) return;
    const Xyb v = linear_rgb_to_xyb(lin[i], lin[plane + i], lin[2 * plane + i], fork_cbrtf(kOpsinBias));
    xyb[i] = v.x;
    xyb[plane + i] = v.y;
    xyb[2 * plane + i] = v.b;
}

// Per channel: in (w x h, row-major) -> out (h x w: column x of in is row x
// of out), through a shared tile so that reads and writes are whole rows.
constexpr int kTile = 32;
constexpr int kTransposeRows = 8;
__global__ void __launch_bounds__(kTile * kTransposeRows) transpose_kernel(const float* in, int w, int h, float* out)
{
    __shared__ float tile[kTile][kTile + 1];
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    const float* src = in + blockIdx.z * plane;
    float* dst = out + blockIdx.z * plane;
    const int x0 = static_cast<int>(blockIdx.x) * kTile, y0 = static_cast<int>(blockIdx.y) * kTile;
    const int tx = static_cast<int>(threadIdx.x);
    for (int ty = static_cast<int>(threadIdx.y); ty < kTile; ty += kTransposeRows)
        if (x0 + tx < w && y0 + ty < h) tile[ty][tx] = src[static_cast<std::size_t>(y0 + ty) * w + x0 + tx];
    __syncthreads();
    for (int ty = static_cast<int>(threadIdx.y); ty < kTile; ty += kTransposeRows)
        if (y0 + tx < h && x0 + ty < w) dst[static_cast<std::size_t>(x0 + ty) * h + y0 + tx] = tile[tx][ty];
}

// The blur's steps that read no sample outside [0, n): blur_left(step) >= 0
// and blur_right(step) < n. Elsewhere a step reads 0 outside, as the fork.
__device__ inline bool interior_steps(int first, int last, int n)
{
    return blur_left(first) >= 0 && blur_right(last) < n;
}

// hor: per channel kMaps planes. One thread per row, map and channel (a
// warp: 32 consecutive rows of one map; kMap a template parameter, so that
// a map's thread loads only the samples its input uses): each row is a
// serial chain (the recursion never forgets its start, so a row cannot be
// split). The inputs are the images transposed (ref_t, dis_t: column x of
// the images is a row of theirs), so that a warp's 32 rows at one step are
// one load. The chains are few (rows x maps x channels: 32,400 at 4K) and
// so is latency hiding: a step's instructions are kept few (no bounds
// checks away from the row's ends, pointers stepped) and the loads of
// kAhead steps are issued before their steps. Each warp stages kTile steps
// of its outputs in shared memory and stores them as whole rows.
constexpr int kAhead = 8;
constexpr int kRowsPerBlock = 4 * kTile;  // four warps of one map
using RowTile = float[kTile][kTile + 1];
template <int kMap>
__device__ void horizontal_rows(const float* __restrict__ ref_t, const float* __restrict__ dis_t, int w, int h,
                                float* __restrict__ hor, RowTile& tile)
{
    const int lane = static_cast<int>(threadIdx.x) % kTile, warp = static_cast<int>(threadIdx.x) / kTile;
    const int y0 = static_cast<int>(blockIdx.x) * kRowsPerBlock + warp * kTile;
    const int c = static_cast<int>(blockIdx.z);
    if (y0 >= h) return;  // a whole warp: the warp-level syncs below stay whole
    // Lanes past the last row follow row h - 1 and store nothing.
    const int y = y0 + lane < h ? y0 + lane : h - 1;
    const std::size_t plane = static_cast<std::size_t>(w) * h, pitch = static_cast<std::size_t>(h);
    const float* a = ref_t + c * plane + y;
    const float* b = dis_t + c * plane + y;
    float* out = hor + (static_cast<std::size_t>(c) * kMaps + kMap) * plane;
    const auto at = [&](const float* p, int x) { return x >= 0 && x < w ? p[static_cast<std::size_t>(x) * pitch] : 0.0f; };
    const auto checked_input = [&](int n) {
        return blur_input(kMap, at(a, blur_left(n)), at(a, blur_right(n)), at(b, blur_left(n)), at(b, blur_right(n)));
    };
    IirState st = {};
    for (int n = kBlurFirstStep; n < 0; ++n) (void)iir_step(st, checked_input(n));
    const int rows = h - y0 < kTile ? h - y0 : kTile;
    const std::size_t span = (blur_right(0) - blur_left(0)) * pitch;  // a step's right sample from its left
    for (int x0 = 0; x0 < w; x0 += kTile) {
        const int steps = w - x0 < kTile ? w - x0 : kTile;
        if (steps == kTile && interior_steps(x0, x0 + kTile - 1, w)) {
            const float* la = a + static_cast<std::size_t>(blur_left(x0)) * pitch;
            const float* lb = b + static_cast<std::size_t>(blur_left(x0)) * pitch;
            for (int j = 0; j < kTile; j += kAhead) {
                float in[kAhead];
#pragma unroll
                for (int k = 0; k < kAhead; ++k) {
                    in[k] = blur_input(kMap, la[0], la[span], lb[0], lb[span]);
                    la += pitch;
                    lb += pitch;
                }
#pragma unroll
                for (int k = 0; k < kAhead; ++k) tile[lane][j + k] = iir_step(st, in[k]);
            }
        } else {
            for (int j = 0; j < steps; ++j) tile[lane][j] = iir_step(st, checked_input(x0 + j));
        }
        gpuSyncWarp32();
        if (lane < steps)
            for (int row = 0; row < rows; ++row) out[static_cast<std::size_t>(y0 + row) * w + x0 + lane] = tile[row][lane];
        gpuSyncWarp32();
    }
}

// Grid: (row blocks, map, channel); the map's instantiation of
// horizontal_rows, all maps in one launch so that every chain runs at once.
__global__ void __launch_bounds__(kRowsPerBlock) horizontal_kernel(const float* __restrict__ ref_t,
                                                                   const float* __restrict__ dis_t, int w, int h,
                                                                   float* __restrict__ hor)
{
    __shared__ RowTile staged[kRowsPerBlock / kTile];
    RowTile& tile = staged[threadIdx.x / kTile];
    switch (blockIdx.y) {
    case 0: horizontal_rows<0>(ref_t, dis_t, w, h, hor, tile); break;
    case 1: horizontal_rows<1>(ref_t, dis_t, w, h, hor, tile); break;
    case 2: horizontal_rows<2>(ref_t, dis_t, w, h, hor, tile); break;
    case 3: horizontal_rows<3>(ref_t, dis_t, w, h, hor, tile); break;
    default: horizontal_rows<4>(ref_t, dis_t, w, h, hor, tile); break;
    }
}

// vblur: per channel kMaps planes, the horizontal maps blurred down each
// column: one thread per column, map and channel (each column a serial
// chain), few instructions a step as in horizontal_kernel, the loads of
// kAhead steps issued before their steps.
constexpr unsigned kVerticalThreads = 64;
__global__ void __launch_bounds__(kVerticalThreads) vertical_kernel(const float* __restrict__ hor, int w, int h,
                                                                    float* __restrict__ vblur)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int m = static_cast<int>(blockIdx.y), c = static_cast<int>(blockIdx.z);
    if (x >= w) return;
    const std::size_t plane = static_cast<std::size_t>(w) * h, pitch = static_cast<std::size_t>(w);
    const float* src = hor + (static_cast<std::size_t>(c) * kMaps + m) * plane + x;
    float* dst = vblur + (static_cast<std::size_t>(c) * kMaps + m) * plane + x;
    const auto row = [&](int y) { return y >= 0 && y < h ? src[static_cast<std::size_t>(y) * pitch] : 0.0f; };
    const auto checked_step = [&](IirState& st, int n) {
        const float o = iir_step(st, row(blur_left(n)) + row(blur_right(n)));
        if (n >= 0) dst[static_cast<std::size_t>(n) * pitch] = o;
    };
    IirState st = {};
    int n = kBlurFirstStep;
    for (; n < h && !interior_steps(n, n, h); ++n) checked_step(st, n);
    if (n + kAhead <= h && interior_steps(n, n + kAhead - 1, h)) {
        const std::size_t span = (blur_right(0) - blur_left(0)) * pitch;  // a step's right sample from its left
        const float* left = src + static_cast<std::size_t>(blur_left(n)) * pitch;
        float* o = dst + static_cast<std::size_t>(n) * pitch;
        for (; n + kAhead <= h && interior_steps(n, n + kAhead - 1, h); n += kAhead) {
            float in[kAhead];
#pragma unroll
            for (int k = 0; k < kAhead; ++k) {
                in[k] = left[0] + left[span];
                left += pitch;
            }
#pragma unroll
            for (int k = 0; k < kAhead; ++k) {
                *o = iir_step(st, in[k]);
                o += pitch;
            }
        }
    }
    for (; n < h; ++n) checked_step(st, n);
}

// terms: per channel kStored planes of doubles in raster order, d and the
// edge ratio (ChannelTerms forms the six terms from them), from the blurred
// maps: one thread per position and channel.
__global__ void terms_kernel(const float* vblur, const float* ref, const float* dis, std::size_t plane, double* terms)
{
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const unsigned c = blockIdx.y;
    if (i >= plane) return;
    const float* o = vblur + static_cast<std::size_t>(c) * kMaps * plane + i;
    const float mu1 = o[0], mu2 = o[plane];
    double* t = terms + static_cast<std::size_t>(c) * kStored * plane + i;
    t[0] = ssim_term(mu1, mu2, o[2 * plane], o[3 * plane], o[4 * plane]);
    t[plane] = edge_ratio(edge_abs_diff(ref[c * plane + i], mu1), edge_abs_diff(dis[c * plane + i], mu2));
}

// The six chains of each channel (one job per channel), for gpu::ChainSums:
// position i of channel c: d = terms[c * kStored * plane + i] and the edge
// ratio one plane further; the chains are d, d^4, ringing, its ^4, blurring,
// its ^4 (the CPU's add_ssim and add_edge).
struct ChannelTerms {
    const double* terms;
    std::size_t plane;
    __device__ std::size_t count(unsigned) const { return plane; }
    __device__ void at(unsigned c, std::size_t i, double (&out)[kTerms]) const
    {
        const double* p = terms + static_cast<std::size_t>(c) * kStored * plane + i;
        const double d = p[0];
        const EdgeTerms e = edge_terms(p[plane]);
        out[0] = d;
        out[1] = quartic(d);
        out[2] = e.art;
        out[3] = quartic(e.art);
        out[4] = e.det;
        out[5] = quartic(e.det);
    }
};

struct Result {
    double sums[kScales][kChains];  // [scale][channel * kTerms + k]
};

// A channel's six sums into the result block.
struct ChannelFinish {
    double* sums;  // the scale's kChains
    __device__ void operator()(unsigned c, const double (&s)[kTerms]) const
    {
        for (int k = 0; k < kTerms; ++k) sums[c * kTerms + k] = s[k];
    }
};

class Ssimulacra2Twin final : public gpu::DeviceTwin {
public:
    Ssimulacra2Twin(const OptionValues& options, const VideoFormat& format)
        : settings_(Settings::from(options)), plan_(Plan::make(format.width, format.height)),
          rgb_(rgb_params(settings_.matrix, format.bitdepth))
    {
        const std::size_t plane = static_cast<std::size_t>(format.width) * format.height;
        // Linear RGB of ref and dis, twice (a scale and the next); XYB of
        // both; the horizontal maps and the terms of the three channels;
        // the chains' chunk data.
        lin_ = gpu::DeviceArray<float>(4 * 3 * plane, "ssimulacra2 linear RGB");
        xyb_ = gpu::DeviceArray<float>(2 * 3 * plane, "ssimulacra2 XYB");
        xyb_t_ = gpu::DeviceArray<float>(2 * 3 * plane, "ssimulacra2 XYB transposed");
        hor_ = gpu::DeviceArray<float>(3 * kMaps * plane, "ssimulacra2 horizontal maps");
        vblur_ = gpu::DeviceArray<float>(3 * kMaps * plane, "ssimulacra2 blurred maps");
        terms_ = gpu::DeviceArray<double>(3 * kStored * plane, "ssimulacra2 terms");
        sums_ = gpu::ChainSums<double, kTerms>(3, plane);
    }

    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        if (plan_.scales == 0) return;
        const VideoFormat& f = frame.format;
        const std::size_t top = static_cast<std::size_t>(f.width) * f.height;
        float* lin[2][2] = {{lin_.get(), lin_.get() + 3 * top}, {lin_.get() + 6 * top, lin_.get() + 9 * top}};
        float* xyb_ref = xyb_.get();
        float* xyb_dis = xyb_.get() + 3 * top;
        for (int side = 0; side < 2; ++side) {
            const gpu::DevicePlane y = side ? frame.dis_plane(0) : frame.ref_plane(0);
            const gpu::DevicePlane u = side ? frame.dis_plane(1) : frame.ref_plane(1);
            const gpu::DevicePlane v = side ? frame.dis_plane(2) : frame.ref_plane(2);
            const Samples s{y.data, u.data, v.data, y.stride, u.stride, f.width, f.height, f.stored_width(1),
                            f.stored_height(1)};
            const dim3 grid(gpu::blocks_for(f.width, kThreads), f.height);
            if (f.bitdepth > 8)
                rgb_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(s, rgb_, lin[0][side]);
            else
                rgb_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(s, rgb_, lin[0][side]);
            gpu::check_launch("ssimulacra2 rgb_kernel");
        }
        Result* result = static_cast<Result*>(device_result);
        int cur = 0;
        for (int scale = 0; scale < plan_.scales; ++scale) {
            const unsigned w = plan_.width[scale], h = plan_.height[scale];
            const std::size_t plane = static_cast<std::size_t>(w) * h;
            if (scale > 0) {
                const unsigned pw = plan_.width[scale - 1], ph = plan_.height[scale - 1];
                const dim3 grid(gpu::blocks_for(w, kThreads), h, 3);
                for (int side = 0; side < 2; ++side) {
                    downsample_kernel<<<grid, kThreads, 0, stream>>>(lin[cur][side], pw, ph, lin[1 - cur][side], w, h);
                    gpu::check_launch("ssimulacra2 downsample_kernel");
                }
                cur = 1 - cur;
            }
            xyb_kernel<<<gpu::blocks_for(plane, kThreads), kThreads, 0, stream>>>(lin[cur][0], plane, xyb_ref);
            gpu::check_launch("ssimulacra2 xyb_kernel");
            xyb_kernel<<<gpu::blocks_for(plane, kThreads), kThreads, 0, stream>>>(lin[cur][1], plane, xyb_dis);
            gpu::check_launch("ssimulacra2 xyb_kernel");
            {
                const dim3 grid(gpu::blocks_for(w, kTile), gpu::blocks_for(h, kTile), 3);
                const dim3 block(kTile, kTransposeRows);
                transpose_kernel<<<grid, block, 0, stream>>>(xyb_ref, w, h, xyb_t_.get());
                gpu::check_launch("ssimulacra2 transpose_kernel");
                transpose_kernel<<<grid, block, 0, stream>>>(xyb_dis, w, h, xyb_t_.get() + 3 * plane);
                gpu::check_launch("ssimulacra2 transpose_kernel");
            }
            {
                const dim3 grid(gpu::blocks_for(h, kRowsPerBlock), kMaps, 3);
                horizontal_kernel<<<grid, kRowsPerBlock, 0, stream>>>(xyb_t_.get(), xyb_t_.get() + 3 * plane, w, h,
                                                                      hor_.get());
                gpu::check_launch("ssimulacra2 horizontal_kernel");
            }
            vertical_kernel<<<dim3(gpu::blocks_for(w, kVerticalThreads), kMaps, 3), kVerticalThreads, 0, stream>>>(
                hor_.get(), w, h, vblur_.get());
            gpu::check_launch("ssimulacra2 vertical_kernel");
            terms_kernel<<<dim3(gpu::blocks_for(plane, kThreads), 3), kThreads, 0, stream>>>(vblur_.get(), xyb_ref,
                                                                                           xyb_dis, plane, terms_.get());
            gpu::check_launch("ssimulacra2 terms_kernel");
            sums_.enqueue(ChannelTerms{terms_.get(), plane}, 3, ChannelFinish{result->sums[scale]}, stream);
        }
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const Result*>(host_result);
        for (int scale = 0; scale < plan_.scales; ++scale) {
            for (int c = 0; c < 3; ++c) {
                const double* s = result->sums[scale] + c * kTerms;
                const ChannelSums sums{s[0], s[1], s[2], s[3], s[4], s[5]};
                double norms[kNormsPerChannel];
                channel_norms(sums, plan_.width[scale], plan_.height[scale], norms);
                for (int k = 0; k < kNormsPerChannel; ++k)
                    scores.set((static_cast<std::size_t>(scale) * 3 + c) * kNormsPerChannel + k, norms[k]);
            }
        }
        scores.set_integer(0, static_cast<std::uint64_t>(plan_.scales));
    }

private:
    Settings settings_;
    Plan plan_;
    RgbParams rgb_;
    gpu::DeviceArray<float> lin_, xyb_, xyb_t_, hor_, vblur_;
    gpu::DeviceArray<double> terms_;
    gpu::ChainSums<double, kTerms> sums_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<Ssimulacra2Twin>(options, format);
}

}  // namespace twinvmaf::ssimulacra2
