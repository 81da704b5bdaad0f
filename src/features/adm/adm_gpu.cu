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
//   2. decouple_kernel: one thread per coefficient of the decoupled region:
//      the angle test, decouple_gain / decouple_sample per orientation, and
//      add_masking_weights_sample over h, v, d in the CPU's order (theta 0
//      starts the sums) for the DLM and the AIM weights.
//   3. mask_kernel: one block per scored row: masking_threshold_at() (the
//      3x3 window, rows and columns mirror()ed as the CPU's ring and
//      masking_threshold_row() do), the masked cubes, and the reference
//      cubes of the denominator.
// Everything is the math headers' functions, per sample.
//
// Exactness: all of it is integer. Each row's sums (uint64, wrapping as the
// CPU's do) are order-free, so the block adds its threads' partial sums
// (gpu::block_sum); thread 0 then applies the CPU's per-row rounding
// (round_row_sum / round_row_sum_unsigned) to the complete row sum and adds
// the rounded value to the scale's total with a 64-bit atomicAdd (addition
// modulo 2^64: order-free, as the CPU's uint64 totals).
//
// Masking reads decouple's outputs only inside the decoupled region (it is
// the scored region grown by the window, see adm_math.h), which is exactly
// what decouple_kernel writes, as in the CPU reference.
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
constexpr unsigned kMaskThreads = 256;

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

// ---- 2. decouple and masking weights ------------------------------------------

template <class Coef>
struct Decoupled {
    Coef* restored[kOrientations];
    Coef* additive[kOrientations];
    std::int32_t* dlm_neighbour;
    std::int32_t* dlm_centre;
    std::int32_t* aim_neighbour;
    std::int32_t* aim_centre;
};

template <class Arith>
__global__ void decouple_kernel(Bands<typename Arith::Coef> bands, Decoupled<typename Arith::Coef> out,
                                ScaleParams p, double gain_limit)
{
    using Coef = typename Arith::Coef;
    const Region& region = p.decoupled;
    const int x = region.left + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = region.top + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= region.right || y >= region.bottom) return;
    const std::size_t i = static_cast<std::size_t>(y) * p.width + x;

    Coef* const* ref = bands.detail[kRef];
    Coef* const* dis = bands.detail[kDis];
    const bool aligned = Arith::within_one_degree(ref[0][i], ref[1][i], dis[0][i], dis[1][i]);
    Coef restored[kOrientations], additive[kOrientations];
    for (int theta = 0; theta < kOrientations; ++theta) {
        const Coef o = ref[theta][i];
        const Coef t = dis[theta][i];
        decouple_sample<Arith>(o, t, decouple_gain<Arith>(o, t), aligned, gain_limit, restored[theta],
                               additive[theta]);
        out.restored[theta][i] = restored[theta];
        out.additive[theta][i] = additive[theta];
    }
    std::int32_t dlm_neighbour = 0, dlm_centre = 0, aim_neighbour = 0, aim_centre = 0;
    for (int theta = 0; theta < kOrientations; ++theta) {
        const std::uint32_t weight = p.csf_weight[theta];
        add_masking_weights_sample<Arith>(additive[theta], weight, theta, theta == 0, dlm_neighbour, dlm_centre);
        add_masking_weights_sample<Arith>(restored[theta], weight, theta, theta == 0, aim_neighbour, aim_centre);
    }
    out.dlm_neighbour[i] = dlm_neighbour;
    out.dlm_centre[i] = dlm_centre;
    out.aim_neighbour[i] = aim_neighbour;
    out.aim_centre[i] = aim_centre;
}

// ---- 3. masking and the denominator, one block per scored row ---------------

template <class Arith>
__global__ void __launch_bounds__(kMaskThreads)
    mask_kernel(Bands<typename Arith::Coef> bands, Decoupled<typename Arith::Coef> in, ScaleParams p,
                bool skip_aim, unsigned long long* sums)
{
    __shared__ gpu::BlockSumScratch<kMaskThreads, kSumsPerScale> scratch;
    const int y = p.scored.top + static_cast<int>(blockIdx.x);

    const std::size_t pitch = static_cast<std::size_t>(p.width);
    const std::size_t row = static_cast<std::size_t>(y) * pitch;
    const std::size_t above = static_cast<std::size_t>(mirror(y - 1, p.height)) * pitch;
    const std::size_t below = static_cast<std::size_t>(mirror(y + 1, p.height)) * pitch;

    unsigned long long partial[kSumsPerScale] = {};
    for (int x = p.scored.left + static_cast<int>(threadIdx.x); x < p.scored.right; x += kMaskThreads) {
        const std::size_t i = row + x;
        const std::int32_t dlm_threshold = masking_threshold_at(in.dlm_neighbour + above, in.dlm_neighbour + row,
                                                                in.dlm_neighbour + below, in.dlm_centre + row,
                                                                p.width, x);
        for (int theta = 0; theta < kOrientations; ++theta) {
            partial[theta] += static_cast<std::uint64_t>(
                Arith::masked_cube(in.restored[theta][i], p.csf_weight[theta], dlm_threshold, p.masking, theta));
        }
        if (!skip_aim) {
            const std::int32_t aim_threshold = masking_threshold_at(
                in.aim_neighbour + above, in.aim_neighbour + row, in.aim_neighbour + below, in.aim_centre + row,
                p.width, x);
            for (int theta = 0; theta < kOrientations; ++theta) {
                partial[kOrientations + theta] += static_cast<std::uint64_t>(Arith::masked_cube(
                    in.additive[theta][i], p.csf_weight[theta], aim_threshold, p.masking, theta));
            }
        }
        for (int theta = 0; theta < kOrientations; ++theta)
            partial[2 * kOrientations + theta] += Arith::reference_cube(bands.detail[kRef][theta][i], p.denominator);
    }
    gpu::block_sum(partial, scratch);
    if (threadIdx.x == 0) {
        // The CPU's per-row rounding of the complete row sums, then the totals.
        const unsigned long long* row_sums = partial;
        for (int theta = 0; theta < kOrientations; ++theta) {
            const std::uint64_t dlm = static_cast<std::uint64_t>(round_row_sum(row_sums[theta], p.masking.row));
            atomicAdd(&sums[theta], static_cast<unsigned long long>(dlm));
            if (!skip_aim) {
                const std::uint64_t aim =
                    static_cast<std::uint64_t>(round_row_sum(row_sums[kOrientations + theta], p.masking.row));
                atomicAdd(&sums[kOrientations + theta], static_cast<unsigned long long>(aim));
            }
            const std::uint64_t den = round_row_sum_unsigned(row_sums[2 * kOrientations + theta], p.denominator.row);
            atomicAdd(&sums[2 * kOrientations + theta], static_cast<unsigned long long>(den));
        }
    }
}

// ---- the twin ------------------------------------------------------------------

// Device buffers of one precision, sized for the largest scale that uses it.
template <class Coef>
struct PrecisionBuffers {
    DeviceArray<Coef> detail[2][kOrientations];
    DeviceArray<Coef> restored[kOrientations];
    DeviceArray<Coef> additive[kOrientations];

    explicit PrecisionBuffers(std::size_t count)
    {
        for (auto& side : detail)
            for (auto& band : side) band = DeviceArray<Coef>(count, "adm bands");
        for (auto& band : restored) band = DeviceArray<Coef>(count, "adm bands");
        for (auto& band : additive) band = DeviceArray<Coef>(count, "adm bands");
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
        for (auto& w : weights_) w = DeviceArray<std::int32_t>(size0, "adm masking weights");
    }

    std::size_t result_bytes() const override { return kScales * kSumsPerScale * sizeof(unsigned long long); }

    void enqueue(const gpu::DeviceFrame& frame, void* device_result, gpuStream_t stream) override
    {
        auto* sums = static_cast<unsigned long long*>(device_result);
        const gpu::DevicePlane ref = frame.ref_plane(0), dis = frame.dis_plane(0);
        if (!ref.width || !ref.height) return;

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
            if (analyse) analyse_scale<Scale0Arithmetic>(out, decoupled_of(scale0_), p, sums, stream);
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
            analyse_scale<ScaleNArithmetic>(out, decoupled_of(upper_), p, sums + scale * kSumsPerScale, stream);
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

    template <class Coef>
    Decoupled<Coef> decoupled_of(const PrecisionBuffers<Coef>& b) const
    {
        Decoupled<Coef> d{};
        for (int theta = 0; theta < kOrientations; ++theta) {
            d.restored[theta] = b.restored[theta].get();
            d.additive[theta] = b.additive[theta].get();
        }
        d.dlm_neighbour = weights_[0].get();
        d.dlm_centre = weights_[1].get();
        d.aim_neighbour = weights_[2].get();
        d.aim_centre = weights_[3].get();
        return d;
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
    void analyse_scale(const Bands<typename Arith::Coef>& bands, const Decoupled<typename Arith::Coef>& decoupled,
                       const ScaleParams& p, unsigned long long* sums, gpuStream_t stream) const
    {
        const Region& d = p.decoupled;
        if (d.width() > 0 && d.height() > 0) {
            const dim3 block(kTileX, kTileY);
            const dim3 grid(gpu::blocks_for(d.width(), kTileX), gpu::blocks_for(d.height(), kTileY));
            decouple_kernel<Arith><<<grid, block, 0, stream>>>(bands, decoupled, p, params_.enhancement_gain_limit);
            gpu::check_launch("adm decouple_kernel");
        }
        if (p.scored.width() > 0 && p.scored.height() > 0) {
            mask_kernel<Arith><<<p.scored.height(), kMaskThreads, 0, stream>>>(bands, decoupled, p,
                                                                               params_.skip_aim, sums);
            gpu::check_launch("adm mask_kernel");
        }
    }

    FrameParams params_;
    PrecisionBuffers<std::int16_t> scale0_;
    PrecisionBuffers<std::int32_t> upper_;  // scales 1..3
    DeviceArray<std::int16_t> approx0_[2];           // scale 0's a band: scale 1's input
    DeviceArray<std::int32_t> approx_[2][2];         // scales 1..3's a bands, alternating
    DeviceArray<std::int32_t> weights_[4];           // dlm/aim neighbour/centre weights
};

}  // namespace

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return std::make_unique<AdmTwin>(Settings::from(options), format);
}

}  // namespace twinvmaf::adm
