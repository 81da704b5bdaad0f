// The CPU reference of cambi: Netflix's procedure stage by stage, on one
// picture buffer per thread that every stage rewrites in place, as Netflix
// does. In-place matters: at small scales the histogram window reaches
// columns beyond the scaled width, and what it reads there is what the
// earlier scales left in the buffer (make_setup() refuses the sizes where
// Netflix would read outside its buffers instead).
#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "core/cpu_dispatch.h"
#include "features/cambi/cambi.h"
#include "features/cambi/cambi_kernels.h"
#include "features/cambi/cambi_math.h"

namespace twinvmaf::cambi {

namespace {

struct CambiScratch final : Scratch {
    explicit CambiScratch(const Setup& setup)
        : stride(setup.alloc_width),
          image(std::size_t{setup.alloc_width} * setup.alloc_height),
          mask(std::size_t{setup.alloc_width} * setup.alloc_height),
          c_values(std::size_t{setup.alloc_width} * setup.alloc_height),
          // + 2: the c-value kernel reads 32 bits at each entry (cambi_kernels.h).
          histograms(std::size_t{setup.alloc_width} * setup.contrast.band_size + 2),
          lines(3 * std::size_t{setup.alloc_width}),
          flat(kMaskFilterSize + 1, std::vector<std::uint8_t>(setup.alloc_width)),
          column_sums(setup.alloc_width),
          prefix(setup.alloc_width + 1),
          counted(2 * std::size_t{setup.alloc_width})
    {
    }

    Kernels kernels = cambi::kernels();
    std::size_t stride;  // of image and mask, in samples
    std::vector<std::uint16_t> image;
    std::vector<std::uint8_t> mask;
    std::vector<float> c_values;
    std::vector<std::uint16_t> histograms;            // band_size rows of w, 2 more entries
    std::vector<std::uint16_t> lines;                 // filter_mode's horizontal pass, 3 rows
    std::vector<std::vector<std::uint8_t>> flat;      // zero-derivative rows, a ring of 8
    std::vector<std::uint16_t> column_sums;           // flat samples in 7 rows, per column
    std::vector<std::uint32_t> prefix;                // of column_sums along the row
    std::vector<std::int16_t> counted;                // Windows::counted_row() of 2 rows
};

// Luma to 10 bits at the scored size (nearest-neighbour when the sizes
// differ), then Netflix's 2x2 anti-dithering average for encodes of fewer
// than 10 bits.
template <class Sample>
void preprocess(const PlaneView& plane, unsigned bitdepth, const Plan& plan, bool anti_dither, CambiScratch& s)
{
    std::uint16_t* out = s.image.data();
    const std::size_t stride = s.stride;
    const unsigned out_w = plan.width, out_h = plan.height;
    if (plan.source_columns.empty()) {
        for (unsigned i = 0; i < out_h; ++i) {
            const Sample* in = plane.row<Sample>(i);
            std::uint16_t* o = out + i * stride;
            for (unsigned j = 0; j < out_w; ++j) o[j] = to_10bit(in[j], bitdepth);
        }
    } else {
        for (unsigned i = 0; i < out_h; ++i) {
            const Sample* in = plane.row<Sample>(plan.source_rows[i]);
            std::uint16_t* o = out + i * stride;
            for (unsigned j = 0; j < out_w; ++j) o[j] = to_10bit(in[plan.source_columns[j]], bitdepth);
        }
    }
    if (!anti_dither) return;
    // In place, top to bottom and left to right: each sample reads only
    // samples that are not yet rewritten (so it equals anti_dithered() of
    // the values before this pass, as the GPU twin computes it).
    for (unsigned i = 0; i < out_h; ++i) {
        std::uint16_t* r = out + i * stride;
        const std::uint16_t* n = i + 1 < out_h ? r + stride : r;
        for (unsigned j = 0; j < out_w; ++j) {
            const unsigned right = j + 1 < out_w ? j + 1 : j;
            r[j] = anti_dithered(r[j], r[right], n[j], n[right], i + 1 == out_h, j + 1 == out_w);
        }
    }
}

// A sample is in the mask when more than mask_threshold() of the 7x7 samples
// around it (inside the frame) equal their right and lower neighbours (the
// last column and row count as equal).
void spatial_mask(unsigned w, unsigned h, CambiScratch& s)
{
    const std::size_t stride = s.stride;
    const unsigned threshold = mask_threshold(w, h);
    constexpr int half = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    const std::uint16_t* img = s.image.data();
    std::uint16_t* sums = s.column_sums.data();
    std::uint32_t* prefix = s.prefix.data();
    std::fill(sums, sums + w, 0);

    // Row r of flat_sample() (cambi_math.h), split so that it vectorises.
    auto flat_row = [&](unsigned r) {
        std::uint8_t* out = s.flat[r % ring].data();
        const std::uint16_t* a = img + r * stride;
        if (r + 1 < h) {
            const std::uint16_t* b = a + stride;
            for (unsigned c = 0; c + 1 < w; ++c) out[c] = (a[c] == a[c + 1]) & (a[c] == b[c]);
            out[w - 1] = a[w - 1] == b[w - 1];
        } else {
            for (unsigned c = 0; c + 1 < w; ++c) out[c] = a[c] == a[c + 1];
            out[w - 1] = 1;
        }
        return out;
    };

    for (int r = 0; r < half && r < static_cast<int>(h); ++r) {
        const std::uint8_t* f = flat_row(r);
        for (unsigned c = 0; c < w; ++c) sums[c] += f[c];
    }
    for (int r = 0; r < static_cast<int>(h); ++r) {
        if (r + half < static_cast<int>(h)) {
            const std::uint8_t* f = flat_row(r + half);
            for (unsigned c = 0; c < w; ++c) sums[c] += f[c];
        }
        if (r - half - 1 >= 0) {
            const std::uint8_t* f = s.flat[(r - half - 1) % ring].data();
            for (unsigned c = 0; c < w; ++c) sums[c] -= f[c];
        }
        s.kernels.mask_row(sums, w, threshold, prefix, s.mask.data() + r * stride);
    }
}

// Netflix's 3x3 separable mode filter, in place: rows 1..h-2 become the
// vertical mode3 of the horizontal mode3 of rows i-1, i, i+1 (first and last
// column copied); rows 0 and h-1 stay as they are.
void filter_mode(std::uint16_t* data, std::size_t stride, unsigned w, unsigned h, std::uint16_t* lines)
{
    for (unsigned i = 0; i < h; ++i) {
        const std::uint16_t* row = data + i * stride;
        std::uint16_t* line = lines + (i % 3) * w;
        line[0] = row[0];
        for (unsigned j = 1; j + 1 < w; ++j) line[j] = mode3(row[j - 1], row[j], row[j + 1]);
        line[w - 1] = row[w - 1];
        if (i > 1) {
            std::uint16_t* out = data + (i - 1) * stride;
            const std::uint16_t* a = lines;
            const std::uint16_t* b = lines + w;
            const std::uint16_t* c = lines + 2 * w;
            for (unsigned j = 0; j < w; ++j) out[j] = mode3(a[j], b[j], c[j]);
        }
    }
}

// c-values of one scale (w x h) with a window of 2 * pad + 1: per column a
// histogram of the masked values in the window, updated row by row.
class Windows {
public:
    Windows(CambiScratch& s, const ContrastParams& p, const float* reciprocal, unsigned w, unsigned h, unsigned pad)
        : s_(s), p_(p), reciprocal_(reciprocal), w_(w), h_(h), pad_(pad),
          // Columns whose samples enter the histograms: at scales narrower
          // than the window Netflix also takes columns w..pad-1 of the buffer.
          columns_(std::max(w, pad))
    {
        if (s_.counted.size() < 2 * std::size_t{columns_}) s_.counted.resize(2 * std::size_t{columns_});
    }

    void run()
    {
        std::memset(s_.histograms.data(), 0, sizeof(std::uint16_t) * std::size_t{w_} * p_.band_size);
        std::memset(s_.c_values.data(), 0, sizeof(float) * std::size_t{w_} * h_);
        const int pad = static_cast<int>(pad_), h = static_cast<int>(h_);
        for (int i = 0; i < pad; ++i) update_row<+1>(i);
        for (int i = 0; i <= pad && i < h; ++i) {
            if (i + pad < h) update_row<+1>(i + pad);
            compute_row(i);
        }
        for (int i = pad + 1; i < h - pad; ++i) {
            slide_row(i - pad - 1, i + pad);
            compute_row(i);
        }
        for (int i = std::max(h - pad, pad + 1); i < h; ++i) {
            update_row<-1>(i - pad - 1);
            compute_row(i);
        }
    }

private:
    // The samples of `row` enter (Delta +1) or leave (-1) the histograms.
    template <int Delta>
    void update_row(int row)
    {
        std::int16_t* leaving = s_.counted.data();
        std::int16_t* entering = leaving + columns_;
        counted_row(row, Delta > 0 ? entering : leaving);
        std::fill_n(Delta > 0 ? leaving : entering, columns_, std::int16_t{-1});
        s_.kernels.slide_row(s_.histograms.data(), w_, leaving, entering, columns_, pad_);
    }

    // counted() of every column of a row into `out`, in a loop that
    // vectorises: the raw value of the sample if it is masked and in the
    // band, else -1.
    void counted_row(int row, std::int16_t* out) const
    {
        const std::size_t at = static_cast<std::size_t>(row) * s_.stride;
        const std::uint8_t* m = s_.mask.data() + at;
        const std::uint16_t* img = s_.image.data() + at;
        const std::uint16_t base = p_.band_base, size = p_.band_size;
        for (unsigned j = 0; j < columns_; ++j) {
            const std::uint16_t compact = static_cast<std::uint16_t>(img[j] - base);
            out[j] = (m[j] != 0) & (compact < size) ? static_cast<std::int16_t>(compact) : std::int16_t{-1};
        }
    }

    void slide_row(int out_row, int in_row)
    {
        std::int16_t* leaving = s_.counted.data();
        std::int16_t* entering = leaving + columns_;
        counted_row(out_row, leaving);
        counted_row(in_row, entering);
        s_.kernels.slide_row(s_.histograms.data(), w_, leaving, entering, columns_, pad_);
    }

    void compute_row(int row)
    {
        const std::size_t at = static_cast<std::size_t>(row) * s_.stride;
        s_.kernels.c_values_row(s_.histograms.data(), w_, s_.mask.data() + at, s_.image.data() + at, p_, reciprocal_,
                                s_.c_values.data() + static_cast<std::size_t>(row) * w_);
    }

    CambiScratch& s_;
    const ContrastParams& p_;
    const float* reciprocal_;
    unsigned w_, h_, pad_, columns_;
};

// The exact sum of the top-k c-values (cambi_math.h: any selection of the k
// largest gives the same sum, so the GPU twin's radix select does).
FixedSum top_k_sum(const Kernels& kernels, float* c_values, double topk, unsigned w, unsigned h)
{
    const std::size_t k = static_cast<std::size_t>(topk_count(topk, w, h));
    // Zeros add nothing, so only the non-zero values compete for the top k
    // (c-values are >= 0; most are 0, and k is often above the rest).
    const std::size_t nonzero = kernels.compact_nonzero(c_values, std::size_t{w} * h);
    float* const nonzero_end = c_values + nonzero;
    if (nonzero > k) std::nth_element(c_values, c_values + (k - 1), nonzero_end, std::greater<float>());
    FixedSum sum;
    kernels.add_fixed_values(c_values, std::min(k, nonzero), sum);
    return sum;
}

// The hot parts, in one version per instruction set (core/cpu_dispatch.h).
TV_CPU_CLONES void mask_clone(CambiScratch& s, unsigned w, unsigned h) { spatial_mask(w, h, s); }

// One scale: decimate (from scale 1 on, or from 0 with the speed-up), mode
// filter, c-values.
TV_CPU_CLONES void scale_clone(CambiScratch& s, const ContrastParams& contrast, const float* reciprocal, bool decimate_first,
                               unsigned w, unsigned h, unsigned pad)
{
    if (decimate_first) {
        s.kernels.decimate_image(s.image.data(), s.stride, w, h);
        s.kernels.decimate_mask(s.mask.data(), s.stride, w, h);
    }
    filter_mode(s.image.data(), s.stride, w, h, s.lines.data());
    Windows(s, contrast, reciprocal, w, h, pad).run();
}

TV_CPU_CLONES void preprocess_8bit(const PlaneView& plane, unsigned bitdepth, const Plan& plan, bool anti_dither,
                                   CambiScratch& s)
{
    preprocess<std::uint8_t>(plane, bitdepth, plan, anti_dither, s);
}

TV_CPU_CLONES void preprocess_16bit(const PlaneView& plane, unsigned bitdepth, const Plan& plan, bool anti_dither,
                                    CambiScratch& s)
{
    preprocess<std::uint16_t>(plane, bitdepth, plan, anti_dither, s);
}

}  // namespace

std::unique_ptr<Scratch> CambiCpu::make_scratch() const { return std::make_unique<CambiScratch>(setup_); }

double CambiCpu::score(const Picture& picture, const Plan& plan, bool heatmaps, std::uint64_t frame,
                       Scratch& scratch) const
{
    CambiScratch& s = static_cast<CambiScratch&>(scratch);
    const PlaneView luma = picture.plane(0);
    const unsigned bitdepth = setup_.input.bitdepth;
    const bool anti_dither = setup_.enc_bitdepth < 10;
    if (bitdepth > 8) preprocess_16bit(luma, bitdepth, plan, anti_dither, s);
    else preprocess_8bit(luma, bitdepth, plan, anti_dither, s);

    unsigned w = plan.width, h = plan.height;
    mask_clone(s, w, h);
    const unsigned pad = plan.pad();
    FixedSum sums[kScales];
    for (int scale = 0; scale < kScales; ++scale) {
        const bool decimate_first = scale > 0 || setup_.high_res_speedup;
        if (decimate_first) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        scale_clone(s, setup_.contrast, reciprocal_table(), decimate_first, w, h, pad);
        if (heatmaps) write_heatmap(scale, frame, s.c_values.data(), w, h);
        sums[scale] = top_k_sum(s.kernels, s.c_values.data(), setup_.topk, w, h);
    }
    return score_from_pools(setup_, plan, sums);
}

void CambiCpu::extract(const FrameInputs& inputs, FrameScores& scores, Scratch* scratch) const
{
    const double dis = score(inputs.dis, setup_.dis, !heatmaps_.empty(), inputs.index, *scratch);
    const double src = settings_.full_ref ? score(inputs.ref, setup_.src, false, inputs.index, *scratch) : 0.0;
    set_frame_scores(scores, settings_, dis, src);
}

}  // namespace twinvmaf::cambi
