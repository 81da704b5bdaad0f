// The CPU reference of ssimulacra2: loops over ssimulacra2_math.h.
//
// Work saved without changing an operation: the fork blurs all three
// channels' five maps into whole planes and then runs the SSIM and edge
// maps; here one channel at a time is blurred (its five horizontal passes
// into planes, the five vertical passes row by row) and each output row is
// scored as soon as it exists. The products ref^2, dis^2 and ref*dis are
// formed where the horizontal pass reads them. Every value is the same
// float operation on the same operands, and every sum adds the same terms
// in the same order.
#include <cstring>
#include <vector>

#include "features/ssimulacra2/ssimulacra2.h"
#include "twinvmaf/error.h"

namespace twinvmaf::ssimulacra2 {

namespace {

constexpr int kMaps = 5;  // mu1 (ref), mu2 (dis), sigma11, sigma22, sigma12

struct Ss2Scratch final : Scratch {
    std::vector<float> lin_ref, lin_dis;    // linear RGB, 3 planes
    std::vector<float> next_ref, next_dis;  // the next scale's, while downsampling
    std::vector<float> xyb_ref, xyb_dis;    // XYB of the scale, 3 planes
    std::vector<float> horizontal;          // kMaps planes of the channel
    std::vector<float> state;               // kMaps x 6 rows of column state
    std::vector<float> rows;                // kMaps output rows
    std::vector<unsigned> chroma_x;         // chroma column of each luma column
};

template <class Sample>
void to_linear_rgb(const Picture& picture, const RgbParams& p, const std::vector<unsigned>& chroma_x, float* out)
{
    const PlaneView y_plane = picture.plane(0), u_plane = picture.plane(1), v_plane = picture.plane(2);
    const unsigned w = y_plane.width, h = y_plane.height;
    // The fork's pictures have chroma rounded up, as ours hold it in memory.
    const unsigned chroma_h = picture.format().stored_height(1);
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    float* r = out;
    float* g = out + plane;
    float* b = out + 2 * plane;
    for (unsigned y = 0; y < h; ++y) {
        const unsigned cy = chroma_position(y, chroma_h, h);
        const Sample* ys = y_plane.row<Sample>(y);
        const Sample* us = u_plane.row<Sample>(cy);
        const Sample* vs = v_plane.row<Sample>(cy);
        const std::size_t row = static_cast<std::size_t>(y) * w;
        for (unsigned x = 0; x < w; ++x) {
            const unsigned cx = chroma_x[x];
            const LinearRgb c = yuv_to_linear_rgb(p, ys[x], us[cx], vs[cx]);
            r[row + x] = c.r;
            g[row + x] = c.g;
            b[row + x] = c.b;
        }
    }
}

void to_xyb(const float* lin, std::size_t plane, float* xyb)
{
    const float cbrt_bias = fork_cbrtf(kOpsinBias);
    for (std::size_t i = 0; i < plane; ++i) {
        const Xyb v = linear_rgb_to_xyb(lin[i], lin[plane + i], lin[2 * plane + i], cbrt_bias);
        xyb[i] = v.x;
        xyb[plane + i] = v.y;
        xyb[2 * plane + i] = v.b;
    }
}

void downsample(const float* in, unsigned iw, unsigned ih, float* out, unsigned ow, unsigned oh)
{
    const std::size_t in_plane = static_cast<std::size_t>(iw) * ih, out_plane = static_cast<std::size_t>(ow) * oh;
    for (int c = 0; c < 3; ++c) {
        const float* ip = in + c * in_plane;
        float* op = out + c * out_plane;
        for (unsigned oy = 0; oy < oh; ++oy) {
            const unsigned y0 = 2 * oy, y1 = 2 * oy + 1 < ih ? 2 * oy + 1 : ih - 1;
            const float* r0 = ip + static_cast<std::size_t>(y0) * iw;
            const float* r1 = ip + static_cast<std::size_t>(y1) * iw;
            for (unsigned ox = 0; ox < ow; ++ox) {
                const unsigned x0 = 2 * ox, x1 = 2 * ox + 1 < iw ? 2 * ox + 1 : iw - 1;
                op[static_cast<std::size_t>(oy) * ow + ox] = box_2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
            }
        }
    }
}

// The horizontal pass of one row of map `m` (product formed per sample).
template <int kMap>
float map_input(const float* a, const float* b, int x)
{
    if constexpr (kMap == 0) return a[x];
    if constexpr (kMap == 1) return b[x];
    if constexpr (kMap == 2) return a[x] * a[x];
    if constexpr (kMap == 3) return b[x] * b[x];
    return a[x] * b[x];
}

template <int kMap>
void horizontal_row(const float* a, const float* b, int w, float* out)
{
    IirState st{};
    for (int n = kBlurFirstStep; n < w; ++n) {
        const int left = blur_left(n), right = blur_right(n);
        const float lv = left >= 0 ? map_input<kMap>(a, b, left) : 0.0f;
        const float rv = right < w ? map_input<kMap>(a, b, right) : 0.0f;
        const float o = iir_step(st, lv + rv);
        if (n >= 0) out[n] = o;
    }
}

ChannelSums channel_sums(const float* ref, const float* dis, unsigned width, unsigned height, Ss2Scratch& s)
{
    const int w = static_cast<int>(width), h = static_cast<int>(height);
    const std::size_t plane = static_cast<std::size_t>(width) * height;
    s.horizontal.resize(kMaps * plane);
    float* hor = s.horizontal.data();
    for (int y = 0; y < h; ++y) {
        const float* a = ref + static_cast<std::size_t>(y) * w;
        const float* b = dis + static_cast<std::size_t>(y) * w;
        const std::size_t row = static_cast<std::size_t>(y) * w;
        horizontal_row<0>(a, b, w, hor + 0 * plane + row);
        horizontal_row<1>(a, b, w, hor + 1 * plane + row);
        horizontal_row<2>(a, b, w, hor + 2 * plane + row);
        horizontal_row<3>(a, b, w, hor + 3 * plane + row);
        horizontal_row<4>(a, b, w, hor + 4 * plane + row);
    }

    s.state.assign(kMaps * 6 * static_cast<std::size_t>(w), 0.0f);
    s.rows.resize(kMaps * static_cast<std::size_t>(w));
    ChannelSums sums;
    for (int n = kBlurFirstStep; n < h; ++n) {
        const int left = blur_left(n), right = blur_right(n);
        for (int m = 0; m < kMaps; ++m) {
            const float* src = hor + m * plane;
            const float* lrow = left >= 0 ? src + static_cast<std::size_t>(left) * w : nullptr;
            const float* rrow = right < h ? src + static_cast<std::size_t>(right) * w : nullptr;
            float* st = s.state.data() + static_cast<std::size_t>(m) * 6 * w;
            float* out = s.rows.data() + static_cast<std::size_t>(m) * w;
            for (int x = 0; x < w; ++x) {
                const float lv = lrow ? lrow[x] : 0.0f;
                const float rv = rrow ? rrow[x] : 0.0f;
                out[x] = iir_step_at(st + x, st + w + x, st + 2 * w + x, st + 3 * w + x, st + 4 * w + x,
                                     st + 5 * w + x, lv + rv);
            }
        }
        if (n < 0) continue;
        const float* mu1 = s.rows.data();
        const float* mu2 = mu1 + w;
        const float* s11 = mu1 + 2 * w;
        const float* s22 = mu1 + 3 * w;
        const float* s12 = mu1 + 4 * w;
        const float* img1 = ref + static_cast<std::size_t>(n) * w;
        const float* img2 = dis + static_cast<std::size_t>(n) * w;
        for (int x = 0; x < w; ++x) {
            add_ssim(sums, ssim_term(mu1[x], mu2[x], s11[x], s22[x], s12[x]));
            add_edge(sums, edge_ratio(edge_abs_diff(img1[x], mu1[x]), edge_abs_diff(img2[x], mu2[x])));
        }
    }
    return sums;
}

}  // namespace

std::unique_ptr<Scratch> Ssimulacra2Cpu::make_scratch() const { return std::make_unique<Ss2Scratch>(); }

void Ssimulacra2Cpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    Ss2Scratch& s = *static_cast<Ss2Scratch*>(scratch);
    const unsigned w = format_.width, h = format_.height;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    s.lin_ref.resize(3 * plane);
    s.lin_dis.resize(3 * plane);
    s.chroma_x.resize(w);
    const unsigned chroma_w = format_.stored_width(1);
    for (unsigned x = 0; x < w; ++x) s.chroma_x[x] = chroma_position(x, chroma_w, w);
    if (format_.bitdepth > 8) {
        to_linear_rgb<std::uint16_t>(inputs.ref, rgb_, s.chroma_x, s.lin_ref.data());
        to_linear_rgb<std::uint16_t>(inputs.dis, rgb_, s.chroma_x, s.lin_dis.data());
    } else {
        to_linear_rgb<std::uint8_t>(inputs.ref, rgb_, s.chroma_x, s.lin_ref.data());
        to_linear_rgb<std::uint8_t>(inputs.dis, rgb_, s.chroma_x, s.lin_dis.data());
    }

    for (int scale = 0; scale < plan_.scales; ++scale) {
        const unsigned sw = plan_.width[scale], sh = plan_.height[scale];
        const std::size_t splane = static_cast<std::size_t>(sw) * sh;
        if (scale > 0) {
            const unsigned pw = plan_.width[scale - 1], ph = plan_.height[scale - 1];
            s.next_ref.resize(3 * splane);
            s.next_dis.resize(3 * splane);
            downsample(s.lin_ref.data(), pw, ph, s.next_ref.data(), sw, sh);
            downsample(s.lin_dis.data(), pw, ph, s.next_dis.data(), sw, sh);
            s.lin_ref.swap(s.next_ref);
            s.lin_dis.swap(s.next_dis);
        }
        s.xyb_ref.resize(3 * splane);
        s.xyb_dis.resize(3 * splane);
        to_xyb(s.lin_ref.data(), splane, s.xyb_ref.data());
        to_xyb(s.lin_dis.data(), splane, s.xyb_dis.data());
        for (int c = 0; c < 3; ++c) {
            const ChannelSums sums =
                channel_sums(s.xyb_ref.data() + c * splane, s.xyb_dis.data() + c * splane, sw, sh, s);
            double norms[kNormsPerChannel];
            channel_norms(sums, sw, sh, norms);
            for (int k = 0; k < kNormsPerChannel; ++k)
                scores.set((static_cast<std::size_t>(scale) * 3 + c) * kNormsPerChannel + k, norms[k]);
        }
    }
    scores.set_integer(0, static_cast<std::uint64_t>(plan_.scales));
}

}  // namespace twinvmaf::ssimulacra2
