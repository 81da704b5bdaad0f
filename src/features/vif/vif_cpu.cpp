// The CPU reference of vif: the four scales, row by row, with the shared
// arithmetic of vif_math.h.
#include <array>
#include <vector>

#include "features/vif/vif.h"
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

// Row buffers padded by kMaxFilterHalf on both sides.
template <class T>
class PaddedRow {
public:
    explicit PaddedRow(unsigned width) : storage_(width + 2 * kMaxFilterHalf) {}
    T* get() { return storage_.data() + kMaxFilterHalf; }

private:
    std::vector<T> storage_;
};

struct VifScratch final : Scratch {
    explicit VifScratch(const VideoFormat& format)
        : mu1(format.width), mu2(format.width), xx(format.width), yy(format.width), xy(format.width),
          lowpass_ref(format.width), lowpass_dis(format.width)
    {
        unsigned w = format.width, h = format.height;
        for (int s = 1; s < kScaleCount; ++s) {
            w /= 2;
            h /= 2;
            ref[s].resize(std::size_t{w} * h);
            dis[s].resize(std::size_t{w} * h);
        }
    }

    // Pictures of scales 1..3 (index 0 is the input).
    std::array<std::vector<std::uint16_t>, kScaleCount> ref, dis;
    // One row of vertical moments, shared by all scales: see statistics().
    PaddedRow<std::uint32_t> mu1, mu2, xx, yy, xy;
    // One row of the decimation filter's vertical pass.
    PaddedRow<std::uint16_t> lowpass_ref, lowpass_dis;
};

// The rows of `image` under each tap of `filter` for output row y, mirrored.
template <class Sample>
void rows_under_filter(const Image<Sample>& image, int y, const Filter& filter, const Sample** rows)
{
    const int half = static_cast<int>(filter.half());
    for (unsigned k = 0; k < filter.width; ++k)
        rows[k] = image.row(static_cast<unsigned>(reflect_101(y - half + static_cast<int>(k),
                                                              static_cast<int>(image.height))));
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
template <class Sample>
ScaleSums statistics(const Image<Sample>& ref, const Image<Sample>& dis, const Sample* beyond_ref,
                     const Sample* beyond_dis, int scale, unsigned bitdepth, double gain_limit, VifScratch& scratch)
{
    const Filter filter = scale_filter(scale);
    const unsigned half = filter.half();
    const VerticalShifts shifts = statistics_shifts(scale, bitdepth);
    const MomentRow moments{scratch.mu1.get(), scratch.mu2.get(), scratch.xx.get(), scratch.yy.get(),
                            scratch.xy.get()};
    const std::uint16_t* table = log2_table();

    ScaleSums sums;
    const Sample* ref_rows[kMaxFilterWidth];
    const Sample* dis_rows[kMaxFilterWidth];
    for (unsigned y = 0; y < ref.height; ++y) {
        if (ref.height == 1) {
            // Only scale 3 (half = 1) can be one row high.
            ref_rows[0] = ref_rows[2] = beyond_ref;
            dis_rows[0] = dis_rows[2] = beyond_dis;
            ref_rows[1] = ref.row(0);
            dis_rows[1] = dis.row(0);
        } else {
            rows_under_filter(ref, static_cast<int>(y), filter, ref_rows);
            rows_under_filter(dis, static_cast<int>(y), filter, dis_rows);
        }
        vertical_moments(ref_rows, dis_rows, filter, shifts, 0, ref.width, moments);
        for (std::uint32_t* row : {moments.mu1, moments.mu2, moments.xx, moments.yy, moments.xy})
            mirror_pad_row(row, ref.width, half);
        horizontal_moments_and_sums(moments, filter, 0, ref.width, table, gain_limit, sums);
    }
    return sums;
}

// The pictures of scale `scale` from those of scale - 1.
template <class Sample>
void decimate(const Image<Sample>& ref, const Image<Sample>& dis, int scale, unsigned bitdepth,
              std::uint16_t* ref_out, std::uint16_t* dis_out, VifScratch& scratch)
{
    const Filter filter = scale_filter(scale);
    const unsigned shift = scale == 1 ? bitdepth : 16;
    const unsigned out_width = ref.width / 2;
    const unsigned out_height = ref.height / 2;
    std::uint16_t* lowpass_ref = scratch.lowpass_ref.get();
    std::uint16_t* lowpass_dis = scratch.lowpass_dis.get();

    const Sample* ref_rows[kMaxFilterWidth];
    const Sample* dis_rows[kMaxFilterWidth];
    for (unsigned y = 0; y < out_height; ++y) {
        rows_under_filter(ref, static_cast<int>(2 * y), filter, ref_rows);
        rows_under_filter(dis, static_cast<int>(2 * y), filter, dis_rows);
        vertical_lowpass(ref_rows, dis_rows, filter, shift, 0, ref.width, lowpass_ref, lowpass_dis);
        mirror_pad_row(lowpass_ref, ref.width, filter.half());
        mirror_pad_row(lowpass_dis, ref.width, filter.half());
        horizontal_lowpass_decimate(lowpass_ref, lowpass_dis, filter, 0, out_width, ref_out + y * out_width,
                                    dis_out + y * out_width);
    }
}

template <class Sample>
std::array<ScaleSums, kScaleCount> all_scales(const Image<Sample>& ref0, const Image<Sample>& dis0,
                                              const Settings& settings, unsigned bitdepth, VifScratch& scratch)
{
    std::array<ScaleSums, kScaleCount> sums{};
    if (!settings.skip_scale0)
        sums[0] = statistics<Sample>(ref0, dis0, nullptr, nullptr, 0, bitdepth, settings.enhn_gain_limit, scratch);

    Image<std::uint16_t> ref{}, dis{};
    for (int s = 1; s < kScaleCount; ++s) {
        const Image<std::uint16_t> previous_ref = ref, previous_dis = dis;
        const unsigned width = (s == 1 ? ref0.width : ref.width) / 2;
        const unsigned height = (s == 1 ? ref0.height : ref.height) / 2;
        if (s == 1) decimate(ref0, dis0, s, bitdepth, scratch.ref[s].data(), scratch.dis[s].data(), scratch);
        else decimate(ref, dis, s, bitdepth, scratch.ref[s].data(), scratch.dis[s].data(), scratch);
        ref = {scratch.ref[s].data(), width, width, height};
        dis = {scratch.dis[s].data(), width, width, height};
        // Row 1 of the previous scale, for a one-row picture (see statistics()).
        const std::uint16_t* beyond_ref = height == 1 ? previous_ref.row(1) : nullptr;
        const std::uint16_t* beyond_dis = height == 1 ? previous_dis.row(1) : nullptr;
        sums[s] = statistics(ref, dis, beyond_ref, beyond_dis, s, bitdepth, settings.enhn_gain_limit, scratch);
    }
    return sums;
}

}  // namespace

std::unique_ptr<Scratch> VifCpu::make_scratch() const { return std::make_unique<VifScratch>(format()); }

void VifCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    VifScratch& s = static_cast<VifScratch&>(*scratch);
    const unsigned bitdepth = format().bitdepth;
    if (bitdepth > 8) {
        store_sums(all_scales(luma<std::uint16_t>(inputs.ref), luma<std::uint16_t>(inputs.dis), settings(), bitdepth, s),
                   scores);
    } else {
        store_sums(all_scales(luma<std::uint8_t>(inputs.ref), luma<std::uint8_t>(inputs.dis), settings(), bitdepth, s),
                   scores);
    }
}

}  // namespace twinvmaf::vif
