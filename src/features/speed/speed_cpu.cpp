// The CPU reference of SpEED: loops over speed_math.h.
//
// Work saved without changing a single operation: Netflix filters the whole
// (prescaled) plane with the anti-aliasing Gaussian and then keeps every 16th
// sample of every 16th row; we filter vertically only the rows that are kept
// and horizontally only the kept columns. Each kept sample is the same sum
// of the same products in the same order.
#include <algorithm>
#include <cstring>

#include "core/cpu_dispatch.h"
#include "features/speed/speed.h"
#include "features/common/float_filter.h"
#include "features/common/float_picture.h"
#include "features/speed/speed_math.h"

namespace twinvmaf::speed {

namespace {

constexpr int kPad = kCovariancePad;

// libvmaf's MIN() of a float score and the double speed_max_val.
double nf_min_double(float a, double b) { return static_cast<double>(a) < b ? static_cast<double>(a) : b; }

// plane -= filter(plane): the local mean removal at the operating size.
void remove_local_mean(float* plane, int w, int h, const std::vector<float>& taps, float* row, float* filtered)
{
    float_filter::filter_plane(taps.data(), static_cast<int>(taps.size()), plane, w, h, filtered, row);
    for (std::size_t n = 0; n < static_cast<std::size_t>(w) * h; ++n) plane[n] -= filtered[n];
}

}  // namespace

namespace {

TV_CPU_CLONES bool solve(const float* cov, const float* y, float* x, int cols, float* work, const Kernels& kernels)
{
    float* qt = work;
    float* r = qt + kBlockElements * kBlockElements;
    float* qr_scratch = r + kBlockElements * kBlockElements;
    float* qy = qr_scratch + 4 * kBlockElements * kBlockElements + kBlockElements;
    qr_decompose(cov, kBlockElements, qt, r, qr_scratch, SerialLoop{});
    matmul(qy, qt, y, kBlockElements, cols);
    return kernels.back_substitute(r, qy, x, kBlockElements, cols);
}

}  // namespace

void plane_stats(const Settings& settings, const Geometry& g, const Filters& f, const float* plane,
                 PlaneScratch& s, PlaneStats& out)
{
    const float* input = plane;
    const int w = static_cast<int>(g.rescale ? g.scaled_width : g.width);
    const int h = static_cast<int>(g.rescale ? g.scaled_height : g.height);
    if (g.rescale) {
        s.scaled.resize(static_cast<std::size_t>(g.scaled_width) * g.scaled_height);
        f.scaler.apply(plane, s.scaled.data());
        input = s.scaled.data();
    }
    const int ow = static_cast<int>(g.operating_width), oh = static_cast<int>(g.operating_height);
    s.row.resize(static_cast<std::size_t>(std::max(w, ow)));
    s.decimated.resize(static_cast<std::size_t>(ow) * oh);
    s.local.resize(static_cast<std::size_t>(ow) * oh);
    // The anti-aliasing filter, kept only at every 16th row and column.
    float_filter::filter_decimated(f.antialias.data(), static_cast<int>(f.antialias.size()), input, w, h, 1 << kScales,
                                   s.decimated.data(), ow, oh, s.row.data());
    remove_local_mean(s.decimated.data(), ow, oh, f.local, s.row.data(), s.local.data());

    // est_params on the truncated top-left part (stride ow).
    const float* data = s.decimated.data();
    const int sub_w = static_cast<int>(g.sub_width), sub_h = static_cast<int>(g.sub_height);
    const int blocks = static_cast<int>(g.blocks());
    constexpr int n = kBlockElements;
    const std::size_t work_floats = 6 * n * n + 2 * n + static_cast<std::size_t>(n) * blocks * 3;
    s.work.resize(work_floats);
    float* cov = s.work.data();
    float* eig = cov + n * n;
    float* means = eig + n;
    float* y = means + n;
    float* x = y + static_cast<std::size_t>(n) * blocks;

    s.kernels.block_means(data, ow, sub_w, sub_h, means);
    s.centered.resize(static_cast<std::size_t>(sub_w) * kPad);
    s.sums.resize(static_cast<std::size_t>(n) * kPad);
    s.kernels.covariance_sums(data, ow, sub_w, sub_h, means, s.centered.data(), s.sums.data());
    for (int a = 0; a < n; ++a)
        for (int b = 0; b <= a; ++b) {
            const float c = covariance_from_sum(s.sums[static_cast<std::size_t>(a) * kPad + b], sub_w, sub_h);
            cov[a * n + b] = c;
            cov[b * n + a] = c;
        }

    std::vector<float> eig_scratch(static_cast<std::size_t>(n) * n + 4 * n);
    symmetric_eigenvalues(cov, n, eig, eig_scratch.data(), SerialLoop{});
    for (int k = 0; k < n; ++k)
        for (int b = 0; b < blocks; ++b)
            y[static_cast<std::size_t>(k) * blocks + b] = independent_entry(data, ow, static_cast<int>(g.blocks_x), k, b);

    bool regular = true;
    for (int k = 0; k < n; ++k)
        if (static_cast<double>(eig[k]) < kEigenvalueEps) regular = false;
    bool solved = false;
    if (regular) {
        std::vector<float> solve_work(static_cast<std::size_t>(7) * n * n + n + static_cast<std::size_t>(n) * blocks);
        solved = solve(cov, y, x, blocks, solve_work.data(), s.kernels);
    }
    out.singular = !solved;
    if (out.singular) std::fill(x, x + static_cast<std::size_t>(n) * blocks, 0.0f);

    out.variances.resize(static_cast<std::size_t>(blocks));
    out.entropies.resize(static_cast<std::size_t>(blocks));
    const float sigma_nn = static_cast<float>(settings.sigma_nn);
    const double log2_2pie = log2_2pi_e();
    for (int b = 0; b < blocks; ++b) out.variances[b] = block_variance(x, y, blocks, b);
    // block_entropy() of every block (speed_kernels.h: the same bits on every target).
    s.kernels.block_entropies(eig, out.variances.data(), blocks, sigma_nn, log2_2pie, out.entropies.data());
}

float speed_score(const Settings& settings, const Geometry& g, const PlaneStats& ref, const PlaneStats& dis)
{
    if (ref.singular != dis.singular) return 0.0f;  // only one side unstable: 0, as Netflix
    const float base =
        base_entropy(static_cast<float>(settings.sigma_nn), static_cast<float>(settings.nn_floor), log2_2pi_e());
    const std::size_t blocks = g.blocks();
    std::vector<float> scores(blocks);
    for (std::size_t b = 0; b < blocks; ++b)
        scores[b] = block_score(ref.entropies[b], dis.entropies[b], ref.variances[b], dis.variances[b], base,
                                settings.weight_var_mode);
    return mean_block_score(scores.data(), static_cast<int>(blocks));
}

namespace {

// Plane to packed floats, offset -128 (features/common/float_picture.h).
void to_float(const PlaneView& p, unsigned bitdepth, float* out)
{
    float_picture::plane_to_float(p, bitdepth, -128.0f, out, p.width);
}

// to_float(previous) - to_float(current), per sample in float, in one pass
// (the same conversions and subtraction, without the two float planes'
// round trips through memory).
template <class Sample>
void difference_rows(const PlaneView& previous, const PlaneView& current, unsigned bitdepth, float* out)
{
    for (unsigned y = 0; y < previous.height; ++y) {
        const Sample* a = previous.row<Sample>(y);
        const Sample* b = current.row<Sample>(y);
        float* o = out + static_cast<std::size_t>(y) * previous.width;
        for (unsigned x = 0; x < previous.width; ++x)
            o[x] = float_picture::sample_to_float(a[x], bitdepth, -128.0f) -
                   float_picture::sample_to_float(b[x], bitdepth, -128.0f);
    }
}

TV_CPU_CLONES void difference_to_float(const PlaneView& previous, const PlaneView& current, unsigned bitdepth,
                                       float* out)
{
    if (bitdepth == 8) return difference_rows<std::uint8_t>(previous, current, 8, out);
    difference_rows<std::uint16_t>(previous, current, bitdepth, out);
}

}  // namespace

std::unique_ptr<Scratch> SpeedExtractor::make_scratch() const { return std::make_unique<PlaneScratch>(); }

void SpeedChroma::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    PlaneScratch& s = *static_cast<PlaneScratch*>(scratch);
    const std::size_t samples = static_cast<std::size_t>(geometry_.width) * geometry_.height;
    s.plane.resize(samples);
    float channel_score[2];
    bool channel_error[2];
    std::uint64_t flags = 0;
    for (int c = 0; c < 2; ++c) {
        to_float(inputs.ref.plane(c + 1), format_.bitdepth, s.plane.data());
        plane_stats(settings_, geometry_, filters_, s.plane.data(), s, s.ref);
        to_float(inputs.dis.plane(c + 1), format_.bitdepth, s.plane.data());
        plane_stats(settings_, geometry_, filters_, s.plane.data(), s, s.dis);
        channel_score[c] = speed_score(settings_, geometry_, s.ref, s.dis);
        channel_error[c] = s.ref.singular || s.dis.singular;
        flags |= (s.ref.singular ? 1u : 0u) << (2 * c);
        flags |= (s.dis.singular ? 2u : 0u) << (2 * c);
    }
    const float uv = combine_uv(channel_score[0], channel_score[1], channel_error[0], channel_error[1]);
    set_scores(scores, settings_, channel_score[0], channel_score[1], uv, flags);
}

void SpeedChroma::set_scores(FrameScores& scores, const Settings& settings, float u, float v, float uv,
                             std::uint64_t flags)
{
    scores.set(0, nf_min_double(u, settings.max_val));
    scores.set(1, nf_min_double(v, settings.max_val));
    scores.set(2, nf_min_double(uv, settings.max_val));
    scores.set_integer(0, flags);
}

void SpeedTemporal::set_scores(FrameScores& scores, float score, std::uint64_t flags)
{
    scores.set(0, static_cast<double>(score));
    scores.set_integer(0, flags);
}

void SpeedTemporal::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    if (inputs.index == 0) {  // no earlier frame: 0, as Netflix
        set_scores(scores, 0.0f, 0);
        return;
    }
    PlaneScratch& s = *static_cast<PlaneScratch*>(scratch);
    const std::size_t samples = static_cast<std::size_t>(geometry_.width) * geometry_.height;
    s.ref_plane2.resize(samples);
    s.dis_plane2.resize(samples);
    // previous - current, per sample in float (use_ref_diff: the distorted
    // previous frame less the current reference).
    difference_to_float(inputs.previous_ref[0]->plane(0), inputs.ref.plane(0), format_.bitdepth,
                        s.ref_plane2.data());
    difference_to_float(inputs.previous_dis[0]->plane(0),
                        settings_.use_ref_diff ? inputs.ref.plane(0) : inputs.dis.plane(0), format_.bitdepth,
                        s.dis_plane2.data());

    plane_stats(settings_, geometry_, filters_, s.ref_plane2.data(), s, s.ref);
    plane_stats(settings_, geometry_, filters_, s.dis_plane2.data(), s, s.dis);
    set_scores(scores, speed_score(settings_, geometry_, s.ref, s.dis),
               (s.ref.singular ? 1u : 0u) | (s.dis.singular ? 2u : 0u));
}

}  // namespace twinvmaf::speed
