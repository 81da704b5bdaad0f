// The CPU path of adm: the math headers' row stages, through the row kernels
// of adm_kernels.h (the reference row functions or their SIMD
// implementation), streamed one band row at a time so that only the a bands
// (the next scale's input) are kept whole; everything else lives in a few
// rows that stay in cache.
//
// Per scale, for each output row y of the wavelet (ref and dis):
//   1. wavelet row y: a into the next scale's input plane, h/v/d into rows
//   2. if y is scored: the denominator's row sum
//   3. if y is in the decoupled region: decouple row y into a ring of 3 rows
//   4. masking of row y-1, whose 3x3 window (rows y-2..y) is now complete
// and after the last row, masking of that row (its window mirrors).
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "features/adm/adm.h"
#include "features/adm/adm_band_math.h"
#include "features/adm/adm_dwt_math.h"
#include "features/adm/adm_kernels.h"
#include "features/adm/adm_row_math.h"

namespace twinvmaf::adm {

namespace {

constexpr int kRef = 0;
constexpr int kDis = 1;

// A read-only plane; stride in elements.
template <class T>
struct Plane {
    const T* data = nullptr;
    std::ptrdiff_t stride = 0;
    const T* row(int y) const { return data + y * stride; }
};

// One row of decouple's output: what the masking of a row and its
// neighbours reads.
template <class Coef>
struct DecoupledRow {
    std::vector<Coef> restored[kOrientations];
    std::vector<Coef> additive[kOrientations];
    std::vector<std::int32_t> dlm_neighbour, dlm_centre, aim_neighbour, aim_centre;

    void resize(int width)
    {
        for (auto& r : restored) r.assign(width, 0);
        for (auto& a : additive) a.assign(width, 0);
        for (auto* v : {&dlm_neighbour, &dlm_centre, &aim_neighbour, &aim_centre}) v->assign(width, 0);
    }

    // The DLM measures the restored part, masked by the additive part; the
    // AIM the additive part, masked by the restored part.
    const std::vector<Coef>* measured(bool aim) const { return aim ? additive : restored; }
    const std::vector<std::int32_t>& neighbour_weights(bool aim) const { return aim ? aim_neighbour : dlm_neighbour; }
    const std::vector<std::int32_t>& centre_weights(bool aim) const { return aim ? aim_centre : dlm_centre; }
};

// Row buffers of one precision, sized for the widest scale that uses it.
template <class Coef>
struct ScaleRows {
    std::vector<Coef> low[2], high[2];             // vertical pass of ref, dis (input width)
    std::vector<Coef> detail[2][kOrientations];    // wavelet row of h, v, d of ref, dis
    DecoupledRow<Coef> ring[3];                    // decoupled rows y % 3
    std::vector<std::uint8_t> aligned;  // angle test of the row being decoupled
    std::vector<std::int32_t> gain;     // gains of one orientation of that row
    std::vector<std::int32_t> column_sums, threshold;

    void resize(int input_width, int width)
    {
        for (int side = 0; side < 2; ++side) {
            low[side].assign(input_width, 0);
            high[side].assign(input_width, 0);
            for (auto& d : detail[side]) d.assign(width, 0);
        }
        for (auto& r : ring) r.resize(width);
        aligned.assign(width, 0);
        gain.assign(width, 0);
        column_sums.assign(width, 0);
        threshold.assign(width, 0);
    }
};

struct AdmScratch final : Scratch {
    Kernels kernels = adm::kernels();
    ScaleRows<std::int16_t> scale0;
    ScaleRows<std::int32_t> upper;  // scales 1..3
    std::vector<std::int16_t> approx0[2];    // scale 0's a band: scale 1's input
    std::vector<std::int32_t> approx[2][2];  // scales 1..3's a bands, alternating

    explicit AdmScratch(const VideoFormat& format, const FrameParams& p)
    {
        scale0.resize(static_cast<int>(format.width), p.scale[0].width);
        upper.resize(p.scale[0].width, p.scale[1].width);
        const std::size_t size0 = std::size_t(p.scale[0].width) * p.scale[0].height;
        const std::size_t size1 = std::size_t(p.scale[1].width) * p.scale[1].height;
        for (int side = 0; side < 2; ++side) {
            approx0[side].assign(size0, 0);
            approx[0][side].assign(size1, 0);
            approx[1][side].assign(size1, 0);
        }
    }
};

// One scale: the wavelet of `input` (ref, dis; input_width x input_height),
// its a band into `approx` (width x height, packed), and, if `analyse`, the
// scale's sums. `vertical(rows, width, low, high)` is the vertical pass of
// the scale's precision, `horizontal(split, low_out, high_out)` its
// horizontal pass, `band` its kernels after the wavelet.
template <class Arith, class In, class Out, class Vertical, class Horizontal>
ScaleSums run_scale(const ScaleParams& p, const FrameParams& frame, const Plane<In> (&input)[2], int input_width,
                    int input_height, Vertical vertical, Horizontal horizontal, const BandKernels<Arith>& band,
                    MaskingThresholdFn masking_threshold, bool analyse, ScaleRows<typename Arith::Coef>& rows,
                    Out* const (&approx)[2])
{
    using Coef = typename Arith::Coef;
    const Region& scored = p.scored;
    const Region& decoupled = p.decoupled;

    std::uint64_t dlm[kOrientations] = {}, aim[kOrientations] = {}, den[kOrientations] = {};

    auto add_masked_rows = [&](const DecoupledRow<Coef>& above, const DecoupledRow<Coef>& row,
                               const DecoupledRow<Coef>& below, bool aim, std::uint64_t totals[]) {
        masking_threshold(above.neighbour_weights(aim).data(), row.neighbour_weights(aim).data(),
                          below.neighbour_weights(aim).data(), row.centre_weights(aim).data(), p.width, scored.left,
                          scored.right, rows.column_sums.data(), rows.threshold.data());
        for (int theta = 0; theta < kOrientations; ++theta) {
            const std::uint64_t row_sum =
                band.masked_cube(row.measured(aim)[theta].data(), p.csf_weight[theta], rows.threshold.data(),
                                 scored.left, scored.right, p.masking, theta);
            totals[theta] += static_cast<std::uint64_t>(round_row_sum(row_sum, p.masking.row));
        }
    };
    auto mask_row = [&](int y) {
        const DecoupledRow<Coef>& above = rows.ring[mirror(y - 1, p.height) % 3];
        const DecoupledRow<Coef>& row = rows.ring[y % 3];
        const DecoupledRow<Coef>& below = rows.ring[mirror(y + 1, p.height) % 3];
        add_masked_rows(above, row, below, false, dlm);
        if (!frame.skip_aim) add_masked_rows(above, row, below, true, aim);
    };
    auto is_scored_row = [&](int y) { return y >= scored.top && y < scored.bottom; };

    for (int y = 0; y < p.height; ++y) {
        const Taps taps = dwt_taps(y, input_height);
        for (int side = 0; side < 2; ++side) {
            const In* in_rows[4];
            for (int k = 0; k < 4; ++k) in_rows[k] = input[side].row(taps.index[k]);
            vertical(in_rows, input_width, rows.low[side].data(), rows.high[side].data());
            Out* a = approx[side] + std::ptrdiff_t(y) * p.width;
            auto& detail = rows.detail[side];
            if (analyse) {
                horizontal(rows.low[side].data(), a, detail[1].data());
                horizontal(rows.high[side].data(), detail[0].data(), detail[2].data());
            } else {
                horizontal(rows.low[side].data(), a, static_cast<Out*>(nullptr));
            }
        }
        if (!analyse) continue;

        if (is_scored_row(y)) {
            for (int theta = 0; theta < kOrientations; ++theta) {
                den[theta] += round_row_sum_unsigned(
                    band.reference_cube(rows.detail[kRef][theta].data(), scored.left, scored.right, p.denominator),
                    p.denominator.row);
            }
        }
        if (y >= decoupled.top && y < decoupled.bottom) {
            DecoupledRow<Coef>& out = rows.ring[y % 3];
            const auto& ref = rows.detail[kRef];
            const auto& dis = rows.detail[kDis];
            const int begin = decoupled.left, end = decoupled.right;
            band.angle_test(ref[0].data(), ref[1].data(), dis[0].data(), dis[1].data(), begin, end,
                            rows.aligned.data());
            for (int theta = 0; theta < kOrientations; ++theta) {
                band.decouple(ref[theta].data(), dis[theta].data(), rows.aligned.data(), begin, end,
                              frame.enhancement_gain_limit, rows.gain.data(), out.restored[theta].data(),
                              out.additive[theta].data());
            }
            for (int theta = 0; theta < kOrientations; ++theta) {
                const std::uint32_t weight = p.csf_weight[theta];
                band.add_masking_weights(out.additive[theta].data(), weight, theta, theta == 0, begin, end,
                                         out.dlm_neighbour.data(), out.dlm_centre.data());
                band.add_masking_weights(out.restored[theta].data(), weight, theta, theta == 0, begin, end,
                                         out.aim_neighbour.data(), out.aim_centre.data());
            }
        }
        if (y >= 1 && is_scored_row(y - 1)) mask_row(y - 1);
    }
    if (analyse && is_scored_row(p.height - 1)) mask_row(p.height - 1);

    ScaleSums sums;
    for (int theta = 0; theta < kOrientations; ++theta) {
        sums.dlm[theta] = static_cast<std::int64_t>(dlm[theta]);
        sums.aim[theta] = static_cast<std::int64_t>(aim[theta]);
        sums.den[theta] = den[theta];
    }
    return sums;
}

template <class Sample>
Plane<Sample> luma(const Picture& picture)
{
    const PlaneView view = picture.plane(0);
    return {reinterpret_cast<const Sample*>(view.data), view.stride / std::ptrdiff_t(sizeof(Sample))};
}

// The vertical pass of scale 0 for one sample type.
Dwt0VerticalFn<std::uint8_t> dwt0_vertical(const Kernels& k, const std::uint8_t*) { return k.dwt0_vertical_8bit; }
Dwt0VerticalFn<std::uint16_t> dwt0_vertical(const Kernels& k, const std::uint16_t*) { return k.dwt0_vertical_16bit; }

// The vertical pass of scales 1..3 for one coefficient type.
DwtVerticalFn<std::int16_t> dwt_vertical(const Kernels& k, const std::int16_t*) { return k.dwt_vertical_16bit; }
DwtVerticalFn<std::int32_t> dwt_vertical(const Kernels& k, const std::int32_t*) { return k.dwt_vertical_32bit; }

template <class Sample>
void extract_frame(const FrameParams& p, const VideoFormat& format, const Picture& ref, const Picture& dis,
                   AdmScratch& s, ScaleSums sums[kScales])
{
    const Kernels& k = s.kernels;
    // Scale 0: the picture.
    {
        const Plane<Sample> input[2] = {luma<Sample>(ref), luma<Sample>(dis)};
        const int input_width = static_cast<int>(format.width);
        const Dwt0VerticalFn<Sample> vertical_pass = dwt0_vertical(k, static_cast<const Sample*>(nullptr));
        auto vertical = [&](const Sample* const* rows, int width, std::int16_t* low, std::int16_t* high) {
            vertical_pass(rows, width, p.bitdepth, low, high);
        };
        auto horizontal = [&](const std::int16_t* split, std::int16_t* low_out, std::int16_t* high_out) {
            k.dwt0_horizontal(split, input_width, p.scale[0].width, low_out, high_out);
        };
        std::int16_t* const approx[2] = {s.approx0[kRef].data(), s.approx0[kDis].data()};
        sums[0] = run_scale<Scale0Arithmetic>(p.scale[0], p, input, input_width, static_cast<int>(format.height),
                                              vertical, horizontal, k.scale0, k.masking_threshold, !p.skip_scale0,
                                              s.scale0, approx);
    }
    // Scales 1..3: the previous scale's a band.
    for (int scale = 1; scale < kScales; ++scale) {
        const ScaleParams& previous = p.scale[scale - 1];
        const DwtRounding horizontal_rounding = kHorizontalRounding[scale - 1];
        const DwtRounding vertical_rounding = kVerticalRounding[scale - 1];
        std::int32_t* const approx[2] = {s.approx[(scale - 1) % 2][kRef].data(),
                                         s.approx[(scale - 1) % 2][kDis].data()};
        auto horizontal = [&](const std::int32_t* split, std::int32_t* low_out, std::int32_t* high_out) {
            k.dwt_horizontal(split, previous.width, p.scale[scale].width, horizontal_rounding, low_out, high_out);
        };
        auto run = [&](const auto* ref_a, const auto* dis_a) {
            using Coef = std::remove_cvref_t<decltype(*ref_a)>;
            const Plane<Coef> input[2] = {{ref_a, previous.width}, {dis_a, previous.width}};
            const DwtVerticalFn<Coef> vertical_pass = dwt_vertical(k, ref_a);
            auto vertical = [&](const Coef* const* rows, int width, std::int32_t* low, std::int32_t* high) {
                vertical_pass(rows, width, vertical_rounding, low, high);
            };
            return run_scale<ScaleNArithmetic>(p.scale[scale], p, input, previous.width, previous.height, vertical,
                                               horizontal, k.scale_n, k.masking_threshold, true, s.upper, approx);
        };
        // Scale 1 reads scale 0's 16-bit a band, later scales the 32-bit ones.
        const auto& in = s.approx[scale % 2];
        sums[scale] = scale == 1 ? run(s.approx0[kRef].data(), s.approx0[kDis].data())
                                 : run(in[kRef].data(), in[kDis].data());
    }
}

}  // namespace

std::unique_ptr<Scratch> AdmCpu::make_scratch() const
{
    return std::make_unique<AdmScratch>(format(), params());
}

void AdmCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    std::unique_ptr<Scratch> own;
    if (!scratch) {
        own = make_scratch();
        scratch = own.get();
    }
    AdmScratch& s = static_cast<AdmScratch&>(*scratch);
    ScaleSums sums[kScales];
    if (format().bitdepth > 8)
        extract_frame<std::uint16_t>(params(), format(), inputs.ref, inputs.dis, s, sums);
    else
        extract_frame<std::uint8_t>(params(), format(), inputs.ref, inputs.dis, s, sums);
    for (int scale = 0; scale < kScales; ++scale) store_sums(scale, sums[scale], scores);
}

}  // namespace twinvmaf::adm
