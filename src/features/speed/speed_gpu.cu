// The GPU twins of speed_chroma and speed_temporal: every stage of
// plane_stats() and the score on the device, from speed_math.h and
// float_filter_math.h, then one small result block per frame (the channel
// scores and the singular flags).
//
// The planes of a frame (U ref, U dis, V ref, V dis; or the reference's and
// the distorted's temporal differences) run side by side in one launch per
// stage:
//   convert      samples to floats (the temporal difference in float)
//   prescale     scaled_sample() over the scaler's tables (when it rescales)
//   decimate     separable_sample() of the anti-aliasing taps at every 16th
//                row and column
//   local mean   the sample minus separable_sample() of the local taps
//   statistics   one block per plane: the 25 sub-picture means, the 325
//                covariance sums (one thread each, in the CPU's order), the
//                eigenvalues (the Householder reduction's loops shared by the
//                block, the QR iterations in one thread: a serial
//                algorithm), the QR solve, the variances and the entropies'
//                log2 terms with the block's threads sharing every loop of
//                independent entries (speed_math.h's Loop policy)
//   score        the block scores side by side, then their sum in block
//                order in one thread
#include <memory>
#include <vector>

#include "features/common/float_filter_math.h"
#include "features/common/float_picture.h"
#include "features/speed/speed.h"
#include "features/speed/speed_math.h"
#include "gpu/block_loop.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::speed {

namespace {

constexpr unsigned kThreads = 256;
// Threads of the statistics block: one per covariance pair (325), in warps.
constexpr unsigned kStatsThreads = 352;
constexpr int kPairs = kBlockElements * (kBlockElements + 1) / 2;
constexpr int kMaxPlanes = 4;

// speed_math.h's Loop policy on the device (gpu/block_loop.h), with the
// matrix product per entry.
struct SpeedBlockLoop : gpu::BlockLoop {
    TV_HD void matmul(float* dst, const float* x, const float* y, int n, int cols) const
    {
        matmul_entries(dst, n, cols, [&](int i, int j) { return matmul_entry(x, y, n, cols, i, j); });
    }
};

// Where a plane's samples come from: `a`, less `b` when b is set (the
// temporal difference: earlier minus current frame).
struct PlaneSource {
    const std::uint8_t* a = nullptr;
    const std::uint8_t* b = nullptr;
    std::ptrdiff_t stride = 0;
};

struct Sources {
    PlaneSource plane[kMaxPlanes];
};

template <class Sample>
__global__ void convert_kernel(Sources sources, unsigned w, unsigned h, unsigned bitdepth, float* planes)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, p = blockIdx.z;
    if (x >= w) return;
    // A constant index into the parameter (a variable one would copy it to
    // local memory in every thread).
    const PlaneSource s = p == 0 ? sources.plane[0] : p == 1 ? sources.plane[1] : p == 2 ? sources.plane[2]
                                                                                        : sources.plane[3];
    float v = float_picture::sample_to_float(reinterpret_cast<const Sample*>(s.a + y * s.stride)[x], bitdepth, -128.0f);
    if (s.b)
        v = v - float_picture::sample_to_float(reinterpret_cast<const Sample*>(s.b + y * s.stride)[x], bitdepth,
                                               -128.0f);
    planes[(static_cast<std::size_t>(p) * h + y) * w + x] = v;
}

__global__ void prescale_kernel(float_filter::ScalerView view, const float* planes, float* scaled)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
    const int p = static_cast<int>(blockIdx.z);
    if (x >= view.dst_w) return;
    const float* src = planes + static_cast<std::size_t>(p) * view.src_w * view.src_h;
    scaled[(static_cast<std::size_t>(p) * view.dst_h + y) * view.dst_w + x] = float_filter::scaled_sample(view, src, x, y);
}

// The anti-aliased plane (w x h) kept at every 16th row and column.
__global__ void decimate_kernel(const float* taps, int ntaps, const float* planes, int w, int h, int ow, int oh,
                                float* decimated)
{
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    const int p = static_cast<int>(blockIdx.z);
    if (j >= ow) return;
    const float* src = planes + static_cast<std::size_t>(p) * w * h;
    constexpr int step = 1 << kScales;
    decimated[(static_cast<std::size_t>(p) * oh + i) * ow + j] =
        float_filter::separable_sample(taps, ntaps, src, w, h, i * step, j * step);
}

// The sample less its local mean (the separable filter of the local taps).
__global__ void local_mean_kernel(const float* taps, int ntaps, const float* decimated, int ow, int oh, float* centred)
{
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), i = static_cast<int>(blockIdx.y);
    const int p = static_cast<int>(blockIdx.z);
    if (j >= ow) return;
    const float* src = decimated + static_cast<std::size_t>(p) * ow * oh;
    centred[(static_cast<std::size_t>(p) * oh + i) * ow + j] =
        src[i * ow + j] - float_filter::separable_sample(taps, ntaps, src, ow, oh, i, j);
}

// Per plane, in the planes' arrays: y, qy, x (25 x blocks each), the block
// variances and entropies (blocks each), and the singular flag.
struct StatsArrays {
    float* y;
    float* qy;
    float* x;
    float* variances;
    float* entropies;
    int* singular;
    double* entropy_terms;  // 25 x blocks per plane
};

__global__ void __launch_bounds__(kStatsThreads)
    stats_kernel(const float* centred, int ow, int oh, int sub_w, int sub_h, int blocks_x, int blocks, float sigma_nn,
                 StatsArrays arrays)
{
    constexpr int n = kBlockElements;
    const int p = static_cast<int>(blockIdx.x);
    const float* data = centred + static_cast<std::size_t>(p) * ow * oh;
    const std::size_t terms = static_cast<std::size_t>(n) * blocks;
    float* y = arrays.y + p * terms;
    float* qy = arrays.qy + p * terms;
    float* x = arrays.x + p * terms;
    float* variances = arrays.variances + static_cast<std::size_t>(p) * blocks;
    float* entropies = arrays.entropies + static_cast<std::size_t>(p) * blocks;

    __shared__ float means[n], cov[n * n], eig[n], eig_scratch[n * n + 4 * n];
    __shared__ float qt[n * n], r[n * n], qr_scratch[3 * n * n + n];
    __shared__ int failed;
    const SpeedBlockLoop loop;

    loop(0, n, [&](int k) { means[k] = submatrix_mean(data, ow, k / kBlock, k % kBlock, sub_w, sub_h); });
    loop(0, kPairs, [&](int e) {
        int a = 0;
        while (e > a) e -= ++a;  // pair e = (a, b), b <= a, in the order a(a+1)/2 + b
        const int b = e;
        const float c = covariance_from_sum(covariance_pair_sum(data, ow, sub_w, sub_h, means, a, b), sub_w, sub_h);
        cov[a * n + b] = c;
        cov[b * n + a] = c;
    });
    symmetric_eigenvalues(cov, n, eig, eig_scratch, loop);
    loop(0, static_cast<int>(terms), [&](int e) { y[e] = independent_entry(data, ow, blocks_x, e / blocks, e % blocks); });
    bool regular = true;
    for (int k = 0; k < n; ++k)
        if (static_cast<double>(eig[k]) < kEigenvalueEps) regular = false;
    bool solved = false;
    if (regular) {
        qr_decompose(cov, n, qt, r, qr_scratch, loop);
        loop(0, static_cast<int>(terms), [&](int e) { qy[e] = matmul_entry(qt, y, n, blocks, e / blocks, e % blocks); });
        if (threadIdx.x == 0) failed = 0;
        loop(0, blocks, [&](int j) {
            if (!back_substitute_column(r, qy, x, n, blocks, j)) failed = 1;
        });
        solved = !failed;
    }
    if (!solved) loop(0, static_cast<int>(terms), [&](int e) { x[e] = 0.0f; });
    // block_entropy() in two steps: the 25 log2 terms of every block side by
    // side, then each block's running sum in term order.
    const double log2_2pie = log2_2pi_e();
    loop(0, blocks, [&](int b) { variances[b] = block_variance(x, y, blocks, b); });
    loop(0, static_cast<int>(terms), [&](int e) {
        const int k = e / blocks, b = e % blocks;
        arrays.entropy_terms[p * terms + e] = entropy_term(clamped_eigenvalue(eig, k), variances[b], sigma_nn, log2_2pie);
    });
    loop(0, blocks, [&](int b) {
        float entropy = 0;
        for (int k = 0; k < n; ++k) entropy = entropy_step(entropy, arrays.entropy_terms[p * terms + k * blocks + b]);
        entropies[b] = entropy;
    });
    if (threadIdx.x == 0) arrays.singular[p] = solved ? 0 : 1;
}

struct ChromaResult {
    float u, v, uv;
    std::uint32_t flags;
};

struct TemporalResult {
    float score;
    std::uint32_t flags;
};

constexpr unsigned kScoreThreads = 256;

// The score of planes (ref, ref + 1): 0 when only one was singular, else
// the mean of the block scores (computed side by side, added in block
// order by thread 0). Every thread of the block must call it.
__device__ float channel_score(const StatsArrays& a, int ref, int blocks, float base, int mode, float* block_scores)
{
    const std::size_t r = static_cast<std::size_t>(ref) * blocks, d = r + blocks;
    const bool singular_ref = a.singular[ref] != 0, singular_dis = a.singular[ref + 1] != 0;
    for (int b = threadIdx.x; b < blocks; b += blockDim.x)
        block_scores[b] = block_score(a.entropies[r + b], a.entropies[d + b], a.variances[r + b], a.variances[d + b],
                                      base, mode);
    __syncthreads();
    float score = 0.0f;
    if (threadIdx.x == 0 && singular_ref == singular_dis) score = mean_block_score(block_scores, blocks);
    __syncthreads();
    return score;  // thread 0's
}

__global__ void chroma_score_kernel(StatsArrays arrays, int blocks, float sigma_nn, float nn_floor, int mode,
                                    float* block_scores, ChromaResult* result)
{
    const float base = base_entropy(sigma_nn, nn_floor, log2_2pi_e());
    const float u = channel_score(arrays, 0, blocks, base, mode, block_scores);
    const float v = channel_score(arrays, 2, blocks, base, mode, block_scores + blocks);
    if (threadIdx.x != 0) return;
    const int* s = arrays.singular;
    result->u = u;
    result->v = v;
    result->uv = combine_uv(u, v, s[0] || s[1], s[2] || s[3]);
    result->flags = static_cast<std::uint32_t>(s[0] | s[1] << 1 | s[2] << 2 | s[3] << 3);
}

__global__ void temporal_score_kernel(StatsArrays arrays, int blocks, float sigma_nn, float nn_floor, int mode,
                                      float* block_scores, TemporalResult* result)
{
    const float base = base_entropy(sigma_nn, nn_floor, log2_2pi_e());
    const float score = channel_score(arrays, 0, blocks, base, mode, block_scores);
    if (threadIdx.x != 0) return;
    result->score = score;
    result->flags = static_cast<std::uint32_t>(arrays.singular[0] | arrays.singular[1] << 1);
}

template <class T>
gpu::DeviceArray<T> upload(const std::vector<T>& host, const char* what)
{
    gpu::DeviceArray<T> device(host.size(), what);
    if (!host.empty())
        gpu::check(gpuMemcpyAsync(device.get(), host.data(), sizeof(T) * host.size(), gpuMemcpyHostToDevice, nullptr),
                   what);
    return device;
}

template <class T>
std::vector<T> copy_of(const T* data, std::size_t count)
{
    return data ? std::vector<T>(data, data + count) : std::vector<T>();
}

// What both twins do with their planes: the stages above, up to the block
// statistics.
class SpeedPlanes {
public:
    SpeedPlanes(const Settings& settings, const Geometry& g, const Filters& f, int planes)
        : settings_(settings), g_(g), planes_(planes),
          input_w_(static_cast<int>(g.rescale ? g.scaled_width : g.width)),
          input_h_(static_cast<int>(g.rescale ? g.scaled_height : g.height)),
          ow_(static_cast<int>(g.operating_width)), oh_(static_cast<int>(g.operating_height)),
          blocks_(static_cast<int>(g.blocks())),
          antialias_(upload(f.antialias, "SpEED taps")), local_(upload(f.local, "SpEED taps")),
          antialias_taps_(static_cast<int>(f.antialias.size())), local_taps_(static_cast<int>(f.local.size())),
          converted_(std::size_t{g.width} * g.height * planes, "SpEED planes"),
          scaled_(g.rescale ? std::size_t{g.scaled_width} * g.scaled_height * planes : 0, "SpEED planes"),
          decimated_(std::size_t(ow_) * oh_ * planes, "SpEED planes"),
          centred_(std::size_t(ow_) * oh_ * planes, "SpEED planes"),
          terms_(std::size_t{kBlockElements} * blocks_ * planes * 3, "SpEED statistics"),
          block_stats_(std::size_t(blocks_) * planes * 2, "SpEED statistics"),
          singular_(planes, "SpEED statistics"),
          entropy_terms_(std::size_t{kBlockElements} * blocks_ * planes, "SpEED statistics"),
          block_scores_(std::size_t(blocks_) * 2, "SpEED statistics")
    {
        if (g.rescale) {
            const float_filter::ScalerView host = f.scaler.view();
            view_ = host;
            const std::size_t w = static_cast<std::size_t>(host.dst_w), h = static_cast<std::size_t>(host.dst_h);
            const std::size_t taps = host.method == 2 ? 4 : 9;
            const bool bilinear = host.method == 1, kernel = host.method >= 2;
            x1_ = upload(copy_of(bilinear ? host.x1 : nullptr, w), "SpEED scaler");
            x2_ = upload(copy_of(bilinear ? host.x2 : nullptr, w), "SpEED scaler");
            y1_ = upload(copy_of(bilinear ? host.y1 : nullptr, h), "SpEED scaler");
            y2_ = upload(copy_of(bilinear ? host.y2 : nullptr, h), "SpEED scaler");
            dx_ = upload(copy_of(bilinear ? host.dx : nullptr, w), "SpEED scaler");
            dy_ = upload(copy_of(bilinear ? host.dy : nullptr, h), "SpEED scaler");
            x0_ = upload(copy_of(kernel ? host.x0 : nullptr, w), "SpEED scaler");
            y0_ = upload(copy_of(kernel ? host.y0 : nullptr, h), "SpEED scaler");
            wx_ = upload(copy_of(kernel ? host.wx : nullptr, w * taps), "SpEED scaler");
            wy_ = upload(copy_of(kernel ? host.wy : nullptr, h * taps), "SpEED scaler");
            view_.x1 = x1_.get(), view_.x2 = x2_.get(), view_.y1 = y1_.get(), view_.y2 = y2_.get();
            view_.dx = dx_.get(), view_.dy = dy_.get(), view_.x0 = x0_.get(), view_.y0 = y0_.get();
            view_.wx = wx_.get(), view_.wy = wy_.get();
        }
        gpu::check(gpuStreamSynchronize(nullptr), "SpEED set-up");
        const std::size_t terms = std::size_t{kBlockElements} * blocks_ * planes;
        arrays_ = StatsArrays{terms_.get(),      terms_.get() + terms, terms_.get() + 2 * terms, block_stats_.get(),
                              block_stats_.get() + std::size_t(blocks_) * planes, singular_.get(),
                              entropy_terms_.get()};
    }

    int blocks() const { return blocks_; }
    float* block_scores() const { return block_scores_.get(); }
    const StatsArrays& arrays() const { return arrays_; }

    void run(const Sources& sources, unsigned bitdepth, gpuStream_t stream)
    {
        const unsigned w = g_.width, h = g_.height, p = static_cast<unsigned>(planes_);
        if (bitdepth > 8)
            convert_kernel<std::uint16_t>
                <<<dim3(gpu::blocks_for(w, kThreads), h, p), kThreads, 0, stream>>>(sources, w, h, bitdepth, converted_.get());
        else
            convert_kernel<std::uint8_t>
                <<<dim3(gpu::blocks_for(w, kThreads), h, p), kThreads, 0, stream>>>(sources, w, h, bitdepth, converted_.get());
        gpu::check_launch("SpEED convert_kernel");
        const float* input = converted_.get();
        if (g_.rescale) {
            prescale_kernel<<<dim3(gpu::blocks_for(g_.scaled_width, kThreads), g_.scaled_height, p), kThreads, 0, stream>>>(
                view_, converted_.get(), scaled_.get());
            gpu::check_launch("SpEED prescale_kernel");
            input = scaled_.get();
        }
        const dim3 operating(gpu::blocks_for(ow_, kThreads), oh_, p);
        decimate_kernel<<<operating, kThreads, 0, stream>>>(antialias_.get(), antialias_taps_, input,
                                                             input_w_, input_h_, ow_, oh_, decimated_.get());
        gpu::check_launch("SpEED decimate_kernel");
        local_mean_kernel<<<operating, kThreads, 0, stream>>>(local_.get(), local_taps_,
                                                               decimated_.get(), ow_, oh_, centred_.get());
        gpu::check_launch("SpEED local_mean_kernel");
        stats_kernel<<<p, kStatsThreads, 0, stream>>>(centred_.get(), ow_, oh_, static_cast<int>(g_.sub_width),
                                                      static_cast<int>(g_.sub_height), static_cast<int>(g_.blocks_x),
                                                      blocks_, static_cast<float>(settings_.sigma_nn), arrays_);
        gpu::check_launch("SpEED stats_kernel");
    }

private:

    Settings settings_;
    Geometry g_;
    int planes_;
    int input_w_, input_h_, ow_, oh_, blocks_;
    gpu::DeviceArray<float> antialias_, local_;
    int antialias_taps_, local_taps_;
    gpu::DeviceArray<float> converted_, scaled_, decimated_, centred_, terms_, block_stats_;
    gpu::DeviceArray<int> singular_;
    gpu::DeviceArray<double> entropy_terms_;
    gpu::DeviceArray<float> block_scores_;
    gpu::DeviceArray<int> x1_, x2_, y1_, y2_, x0_, y0_;
    gpu::DeviceArray<float> dx_, dy_, wx_, wy_;
    float_filter::ScalerView view_;
    StatsArrays arrays_{};
};

class ChromaTwin final : public gpu::DeviceTwin {
public:
    explicit ChromaTwin(const SpeedExtractor& extractor)
        : settings_(extractor.settings()), planes_(settings_, extractor.geometry(), extractor.filters(), 4)
    {
    }

    std::size_t result_bytes() const override { return sizeof(ChromaResult); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        // The CPU's order: U ref, U dis, V ref, V dis.
        Sources sources;
        for (int c = 0; c < 2; ++c) {
            const gpu::DevicePlane ref = frame.ref_plane(c + 1), dis = frame.dis_plane(c + 1);
            sources.plane[2 * c] = {ref.data, nullptr, ref.stride};
            sources.plane[2 * c + 1] = {dis.data, nullptr, dis.stride};
        }
        planes_.run(sources, frame.format.bitdepth, stream);
        chroma_score_kernel<<<1, kScoreThreads, 0, stream>>>(
            planes_.arrays(), planes_.blocks(), static_cast<float>(settings_.sigma_nn),
            static_cast<float>(settings_.nn_floor), settings_.weight_var_mode, planes_.block_scores(),
            static_cast<ChromaResult*>(device_result));
        gpu::check_launch("SpEED chroma_score_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto& r = *static_cast<const ChromaResult*>(host_result);
        SpeedChroma::set_scores(scores, settings_, r.u, r.v, r.uv, r.flags);
    }

private:
    Settings settings_;
    SpeedPlanes planes_;
};

class TemporalTwin final : public gpu::DeviceTwin {
public:
    explicit TemporalTwin(const SpeedExtractor& extractor)
        : settings_(extractor.settings()), planes_(settings_, extractor.geometry(), extractor.filters(), 2)
    {
    }

    std::size_t result_bytes() const override { return sizeof(TemporalResult); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        if (frame.index == 0) return;  // no earlier frame: the zeroed result, 0, as the CPU
        if (frame.previous_count < 1)
            throw Error("internal: speed_temporal's GPU twin is missing frame " + std::to_string(frame.index - 1));
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        const gpu::DevicePlane earlier_ref = frame.previous_ref_plane(1, 0), earlier_dis = frame.previous_dis_plane(1, 0);
        // Earlier minus current; with speed_use_ref_diff the distorted's
        // difference is taken against the current reference.
        Sources sources;
        sources.plane[0] = {earlier_ref.data, ref.data, ref.stride};
        sources.plane[1] = {earlier_dis.data, settings_.use_ref_diff ? ref.data : dis.data, ref.stride};
        planes_.run(sources, frame.format.bitdepth, stream);
        temporal_score_kernel<<<1, kScoreThreads, 0, stream>>>(
            planes_.arrays(), planes_.blocks(), static_cast<float>(settings_.sigma_nn),
            static_cast<float>(settings_.nn_floor), settings_.weight_var_mode, planes_.block_scores(),
            static_cast<TemporalResult*>(device_result));
        gpu::check_launch("SpEED temporal_score_kernel");
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto& r = *static_cast<const TemporalResult*>(host_result);
        SpeedTemporal::set_scores(scores, r.score, r.flags);
    }

private:
    Settings settings_;
    SpeedPlanes planes_;
};

// The CPU extractor initialised for the format: its checks refuse what the
// CPU refuses, with the same message, and it fixes geometry and filters.
std::unique_ptr<FeatureExtractor> initialised(const FeatureInfo& info, const OptionValues& options,
                                              const VideoFormat& format)
{
    auto extractor = info.create(options);
    extractor->init(format);
    return extractor;
}

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_chroma_twin(const OptionValues& options, const VideoFormat& format)
{
    const auto extractor = initialised(chroma_feature_info(), options, format);
    return std::make_unique<ChromaTwin>(static_cast<const SpeedExtractor&>(*extractor));
}

std::unique_ptr<gpu::DeviceTwin> make_temporal_twin(const OptionValues& options, const VideoFormat& format)
{
    const auto extractor = initialised(temporal_feature_info(), options, format);
    return std::make_unique<TemporalTwin>(static_cast<const SpeedExtractor&>(*extractor));
}

}  // namespace twinvmaf::speed
