// The CPU reference of ssimulacra2: loops over ssimulacra2_math.h.
//
// Work saved without changing an operation. The fork blurs each channel's
// five maps (ref, dis, ref^2, dis^2, ref*dis) into whole planes, then runs
// the SSIM and edge maps over them. Here, per channel:
//   * the horizontal pass runs on blocks of kBlock rows side by side (the
//     block copied column-interleaved, with zero columns where the fork
//     reads 0 outside the row), so that each step is the same float
//     operations on kBlock independent rows (vectorised by the compiler:
//     TV_CPU_CLONES); the products are formed where the pass reads them;
//   * its output goes to a ring of kRing rows per map, which the vertical
//     pass (every column side by side) reads as the fork reads its planes;
//   * each output row's SSIM and edge terms are computed column by column
//     (vectorised) and added to the six sums in the fork's order, one
//     serial chain each over the plane in raster order.
// Every value is the same IEEE operation on the same operands as in the
// fork; nothing is reassociated (no -ffast-math, -ffp-contract=off), so the
// vectorised clones give the scalar build's bits.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/cpu_dispatch.h"
#include "features/ssimulacra2/ssimulacra2.h"
#include "features/ssimulacra2/ssimulacra2_kernels.h"

namespace twinvmaf::ssimulacra2 {

namespace {

constexpr BlurCoefficients kBlur = blur_coefficients();

constexpr int kBlock = 16;   // rows of one horizontal block
constexpr int kRing = 32;    // rows of horizontal output kept per map
// Zero columns around a block row: left reads n - N - 1 >= -2N, right reads
// n + N - 1 <= size + N - 2.
constexpr int kPadLeft = 2 * kBlurRadius;
constexpr int kPadRight = kBlurRadius - 1;
static_assert(kRing >= kBlock + kBlurRadius + kBlurRadius + 1, "the ring holds a block and the rows before it");

struct Ss2Scratch final : Scratch {
    // Linear RGB, 3 planes, of the scale ([cur]) and of the next one while
    // downsampling; both sized for the picture, so no frame reallocates.
    std::vector<float> lin_ref[2], lin_dis[2];
    std::vector<float> xyb_ref, xyb_dis;    // XYB of the scale, 3 planes
    std::vector<float> block_a, block_b;    // a row block, column-interleaved, padded
    std::vector<float> block_out;           // kMaps x w x kBlock horizontal outputs
    std::vector<float> ring;                // kMaps x kRing rows of w
    std::vector<float> state;               // kMaps x 6 rows of w: the vertical poles
    std::vector<float> rows;                // kMaps output rows of w
    std::vector<float> zero_row;            // w zeros
    std::vector<double> terms;              // 6 rows of w: the six sums' terms
    std::vector<float> samples;             // 3 rows of w: Y, U, V as floats
    std::vector<unsigned> chroma_x;         // chroma column of each luma column
    Kernels kernels = ssimulacra2::kernels();
};

template <class Sample>
void to_linear_rgb(const Picture& picture, const RgbParams& p, Ss2Scratch& s, float* out)
{
    const PlaneView y_plane = picture.plane(0), u_plane = picture.plane(1), v_plane = picture.plane(2);
    const unsigned w = y_plane.width, h = y_plane.height;
    // The fork's pictures have chroma rounded up, as ours hold it in memory.
    const unsigned chroma_h = picture.format().stored_height(1);
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    s.samples.resize(3 * static_cast<std::size_t>(w));
    float* yf = s.samples.data();
    float* uf = yf + w;
    float* vf = uf + w;
    for (unsigned y = 0; y < h; ++y) {
        const unsigned cy = chroma_position(y, chroma_h, h);
        const Sample* ys = y_plane.row<Sample>(y);
        const Sample* us = u_plane.row<Sample>(cy);
        const Sample* vs = v_plane.row<Sample>(cy);
        for (unsigned x = 0; x < w; ++x) {
            const unsigned cx = s.chroma_x[x];
            yf[x] = static_cast<float>(ys[x]);
            uf[x] = static_cast<float>(us[cx]);
            vf[x] = static_cast<float>(vs[cx]);
        }
        const std::size_t row = static_cast<std::size_t>(y) * w;
        s.kernels.rgb_row(p, yf, uf, vf, static_cast<int>(w), out + row, out + plane + row, out + 2 * plane + row);
    }
}

TV_CPU_CLONES void downsample(const float* in, unsigned iw, unsigned ih, float* out, unsigned ow, unsigned oh)
{
    const std::size_t in_plane = static_cast<std::size_t>(iw) * ih, out_plane = static_cast<std::size_t>(ow) * oh;
    for (int c = 0; c < 3; ++c) {
        const float* ip = in + c * in_plane;
        float* op = out + c * out_plane;
        for (unsigned oy = 0; oy < oh; ++oy) {
            const unsigned y0 = 2 * oy, y1 = 2 * oy + 1 < ih ? 2 * oy + 1 : ih - 1;
            const float* r0 = ip + static_cast<std::size_t>(y0) * iw;
            const float* r1 = ip + static_cast<std::size_t>(y1) * iw;
            float* o = op + static_cast<std::size_t>(oy) * ow;
            const unsigned whole = iw / 2;  // outputs whose two columns are inside
            for (unsigned ox = 0; ox < whole; ++ox)
                o[ox] = box_2x2(r0[2 * ox], r0[2 * ox + 1], r1[2 * ox], r1[2 * ox + 1]);
            for (unsigned ox = whole; ox < ow; ++ox) {
                const unsigned x0 = 2 * ox, x1 = 2 * ox + 1 < iw ? 2 * ox + 1 : iw - 1;
                o[ox] = box_2x2(r0[x0], r0[x1], r1[x0], r1[x1]);
            }
        }
    }
}

// The five maps' inputs at one padded column of a block, lane l.
struct BlockPoles {
    float p1[kMaps][3][kBlock];
    float p2[kMaps][3][kBlock];
};

template <bool kStore>
inline void block_step(BlockPoles& st, const float* __restrict la, const float* __restrict ra,
                       const float* __restrict lb, const float* __restrict rb, float* __restrict out, int w)
{
    for (int l = 0; l < kBlock; ++l) {
        float sums[kMaps];
        for (int m = 0; m < kMaps; ++m) sums[m] = blur_input(m, la[l], ra[l], lb[l], rb[l]);
        for (int m = 0; m < kMaps; ++m) {
            const float sum = sums[m];
            const float o0 = kBlur.n2[0] * sum - kBlur.d1[0] * st.p1[m][0][l] - st.p2[m][0][l];
            const float o1 = kBlur.n2[1] * sum - kBlur.d1[1] * st.p1[m][1][l] - st.p2[m][1][l];
            const float o2 = kBlur.n2[2] * sum - kBlur.d1[2] * st.p1[m][2][l] - st.p2[m][2][l];
            st.p2[m][0][l] = st.p1[m][0][l];
            st.p2[m][1][l] = st.p1[m][1][l];
            st.p2[m][2][l] = st.p1[m][2][l];
            st.p1[m][0][l] = o0;
            st.p1[m][1][l] = o1;
            st.p1[m][2][l] = o2;
            if constexpr (kStore) out[static_cast<std::size_t>(m) * w * kBlock + l] = o0 + o1 + o2;
        }
    }
}

// fast_gaussian_1d over kBlock rows at once: `a` and `b` are the rows
// column-interleaved (column x of row l at (x + kPadLeft) * kBlock + l, zero
// padded), out[(m * w + x) * kBlock + l] the output of map m. The sum
// lv + rv reads the products where the fork reads its product planes (and
// 0 * 0 = 0 where it reads its 0).
TV_CPU_CLONES void horizontal_block(const float* a, const float* b, int w, float* out)
{
    BlockPoles st{};
    for (int n = kBlurFirstStep; n < w; ++n) {
        const std::size_t left = static_cast<std::size_t>(blur_left(n) + kPadLeft) * kBlock;
        const std::size_t right = static_cast<std::size_t>(blur_right(n) + kPadLeft) * kBlock;
        if (n < 0)
            block_step<false>(st, a + left, a + right, b + left, b + right, nullptr, w);
        else
            block_step<true>(st, a + left, a + right, b + left, b + right, out + static_cast<std::size_t>(n) * kBlock,
                             w);
    }
}

// The six chains, in column order.
void add_terms(const double* terms, int w, ChannelSums& s)
{
    double a = s.ssim_l1, b = s.ssim_l4, c = s.art_l1, d = s.art_l4, e = s.det_l1, f = s.det_l4;
    for (int x = 0; x < w; ++x) {
        a += terms[x];
        b += terms[w + x];
        c += terms[2 * w + x];
        d += terms[3 * w + x];
        e += terms[4 * w + x];
        f += terms[5 * w + x];
    }
    s = {a, b, c, d, e, f};
}

// Rows [y0, y0 + kBlock) of the horizontal pass into the ring.
void horizontal_rows(const float* ref, const float* dis, int w, int h, int y0, Ss2Scratch& s)
{
    const int rows = std::min(kBlock, h - y0);
    const std::size_t cols = static_cast<std::size_t>(w) + kPadLeft + kPadRight;
    s.block_a.assign(cols * kBlock, 0.0f);
    s.block_b.assign(cols * kBlock, 0.0f);
    for (int l = 0; l < rows; ++l) {
        const float* ra = ref + static_cast<std::size_t>(y0 + l) * w;
        const float* rb = dis + static_cast<std::size_t>(y0 + l) * w;
        float* ba = s.block_a.data() + static_cast<std::size_t>(kPadLeft) * kBlock + l;
        float* bb = s.block_b.data() + static_cast<std::size_t>(kPadLeft) * kBlock + l;
        for (int x = 0; x < w; ++x) {
            ba[static_cast<std::size_t>(x) * kBlock] = ra[x];
            bb[static_cast<std::size_t>(x) * kBlock] = rb[x];
        }
    }
    s.block_out.resize(static_cast<std::size_t>(kMaps) * w * kBlock);
    horizontal_block(s.block_a.data(), s.block_b.data(), w, s.block_out.data());
    for (int m = 0; m < kMaps; ++m) {
        const float* o = s.block_out.data() + static_cast<std::size_t>(m) * w * kBlock;
        for (int l = 0; l < rows; ++l) {
            float* dst = s.ring.data() + (static_cast<std::size_t>(m) * kRing + (y0 + l) % kRing) * w;
            for (int x = 0; x < w; ++x) dst[x] = o[static_cast<std::size_t>(x) * kBlock + l];
        }
    }
}

ChannelSums channel_sums(const float* ref, const float* dis, unsigned width, unsigned height, Ss2Scratch& s)
{
    const int w = static_cast<int>(width), h = static_cast<int>(height);
    s.ring.resize(static_cast<std::size_t>(kMaps) * kRing * w);
    s.state.assign(static_cast<std::size_t>(kMaps) * 6 * w, 0.0f);
    s.rows.resize(static_cast<std::size_t>(kMaps) * w);
    s.zero_row.assign(static_cast<std::size_t>(w), 0.0f);
    s.terms.resize(kTermRows * static_cast<std::size_t>(w));
    ChannelSums sums;
    int done = 0;  // horizontal rows in the ring: [.., done)
    for (int n = kBlurFirstStep; n < h; ++n) {
        const int left = blur_left(n), right = blur_right(n);
        while (right < h && right >= done) {
            horizontal_rows(ref, dis, w, h, done, s);
            done = std::min(h, done + kBlock);
        }
        const float* lrow[kMaps];
        const float* rrow[kMaps];
        for (int m = 0; m < kMaps; ++m) {
            const float* ring = s.ring.data() + static_cast<std::size_t>(m) * kRing * w;
            lrow[m] = left >= 0 ? ring + static_cast<std::size_t>(left % kRing) * w : s.zero_row.data();
            rrow[m] = right < h ? ring + static_cast<std::size_t>(right % kRing) * w : s.zero_row.data();
        }
        s.kernels.vertical_step(lrow, rrow, w, s.state.data(), s.rows.data());
        if (n < 0) continue;
        s.kernels.terms_row(s.rows.data(), ref + static_cast<std::size_t>(n) * w, dis + static_cast<std::size_t>(n) * w, w,
                  s.terms.data());
        add_terms(s.terms.data(), w, sums);
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
    for (int i = 0; i < 2; ++i) {
        s.lin_ref[i].resize(3 * plane);
        s.lin_dis[i].resize(3 * plane);
    }
    s.xyb_ref.resize(3 * plane);
    s.xyb_dis.resize(3 * plane);
    s.chroma_x.resize(w);
    const unsigned chroma_w = format_.stored_width(1);
    for (unsigned x = 0; x < w; ++x) s.chroma_x[x] = chroma_position(x, chroma_w, w);
    int cur = 0;
    if (format_.bitdepth > 8) {
        to_linear_rgb<std::uint16_t>(inputs.ref, rgb_, s, s.lin_ref[cur].data());
        to_linear_rgb<std::uint16_t>(inputs.dis, rgb_, s, s.lin_dis[cur].data());
    } else {
        to_linear_rgb<std::uint8_t>(inputs.ref, rgb_, s, s.lin_ref[cur].data());
        to_linear_rgb<std::uint8_t>(inputs.dis, rgb_, s, s.lin_dis[cur].data());
    }

    for (int scale = 0; scale < plan_.scales; ++scale) {
        const unsigned sw = plan_.width[scale], sh = plan_.height[scale];
        const std::size_t splane = static_cast<std::size_t>(sw) * sh;
        if (scale > 0) {
            const unsigned pw = plan_.width[scale - 1], ph = plan_.height[scale - 1];
            downsample(s.lin_ref[cur].data(), pw, ph, s.lin_ref[1 - cur].data(), sw, sh);
            downsample(s.lin_dis[cur].data(), pw, ph, s.lin_dis[1 - cur].data(), sw, sh);
            cur = 1 - cur;
        }
        s.kernels.xyb(s.lin_ref[cur].data(), splane, s.xyb_ref.data());
        s.kernels.xyb(s.lin_dis[cur].data(), splane, s.xyb_dis.data());
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
