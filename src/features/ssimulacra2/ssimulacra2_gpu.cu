// The GPU twin of ssimulacra2: the six sums of every scale and channel
// (ChannelSums), the CPU's bit for bit; unpack() turns them into the same
// norms (channel_norms(), on the host) and collect() pools them as for the
// CPU.
//
//   rgb         per position of scale 0: the samples (chroma rounded up, as
//               the fork's pictures) -> linear RGB (yuv_to_linear_rgb)
//   downsample  per position of scale s > 0: box_2x2 of scale s - 1
//   xyb         per position: linear_rgb_to_xyb
//   horizontal  one thread per row and channel: the five maps' recursive
//               Gaussian along the row (iir_step, the CPU's block_step),
//               products formed where they are read; staged in shared
//               memory so that stores are whole rows
//   vertical    one thread per column and channel: the five maps down the
//               column (iir_step, the CPU's vertical_step), and at each
//               output row the six terms (ssim_term, edge_terms, quartic)
//               into six planes of doubles per channel
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
constexpr unsigned kVerticalThreads = 32;

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

// The five maps' inputs at column x of a row (0 outside, as the fork reads).
struct MapSums {
    float s[kMaps];
};
__device__ MapSums map_sums(const float* a, const float* b, int w, int left, int right)
{
    const float la = left >= 0 ? a[left] : 0.0f, ra = right < w ? a[right] : 0.0f;
    const float lb = left >= 0 ? b[left] : 0.0f, rb = right < w ? b[right] : 0.0f;
    return {{la + ra, lb + rb, la * la + ra * ra, lb * lb + rb * rb, la * lb + ra * rb}};
}

// hor: per channel kMaps planes. One thread per row, a block of kTile
// consecutive rows; each tile of kTile columns is staged in shared memory
// and stored a row at a time, so that the stores are whole rows of the
// block (each thread's own row is a serial chain).
constexpr int kTile = 32;
__global__ void __launch_bounds__(kTile) horizontal_kernel(const float* ref, const float* dis, int w, int h,
                                                           float* hor)
{
    __shared__ float tile[kMaps][kTile][kTile + 1];
    const int r = static_cast<int>(threadIdx.x), y0 = static_cast<int>(blockIdx.x) * kTile, y = y0 + r;
    const int c = static_cast<int>(blockIdx.y);
    const bool active = y < h;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    const float* a = ref + c * plane + static_cast<std::size_t>(active ? y : 0) * w;
    const float* b = dis + c * plane + static_cast<std::size_t>(active ? y : 0) * w;
    float* out = hor + static_cast<std::size_t>(c) * kMaps * plane;
    IirState st[kMaps] = {};
    if (active) {
        for (int n = kBlurFirstStep; n < 0; ++n) {
            const MapSums sums = map_sums(a, b, w, blur_left(n), blur_right(n));
            for (int m = 0; m < kMaps; ++m) (void)iir_step(st[m], sums.s[m]);
        }
    }
    for (int x0 = 0; x0 < w; x0 += kTile) {
        const int cols = w - x0 < kTile ? w - x0 : kTile;
        if (active) {
            for (int j = 0; j < cols; ++j) {
                const int n = x0 + j;
                const MapSums sums = map_sums(a, b, w, blur_left(n), blur_right(n));
                for (int m = 0; m < kMaps; ++m) tile[m][r][j] = iir_step(st[m], sums.s[m]);
            }
        }
        __syncthreads();
        for (int row = 0; row < kTile && y0 + row < h; ++row) {
            if (r < cols) {
                const std::size_t at = static_cast<std::size_t>(y0 + row) * w + x0 + r;
                for (int m = 0; m < kMaps; ++m) out[m * plane + at] = tile[m][row][r];
            }
        }
        __syncthreads();
    }
}

// terms: per channel kStored planes of doubles in raster order, d and the
// edge ratio (ChannelTerms forms the six terms from them).
__global__ void vertical_kernel(const float* hor, const float* ref, const float* dis, int w, int h, double* terms)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), c = static_cast<int>(blockIdx.y);
    if (x >= w) return;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    const float* src = hor + static_cast<std::size_t>(c) * kMaps * plane + x;
    const float* img1 = ref + c * plane + x;
    const float* img2 = dis + c * plane + x;
    double* t = terms + static_cast<std::size_t>(c) * kStored * plane + x;
    IirState st[kMaps] = {};
    // Each step's ten inputs are loaded one step ahead: a thread's column is
    // a serial chain, and few threads run (one per column and channel), so
    // the loads of step n + 1 are in flight while step n is computed.
    float lv[kMaps], rv[kMaps];
    const auto load = [&](int n, float (&l)[kMaps], float (&r)[kMaps]) {
        const int left = blur_left(n), right = blur_right(n);
        for (int m = 0; m < kMaps; ++m) {
            l[m] = left >= 0 ? src[m * plane + static_cast<std::size_t>(left) * w] : 0.0f;
            r[m] = right < h ? src[m * plane + static_cast<std::size_t>(right) * w] : 0.0f;
        }
    };
    load(kBlurFirstStep, lv, rv);
    for (int n = kBlurFirstStep; n < h; ++n) {
        float next_l[kMaps] = {}, next_r[kMaps] = {};
        if (n + 1 < h) load(n + 1, next_l, next_r);
        float o[kMaps];
        for (int m = 0; m < kMaps; ++m) o[m] = iir_step(st[m], lv[m] + rv[m]);
        for (int m = 0; m < kMaps; ++m) {
            lv[m] = next_l[m];
            rv[m] = next_r[m];
        }
        if (n < 0) continue;
        const std::size_t at = static_cast<std::size_t>(n) * w;
        t[at] = ssim_term(o[0], o[1], o[2], o[3], o[4]);
        t[plane + at] = edge_ratio(edge_abs_diff(img1[at], o[0]), edge_abs_diff(img2[at], o[1]));
    }
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
        hor_ = gpu::DeviceArray<float>(3 * kMaps * plane, "ssimulacra2 horizontal maps");
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
            horizontal_kernel<<<dim3(gpu::blocks_for(h, kTile), 3), kTile, 0, stream>>>(xyb_ref, xyb_dis, w, h,
                                                                                   hor_.get());
            gpu::check_launch("ssimulacra2 horizontal_kernel");
            // Warps of 32 columns: one thread per column and channel is few
            // threads (11,520 at 4K), spread over as many SMs as possible.
            vertical_kernel<<<dim3(gpu::blocks_for(w, kVerticalThreads), 3), kVerticalThreads, 0, stream>>>(
                hor_.get(), xyb_ref, xyb_dis, w, h, terms_.get());
            gpu::check_launch("ssimulacra2 vertical_kernel");
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
    gpu::DeviceArray<float> lin_, xyb_, hor_;
    gpu::DeviceArray<double> terms_;
    gpu::ChainSums<double, kTerms> sums_;
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<Ssimulacra2Twin>(options, format);
}

}  // namespace twinvmaf::ssimulacra2
