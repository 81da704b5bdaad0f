// The GPU twin of integer adm: every scale's exact integer sums (ScaleSums),
// which the shared AdmExtractor::collect() turns into scores on the host.
//
// Per scale, three kernels on the engine's stream:
//   1. dwt_kernel: one thread per output coefficient of both pictures (ref,
//      dis: blockIdx.z), a tile of them per block. The block loads the
//      mirror()ed input rectangle its outputs read into shared memory, runs
//      the vertical pass (dwt0_vertical_column / dwt_vertical_column) once
//      per tile column and output row, and each thread the horizontal pass
//      (Dwt0Horizontal / DwtHorizontal) over the 4 columns of dwt_taps(x)
//      into a (the next scale's input) and, if the scale is analysed, h, v,
//      d. These are the values the CPU's split rows hold at those columns
//      (its interior loop and its mirrored ends both read columns
//      dwt_taps(x)).
//   2. masking_kernel: a tile of scored coefficients per block. Each
//      thread decouples its coefficient (decouple_gain / decouple_sample per
//      orientation, add_masking_weights_sample over h, v, d in the CPU's
//      order), the block also the ring of coefficients around the tile for
//      their neighbour weights; then masking_threshold's 3x3 window (rows
//      and columns mirror()ed as the CPU's ring and masking_threshold_row()
//      do), the masked cubes and the reference cubes of the denominator,
//      added into per-row sums.
//   3. round_rows_kernel: the CPU's per-row rounding (round_row_sum /
//      round_row_sum_unsigned) of each complete row sum, then the scale's
//      totals.
// Everything is the math headers' functions, per sample.
//
// Exactness: all of it is integer. Sums (uint64, wrapping as the CPU's do)
// are order-free, so a tile row's lanes add theirs with shuffles
// (gpu::lane_group_sum) and the tiles of a row add theirs to the row's sum
// with 64-bit atomicAdd (addition modulo 2^64); only complete row sums are
// rounded, as on the CPU, and the rounded rows are added the same way.
//
// A window reads decoupled coefficients only inside the decoupled region
// (the scored region grown by the window, see adm_math.h), where the CPU
// computes them; the twin computes the same function of the same h, v, d
// there.
#include <algorithm>
#include <memory>

#include "features/adm/adm.h"
#include "features/adm/adm_band_math.h"
#include "features/adm/adm_dwt_math.h"
#include "features/adm/adm_math.h"
#include "features/adm/adm_row_math.h"
#include "gpu/block_sum.h"
#include "gpu/device_array.h"
#include "gpu/device_twin.h"

namespace twinvmaf::adm {

namespace {

constexpr int kRef = 0;
constexpr int kDis = 1;

// 64-bit results per scale, in store_sums()' order: dlm[3], aim[3], den[3].
constexpr int kSumsPerScale = 3 * kOrientations;

constexpr unsigned kTileX = 32;  // 2D kernels: 32 x 8 threads
constexpr unsigned kTileY = 8;
constexpr unsigned kRoundThreads = 256;

using gpu::DeviceArray;

// ---- 1. the wavelet ----------------------------------------------------------

// One scale's input: the two pictures (scale 0) or the previous a bands.
template <class In>
struct DwtInput {
    const std::uint8_t* data[2];  // ref, dis
    std::ptrdiff_t stride;        // bytes
    int width;
    int height;
};

// One scale's bands, packed (row pitch = width): a, and h, v, d (theta order).
template <class Coef>
struct Bands {
    Coef* a[2];
    Coef* detail[2][kOrientations];
    int width;
    int height;
};

// The vertical pass at one column, in each precision.
struct Vertical0 {
    int bitdepth;
    template <class Sample>
    __device__ void operator()(const Sample* const rows[4], int c, std::int16_t& low, std::int16_t& high) const
    {
        dwt0_vertical_column(rows, c, bitdepth, low, high);
    }
};

struct VerticalN {
    DwtRounding rounding;
    template <class In>
    __device__ void operator()(const In* const rows[4], int c, std::int32_t& low, std::int32_t& high) const
    {
        dwt_vertical_column(rows, c, rounding, low, high);
    }
};

// A block scores kTileX x kTileY output coefficients from one tile of input:
// output (x, y) reads input rows dwt_taps(y) and columns dwt_taps(x), i.e.
// mirror(2y - 1 + k) and mirror(2x - 1 + k), which for the tile's outputs are
// tile rows 2 ty + k and columns 2 tx + k of the mirror()ed rectangle loaded
// below. Loading it once (coalesced rows) and running the vertical pass once
// per tile column and output row gives each output the same four vertical
// values as computing them on its own, with a quarter of the global loads.
template <class In, class Coef, class Vertical, class Horizontal>
__global__ void __launch_bounds__(kTileX * kTileY)
    dwt_kernel(DwtInput<In> in, Bands<Coef> out, Vertical vertical, Horizontal horizontal, bool analyse)
{
    constexpr int kThreads = static_cast<int>(kTileX * kTileY);
    constexpr int kInputColumns = 2 * static_cast<int>(kTileX) + 2;
    constexpr int kInputRows = 2 * static_cast<int>(kTileY) + 2;
    __shared__ In tile[kInputRows][kInputColumns];
    __shared__ Coef low[kTileY][kInputColumns];
    __shared__ Coef high[kTileY][kInputColumns];

    // The picture of this block, chosen by selects: indexing the parameter
    // arrays with blockIdx.z would copy them to local memory.
    const bool ref = blockIdx.z == 0;
    const std::uint8_t* const data = ref ? in.data[kRef] : in.data[kDis];
    const int x0 = static_cast<int>(blockIdx.x * kTileX);
    const int y0 = static_cast<int>(blockIdx.y * kTileY);
    const int thread = static_cast<int>(threadIdx.y * kTileX + threadIdx.x);
    for (int i = thread; i < kInputRows * kInputColumns; i += kThreads) {
        const int r = i / kInputColumns, c = i % kInputColumns;
        const int row = mirror(2 * y0 - 1 + r, in.height);
        const int column = mirror(2 * x0 - 1 + c, in.width);
        tile[r][c] = reinterpret_cast<const In*>(data + row * in.stride)[column];
    }
    __syncthreads();
    for (int i = thread; i < static_cast<int>(kTileY) * kInputColumns; i += kThreads) {
        const int r = i / kInputColumns, c = i % kInputColumns;
        const In* rows[4] = {tile[2 * r], tile[2 * r + 1], tile[2 * r + 2], tile[2 * r + 3]};
        vertical(rows, c, low[r][c], high[r][c]);
    }
    __syncthreads();

    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const int x = x0 + tx, y = y0 + ty;
    if (x >= out.width || y >= out.height) return;
    const Coef* l = &low[ty][2 * tx];
    const Coef* h = &high[ty][2 * tx];
    const std::size_t i = static_cast<std::size_t>(y) * out.width + x;
    (ref ? out.a[kRef] : out.a[kDis])[i] = horizontal(low_pass(), l[0], l[1], l[2], l[3]);
    if (analyse) {
        Coef* const* detail = ref ? out.detail[kRef] : out.detail[kDis];
        detail[0][i] = horizontal(low_pass(), h[0], h[1], h[2], h[3]);   // h
        detail[1][i] = horizontal(high_pass(), l[0], l[1], l[2], l[3]);  // v
        detail[2][i] = horizontal(high_pass(), h[0], h[1], h[2], h[3]);  // d
    }
}

// ---- 2. decouple, masking weights and masking, one tile a block ---------------

// What decouple gives one coefficient: its restored and additive parts and
// their masking weights (the DLM's from the additive part, the AIM's from
// the restored part), in the CPU's order (theta 0 starts the sums). It is a
// function of that coefficient's h, v, d alone, so computing it again for a
// neighbouring tile gives the same bits.
template <class Arith>
struct DecoupledSample {
    typename Arith::Coef restored[kOrientations];
    typename Arith::Coef additive[kOrientations];
    std::int32_t dlm_neighbour = 0, dlm_centre = 0, aim_neighbour = 0, aim_centre = 0;
};

template <class Arith>
__device__ DecoupledSample<Arith> decouple_at(const Bands<typename Arith::Coef>& bands, std::size_t i,
                                              const ScaleParams& p, double gain_limit)
{
    using Coef = typename Arith::Coef;
    Coef* const* ref = bands.detail[kRef];
    Coef* const* dis = bands.detail[kDis];
    const bool aligned = Arith::within_one_degree(ref[0][i], ref[1][i], dis[0][i], dis[1][i]);
    DecoupledSample<Arith> s;
    for (int theta = 0; theta < kOrientations; ++theta) {
        const Coef o = ref[theta][i];
        const Coef t = dis[theta][i];
        decouple_sample<Arith>(o, t, decouple_gain<Arith>(o, t), aligned, gain_limit, s.restored[theta],
                               s.additive[theta]);
    }
    for (int theta = 0; theta < kOrientations; ++theta) {
        const std::uint32_t weight = p.csf_weight[theta];
        add_masking_weights_sample<Arith>(s.additive[theta], weight, theta, theta == 0, s.dlm_neighbour, s.dlm_centre);
        add_masking_weights_sample<Arith>(s.restored[theta], weight, theta, theta == 0, s.aim_neighbour, s.aim_centre);
    }
    return s;
}

// A block covers kTileX x kTileY scored coefficients, one row of the tile per
// group of 32 lanes. Each thread decouples its own coefficient; the block
// also decouples the ring around the tile, for its neighbour weights. Shared
// slot (r, c) holds the neighbour weights of band row mirror(y0 - 1 + r) and
// column mirror(x0 - 1 + c), so the 3x3 window of the tile's coefficient
// (ty, tx) is slots ty..ty+2 x tx..tx+2, mirrors included: exactly the
// values masking_threshold_at() reads. Then the masked cubes and the
// reference cubes, as the CPU's rows have them; each tile row's sums are
// added within its lane group and then, one 64-bit atomicAdd per sum, to the
// row's sums in row_sums (addition modulo 2^64, so order-free).
// round_rows_kernel applies the CPU's per-row rounding to the complete rows.
//
// Why one kernel: decouple wrote 6 coefficient planes and 4 weight planes
// that the masking read back (about 100 MB a 4K frame at scale 0); the
// weights of the ring are recomputed instead (34 x 10 slots for 32 x 8
// coefficients).
template <class Arith>
__global__ void __launch_bounds__(kTileX * kTileY)
    masking_kernel(Bands<typename Arith::Coef> bands, ScaleParams p, double gain_limit, bool skip_aim,
                   unsigned long long* row_sums)
{
    static_assert(kTileX == gpu::kLaneGroup, "a tile row is one group of 32 lanes");
    constexpr int kSlotRows = static_cast<int>(kTileY) + 2;
    constexpr int kSlotColumns = static_cast<int>(kTileX) + 2;
    constexpr int kThreads = static_cast<int>(kTileX * kTileY);
    __shared__ std::int32_t dlm_neighbour[kSlotRows][kSlotColumns];
    __shared__ std::int32_t aim_neighbour[kSlotRows][kSlotColumns];

    const Region& scored = p.scored;
    const int x0 = scored.left + static_cast<int>(blockIdx.x * kTileX);
    const int y0 = scored.top + static_cast<int>(blockIdx.y * kTileY);
    const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
    const std::size_t pitch = static_cast<std::size_t>(p.width);
    const auto index_of_slot = [&](int r, int c) {
        return static_cast<std::size_t>(mirror(y0 - 1 + r, p.height)) * pitch +
               static_cast<std::size_t>(mirror(x0 - 1 + c, p.width));
    };

    // The thread's own coefficient (slot ty + 1, tx + 1; mirrored when the
    // thread lies past the scored region, whose coefficients a window may
    // still read) ...
    const std::size_t own_index = index_of_slot(ty + 1, tx + 1);
    const DecoupledSample<Arith> own = decouple_at<Arith>(bands, own_index, p, gain_limit);
    dlm_neighbour[ty + 1][tx + 1] = own.dlm_neighbour;
    aim_neighbour[ty + 1][tx + 1] = own.aim_neighbour;
    // ... and the ring: the top and bottom slot rows, then the left and
    // right slot columns between them.
    constexpr int kRing = 2 * kSlotColumns + 2 * static_cast<int>(kTileY);
    for (int k = ty * static_cast<int>(kTileX) + tx; k < kRing; k += kThreads) {
        int r, c;
        if (k < 2 * kSlotColumns) {
            r = k < kSlotColumns ? 0 : kSlotRows - 1;
            c = k % kSlotColumns;
        } else {
            const int side = k - 2 * kSlotColumns;
            r = 1 + side / 2;
            c = side % 2 ? kSlotColumns - 1 : 0;
        }
        const DecoupledSample<Arith> ring = decouple_at<Arith>(bands, index_of_slot(r, c), p, gain_limit);
        dlm_neighbour[r][c] = ring.dlm_neighbour;
        aim_neighbour[r][c] = ring.aim_neighbour;
    }
    __syncthreads();

    const int x = x0 + tx, y = y0 + ty;
    unsigned long long partial[kSumsPerScale] = {};
    if (x < scored.right && y < scored.bottom) {
        const auto threshold = [&](const std::int32_t (&n)[kSlotRows][kSlotColumns], std::int32_t centre) {
            const auto column = [&](int c) { return masking_column_sum(n[ty][c], n[ty + 1][c], n[ty + 2][c]); };
            return masking_threshold(column(tx), column(tx + 1), column(tx + 2), n[ty + 1][tx + 1], centre);
        };
        const std::int32_t dlm_threshold = threshold(dlm_neighbour, own.dlm_centre);
        for (int theta = 0; theta < kOrientations; ++theta)
            partial[theta] = static_cast<std::uint64_t>(
                Arith::masked_cube(own.restored[theta], p.csf_weight[theta], dlm_threshold, p.masking, theta));
        if (!skip_aim) {
            const std::int32_t aim_threshold = threshold(aim_neighbour, own.aim_centre);
            for (int theta = 0; theta < kOrientations; ++theta)
                partial[kOrientations + theta] = static_cast<std::uint64_t>(
                    Arith::masked_cube(own.additive[theta], p.csf_weight[theta], aim_threshold, p.masking, theta));
        }
        for (int theta = 0; theta < kOrientations; ++theta)
            partial[2 * kOrientations + theta] =
                Arith::reference_cube(bands.detail[kRef][theta][own_index], p.denominator);
    }
    gpu::lane_group_sum(partial);
    if (tx == 0 && y < scored.bottom) {
        unsigned long long* row = row_sums + static_cast<std::size_t>(y - scored.top) * kSumsPerScale;
        for (int k = 0; k < kSumsPerScale; ++k)
            if (partial[k]) atomicAdd(row + k, partial[k]);
    }
}

// The CPU's per-row rounding (round_row_sum / round_row_sum_unsigned) of
// every complete row sum, then the scale's totals: one block.
__global__ void __launch_bounds__(kRoundThreads)
    round_rows_kernel(const unsigned long long* row_sums, int rows, ScaleParams p, bool skip_aim,
                      unsigned long long* sums)
{
    __shared__ gpu::BlockSumScratch<kRoundThreads, kSumsPerScale> scratch;
    unsigned long long totals[kSumsPerScale] = {};
    for (int r = static_cast<int>(threadIdx.x); r < rows; r += static_cast<int>(kRoundThreads)) {
        const unsigned long long* row = row_sums + static_cast<std::size_t>(r) * kSumsPerScale;
        for (int theta = 0; theta < kOrientations; ++theta) {
            totals[theta] += static_cast<std::uint64_t>(round_row_sum(row[theta], p.masking.row));
            if (!skip_aim)
                totals[kOrientations + theta] +=
                    static_cast<std::uint64_t>(round_row_sum(row[kOrientations + theta], p.masking.row));
            totals[2 * kOrientations + theta] +=
                round_row_sum_unsigned(row[2 * kOrientations + theta], p.denominator.row);
        }
    }
    gpu::block_sum(totals, scratch);
    if (threadIdx.x == 0)
        for (int k = 0; k < kSumsPerScale; ++k)
            if (!skip_aim || k < kOrientations || k >= 2 * kOrientations) atomicAdd(&sums[k], totals[k]);
}

// ---- the twin ------------------------------------------------------------------

// Device buffers of one precision, sized for the largest scale that uses it.
template <class Coef>
struct PrecisionBuffers {
    DeviceArray<Coef> detail[2][kOrientations];

    explicit PrecisionBuffers(std::size_t count)
    {
        for (auto& side : detail)
            for (auto& band : side) band = DeviceArray<Coef>(count, "adm bands");
    }
};

std::size_t band_size(const ScaleParams& p) { return static_cast<std::size_t>(p.width) * p.height; }

class AdmTwin final : public gpu::DeviceTwin {
public:
    AdmTwin(const Settings& settings, const VideoFormat& format)
        : params_(frame_params(settings, format)), scale0_(band_size(params_.scale[0])),
          upper_(band_size(params_.scale[1]))
    {
        const std::size_t size0 = band_size(params_.scale[0]);
        const std::size_t size1 = band_size(params_.scale[1]);
        for (int side = 0; side < 2; ++side) {
            approx0_[side] = DeviceArray<std::int16_t>(size0, "adm bands");
            approx_[0][side] = DeviceArray<std::int32_t>(size1, "adm bands");
            approx_[1][side] = DeviceArray<std::int32_t>(size1, "adm bands");
        }
        // One region of row sums per scale, cleared at the start of a frame.
        int rows = 0;
        for (int scale = 0; scale < kScales; ++scale) {
            first_row_[scale] = rows;
            rows += std::max(params_.scale[scale].scored.height(), 0);
        }
        row_sums_bytes_ = static_cast<std::size_t>(rows) * kSumsPerScale * sizeof(unsigned long long);
        row_sums_ = DeviceArray<unsigned long long>(static_cast<std::size_t>(rows) * kSumsPerScale, "adm row sums");
    }

    std::size_t result_bytes() const override { return kScales * kSumsPerScale * sizeof(unsigned long long); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        auto* sums = static_cast<unsigned long long*>(device_result);
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        if (!ref.width || !ref.height) return;
        if (row_sums_bytes_) gpu::check(gpuMemsetAsync(row_sums_.get(), 0, row_sums_bytes_, stream), "adm row sums");

        // Scale 0: the pictures to 16-bit bands.
        {
            const ScaleParams& p = params_.scale[0];
            const Bands<std::int16_t> out = bands_of(scale0_, approx0_[kRef].get(), approx0_[kDis].get(), p);
            const Vertical0 vertical{params_.bitdepth};
            const bool analyse = !params_.skip_scale0;
            if (params_.bitdepth > 8) {
                const DwtInput<std::uint16_t> in{{ref.data, dis.data}, ref.stride, int(ref.width), int(ref.height)};
                launch_dwt(in, out, vertical, Dwt0Horizontal{}, analyse, stream);
            } else {
                const DwtInput<std::uint8_t> in{{ref.data, dis.data}, ref.stride, int(ref.width), int(ref.height)};
                launch_dwt(in, out, vertical, Dwt0Horizontal{}, analyse, stream);
            }
            if (analyse) analyse_scale<Scale0Arithmetic>(out, 0, sums, stream);
        }
        // Scales 1..3: the previous scale's a band to 32-bit bands.
        for (int scale = 1; scale < kScales; ++scale) {
            const ScaleParams& previous = params_.scale[scale - 1];
            const ScaleParams& p = params_.scale[scale];
            DeviceArray<std::int32_t>(&approx)[2] = approx_[(scale - 1) % 2];
            const Bands<std::int32_t> out = bands_of(upper_, approx[kRef].get(), approx[kDis].get(), p);
            const VerticalN vertical{kVerticalRounding[scale - 1]};
            const DwtHorizontal horizontal{kHorizontalRounding[scale - 1]};
            const std::ptrdiff_t in_stride = std::ptrdiff_t(previous.width);
            if (scale == 1) {
                const DwtInput<std::int16_t> in{
                    {reinterpret_cast<const std::uint8_t*>(approx0_[kRef].get()),
                     reinterpret_cast<const std::uint8_t*>(approx0_[kDis].get())},
                    in_stride * std::ptrdiff_t(sizeof(std::int16_t)), previous.width, previous.height};
                launch_dwt(in, out, vertical, horizontal, true, stream);
            } else {
                DeviceArray<std::int32_t>(&input)[2] = approx_[scale % 2];
                const DwtInput<std::int32_t> in{{reinterpret_cast<const std::uint8_t*>(input[kRef].get()),
                                                 reinterpret_cast<const std::uint8_t*>(input[kDis].get())},
                                                in_stride * std::ptrdiff_t(sizeof(std::int32_t)), previous.width,
                                                previous.height};
                launch_dwt(in, out, vertical, horizontal, true, stream);
            }
            analyse_scale<ScaleNArithmetic>(out, scale, sums + scale * kSumsPerScale, stream);
        }
    }

    void unpack(const void* host_result, FrameScores& scores) const override
    {
        const auto* result = static_cast<const unsigned long long*>(host_result);
        for (int scale = 0; scale < kScales; ++scale) {
            const unsigned long long* r = result + scale * kSumsPerScale;
            ScaleSums sums;
            for (int theta = 0; theta < kOrientations; ++theta) {
                sums.dlm[theta] = static_cast<std::int64_t>(r[theta]);
                sums.aim[theta] = static_cast<std::int64_t>(r[kOrientations + theta]);
                sums.den[theta] = r[2 * kOrientations + theta];
            }
            AdmExtractor::store_sums(scale, sums, scores);
        }
    }

private:
    static FrameParams frame_params(const Settings& settings, const VideoFormat& format)
    {
        AdmCpu reference(settings);
        reference.init(format);  // validates the options as the CPU does
        return reference.params();
    }

    template <class Coef>
    static Bands<Coef> bands_of(const PrecisionBuffers<Coef>& b, Coef* ref_a, Coef* dis_a, const ScaleParams& p)
    {
        Bands<Coef> bands{};
        bands.a[kRef] = ref_a;
        bands.a[kDis] = dis_a;
        for (int side = 0; side < 2; ++side)
            for (int theta = 0; theta < kOrientations; ++theta) bands.detail[side][theta] = b.detail[side][theta].get();
        bands.width = p.width;
        bands.height = p.height;
        return bands;
    }

    template <class In, class Coef, class Vertical, class Horizontal>
    static void launch_dwt(const DwtInput<In>& in, const Bands<Coef>& out, Vertical vertical, Horizontal horizontal,
                           bool analyse, gpuStream_t stream)
    {
        const dim3 block(kTileX, kTileY);
        const dim3 grid(gpu::blocks_for(out.width, kTileX), gpu::blocks_for(out.height, kTileY), 2);
        dwt_kernel<In, Coef><<<grid, block, 0, stream>>>(in, out, vertical, horizontal, analyse);
        gpu::check_launch("adm dwt_kernel");
    }

    template <class Arith>
    void analyse_scale(const Bands<typename Arith::Coef>& bands, int scale, unsigned long long* sums,
                       gpuStream_t stream) const
    {
        const ScaleParams& p = params_.scale[scale];
        if (p.scored.width() <= 0 || p.scored.height() <= 0) return;
        unsigned long long* row_sums = row_sums_.get() + static_cast<std::size_t>(first_row_[scale]) * kSumsPerScale;
        const dim3 block(kTileX, kTileY);
        const dim3 grid(gpu::blocks_for(p.scored.width(), kTileX), gpu::blocks_for(p.scored.height(), kTileY));
        masking_kernel<Arith><<<grid, block, 0, stream>>>(bands, p, params_.enhancement_gain_limit, params_.skip_aim,
                                                          row_sums);
        gpu::check_launch("adm masking_kernel");
        round_rows_kernel<<<1, kRoundThreads, 0, stream>>>(row_sums, p.scored.height(), p, params_.skip_aim, sums);
        gpu::check_launch("adm round_rows_kernel");
    }

    FrameParams params_;
    PrecisionBuffers<std::int16_t> scale0_;
    PrecisionBuffers<std::int32_t> upper_;  // scales 1..3
    DeviceArray<std::int16_t> approx0_[2];           // scale 0's a band: scale 1's input
    DeviceArray<std::int32_t> approx_[2][2];         // scales 1..3's a bands, alternating
    DeviceArray<unsigned long long> row_sums_;      // masking_kernel's row sums, all scales
    std::size_t row_sums_bytes_ = 0;
    int first_row_[kScales] = {};                    // each scale's first row in row_sums_
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<AdmTwin>(Settings::from(options), format);
}

}  // namespace twinvmaf::adm
