// The GPU twin of vif: the four scales' integer counters, exact.
//
// One kernel per scale, over tiles of kTileWidth x kTileHeight samples of
// that scale's pictures (64 x 32 at scale 0, 32 x 32 at the others), 256
// threads a tile. A block
//   1. loads its tile of the reference and distorted pictures with a border
//      of the filter's half width into shared memory, rows and columns
//      mirrored with reflect_101 (what the CPU's row pointers and
//      mirror_pad_row give: equal for every picture of 2 or more samples);
//   2. for a band of kBandRows tile rows, computes the vertical moments of
//      every tile column (column_moments; kVerticalRun rows of a column per
//      thread, from one register window of samples) into shared memory, as
//      32-bit words;
//   3. for every sample of the band, the horizontal filter sums (filter_sum;
//      kHorizontalRun columns per thread, from one register window of each
//      moment array, read two words a load), sigmas_from_sums and the
//      sample's contribution (add_sample) to the thread's ScaleSums; then
//      2 and 3 for the next band;
//   4. from the same tile, the next scale's pictures (vertical_lowpass and
//      horizontal_lowpass_decimate, at the kept rows and columns only);
//   5. adds its threads' counters and then, one atomic add per counter, adds
//      them to the frame's 16 counters in the result block.
// The windows are there because shared-memory loads, not arithmetic, bound
// the first version (one sample per thread, 16-bit loads: Nsight Compute
// showed the load/store pipe at 74 % at scale 0, 4K).
// Every counter is an int64 sum of integers (ScaleSums, vif_math.h), so the
// order of those additions does not matter: wrap-around unsigned 64-bit
// atomics give Netflix's two's complement sums bit for bit. The only floating
// point (in add_sample) is per sample, with the strict device flags of
// cmake/gpu.cmake, and is truncated to an integer before it is summed.
//
// Small frames make a scale one sample wide or high (scale 3 from 8..15
// samples, scale 1 or 2 under 8 columns, scale 0 at one column); the twin
// reproduces the CPU's (and Netflix's) leftovers in its row buffers (see
// statistics() in vif_cpu.cpp): rows above and below a one-row picture
// (scale 3 only) are row 1 of the scale-2 picture; the columns beside a
// one-column picture are columns 1..half of the last vertical-moment row of
// the scale before, mirrored (that scale is 2 or 3 columns wide; the kernel
// recomputes the row with vertical_moments), or zeros where no scale ran
// before it in the frame (scale 0, or scale 1 with vif_skip_scale0). A scale
// with no columns launches nothing: its counters stay 0 (0 / 0 = NaN).
#include <array>
#include <type_traits>

#include "features/vif/vif.h"
#include "features/vif/vif_math.h"
#include "gpu/block_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::vif {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kTileHeight = 32;  // even, so that a tile's decimated rows start at y0 / 2
constexpr unsigned kCounters = 4;      // the counters of a ScaleSums
// Tile width (even, for the same reason) and the tile rows whose moments are
// in shared memory at once, per scale. A wider tile spends less of its loads
// and vertical filtering on the border (48 columns filtered for 32 scored,
// 80 for 64), but 64 columns of moments fit in static shared memory only
// in bands of 8 rows, and small pictures then make too few blocks. Measured
// on the H200 (Nsight Compute, 4K, scales 0..3, us): 32 wide, bands of 16:
// 395, 95, 21, 14; 64 wide, bands of 8: 353, 94, 27, 22; 32 wide, bands of
// 8: 429, 111, 24, 18. So scale 0 takes the wide tile.
template <int Scale>
constexpr unsigned kTileWidth = Scale == 0 ? 64 : 32;
template <int Scale>
constexpr unsigned kBandRows = Scale == 0 ? 8 : 16;
constexpr unsigned kVerticalRun = 4;   // rows of one column per thread in the vertical pass
constexpr unsigned kHorizontalRun = 2; // columns of one row per thread in the horizontal pass

// The result block: counter 4 * scale + {num_log, den_log, num_non_log,
// den_non_log}, two's complement.
constexpr std::size_t kResultCounters = kCounters * kScaleCount;

// A picture of one scale in device memory; stride in samples.
template <class Sample>
struct Image {
    const Sample* ref;
    const Sample* dis;
    std::ptrdiff_t stride;
    unsigned width;
    unsigned height;
};

// Where a scale's decimated pictures go (stride = width).
struct Decimated {
    std::uint16_t* ref;
    std::uint16_t* dis;
    unsigned width;
    unsigned height;
};

// What every scale's kernel needs besides its pictures.
struct Common {
    unsigned bitdepth;
    double gain_limit;
    const std::uint16_t* log2_table;
    unsigned long long* counters;  // the result block
};

// The source row of tile row `i` (picture row index, may lie outside).
// `beyond` is the row above and below a one-row picture (scale 3 only).
template <class Sample>
__device__ const Sample* source_row(const Sample* picture, std::ptrdiff_t stride, unsigned height, int i,
                                    const Sample* beyond)
{
    if (height == 1) return i == 0 || !beyond ? picture : beyond;
    return picture + static_cast<std::ptrdiff_t>(reflect_101(i, static_cast<int>(height))) * stride;
}

// The source column of tile column `i`. A one-column picture (scale 3 only)
// reads column 0: its moments beyond the picture are replaced afterwards.
__device__ unsigned source_column(int i, unsigned width)
{
    return width == 1 ? 0u : static_cast<unsigned>(reflect_101(i, static_cast<int>(width)));
}

// Scale `Scale` of one frame: with kStatistics its counters, with kDecimate
// the pictures of scale Scale + 1. `previous` is the picture of the scale
// before, for the leftovers of a one-sample-wide or -high picture (null
// where that scale's statistics did not run).
// Blocks per SM asked of the compiler: 8-bit pictures at four (64 registers,
// a few bytes spilled), which ran faster on the H200 than three blocks
// without spills; 16-bit ones as the compiler likes (0: no minimum).
template <class Sample>
constexpr unsigned kMinBlocks = sizeof(Sample) == 1 ? 4 : 0;

template <int Scale, class Sample, bool kStatistics, bool kDecimate, class PreviousSample>
__global__ void __launch_bounds__(kThreads, kMinBlocks<Sample>)
    scale_kernel(Image<Sample> in, Decimated out, Image<PreviousSample> previous, Common common)
{
    constexpr unsigned kHalf = scale_filter(Scale).half();
    constexpr unsigned kTaps = scale_filter(Scale).width;
    constexpr unsigned kNextHalf = scale_filter(Scale + 1 < kScaleCount ? Scale + 1 : Scale).half();
    constexpr unsigned kNextTaps = scale_filter(Scale + 1 < kScaleCount ? Scale + 1 : Scale).width;
    // The tile's border: what the widest pass needs.
    constexpr unsigned kHalo = kStatistics ? kHalf : kNextHalf;
    constexpr unsigned kCols = kTileWidth<Scale> + 2 * kHalo;
    constexpr unsigned kRows = kTileHeight + 2 * kHalo;
    constexpr unsigned kMomentRows = kStatistics ? kBandRows<Scale> : 1;
    constexpr unsigned kLowpassRows = kDecimate ? kTileHeight / 2 : 1;
    static_assert(!kDecimate || Scale + 1 < kScaleCount, "scale 3 is not decimated");
    static_assert(kNextHalf <= kHalo, "the tile holds the decimation filter's border");

    __shared__ Sample ref_tile[kRows][kCols];
    __shared__ Sample dis_tile[kRows][kCols];
    // 32-bit words (of 16-bit values): the horizontal pass loads two a time.
    alignas(8) __shared__ std::uint32_t moments[kMomentArrays][kMomentRows][kCols];
    __shared__ std::uint16_t lowpass[2][kLowpassRows][kCols];
    __shared__ std::uint16_t leftovers[kMomentArrays][kHalf + 1];  // columns 1..kHalf
    __shared__ gpu::BlockSumScratch<kThreads, kCounters> scratch;

    const int x0 = static_cast<int>(blockIdx.x * kTileWidth<Scale>);
    const int y0 = static_cast<int>(blockIdx.y * kTileHeight);

    // 1. The tile, adjacent threads on adjacent columns. Tile row r, column
    // c is picture sample (y0 - kHalo + r, x0 - kHalo + c), mirrored.
    const Sample* beyond_ref = nullptr;
    const Sample* beyond_dis = nullptr;
    if constexpr (Scale == kScaleCount - 1 && std::is_same_v<Sample, std::uint16_t>) {
        // Row 1 of the scale-2 picture (previous.height >= 2 from 8x8 up).
        if (in.height == 1 && previous.ref && previous.height >= 2) {
            beyond_ref = previous.ref + previous.stride;
            beyond_dis = previous.dis + previous.stride;
        }
    }
    for (unsigned i = threadIdx.x; i < kRows * kCols; i += kThreads) {
        const unsigned r = i / kCols, c = i % kCols;
        const int y = y0 - static_cast<int>(kHalo) + static_cast<int>(r);
        const unsigned x = source_column(x0 - static_cast<int>(kHalo) + static_cast<int>(c), in.width);
        ref_tile[r][c] = source_row(in.ref, in.stride, in.height, y, beyond_ref)[x];
        dis_tile[r][c] = source_row(in.dis, in.stride, in.height, y, beyond_dis)[x];
    }
    if (kStatistics && in.width == 1 && threadIdx.x == 0) {
        for (unsigned a = 0; a < kMomentArrays; ++a)
            for (unsigned f = 0; f <= kHalf; ++f) leftovers[a][f] = 0;
        if constexpr (Scale > 0) {
            // The last vertical-moment row of the scale before (2 or 3
            // columns), mirrored over columns 1..kHalf.
            if (previous.ref) {
                constexpr Filter kPrevious = scale_filter(Scale - 1);
                constexpr unsigned kMostColumns = 3;
                const PreviousSample* ref_rows[kPrevious.width];
                const PreviousSample* dis_rows[kPrevious.width];
                const int last = static_cast<int>(previous.height) - 1;
                for (unsigned k = 0; k < kPrevious.width; ++k) {
                    const int y = last - static_cast<int>(kPrevious.half()) + static_cast<int>(k);
                    ref_rows[k] = source_row(previous.ref, previous.stride, previous.height, y,
                                             static_cast<const PreviousSample*>(nullptr));
                    dis_rows[k] = source_row(previous.dis, previous.stride, previous.height, y,
                                             static_cast<const PreviousSample*>(nullptr));
                }
                std::uint16_t m[kMomentArrays][kMostColumns];
                const MomentRow row{m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]};
                const unsigned columns = previous.width < kMostColumns ? previous.width : kMostColumns;
                vertical_moments<Scale - 1, PreviousSample>(
                    ref_rows, dis_rows, statistics_shifts(Scale - 1, common.bitdepth), 0, columns, row);
                for (unsigned a = 0; a < kMomentArrays; ++a)
                    for (unsigned f = 1; f <= kHalf; ++f)
                        leftovers[a][f] = m[a][reflect_101(static_cast<int>(f), static_cast<int>(columns))];
            }
        }
    }
    __syncthreads();

    ScaleSums sums;  // this thread's share of the tile's counters
    if constexpr (kStatistics) {
        const VerticalShifts shifts = statistics_shifts(Scale, common.bitdepth);
        // The tile's rows a band at a time: a band's moments fill the
        // shared array, then its samples are scored.
        for (unsigned band = 0; band < kTileHeight; band += kBandRows<Scale>) {
            if (y0 + static_cast<int>(band) >= static_cast<int>(in.height)) break;  // the same for the whole block
            // 2. Vertical moments of every tile column of the band's rows,
            // kVerticalRun rows of one column per thread: the samples under
            // all their taps are read once, into registers. Output row r
            // (band-relative) reads tile rows band + r + k for tap k.
            constexpr unsigned kWindow = kTaps + kVerticalRun - 1;
            for (unsigned i = threadIdx.x; i < kCols * (kBandRows<Scale> / kVerticalRun); i += kThreads) {
                const unsigned c = i % kCols, r = i / kCols * kVerticalRun;
                std::uint32_t ref_window[kWindow], dis_window[kWindow];
#pragma unroll
                for (unsigned k = 0; k < kWindow; ++k) {
                    ref_window[k] = ref_tile[band + r + k][c];
                    dis_window[k] = dis_tile[band + r + k][c];
                }
#pragma unroll
                for (unsigned j = 0; j < kVerticalRun; ++j) {
                    std::uint16_t m[kMomentArrays];
                    column_moments<Scale, Sample>([&](unsigned k) { return ref_window[j + k]; },
                                                  [&](unsigned k) { return dis_window[j + k]; }, shifts, m);
#pragma unroll
                    for (unsigned a = 0; a < kMomentArrays; ++a) moments[a][r + j][c] = m[a];
                }
            }
            __syncthreads();
            // A one-column picture: the leftovers right of it, mirrored to
            // the left as on the CPU.
            if (in.width == 1) {
                for (unsigned r = threadIdx.x; r < kBandRows<Scale>; r += kThreads) {
                    for (unsigned a = 0; a < kMomentArrays; ++a) {
                        std::uint32_t* row = &moments[a][r][kHalo];
                        for (unsigned f = 1; f <= kHalf; ++f) row[f] = leftovers[a][f];
                        mirror_pad_row(row, 1, kHalf);
                    }
                }
                __syncthreads();
            }

            // 3. Each sample's sigmas and contribution, kHorizontalRun
            // columns per thread from one window of each moment array (two
            // 32-bit words a load). Moment column c + k is under tap k of
            // picture column x0 + c.
            constexpr unsigned kSpan = kTaps + kHorizontalRun - 1;
            static_assert(kSpan % 2 == 0 && kTileWidth<Scale> % kHorizontalRun == 0, "windows of whole word pairs");
            constexpr unsigned kRuns = kTileWidth<Scale> / kHorizontalRun;
            for (unsigned i = threadIdx.x; i < kBandRows<Scale> * kRuns; i += kThreads) {
                const unsigned r = i / kRuns, c = i % kRuns * kHorizontalRun;
                if (y0 + static_cast<int>(band + r) >= static_cast<int>(in.height)) continue;
                std::uint32_t filtered[kHorizontalRun][kMomentArrays];
#pragma unroll
                for (unsigned a = 0; a < kMomentArrays; ++a) {
                    std::uint32_t window[kSpan];
                    const auto* pairs = reinterpret_cast<const uint2*>(&moments[a][r][c]);
#pragma unroll
                    for (unsigned k = 0; k < kSpan / 2; ++k) {
                        const uint2 pair = pairs[k];
                        window[2 * k] = pair.x;
                        window[2 * k + 1] = pair.y;
                    }
#pragma unroll
                    for (unsigned j = 0; j < kHorizontalRun; ++j)
                        filtered[j][a] = filter_sum<Scale>([&](unsigned k) { return window[j + k]; });
                }
#pragma unroll
                for (unsigned j = 0; j < kHorizontalRun; ++j) {
                    if (x0 + static_cast<int>(c + j) >= static_cast<int>(in.width)) continue;
                    std::int32_t sigma1_sq, sigma2_sq, sigma12;
                    sigmas_from_sums(filtered[j], sigma1_sq, sigma2_sq, sigma12);
                    add_sample(sums, sigma1_sq, sigma2_sq, sigma12, common.log2_table, common.gain_limit);
                }
            }
            __syncthreads();  // the next band reuses the moments
        }
    }

    if constexpr (kDecimate) {
        // 4. The next scale's pictures: decimated row y0 / 2 + r is picture
        // row y0 + 2r, whose filter rows start at tile row 2r + kHalo - kNextHalf.
        const unsigned shift = lowpass_shift(Scale + 1, common.bitdepth);
        const int out_y0 = y0 / 2, out_x0 = x0 / 2;
        for (unsigned i = threadIdx.x; i < kLowpassRows * kCols; i += kThreads) {
            const unsigned r = i / kCols, c = i % kCols;
            if (out_y0 + static_cast<int>(r) >= static_cast<int>(out.height)) continue;
            const Sample* ref_rows[kNextTaps];
            const Sample* dis_rows[kNextTaps];
            for (unsigned k = 0; k < kNextTaps; ++k) {
                ref_rows[k] = ref_tile[2 * r + kHalo - kNextHalf + k];
                dis_rows[k] = dis_tile[2 * r + kHalo - kNextHalf + k];
            }
            vertical_lowpass<Scale + 1>(ref_rows, dis_rows, shift, c, c + 1, lowpass[0][r], lowpass[1][r]);
        }
        __syncthreads();
        // Decimated column out_x0 + c is picture column x0 + 2c, tile column
        // 2c + kHalo.
        for (unsigned i = threadIdx.x; i < kLowpassRows * (kTileWidth<Scale> / 2); i += kThreads) {
            const unsigned r = i / (kTileWidth<Scale> / 2), c = i % (kTileWidth<Scale> / 2);
            const int y = out_y0 + static_cast<int>(r), x = out_x0 + static_cast<int>(c);
            if (y >= static_cast<int>(out.height) || x >= static_cast<int>(out.width)) continue;
            const std::size_t at = static_cast<std::size_t>(y) * out.width + static_cast<std::size_t>(x);
            horizontal_lowpass_decimate<Scale + 1>(&lowpass[0][r][2 * c + kHalo], &lowpass[1][r][2 * c + kHalo], 0,
                                                   1, out.ref + at, out.dis + at);
        }
    }

    if constexpr (kStatistics) {
        // 5. The tile's counters, added to the frame's: integers, so neither
        // the order within the block nor that of the blocks matters.
        unsigned long long counters[kCounters] = {
            static_cast<unsigned long long>(sums.num_log), static_cast<unsigned long long>(sums.den_log),
            static_cast<unsigned long long>(sums.num_non_log), static_cast<unsigned long long>(sums.den_non_log)};
        gpu::block_sum(counters, scratch);
        for (unsigned k = 0; k < kCounters; ++k)
            if (threadIdx.x == 0 && counters[k]) atomicAdd(common.counters + kCounters * Scale + k, counters[k]);
    }
}

template <int Scale, class Sample, bool kStatistics, bool kDecimate, class PreviousSample = std::uint16_t>
void launch(const Image<Sample>& in, const Decimated& out, const Image<PreviousSample>& previous,
            const Common& common, gpuStream_t stream)
{
    // A scale with no columns (frames under 8 columns): no counters, nothing to decimate.
    if (in.width == 0) return;
    const dim3 grid(gpu::blocks_for(in.width, kTileWidth<Scale>), gpu::blocks_for(in.height, kTileHeight));
    scale_kernel<Scale, Sample, kStatistics, kDecimate, PreviousSample>
        <<<grid, kThreads, 0, stream>>>(in, out, previous, common);
    gpu::check_launch("vif scale_kernel");
}

class VifTwin final : public gpu::DeviceTwin {
public:
    VifTwin(const Settings& settings, const VideoFormat& format)
        : settings_(settings), log2_table_(kLog2TableSize, "vif log2 table"),
          pictures_(picture_samples(format), "vif pictures")
    {
        if (format.height < kMinFrameHeight)
            throw Error("vif: frame too small for the GPU twin");  // init() refuses these first
        // The table the CPU reference uses, as data; the stream of the engine
        // does not synchronise with the default stream, so wait here.
        gpu::check(gpuMemcpyAsync(log2_table_.get(), log2_table(),
                                  kLog2TableSize * sizeof(std::uint16_t), gpuMemcpyHostToDevice, nullptr),
                   "vif log2 table upload");
        gpu::check(gpuStreamSynchronize(nullptr), "vif log2 table upload");
        unsigned w = format.width, h = format.height;
        std::uint16_t* next = pictures_.get();
        for (int s = 1; s < kScaleCount; ++s) {
            w /= 2;
            h /= 2;
            const std::size_t samples = std::size_t{w} * h;
            scales_[s] = Decimated{next, next + samples, w, h};
            next += 2 * samples;
        }
    }

    std::size_t result_bytes() const override { return kResultCounters * sizeof(unsigned long long); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        const Common common{frame.format.bitdepth, settings_.enhn_gain_limit, log2_table_.get(),
                            static_cast<unsigned long long*>(device_result)};
        if (frame.format.bitdepth > 8) {
            const Image<std::uint16_t> in{reinterpret_cast<const std::uint16_t*>(ref.data),
                                          reinterpret_cast<const std::uint16_t*>(dis.data),
                                          ref.stride / static_cast<std::ptrdiff_t>(sizeof(std::uint16_t)),
                                          ref.width, ref.height};
            scales0_and_1(in, common, stream);
        } else {
            const Image<std::uint8_t> in{ref.data, dis.data, ref.stride, ref.width, ref.height};
            scales0_and_1(in, common, stream);
        }
        launch<2, std::uint16_t, true, true>(image(2), scales_[3], image(1), common, stream);
        launch<3, std::uint16_t, true, false>(image(3), {}, image(2), common, stream);
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* counters = static_cast<const unsigned long long*>(host_result);
        std::array<ScaleSums, kScaleCount> sums;
        for (int s = 0; s < kScaleCount; ++s) {
            const unsigned long long* c = counters + kCounters * s;
            sums[s] = ScaleSums{static_cast<std::int64_t>(c[0]), static_cast<std::int64_t>(c[1]),
                                static_cast<std::int64_t>(c[2]), static_cast<std::int64_t>(c[3])};
        }
        VifExtractor::store_sums(sums, scores);
    }

private:
    static std::size_t picture_samples(const VideoFormat& format)
    {
        std::size_t samples = 0;
        unsigned w = format.width, h = format.height;
        for (int s = 1; s < kScaleCount; ++s) {
            w /= 2;
            h /= 2;
            samples += 2 * std::size_t{w} * h;
        }
        return samples;
    }

    Image<std::uint16_t> image(int scale) const
    {
        const Decimated& d = scales_[scale];
        return {d.ref, d.dis, static_cast<std::ptrdiff_t>(d.width), d.width, d.height};
    }

    // Scale 0 (its statistics unless skipped) with the decimation to scale
    // 1, then scale 1 with the decimation to scale 2.
    template <class Sample>
    void scales0_and_1(const Image<Sample>& in, const Common& common, gpuStream_t stream)
    {
        const Image<Sample> none{};
        if (settings_.skip_scale0) {
            launch<0, Sample, false, true>(in, scales_[1], none, common, stream);
            launch<1, std::uint16_t, true, true>(image(1), scales_[2], none, common, stream);
        } else {
            launch<0, Sample, true, true>(in, scales_[1], none, common, stream);
            launch<1, std::uint16_t, true, true>(image(1), scales_[2], in, common, stream);
        }
    }

    Settings settings_;
    gpu::DeviceArray<std::uint16_t> log2_table_;
    gpu::DeviceArray<std::uint16_t> pictures_;
    std::array<Decimated, kScaleCount> scales_{};  // scales 1..3
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<VifTwin>(Settings::from(options), format);
}

}  // namespace twinvmaf::vif
