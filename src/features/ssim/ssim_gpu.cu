// The GPU twins of float_ssim and float_ms_ssim, bit for bit with the CPU.
//
// Both share one device stage (SsimStage below), as their CPU references
// share ssim_math.h: for a pair of packed float pictures,
//   1. horizontal_kernel: one thread per (map column, picture row), the
//      five horizontal Gaussian windows (horizontal_window<map>) into five
//      maps of map_width x height floats;
//   2. terms_kernel: one thread per map position, the five vertical windows
//      and lcs_terms (vertical_terms), into one LcsTerms per position;
//   3. the four sums of every level (float_ssim: 1, float_ms_ssim: one per
//      scale, all five at once) with the bits of the CPU's chains: ONE
//      serial chain per sum over the map in row-major order (sum_term<k>,
//      as SsimSums::add), computed in parallel by gpu/chain_sum.h (chunks
//      followed from guessed starts, then moved onto the true start where
//      that is provably exact), then means().
// Before that, the luma becomes floats (float_picture::sample_to_float, offset
// 0) and is decimated as on the CPU: float_ssim's box of `scale` taps,
// MS-SSIM's 9x9 low-pass pyramid (decimated_sample, mirrored borders; the
// mirror is the identity inside the picture, so the kernel takes the
// mirrored form everywhere: the same samples, so the same bits).
//
// The result block holds the means as floats (SsimMeans, one per scale), so
// unpack() is the CPU's store() and collect() (pow, log10 on the host) is
// shared. Frame sizes are refused by the CPU extractor's init(), which runs
// before the twin is made.
//
// Netflix's order of the additions is the contract (docs/compat.md, "SSIM
// and MS-SSIM"); gpu/chain_sum.h keeps its bits without running it in one
// thread (8.2 M additions per chain at 4K for float_ms_ssim).
#include <algorithm>
#include <array>
#include <vector>

#include "features/common/float_picture.h"
#include "features/ssim/ssim.h"
#include "features/ssim/ssim_gpu.h"
#include "features/ssim/ssim_math.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"
#include "gpu/chain_sum.h"

namespace twinvmaf::ssim {

namespace {

constexpr unsigned kThreads = 128;

TV_HD std::size_t positions(int w, int h) { return w > 0 && h > 0 ? static_cast<std::size_t>(w) * h : 0; }

template <class Sample>
__global__ void to_float_kernel(const std::uint8_t* plane, std::ptrdiff_t stride, unsigned width, unsigned bitdepth,
                                float* out)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    const Sample* row = reinterpret_cast<const Sample*>(plane + blockIdx.y * stride);
    out[static_cast<std::size_t>(blockIdx.y) * width + x] = float_picture::sample_to_float(row[x], bitdepth, 0.0f);
}

struct BoxWeight {
    float weight;
    __device__ float operator()(int) const { return weight; }
};
struct LowPassWeight {
    __device__ float operator()(int k) const { return low_pass_weight(k); }
};

template <class Weight>
__global__ void decimate_kernel(const float* in, int width, int height, int factor, int size, Weight weight,
                                float* out, int out_width)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= out_width) return;
    const int y = static_cast<int>(blockIdx.y);
    out[static_cast<std::size_t>(y) * out_width + x] =
        decimated_sample<true>(in, width, height, x * factor, y * factor, size, weight);
}

// maps: kMomentMaps maps of map_width x height, map after map.
__global__ void horizontal_kernel(const float* ref, const float* dis, int width, int height, int map_width,
                                  float* maps)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= map_width) return;
    const int y = static_cast<int>(blockIdx.y);
    const float* r = ref + static_cast<std::size_t>(y) * width;
    const float* d = dis + static_cast<std::size_t>(y) * width;
    const std::size_t plane = static_cast<std::size_t>(map_width) * height;
    float* o = maps + static_cast<std::size_t>(y) * map_width + x;
    o[kMuRef * plane] = horizontal_window<kMuRef>(r, d, x);
    o[kMuDis * plane] = horizontal_window<kMuDis>(r, d, x);
    o[kRefSq * plane] = horizontal_window<kRefSq>(r, d, x);
    o[kDisSq * plane] = horizontal_window<kDisSq>(r, d, x);
    o[kRefDis * plane] = horizontal_window<kRefDis>(r, d, x);
}

__global__ void terms_kernel(const float* maps, int height, int map_width, LcsTerms* terms)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= map_width) return;
    const int y = static_cast<int>(blockIdx.y);
    const std::size_t plane = static_cast<std::size_t>(map_width) * height;
    const float* column = maps + static_cast<std::size_t>(y) * map_width + x;
    terms[static_cast<std::size_t>(y) * map_width + x] =
        vertical_terms([&](int map, int k) { return column[map * plane + static_cast<std::size_t>(k) * map_width]; });
}

// The four chains of SsimSums::add over each level's terms (one job per
// level), for gpu::ChainSums.
struct SsimTerms {
    const LcsTerms* terms[kMsScales];
    std::size_t positions[kMsScales];
    __device__ std::size_t count(unsigned job) const { return positions[job]; }
    __device__ void at(unsigned job, std::size_t i, double (&out)[kSums]) const
    {
        const LcsTerms t = terms[job][i];
        out[kSumSsim] = sum_term<kSumSsim>(t);
        out[kSumL] = sum_term<kSumL>(t);
        out[kSumC] = sum_term<kSumC>(t);
        out[kSumS] = sum_term<kSumS>(t);
    }
};

// A level's means from its four sums, as the CPU's means().
struct SsimFinish {
    SsimMeans* out;
    int map_width[kMsScales], map_height[kMsScales];
    __device__ void operator()(unsigned job, const double (&chains)[kSums]) const
    {
        SsimSums sums;
        sums.ssim = chains[kSumSsim];
        sums.l = chains[kSumL];
        sums.c = chains[kSumC];
        sums.s = chains[kSumS];
        out[job] = means(sums, map_width[job], map_height[job]);
    }
};

// A packed float picture pair of one scale on the device.
struct Level {
    int width = 0, height = 0;
    gpu::DeviceArray<float> ref, dis;

    Level() = default;
    Level(int w, int h) : width(w), height(h), ref(positions(w, h), "ssim picture"), dis(positions(w, h), "ssim picture") {}
};

void enqueue_to_float(const gpu::DevicePlane& plane, unsigned bitdepth, float* out, gpuStream_t stream)
{
    if (!plane.width || !plane.height) return;
    const dim3 grid(gpu::blocks_for(plane.width, kThreads), plane.height);
    if (bitdepth > 8)
        to_float_kernel<std::uint16_t><<<grid, kThreads, 0, stream>>>(plane.data, plane.stride, plane.width, bitdepth, out);
    else
        to_float_kernel<std::uint8_t><<<grid, kThreads, 0, stream>>>(plane.data, plane.stride, plane.width, bitdepth, out);
    gpu::check_launch("ssim to_float_kernel");
}

template <class Weight>
void enqueue_decimate(const Level& in, int factor, int size, Weight weight, Level& out, gpuStream_t stream)
{
    if (out.width <= 0 || out.height <= 0 || in.width <= 0 || in.height <= 0) return;
    const dim3 grid(gpu::blocks_for(static_cast<unsigned>(out.width), kThreads), static_cast<unsigned>(out.height));
    decimate_kernel<<<grid, kThreads, 0, stream>>>(in.ref.get(), in.width, in.height, factor, size, weight,
                                                   out.ref.get(), out.width);
    decimate_kernel<<<grid, kThreads, 0, stream>>>(in.dis.get(), in.width, in.height, factor, size, weight,
                                                   out.dis.get(), out.width);
    gpu::check_launch("ssim decimate_kernel");
}

// The stage both twins share: the Gaussian moments and the terms of the
// levels it is given, then their means in the CPU's order.
class SsimStage {
public:
    // Buffers for the terms of each level (in order) and for the moment maps
    // of the largest.
    explicit SsimStage(const std::vector<const Level*>& levels)
    {
        std::size_t maps = 0, most_terms = 0;
        for (const Level* level : levels) {
            maps = std::max(maps, positions(map_size(level->width), level->height));
            const std::size_t terms = positions(map_size(level->width), map_size(level->height));
            most_terms = std::max(most_terms, terms);
            terms_.emplace_back(terms, "ssim terms");
        }
        maps_ = gpu::DeviceArray<float>(kMomentMaps * maps, "ssim moment maps");
        sums_ = gpu::ChainSums<double, kSums>(static_cast<unsigned>(levels.size()), most_terms);
    }

    // The terms of level i, then (after the last level) every level's means
    // into means[0 .. levels - 1], all levels' sums at once.
    void enqueue_terms(std::size_t i, const Level& level, gpuStream_t stream)
    {
        const int map_w = map_size(level.width), map_h = map_size(level.height);
        if (map_w <= 0 || map_h <= 0) return;
        const unsigned column_blocks = gpu::blocks_for(static_cast<unsigned>(map_w), kThreads);
        horizontal_kernel<<<dim3(column_blocks, static_cast<unsigned>(level.height)), kThreads, 0, stream>>>(
            level.ref.get(), level.dis.get(), level.width, level.height, map_w, maps_.get());
        gpu::check_launch("ssim horizontal_kernel");
        terms_kernel<<<dim3(column_blocks, static_cast<unsigned>(map_h)), kThreads, 0, stream>>>(
            maps_.get(), level.height, map_w, terms_[i].get());
        gpu::check_launch("ssim terms_kernel");
    }

    void enqueue_means(const std::vector<const Level*>& levels, SsimMeans* means, gpuStream_t stream) const
    {
        SsimTerms terms{};
        SsimFinish finish{means, {}, {}};
        for (std::size_t i = 0; i < levels.size(); ++i) {
            finish.map_width[i] = map_size(levels[i]->width);
            finish.map_height[i] = map_size(levels[i]->height);
            terms.terms[i] = terms_[i].get();
            terms.positions[i] = positions(finish.map_width[i], finish.map_height[i]);
        }
        sums_.enqueue(terms, static_cast<unsigned>(levels.size()), finish, stream);
    }

private:
    gpu::DeviceArray<float> maps_;
    std::vector<gpu::DeviceArray<LcsTerms>> terms_;
    gpu::ChainSums<double, kSums> sums_;
};

class FloatSsimTwin final : public gpu::DeviceTwin {
public:
    FloatSsimTwin(const Settings& settings, const VideoFormat& format)
        : factor_(decimation_factor(settings.scale, format.width, format.height)),
          picture_(static_cast<int>(format.width), static_cast<int>(format.height)),
          decimated_(factor_ > 1 ? Level(decimated_size(picture_.width, factor_), decimated_size(picture_.height, factor_))
                                 : Level()),
          scored_(factor_ > 1 ? &decimated_ : &picture_), stage_({scored_})
    {
    }

    std::size_t result_bytes() const override { return sizeof(SsimMeans); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        enqueue_to_float(frame.ref_plane(0), frame.format.bitdepth, picture_.ref.get(), stream);
        enqueue_to_float(frame.dis_plane(0), frame.format.bitdepth, picture_.dis.get(), stream);
        if (factor_ > 1) enqueue_decimate(picture_, factor_, factor_, BoxWeight{box_weight(factor_)}, decimated_, stream);
        stage_.enqueue_terms(0, *scored_, stream);
        stage_.enqueue_means({scored_}, static_cast<SsimMeans*>(device_result), stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        FloatSsimExtractor::store(*static_cast<const SsimMeans*>(host_result), scores);
    }

private:
    int factor_;
    Level picture_, decimated_;
    const Level* scored_;
    SsimStage stage_;
};

// Netflix's pyramid step: the 9x9 low-pass as one 2-D kernel (IQA's
// _iqa_decimate), each output from the input directly.
void netflix_pyramid_step(const float* in, int w, int h, float*, float* out, gpuStream_t stream)
{
    const int out_w = decimated_size(w, 2), out_h = decimated_size(h, 2);
    if (out_w <= 0 || out_h <= 0 || w <= 0 || h <= 0) return;
    const dim3 grid(gpu::blocks_for(static_cast<unsigned>(out_w), kThreads), static_cast<unsigned>(out_h));
    decimate_kernel<<<grid, kThreads, 0, stream>>>(in, w, h, 2, kLowPassSize, LowPassWeight{}, out, out_w);
    gpu::check_launch("ssim decimate_kernel");
}

std::size_t no_scratch(int, int) { return 0; }

class FloatMsSsimTwin final : public gpu::DeviceTwin {
public:
    FloatMsSsimTwin(const VideoFormat& format, const PyramidStep& step)
        : step_(step), stage_(make_levels(format)),
          scratch_(std::max<std::size_t>(1, step.scratch_floats(levels_[0].width, levels_[0].height)),
                   "ms_ssim pyramid scratch")
    {
    }

    std::size_t result_bytes() const override { return kMsScales * sizeof(SsimMeans); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        enqueue_to_float(frame.ref_plane(0), frame.format.bitdepth, levels_[0].ref.get(), stream);
        enqueue_to_float(frame.dis_plane(0), frame.format.bitdepth, levels_[0].dis.get(), stream);
        for (int scale = 0; scale < kMsScales; ++scale) {
            if (scale > 0) {
                const Level& in = levels_[scale - 1];
                step_.enqueue(in.ref.get(), in.width, in.height, scratch_.get(), levels_[scale].ref.get(), stream);
                step_.enqueue(in.dis.get(), in.width, in.height, scratch_.get(), levels_[scale].dis.get(), stream);
            }
            stage_.enqueue_terms(static_cast<std::size_t>(scale), levels_[scale], stream);
        }
        stage_.enqueue_means(pointers(), static_cast<SsimMeans*>(device_result), stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* means = static_cast<const SsimMeans*>(host_result);
        std::array<SsimMeans, kMsScales> all;
        for (int scale = 0; scale < kMsScales; ++scale) all[scale] = means[scale];
        FloatMsSsimExtractor::store(all, scores);
    }

private:
    // The pyramid's sizes, as the CPU's: each scale decimated_size(_, 2).
    std::vector<const Level*> make_levels(const VideoFormat& format)
    {
        int w = static_cast<int>(format.width), h = static_cast<int>(format.height);
        for (int scale = 0; scale < kMsScales; ++scale) {
            if (scale > 0) {
                w = decimated_size(w, 2);
                h = decimated_size(h, 2);
            }
            levels_[scale] = Level(w, h);
        }
        return pointers();
    }
    std::vector<const Level*> pointers() const
    {
        std::vector<const Level*> p;
        for (const Level& level : levels_) p.push_back(&level);
        return p;
    }

    PyramidStep step_;
    std::array<Level, kMsScales> levels_;
    SsimStage stage_;
    gpu::DeviceArray<float> scratch_;  // the step's, reused by each call (one stream)
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_ssim_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<FloatSsimTwin>(Settings::from(options), format);
}

std::unique_ptr<gpu::DeviceTwin> make_ms_ssim_twin(const VideoFormat& format, const PyramidStep& step)
{
    return std::make_unique<FloatMsSsimTwin>(format, step);
}

std::unique_ptr<gpu::DeviceTwin> make_ms_ssim_twin(const OptionValues&, const VideoFormat& format)
{
    return make_ms_ssim_twin(format, PyramidStep{netflix_pyramid_step, no_scratch});
}

}  // namespace twinvmaf::ssim
