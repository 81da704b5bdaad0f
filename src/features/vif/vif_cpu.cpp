// The CPU path of vif: the four scales, row by row, with the row kernels of
// vif_kernels.h (the loops of vif_math.h or their SIMD implementation).
#include <array>
#include <vector>

#include "features/vif/vif.h"
#include "features/vif/vif_kernels.h"
#include "features/vif/vif_math.h"

namespace twinvmaf::vif {

namespace {

// A read-only picture of one scale; stride in samples.
template <class Sample>
struct Image {
    const Sample* data = nullptr;
    std::ptrdiff_t stride = 0;
    unsigned width = 0;
    unsigned height = 0;

    const Sample* row(unsigned y) const { return data + static_cast<std::ptrdiff_t>(y) * stride; }
};

template <class Sample>
Image<Sample> luma(const Picture& picture)
{
    const PlaneView plane = picture.plane(0);
    return {plane.row<Sample>(0), plane.stride / static_cast<std::ptrdiff_t>(sizeof(Sample)), plane.width,
            plane.height};
}

// A row buffer with kMaxFilterHalf spare samples on both sides, and the
// kernels' kRowSlack after those.
template <class T>
class PaddedRow {
public:
    explicit PaddedRow(unsigned width) : storage_(width + 2 * kMaxFilterHalf + kRowSlack) {}
    T* get() { return storage_.data() + kMaxFilterHalf; }

private:
    std::vector<T> storage_;
};

struct VifScratch final : Scratch {
    explicit VifScratch(const VideoFormat& format)
        : kernels(vif::kernels()), mu1(format.width), mu2(format.width), xx_high(format.width), xx_low(format.width),
          yy_high(format.width), yy_low(format.width), xy_high(format.width), xy_low(format.width),
          sigma1_sq(format.width), sigma2_sq(format.width), sigma12(format.width), lowpass_ref(format.width),
          lowpass_dis(format.width)
    {
        unsigned w = format.width, h = format.height;
        for (int s = 1; s < kScaleCount; ++s) {
            w /= 2;
            h /= 2;
            ref[s].resize(std::size_t{w} * h);
            dis[s].resize(std::size_t{w} * h);
        }
    }

    MomentRow moments()
    {
        return {mu1.get(), mu2.get(), xx_high.get(), xx_low.get(), yy_high.get(), yy_low.get(), xy_high.get(),
                xy_low.get()};
    }
    SigmaRow sigmas() { return {sigma1_sq.data(), sigma2_sq.data(), sigma12.data()}; }

    Kernels kernels;
    // Pictures of scales 1..3 (index 0 is the input).
    std::array<std::vector<std::uint16_t>, kScaleCount> ref, dis;
    // One row of vertical moments, shared by all scales: see statistics().
    PaddedRow<std::uint16_t> mu1, mu2, xx_high, xx_low, yy_high, yy_low, xy_high, xy_low;
    std::vector<std::int32_t> sigma1_sq, sigma2_sq, sigma12;
    // One row of the decimation filter's vertical pass.
    PaddedRow<std::uint16_t> lowpass_ref, lowpass_dis;
};

// The rows of `image` under each tap of scale `Scale`'s filter for output
// row y, mirrored.
template <int Scale, class Sample>
void rows_under_filter(const Image<Sample>& image, int y, const Sample** rows)
{
    constexpr Filter kFilter = scale_filter(Scale);
    for (unsigned k = 0; k < kFilter.width; ++k) {
        const int i = y - static_cast<int>(kFilter.half()) + static_cast<int>(k);
        rows[k] = image.row(static_cast<unsigned>(reflect_101(i, static_cast<int>(image.height))));
    }
}

// The kernels of one sample type.
template <class Sample>
const VerticalMomentsFn<Sample>* vertical_moments_kernels(const Kernels& k)
{
    if constexpr (sizeof(Sample) == 1)
        return k.vertical_moments_8bit;
    else
        return k.vertical_moments_16bit;
}

template <class Sample>
const VerticalLowpassFn<Sample>* vertical_lowpass_kernels(const Kernels& k)
{
    if constexpr (sizeof(Sample) == 1)
        return k.vertical_lowpass_8bit;
    else
        return k.vertical_lowpass_16bit;
}

// One scale's counters.
//
// Frames 8..15 samples wide or high make scale 3 one sample wide or high,
// where mirroring has nothing to reflect. Netflix's buffers then supply what
// they hold from scale 2, and so do ours:
//  * one row high: the rows above and below are row 1 of the scale-2
//    picture (`beyond_ref` / `beyond_dis`), which Netflix's in-place
//    decimation left there;
//  * one column wide: the columns left and right are column 1 of the last
//    vertical-moment row of scale 2, left in the row buffers that all
//    scales share, here as in Netflix (mirror_pad_row copies row[1]).
template <int Scale, class Sample>
ScaleSums statistics(const Image<Sample>& ref, const Image<Sample>& dis, const Sample* beyond_ref,
                     const Sample* beyond_dis, unsigned bitdepth, double gain_limit, VifScratch& scratch)
{
    constexpr Filter kFilter = scale_filter(Scale);
    const VerticalShifts shifts = statistics_shifts(Scale, bitdepth);
    const MomentRow moments = scratch.moments();
    const SigmaRow sigmas = scratch.sigmas();
    const std::uint16_t* table = log2_table();
    const VerticalMomentsFn<Sample> vertical_moments = vertical_moments_kernels<Sample>(scratch.kernels)[Scale];
    const RowStatisticsFn row_statistics = scratch.kernels.row_statistics[Scale];

    ScaleSums sums;
    const Sample* ref_rows[kFilter.width];
    const Sample* dis_rows[kFilter.width];
    for (unsigned y = 0; y < ref.height; ++y) {
        // Only the last scale can be one row high (init() refuses smaller frames).
        if (Scale == kScaleCount - 1 && ref.height == 1) {
            ref_rows[0] = ref_rows[2] = beyond_ref;
            dis_rows[0] = dis_rows[2] = beyond_dis;
            ref_rows[1] = ref.row(0);
            dis_rows[1] = dis.row(0);
        } else {
            rows_under_filter<Scale>(ref, static_cast<int>(y), ref_rows);
            rows_under_filter<Scale>(dis, static_cast<int>(y), dis_rows);
        }
        vertical_moments(ref_rows, dis_rows, shifts, ref.width, moments);
        for (std::uint16_t* row : {moments.mu1, moments.mu2, moments.xx_high, moments.xx_low, moments.yy_high,
                                   moments.yy_low, moments.xy_high, moments.xy_low})
            mirror_pad_row(row, ref.width, kFilter.half());
        row_statistics(moments, ref.width, sigmas, table, gain_limit, sums);
    }
    return sums;
}

// The pictures of scale `Scale` from those of Scale - 1.
template <int Scale, class Sample>
void decimate(const Image<Sample>& ref, const Image<Sample>& dis, unsigned bitdepth, std::uint16_t* ref_out,
              std::uint16_t* dis_out, VifScratch& scratch)
{
    constexpr Filter kFilter = scale_filter(Scale);
    const unsigned shift = lowpass_shift(Scale, bitdepth);
    const unsigned out_width = ref.width / 2;
    const unsigned out_height = ref.height / 2;
    std::uint16_t* lowpass_ref = scratch.lowpass_ref.get();
    std::uint16_t* lowpass_dis = scratch.lowpass_dis.get();
    const VerticalLowpassFn<Sample> vertical_lowpass = vertical_lowpass_kernels<Sample>(scratch.kernels)[Scale];
    const HorizontalDecimateFn horizontal_decimate = scratch.kernels.horizontal_decimate[Scale];

    const Sample* ref_rows[kFilter.width];
    const Sample* dis_rows[kFilter.width];
    for (unsigned y = 0; y < out_height; ++y) {
        rows_under_filter<Scale>(ref, static_cast<int>(2 * y), ref_rows);
        rows_under_filter<Scale>(dis, static_cast<int>(2 * y), dis_rows);
        vertical_lowpass(ref_rows, dis_rows, shift, ref.width, lowpass_ref, lowpass_dis);
        mirror_pad_row(lowpass_ref, ref.width, kFilter.half());
        mirror_pad_row(lowpass_dis, ref.width, kFilter.half());
        horizontal_decimate(lowpass_ref, lowpass_dis, out_width, ref_out + y * out_width, dis_out + y * out_width);
    }
}

// Decimates the pictures of scale Scale - 1 into scratch and computes the
// counters of scale Scale and of the scales after it.
template <int Scale, class Sample>
void scales_from(const Image<Sample>& previous_ref, const Image<Sample>& previous_dis, const Settings& settings,
                 unsigned bitdepth, VifScratch& scratch, std::array<ScaleSums, kScaleCount>& sums)
{
    const unsigned width = previous_ref.width / 2, height = previous_ref.height / 2;
    decimate<Scale>(previous_ref, previous_dis, bitdepth, scratch.ref[Scale].data(), scratch.dis[Scale].data(),
                    scratch);
    const Image<std::uint16_t> ref{scratch.ref[Scale].data(), width, width, height};
    const Image<std::uint16_t> dis{scratch.dis[Scale].data(), width, width, height};
    // Row 1 of the previous scale, for a one-row picture (see statistics()).
    const std::uint16_t* beyond_ref = nullptr;
    const std::uint16_t* beyond_dis = nullptr;
    if constexpr (Scale > 1) {
        if (height == 1) {
            beyond_ref = previous_ref.row(1);
            beyond_dis = previous_dis.row(1);
        }
    }
    sums[Scale] = statistics<Scale>(ref, dis, beyond_ref, beyond_dis, bitdepth, settings.enhn_gain_limit, scratch);
    if constexpr (Scale + 1 < kScaleCount) scales_from<Scale + 1>(ref, dis, settings, bitdepth, scratch, sums);
}

template <class Sample>
std::array<ScaleSums, kScaleCount> all_scales(const Image<Sample>& ref, const Image<Sample>& dis,
                                              const Settings& settings, unsigned bitdepth, VifScratch& scratch)
{
    std::array<ScaleSums, kScaleCount> sums{};
    if (!settings.skip_scale0)
        sums[0] = statistics<0, Sample>(ref, dis, nullptr, nullptr, bitdepth, settings.enhn_gain_limit, scratch);
    scales_from<1>(ref, dis, settings, bitdepth, scratch, sums);
    return sums;
}

}  // namespace

std::unique_ptr<Scratch> VifCpu::make_scratch() const { return std::make_unique<VifScratch>(format()); }

void VifCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    VifScratch& s = static_cast<VifScratch&>(*scratch);
    const unsigned bitdepth = format().bitdepth;
    if (bitdepth > 8) {
        store_sums(all_scales(luma<std::uint16_t>(inputs.ref), luma<std::uint16_t>(inputs.dis), settings(), bitdepth,
                              s),
                   scores);
    } else {
        store_sums(all_scales(luma<std::uint8_t>(inputs.ref), luma<std::uint8_t>(inputs.dis), settings(), 8u, s),
                   scores);
    }
}

}  // namespace twinvmaf::vif
