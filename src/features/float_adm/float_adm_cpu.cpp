// The CPU path of float_adm: plane by plane, as Netflix's compute_adm, over
// the row kernels of float_adm_kernels.h (the math header's loops, or their
// SIMD implementation with the same bits).
//
// Per scale (input: the picture, then the previous scale's a band):
//   1. the wavelet of ref and dis, row by row: a into the next scale's input,
//      h, v, d into band planes
//   2. the denominator's row sums over the reference bands
//   3. decouple and CSF over the decoupled region: the CSF-weighted restored
//      and additive parts and their masking parts, 3 orientations each
//   4. per scored row: the DLM's thresholds (from the additive part) and row
//      sums (of the restored part), then the AIM's (the other way round)
// Frames with a band 1 sample wide or high run float_adm_arena.h's path
// instead (Netflix's buffer layout; scalar, on a frame of at most 48x48).
#include <memory>
#include <vector>

#include "features/adm/adm_dwt_math.h"
#include "features/common/float_picture.h"
#include "features/float_adm/float_adm.h"
#include "features/float_adm/float_adm_arena.h"
#include "features/float_adm/float_adm_kernels.h"

namespace twinvmaf::float_adm {

namespace {

constexpr int kRef = 0;
constexpr int kDis = 1;
constexpr int kRestored = 0;
constexpr int kAdditive = 1;

struct FloatAdmScratch final : Scratch {
    std::vector<float> picture[2];      // the luma planes as floats, packed
    std::vector<float> approx[2][2];    // a bands of ref, dis; scales alternate
    std::vector<float> detail[2][kOrientations];  // h, v, d bands of ref, dis
    std::vector<float> low, high;       // one row of the vertical pass
    std::vector<float> weighted[2][kOrientations];  // CSF-weighted restored, additive parts
    std::vector<float> masking[2][kOrientations];   // their masking parts
    std::vector<float> threshold;       // one row of masking thresholds
    std::vector<float> terms;           // one row of a sum's terms, per orientation
    std::vector<float> arena;           // Netflix's planes (FrameParams::netflix_layout only)
    Kernels kernels = float_adm::kernels();

    FloatAdmScratch(const VideoFormat& format, const FrameParams& p)
    {
        if (p.netflix_layout) {
            const arena::Layout l = arena::layout(static_cast<int>(format.width), static_cast<int>(format.height));
            for (auto& plane : picture) plane.assign(std::size_t(format.width) * format.height, 0.0f);
            arena.assign(static_cast<std::size_t>(l.floats()), 0.0f);
            low.assign(format.width, 0.0f);
            high.assign(format.width, 0.0f);
            return;
        }
        const std::size_t frame = std::size_t(format.width) * format.height;
        const std::size_t band = std::size_t(p.scale[0].width) * p.scale[0].height;
        for (int side = 0; side < 2; ++side) {
            picture[side].assign(frame, 0.0f);
            for (auto& a : approx[side]) a.assign(band, 0.0f);
            for (auto& d : detail[side]) d.assign(band, 0.0f);
            for (auto& w : weighted[side]) w.assign(band, 0.0f);
            for (auto& m : masking[side]) m.assign(band, 0.0f);
        }
        low.assign(format.width, 0.0f);
        high.assign(format.width, 0.0f);
        threshold.assign(p.scale[0].width, 0.0f);
        terms.assign(std::size_t(kOrientations) * p.scale[0].width, 0.0f);
    }
};

// The wavelet of one input plane (packed, input_width x input_height) into
// the a band and, unless `approx_only`, the h, v, d bands (packed, the
// scale's width).
void wavelet(const ScaleParams& p, const float* input, float* a, float* const detail[kOrientations],
             bool approx_only, FloatAdmScratch& s)
{
    for (int y = 0; y < p.height; ++y) {
        const adm::Taps taps = adm::dwt_taps(y, p.input_height);
        const float* rows[4];
        for (int k = 0; k < 4; ++k) rows[k] = input + std::ptrdiff_t(taps.index[k]) * p.input_width;
        s.kernels.vertical(rows, p.input_width, s.low.data(), s.high.data());
        const std::ptrdiff_t row = std::ptrdiff_t(y) * p.width;
        if (approx_only) {
            s.kernels.horizontal(s.low.data(), s.high.data(), p.input_width, p.width, a + row, nullptr, nullptr,
                                 nullptr);
        } else {
            s.kernels.horizontal(s.low.data(), s.high.data(), p.input_width, p.width, a + row, detail[1] + row,
                                 detail[0] + row, detail[2] + row);
        }
    }
}

void decouple_and_csf(const ScaleParams& p, const FrameParams& frame, FloatAdmScratch& s)
{
    const Region& r = p.decoupled;
    for (int y = r.top; y < r.bottom; ++y) {
        const std::size_t row = std::size_t(y) * p.width;
        DecoupleRow rows;
        for (int theta = 0; theta < kOrientations; ++theta) {
            rows.o[theta] = s.detail[kRef][theta].data() + row;
            rows.t[theta] = s.detail[kDis][theta].data() + row;
            for (int part = 0; part < 2; ++part) {
                rows.weighted[part][theta] = s.weighted[part][theta].data() + row;
                rows.masking[part][theta] = s.masking[part][theta].data() + row;
            }
        }
        s.kernels.decouple(rows, r.left, r.right, frame.decouple, p.weight);
    }
}

// The masked sums of the part `measured`, with thresholds from the other part:
// per orientation, the row sums added serially from the top.
void masked_sums(const ScaleParams& p, const FrameParams& frame, int measured, FloatAdmScratch& s,
                 float sums[kOrientations])
{
    const int other = 1 - measured;
    CsfPlanes planes;
    for (int theta = 0; theta < kOrientations; ++theta) {
        planes.weighted[theta] = s.weighted[other][theta].data();
        planes.masking[theta] = s.masking[other][theta].data();
    }
    planes.stride = p.width;
    const Region& scored = p.scored;
    for (int y = scored.top; y < scored.bottom; ++y) {
        const std::size_t row = std::size_t(y) * p.width;
        const float* rows[kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta) rows[theta] = s.weighted[measured][theta].data() + row;
        float row_sums[kOrientations];
        s.kernels.masked_row_sums(planes, p.width, p.height, y, rows, scored, frame.bypass_cm, frame.p_norm,
                                  s.threshold.data(), s.terms.data(), row_sums);
        for (int theta = 0; theta < kOrientations; ++theta) sums[theta] += row_sums[theta];
    }
}

ScaleSums analyse_scale(const ScaleParams& p, const FrameParams& frame, FloatAdmScratch& s)
{
    ScaleSums sums;
    for (int y = p.scored.top; y < p.scored.bottom; ++y) {
        const std::size_t row = std::size_t(y) * p.width;
        const float* rows[kOrientations];
        for (int theta = 0; theta < kOrientations; ++theta) rows[theta] = s.detail[kRef][theta].data() + row;
        float row_sums[kOrientations];
        s.kernels.reference_row_sums(rows, p.weight, p.scored, frame.p_norm, s.terms.data(), row_sums);
        for (int theta = 0; theta < kOrientations; ++theta) sums.den[theta] += row_sums[theta];
    }
    decouple_and_csf(p, frame, s);
    masked_sums(p, frame, kRestored, s, sums.dlm);
    masked_sums(p, frame, kAdditive, s, sums.aim);
    return sums;
}

void extract_frame(const FrameParams& frame, FloatAdmScratch& s, ScaleSums sums[kScales])
{
    for (int scale = 0; scale < kScales; ++scale) {
        const ScaleParams& p = frame.scale[scale];
        const bool analyse = !(scale == 0 && frame.skip_scale0);
        for (int side = 0; side < 2; ++side) {
            const float* input = scale == 0 ? s.picture[side].data() : s.approx[(scale - 1) % 2][side].data();
            float* const detail[kOrientations] = {s.detail[side][0].data(), s.detail[side][1].data(),
                                                  s.detail[side][2].data()};
            wavelet(p, input, s.approx[scale % 2][side].data(), detail, !analyse, s);
        }
        sums[scale] = analyse ? analyse_scale(p, frame, s) : ScaleSums{};
    }
}

}  // namespace

std::unique_ptr<Scratch> FloatAdmCpu::make_scratch() const
{
    return std::make_unique<FloatAdmScratch>(format(), params());
}

void FloatAdmCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    std::unique_ptr<Scratch> own;
    if (!scratch) {
        own = make_scratch();
        scratch = own.get();
    }
    auto& s = static_cast<FloatAdmScratch&>(*scratch);
    const unsigned bitdepth = format().bitdepth;
    float_picture::plane_to_float(inputs.ref.plane(0), bitdepth, -128.0f, s.picture[kRef].data(), format().width);
    float_picture::plane_to_float(inputs.dis.plane(0), bitdepth, -128.0f, s.picture[kDis].data(), format().width);
    ScaleSums sums[kScales];
    if (params().netflix_layout) {
        arena::frame_sums(s.picture[kRef].data(), s.picture[kDis].data(), static_cast<int>(format().width),
                          static_cast<int>(format().height), params(), s.arena.data(), s.low.data(), s.high.data(),
                          sums);
    } else {
        extract_frame(params(), s, sums);
    }
    for (int scale = 0; scale < kScales; ++scale) store_sums(scale, sums[scale], scores);
}

}  // namespace twinvmaf::float_adm
