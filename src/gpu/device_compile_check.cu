// Compiles the shared math headers of features that have no GPU twin yet for
// the device, so CI (which has nvcc but no GPU) notices when host-only code
// creeps into a TV_HD function. A feature leaves this file when its twin
// (<name>_gpu.cu) lands.
#include "features/vif/vif_math.h"
#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

// vif, one thread per row: the row functions over the whole row, each thread
// with its own moment and sigma rows (`row_pitch` samples apart, padded by
// kMaxFilterHalf). row_ptrs holds, per output row, the picture rows under
// the filter taps.
template <int Scale, class Sample>
__device__ void vif_statistics_row(const Sample* const* ref_row_ptrs, const Sample* const* dis_row_ptrs,
                                   unsigned bitdepth, std::uint16_t* moment_rows, std::int32_t* sigma_rows,
                                   std::size_t row_pitch, const std::uint16_t* log2_table, unsigned width,
                                   unsigned height, unsigned long long* num_log)
{
    constexpr unsigned kTaps = vif::scale_filter(Scale).width;
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) return;
    std::uint16_t* m = moment_rows + 8 * y * row_pitch + vif::kMaxFilterHalf;
    const vif::MomentRow moments{m,                 m + row_pitch,     m + 2 * row_pitch, m + 3 * row_pitch,
                                 m + 4 * row_pitch, m + 5 * row_pitch, m + 6 * row_pitch, m + 7 * row_pitch};
    std::int32_t* s = sigma_rows + 3 * y * row_pitch;
    const vif::SigmaRow sigmas{s, s + row_pitch, s + 2 * row_pitch};
    vif::vertical_moments<Scale>(ref_row_ptrs + y * kTaps, dis_row_ptrs + y * kTaps,
                                 vif::statistics_shifts(Scale, bitdepth), 0, width, moments);
    for (std::uint16_t* row : {moments.mu1, moments.mu2, moments.xx_high, moments.xx_low, moments.yy_high,
                               moments.yy_low, moments.xy_high, moments.xy_low})
        vif::mirror_pad_row(row, width, vif::scale_filter(Scale).half());
    vif::horizontal_sigmas<Scale>(moments, 0, width, sigmas);
    vif::ScaleSums sums;
    vif::add_samples(sigmas, 0, width, log2_table, 100.0, sums);
    atomicAdd(num_log, static_cast<unsigned long long>(sums.num_log));
}

__global__ void vif_statistics_8bit_scale0(const std::uint8_t* const* ref_row_ptrs,
                                           const std::uint8_t* const* dis_row_ptrs, std::uint16_t* moment_rows,
                                           std::int32_t* sigma_rows, std::size_t row_pitch,
                                           const std::uint16_t* log2_table, unsigned width, unsigned height,
                                           unsigned long long* num_log)
{
    vif_statistics_row<0>(ref_row_ptrs, dis_row_ptrs, 8, moment_rows, sigma_rows, row_pitch, log2_table, width,
                          height, num_log);
}

__global__ void vif_statistics_16bit_scale1(const std::uint16_t* const* ref_row_ptrs,
                                            const std::uint16_t* const* dis_row_ptrs, std::uint16_t* moment_rows,
                                            std::int32_t* sigma_rows, std::size_t row_pitch,
                                            const std::uint16_t* log2_table, unsigned width, unsigned height,
                                            unsigned long long* num_log)
{
    vif_statistics_row<1>(ref_row_ptrs, dis_row_ptrs, 10, moment_rows, sigma_rows, row_pitch, log2_table, width,
                          height, num_log);
}

// The decimation to scale 2, one thread per output row.
__global__ void vif_decimate_scale2(const std::uint16_t* const* ref_row_ptrs, const std::uint16_t* const* dis_row_ptrs,
                                    std::uint16_t* lowpass_rows, std::size_t row_pitch, unsigned width,
                                    unsigned out_height, std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    constexpr vif::Filter kFilter = vif::scale_filter(2);
    const unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= out_height) return;
    std::uint16_t* lowpass_ref = lowpass_rows + 2 * y * row_pitch + vif::kMaxFilterHalf;
    std::uint16_t* lowpass_dis = lowpass_ref + row_pitch;
    vif::vertical_lowpass<2>(ref_row_ptrs + y * kFilter.width, dis_row_ptrs + y * kFilter.width,
                             vif::lowpass_shift(2, 10), 0, width, lowpass_ref, lowpass_dis);
    vif::mirror_pad_row(lowpass_ref, width, kFilter.half());
    vif::mirror_pad_row(lowpass_dis, width, kFilter.half());
    vif::horizontal_lowpass_decimate<2>(lowpass_ref, lowpass_dis, 0, width / 2, ref_out + y * (width / 2),
                                        dis_out + y * (width / 2));
    (void)vif::reflect_101(static_cast<int>(y) - 3, static_cast<int>(out_height));
}

}  // namespace twinvmaf::gpu
