// vif's reference kernels (the loops of vif_math.h) and the choice between
// them and the SIMD ones (vif_simd.cpp).
#include "features/vif/vif_kernels.h"

#include "core/simd.h"

namespace twinvmaf::vif {

namespace {

template <int Scale, class Sample>
void vertical_moments_row(const Sample* const* ref_rows, const Sample* const* dis_rows, VerticalShifts shifts,
                          unsigned width, MomentRow out)
{
    vertical_moments<Scale, Sample>(ref_rows, dis_rows, shifts, 0, width, out);
}

template <int Scale>
void row_statistics(const MomentRow& moments, unsigned width, SigmaRow sigmas, const std::uint16_t* log2_table,
                    double gain_limit, ScaleSums& sums)
{
    horizontal_sigmas<Scale>(moments, 0, width, sigmas);
    add_samples(sigmas, 0, width, log2_table, gain_limit, sums);
}

template <int Scale, class Sample>
void vertical_lowpass_row(const Sample* const* ref_rows, const Sample* const* dis_rows, unsigned shift,
                          unsigned width, std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    vertical_lowpass<Scale, Sample>(ref_rows, dis_rows, shift, 0, width, ref_out, dis_out);
}

template <int Scale>
void horizontal_decimate(const std::uint16_t* ref_in, const std::uint16_t* dis_in, unsigned out_width,
                         std::uint16_t* ref_out, std::uint16_t* dis_out)
{
    horizontal_lowpass_decimate<Scale>(ref_in, dis_in, 0, out_width, ref_out, dis_out);
}

}  // namespace

Kernels reference_kernels()
{
    using std::uint16_t, std::uint8_t;
    return Kernels{
        .vertical_moments_8bit = {vertical_moments_row<0, uint8_t>, nullptr, nullptr, nullptr},
        .vertical_moments_16bit = {vertical_moments_row<0, uint16_t>, vertical_moments_row<1, uint16_t>,
                                   vertical_moments_row<2, uint16_t>, vertical_moments_row<3, uint16_t>},
        .row_statistics = {row_statistics<0>, row_statistics<1>, row_statistics<2>, row_statistics<3>},
        .vertical_lowpass_8bit = {nullptr, vertical_lowpass_row<1, uint8_t>, nullptr, nullptr},
        .vertical_lowpass_16bit = {nullptr, vertical_lowpass_row<1, uint16_t>, vertical_lowpass_row<2, uint16_t>,
                                   vertical_lowpass_row<3, uint16_t>},
        .horizontal_decimate = {nullptr, horizontal_decimate<1>, horizontal_decimate<2>, horizontal_decimate<3>},
    };
}

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::vif
