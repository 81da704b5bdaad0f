// The GPU twin of cambi: every stage of CambiCpu on the device, from the
// arithmetic of cambi_math.h, with the CPU's buffers and their in-place
// semantics, then one small result block per frame: the exact top-k sums of
// every scale (FixedSum), which the host turns into the score with the CPU's
// own score_from_pools().
//
// Per input (the distorted frame; the source too with full_ref), per frame:
//   preprocess    luma -> 10 bits at the plan size (resampling tables), with
//                 the anti-dithering average computed from the values before
//                 it (what the CPU's in-place pass reads)
//   flat, mask    the spatial mask: flat_sample() per sample, then the 7x7
//                 count in a shared tile
//   per scale     decimate + mode filter into a temporary region, copied back
//                 (the CPU rewrites one buffer in place; reads of earlier
//                 values only, so gather-then-copy gives its bytes, and what
//                 lies outside the region stays as the CPU leaves it);
//                 c-values: a block per tile of 32 (or 16) columns x 32 rows
//                 keeps the tile's histograms in shared memory and slides
//                 them down its rows as the CPU does, with integer counts
//                 (atomic adds of 16-bit halves, exact in any order);
//                 pooling: a radix select of the k-th largest c-value over
//                 its float bits (3 passes of 11/11/10 bits), then the exact
//                 fixed-point sum of the k largest.
// Everything is integer but the c-value itself (c_value(), the CPU's float
// product), so no order matters anywhere.
#include <algorithm>
#include <cstring>
#include <vector>

#include "features/cambi/cambi.h"
#include "features/cambi/cambi_math.h"
#include "gpu/block_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::cambi {

namespace {

constexpr unsigned kThreads = 256;
// Rows of c-values per block: 32, or fewer where a scale would otherwise
// give fewer blocks than this (a block's rows run one after the other).
constexpr unsigned kMaxTileRows = 32;
constexpr unsigned kMinTileRows = 4;
constexpr unsigned kWantedBlocks = 512;
// Radix select over the 32 bits of a c-value: digits of 11, 11 and 10 bits.
constexpr int kPasses = 3;
__host__ __device__ constexpr int digit_shift(int pass) { return pass == 0 ? 21 : pass == 1 ? 10 : 0; }
__host__ __device__ constexpr int digit_bins(int pass) { return pass == 2 ? 1024 : 2048; }
constexpr int kMaxBins = 2048;
// The 2-D kernels' blocks.
constexpr unsigned kTileX = 32, kTileY = 8;

// ---------------------------------------------------------------- preprocess

template <class Sample>
__global__ void preprocess_kernel(const std::uint8_t* plane, std::ptrdiff_t plane_stride, unsigned bitdepth,
                                  unsigned w, unsigned h, const unsigned* source_columns,
                                  const unsigned* source_rows, bool anti_dither, std::uint16_t* image,
                                  std::size_t stride)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w || y >= h) return;
    auto value = [&](unsigned i, unsigned j) -> std::uint16_t {
        const unsigned row = source_rows ? source_rows[i] : i;
        const unsigned col = source_columns ? source_columns[j] : j;
        return to_10bit(reinterpret_cast<const Sample*>(plane + row * plane_stride)[col], bitdepth);
    };
    std::uint16_t v = value(y, x);
    if (anti_dither) {
        const bool last_row = y + 1 == h, last_col = x + 1 == w;
        const unsigned right = last_col ? x : x + 1, down = last_row ? y : y + 1;
        v = anti_dithered(v, value(y, right), value(down, x), value(down, right), last_row, last_col);
    }
    image[y * stride + x] = v;
}

// ---------------------------------------------------------------- spatial mask

__global__ void flat_kernel(const std::uint16_t* image, std::size_t stride, unsigned w, unsigned h, std::uint8_t* flat)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    flat[y * stride + x] = flat_sample(image, static_cast<std::ptrdiff_t>(stride), w, h, y, x) ? 1 : 0;
}

__global__ void mask_kernel(const std::uint8_t* flat, std::size_t stride, unsigned w, unsigned h, unsigned threshold,
                            std::uint8_t* mask)
{
    constexpr int half = kMaskFilterSize / 2;
    constexpr int tile_w = kTileX + 2 * half, tile_h = kTileY + 2 * half;
    __shared__ std::uint8_t tile[tile_h][tile_w];
    const int x0 = static_cast<int>(blockIdx.x * kTileX) - half, y0 = static_cast<int>(blockIdx.y * kTileY) - half;
    for (int i = threadIdx.y * kTileX + threadIdx.x; i < tile_w * tile_h; i += kTileX * kTileY) {
        const int r = y0 + i / tile_w, c = x0 + i % tile_w;
        const bool inside = r >= 0 && c >= 0 && r < static_cast<int>(h) && c < static_cast<int>(w);
        tile[i / tile_w][i % tile_w] = inside ? flat[r * stride + c] : 0;  // the window is cut at the frame
    }
    __syncthreads();
    const unsigned x = blockIdx.x * kTileX + threadIdx.x, y = blockIdx.y * kTileY + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned count = 0;
    for (int dy = 0; dy < kMaskFilterSize; ++dy)
        for (int dx = 0; dx < kMaskFilterSize; ++dx) count += tile[threadIdx.y + dy][threadIdx.x + dx];
    mask[y * stride + x] = count > threshold ? 1 : 0;
}

// ---------------------------------------------------------------- one scale

// The CPU's decimate (when `decimate`) and filter_mode, as a gather from the
// buffer's values before them into the temporary region [0, w) x [0, h).
__global__ void scale_kernel(const std::uint16_t* image, const std::uint8_t* mask, std::size_t stride, unsigned w,
                             unsigned h, bool decimate, std::uint16_t* out_image, std::uint8_t* out_mask)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const unsigned step = decimate ? 2 : 1;
    auto d = [&](unsigned i, unsigned j) { return image[(step * i) * stride + step * j]; };
    // The horizontal mode of row r at column x (edges copied).
    auto horizontal = [&](unsigned r) {
        if (x == 0 || x + 1 == w) return d(r, x);
        return mode3(d(r, x - 1), d(r, x), d(r, x + 1));
    };
    const std::uint16_t v = (y == 0 || y + 1 == h) ? d(y, x) : mode3(horizontal(y - 1), horizontal(y), horizontal(y + 1));
    out_image[y * stride + x] = v;
    if (decimate) out_mask[y * stride + x] = mask[(2 * y) * stride + 2 * x];
}

__global__ void copy_back_kernel(const std::uint16_t* from_image, const std::uint8_t* from_mask, std::size_t stride,
                                 unsigned w, unsigned h, bool with_mask, std::uint16_t* image, std::uint8_t* mask)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    image[y * stride + x] = from_image[y * stride + x];
    if (with_mask) mask[y * stride + x] = from_mask[y * stride + x];
}

// ---------------------------------------------------------------- c-values

// c-values of rows [i0, i0 + rows) and columns [c0, c0 + kTile) of a scale:
// the tile's histograms (value x tile column, 16-bit counts, two to a 32-bit
// word) slide down the rows as the CPU's Windows do. A sample at column j
// (< `columns`: at scales narrower than the window, the CPU also counts the
// buffer's columns up to the window's half-width) counts for every tile
// column within pad of it. Thread x handles tile column x % kTile and the
// window offsets x / kTile, x / kTile + kThreads / kTile, ... (no division
// in the loops). Shared memory: the histograms, then the counted values of
// the samples the tile reads (the first rows' window, then two pairs of
// lines, leaving / entering, one pair filled while the other is counted).
template <int kTile>
__global__ void c_values_kernel(const std::uint16_t* image, const std::uint8_t* mask, std::size_t stride, unsigned w,
                                unsigned h, unsigned pad, unsigned columns, unsigned rows, ContrastParams params,
                                const float* reciprocal, float* c_values)
{
    constexpr int kOffsetsAtOnce = static_cast<int>(kThreads) / kTile;
    extern __shared__ std::uint32_t shared[];
    const int ipad = static_cast<int>(pad);
    const int span = 2 * ipad + 1, reach = kTile + 2 * ipad;  // window width; samples a tile row reads
    const int words = static_cast<int>(params.band_size) * kTile / 2;
    std::uint32_t* hist_words = shared;
    auto* cache = reinterpret_cast<std::int16_t*>(shared + words);  // max(span, 4) x reach counted values
    // Raw storage: a __shared__ variable may not have a constructor (HIP).
    alignas(ContrastParams) __shared__ unsigned char params_storage[sizeof(ContrastParams)];
    if (threadIdx.x == 0) __builtin_memcpy(params_storage, &params, sizeof(ContrastParams));
    const ContrastParams& p = *reinterpret_cast<const ContrastParams*>(params_storage);
    for (int k = threadIdx.x; k < words; k += blockDim.x) hist_words[k] = 0;

    const int c0 = static_cast<int>(blockIdx.x) * kTile, i0 = static_cast<int>(blockIdx.y * rows);
    const int wi = static_cast<int>(w), hi = static_cast<int>(h), cols = static_cast<int>(columns);
    const int c = static_cast<int>(threadIdx.x) % kTile, first_offset = static_cast<int>(threadIdx.x) / kTile;
    const bool counts = c0 + c < wi;  // the thread's column is in the scale
    __syncthreads();
    // The sample's histogram value (compact, in the band) if it is masked,
    // else -1; -1 also outside [0, columns).
    auto counted = [&](int row, int j) -> std::int16_t {
        if (j < 0 || j >= cols) return -1;
        const std::size_t at = static_cast<std::size_t>(row) * stride + j;
        if (!mask[at]) return -1;
        const unsigned compact = static_cast<unsigned>(image[at]) - p.band_base;
        return compact < p.band_size ? static_cast<std::int16_t>(compact) : static_cast<std::int16_t>(-1);
    };
    // Adds delta for the thread's (column, offsets) of cached line `line`.
    auto update = [&](const std::int16_t* line, std::uint32_t delta) {
        if (!counts) return;
        for (int o = first_offset; o < span; o += kOffsetsAtOnce) {
            const int v = line[c + o];
            if (v >= 0) atomicAdd(&hist_words[(v * kTile + c) >> 1], delta << (16 * (c & 1)));
        }
    };
    auto load = [&](int row, std::int16_t* line) {
        for (int x = threadIdx.x; x < reach; x += blockDim.x) line[x] = counted(row, c0 - ipad + x);
    };

    // The window of row i0: rows [i0 - pad, i0 + pad] inside the scale.
    const int first = max(0, i0 - ipad), last = min(hi - 1, i0 + ipad);
    for (int r = first; r <= last; ++r) load(r, cache + (r - first) * reach);
    __syncthreads();
    for (int r = first; r <= last; ++r) update(cache + (r - first) * reach, 1u);
    // The lines of the step after row i: pair (i - i0) % 2.
    auto leaving = [&](int step) { return cache + 2 * (step & 1) * reach; };
    auto entering = [&](int step) { return cache + (2 * (step & 1) + 1) * reach; };
    __syncthreads();  // the window is counted; its cache lines may be reused
    const int end = min(i0 + static_cast<int>(rows), hi);
    const auto* hist = reinterpret_cast<const std::uint16_t*>(hist_words);
    for (int i = i0; i < end; ++i) {
        if (i > i0) {
            if (i - ipad - 1 >= 0) update(leaving(i - i0), 0xffffffffu);  // -1 in the half: modulo 2^32
            if (i + ipad < hi) update(entering(i - i0), 1u);
            __syncthreads();
        }
        // Row i's c-values, while the other threads fetch the lines that row
        // i + 1's step takes out and adds (into the other pair of lines).
        if (threadIdx.x < kTile) {
            const int col = c0 + c;
            if (col < wi) {
                const std::size_t at = static_cast<std::size_t>(i) * stride + col;
                c_values[static_cast<std::size_t>(i) * w + col] =
                    mask[at] ? c_value(hist, kTile, c, image[at], p, reciprocal) : 0.0f;
            }
        } else if (i + 1 < end) {
            const int out = i - ipad, in = i + 1 + ipad;
            for (int x = static_cast<int>(threadIdx.x) - kTile; x < reach; x += static_cast<int>(blockDim.x) - kTile) {
                if (out >= 0) leaving(i + 1 - i0)[x] = counted(out, c0 - ipad + x);
                if (in < hi) entering(i + 1 - i0)[x] = counted(in, c0 - ipad + x);
            }
        }
        __syncthreads();  // c-values read before the next step changes the histograms
    }
}

// ---------------------------------------------------------------- top-k pooling

// Where the radix select stands before a pass: the digits found so far
// (prefix), how many of the top k are still to find among the values that
// share them, and whether fewer than k values are positive (then the top k
// are every positive value and as many zeros).
struct SelectState {
    std::uint32_t prefix;
    std::uint32_t remaining;
    std::uint32_t exhausted;
};

// Values that match the digits above `pass` (and are positive).
__device__ bool in_play(std::uint32_t key, const SelectState& s, int pass)
{
    if (key == 0 || s.exhausted) return false;
    if (pass == 0) return true;
    const int above = digit_shift(pass - 1);
    return (key >> above) == (s.prefix >> above);
}

// Every block: the digit of `pass` that holds the remaining-th largest value
// in play, from the pass's histogram, and the state after it. The bins are
// cut into one chunk per thread from the top; a scan of the chunk sums finds
// the chunk, its thread the bin.
__device__ SelectState resolve_digit(const std::uint32_t* hist, int pass, SelectState s)
{
    __shared__ std::uint32_t above[kThreads];  // values in the chunks before (higher than) the thread's
    __shared__ SelectState result;
    const int bins = digit_bins(pass), per = bins / static_cast<int>(kThreads);
    const int top = bins - 1 - static_cast<int>(threadIdx.x) * per;  // the thread's highest bin
    std::uint32_t sum = 0;
    for (int b = 0; b < per; ++b) sum += hist[top - b];
    above[threadIdx.x] = sum;
    if (threadIdx.x == 0) {
        result = s;
        result.exhausted = 1;  // unless a chunk below finds the digit
    }
    __syncthreads();
    // Inclusive scan (Hillis-Steele), then exclusive by subtracting.
    for (unsigned offset = 1; offset < kThreads; offset *= 2) {
        const std::uint32_t add = threadIdx.x >= offset ? above[threadIdx.x - offset] : 0;
        __syncthreads();
        above[threadIdx.x] += add;
        __syncthreads();
    }
    const std::uint32_t through = above[threadIdx.x], before = through - sum;
    if (!s.exhausted && before < s.remaining && s.remaining <= through) {
        std::uint32_t count = before;
        for (int b = 0; b < per; ++b) {
            const std::uint32_t here = hist[top - b];
            if (count + here >= s.remaining) {
                result.prefix = s.prefix | static_cast<std::uint32_t>(top - b) << digit_shift(pass);
                result.remaining = s.remaining - count;
                result.exhausted = 0;
                break;
            }
            count += here;
        }
    }
    __syncthreads();
    return result;
}

// Pass `pass` of the select: resolves the previous pass's digit (pass > 0;
// block 0 keeps the state for the next kernel), then counts this pass's
// digits of the values in play.
__global__ void select_pass_kernel(const float* c_values, std::uint32_t n, int pass, std::uint32_t k,
                                   std::uint32_t* histograms, SelectState* states)
{
    __shared__ std::uint32_t bins[kMaxBins];
    SelectState s{0, k, 0};
    if (pass > 0) {
        s = pass == 1 ? SelectState{0, k, 0} : states[pass - 1];
        s = resolve_digit(histograms + (pass - 1) * kMaxBins, pass - 1, s);
        if (blockIdx.x == 0 && threadIdx.x == 0) states[pass] = s;
    }
    for (int b = threadIdx.x; b < digit_bins(pass); b += blockDim.x) bins[b] = 0;
    __syncthreads();
    const std::uint32_t mask = static_cast<std::uint32_t>(digit_bins(pass) - 1);
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const std::uint32_t key = c_value_key(c_values[i]);
        if (in_play(key, s, pass)) atomicAdd(&bins[(key >> digit_shift(pass)) & mask], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < digit_bins(pass); b += blockDim.x)
        if (bins[b]) atomicAdd(&histograms[pass * kMaxBins + b], bins[b]);
}

// The last digit, hence the k-th largest value t and how many of it are in
// the top k; then the exact sum of the values above t plus those copies of t.
__global__ void top_k_sum_kernel(const float* c_values, std::uint32_t n, const std::uint32_t* histograms,
                                 const SelectState* states, unsigned long long* sum)
{
    const SelectState s = resolve_digit(histograms + (kPasses - 1) * kMaxBins, kPasses - 1, states[kPasses - 1]);
    const std::uint32_t threshold = s.exhausted ? 0u : s.prefix;
    unsigned long long parts[2] = {0, 0};
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float v = c_values[i];
        if (c_value_key(v) <= threshold) continue;
        const std::uint64_t fixed = c_value_fixed(v);
        parts[0] += fixed >> 32;
        parts[1] += fixed & 0xffffffffu;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0 && !s.exhausted) {
        const std::uint64_t fixed = c_value_fixed(tv::bit_cast<float>(threshold));
        parts[0] += (fixed >> 32) * s.remaining;
        parts[1] += (fixed & 0xffffffffu) * s.remaining;
    }
    __shared__ gpu::BlockSumScratch<kThreads, 2> scratch;
    gpu::block_sum<kThreads, 2>(parts, scratch);
    if (threadIdx.x == 0) {
        if (parts[0]) atomicAdd(&sum[0], parts[0]);
        if (parts[1]) atomicAdd(&sum[1], parts[1]);
    }
}

// ---------------------------------------------------------------- the twin

// Per input and scale: the select's histograms and states, and the sum.
struct PoolScratch {
    std::uint32_t histograms[kPasses][kMaxBins];
    SelectState states[kPasses];
};

// The result block: per input (distorted, source) and scale the exact sum.
struct Result {
    unsigned long long sums[2][kScales][2];
};

dim3 grid_2d(unsigned w, unsigned h) { return dim3(gpu::blocks_for(w, kTileX), gpu::blocks_for(h, kTileY)); }

class CambiTwin final : public gpu::DeviceTwin {
public:
    CambiTwin(const Settings& settings, const Setup& setup)
        : settings_(settings), setup_(setup),
          buffer_samples_(std::size_t{setup.alloc_width} * setup.alloc_height),
          image_(buffer_samples_, "cambi image"), temp_image_(buffer_samples_, "cambi image"),
          mask_(buffer_samples_, "cambi mask"), temp_mask_(buffer_samples_, "cambi mask"),
          flat_(buffer_samples_, "cambi mask"), c_values_(buffer_samples_, "cambi c-values"),
          reciprocal_(kReciprocalSize, "cambi reciprocal table"), pools_(2 * kScales, "cambi pooling")
    {
        gpu::check(gpuMemcpyAsync(reciprocal_.get(), reciprocal_table(), sizeof(float) * kReciprocalSize,
                                  gpuMemcpyHostToDevice, nullptr),
                   "cambi reciprocal table upload");
        // As the CPU's scratch: zeroed once (nothing of earlier frames is
        // ever read, but nothing undefined either).
        gpu::check(gpuMemsetAsync(image_.get(), 0, sizeof(std::uint16_t) * buffer_samples_, nullptr), "memset");
        gpu::check(gpuMemsetAsync(mask_.get(), 0, buffer_samples_, nullptr), "memset");
        upload_tables(setup.dis, dis_tables_);
        upload_tables(setup.src, src_tables_);
        gpu::check(gpuStreamSynchronize(nullptr), "cambi set-up");
        // Histograms of a tile (band x columns, 16-bit) and its cache in the
        // 48 KB of shared memory a block gets without asking (less what the
        // kernel declares itself): 32 columns where the band allows, else 16.
        const unsigned pad = std::max(setup.dis.pad(), setup.src.pad());
        tile_ = 32;
        if (c_values_shared_bytes(pad) > kSharedBytes) tile_ = 16;
        if (c_values_shared_bytes(pad) > kSharedBytes)
            throw Error("internal: cambi's GPU twin has no tile for a band of " +
                        std::to_string(setup.contrast.band_size) + " values and a window of " +
                        std::to_string(2 * pad + 1));
    }

    std::size_t result_bytes() const override { return sizeof(Result); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        auto* result = static_cast<Result*>(device_result);
        gpu::check(gpuMemsetAsync(pools_.get(), 0, sizeof(PoolScratch) * 2 * kScales, stream), "memset");
        score(frame.dis_plane(0), frame.format.bitdepth, setup_.dis, dis_tables_, 0, result, stream);
        if (settings_.full_ref) score(frame.ref_plane(0), frame.format.bitdepth, setup_.src, src_tables_, 1, result, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto& result = *static_cast<const Result*>(host_result);
        auto input_score = [&](int input, const Plan& plan) {
            FixedSum sums[kScales];
            for (int s = 0; s < kScales; ++s) sums[s] = {result.sums[input][s][0], result.sums[input][s][1]};
            return score_from_pools(setup_, plan, sums);
        };
        const double dis = input_score(0, setup_.dis);
        const double src = settings_.full_ref ? input_score(1, setup_.src) : 0.0;
        set_frame_scores(scores, settings_, dis, src);
    }

private:
    static constexpr std::size_t kSharedBytes = 47 * 1024;

    // Dynamic shared memory of c_values_kernel: the histograms, then the
    // cache of max(2 pad + 1, 4) rows of tile + 2 pad counted values.
    std::size_t c_values_shared_bytes(unsigned pad) const
    {
        const std::size_t histograms = std::size_t{setup_.contrast.band_size} * tile_ * sizeof(std::uint16_t);
        const std::size_t cache = std::size_t{std::max(2 * pad + 1, 4u)} * (tile_ + 2 * pad) * sizeof(std::int16_t);
        return histograms + cache;
    }

    struct Tables {
        gpu::DeviceArray<unsigned> columns, rows;
    };

    void upload_tables(const Plan& plan, Tables& tables)
    {
        if (plan.source_columns.empty()) return;
        tables.columns = gpu::DeviceArray<unsigned>(plan.source_columns.size(), "cambi resampling table");
        tables.rows = gpu::DeviceArray<unsigned>(plan.source_rows.size(), "cambi resampling table");
        gpu::check(gpuMemcpyAsync(tables.columns.get(), plan.source_columns.data(),
                                  sizeof(unsigned) * plan.source_columns.size(), gpuMemcpyHostToDevice, nullptr),
                   "cambi table upload");
        gpu::check(gpuMemcpyAsync(tables.rows.get(), plan.source_rows.data(), sizeof(unsigned) * plan.source_rows.size(),
                                  gpuMemcpyHostToDevice, nullptr),
                   "cambi table upload");
    }

    void score(const gpu::DevicePlane& luma, unsigned bitdepth, const Plan& plan, const Tables& tables, int input,
               Result* result, gpuStream_t stream)
    {
        const std::size_t stride = setup_.alloc_width;
        unsigned w = plan.width, h = plan.height;
        const bool anti_dither = setup_.enc_bitdepth < 10;
        const dim3 rows(gpu::blocks_for(w, kThreads), h);
        if (bitdepth > 8)
            preprocess_kernel<std::uint16_t><<<rows, kThreads, 0, stream>>>(luma.data, luma.stride, bitdepth, w, h,
                                                                            tables.columns.get(), tables.rows.get(),
                                                                            anti_dither, image_.get(), stride);
        else
            preprocess_kernel<std::uint8_t><<<rows, kThreads, 0, stream>>>(luma.data, luma.stride, bitdepth, w, h,
                                                                           tables.columns.get(), tables.rows.get(),
                                                                           anti_dither, image_.get(), stride);
        gpu::check_launch("cambi preprocess_kernel");
        const dim3 block(kTileX, kTileY);
        flat_kernel<<<grid_2d(w, h), block, 0, stream>>>(image_.get(), stride, w, h, flat_.get());
        gpu::check_launch("cambi flat_kernel");
        mask_kernel<<<grid_2d(w, h), block, 0, stream>>>(flat_.get(), stride, w, h, mask_threshold(w, h), mask_.get());
        gpu::check_launch("cambi mask_kernel");

        const unsigned pad = plan.pad();
        for (int scale = 0; scale < kScales; ++scale) {
            const bool decimate = scale > 0 || setup_.high_res_speedup;
            if (decimate) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
            }
            scale_kernel<<<grid_2d(w, h), block, 0, stream>>>(image_.get(), mask_.get(), stride, w, h, decimate,
                                                               temp_image_.get(), temp_mask_.get());
            gpu::check_launch("cambi scale_kernel");
            copy_back_kernel<<<grid_2d(w, h), block, 0, stream>>>(temp_image_.get(), temp_mask_.get(), stride, w, h,
                                                                   decimate, image_.get(), mask_.get());
            gpu::check_launch("cambi copy_back_kernel");

            unsigned rows = kMaxTileRows;
            while (rows > kMinTileRows && gpu::blocks_for(w, tile_) * gpu::blocks_for(h, rows) < kWantedBlocks) rows /= 2;
            const dim3 tiles(gpu::blocks_for(w, tile_), gpu::blocks_for(h, rows));
            auto c_values = tile_ == 32 ? c_values_kernel<32> : c_values_kernel<16>;
            c_values<<<tiles, kThreads, c_values_shared_bytes(pad), stream>>>(image_.get(), mask_.get(), stride, w, h,
                                                                             pad, std::max(w, pad), rows,
                                                                             setup_.contrast, reciprocal_.get(),
                                                                             c_values_.get());
            gpu::check_launch("cambi c_values_kernel");

            const std::uint32_t n = w * h;
            const std::uint32_t k = static_cast<std::uint32_t>(topk_count(setup_.topk, w, h));
            PoolScratch* pool = pools_.get() + input * kScales + scale;
            const unsigned blocks = std::min(gpu::blocks_for(n, kThreads), 1024u);
            for (int pass = 0; pass < kPasses; ++pass) {
                select_pass_kernel<<<blocks, kThreads, 0, stream>>>(c_values_.get(), n, pass, k, &pool->histograms[0][0],
                                                                   pool->states);
                gpu::check_launch("cambi select_pass_kernel");
            }
            top_k_sum_kernel<<<blocks, kThreads, 0, stream>>>(c_values_.get(), n, &pool->histograms[0][0], pool->states,
                                                              result->sums[input][scale]);
            gpu::check_launch("cambi top_k_sum_kernel");
        }
    }

    Settings settings_;
    Setup setup_;
    std::size_t buffer_samples_;
    gpu::DeviceArray<std::uint16_t> image_, temp_image_;
    gpu::DeviceArray<std::uint8_t> mask_, temp_mask_, flat_;
    gpu::DeviceArray<float> c_values_;
    gpu::DeviceArray<float> reciprocal_;
    gpu::DeviceArray<PoolScratch> pools_;
    Tables dis_tables_, src_tables_;
    unsigned tile_ = 32;
};

}  // namespace

std::string twin_refusal(const OptionValues& options)
{
    if (!options.get_string("heatmaps_path").empty())
        return "cambi: heatmaps_path is written by the CPU reference only";
    return "";
}

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    const Settings settings = Settings::from(options);
    return std::make_unique<CambiTwin>(settings, make_setup(settings, format));
}

}  // namespace twinvmaf::cambi
