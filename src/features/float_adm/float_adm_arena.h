// float_adm on frames where a band is 1 sample wide or high: Netflix's
// compute_adm in Netflix's own buffer layout, for the CPU reference and its
// GPU twin alike (the twin runs frame_sums() in one device thread: such
// frames are at most 48x48).
//
// Why a second path. Netflix's masking (adm_cm_s and its ADM_CM_THRESH_S_*
// macros) takes the 3x3 window of a band's first column from columns 1, 0, 1
// and of its last column from w-2, w-1, w-1, and likewise for rows; for a
// band of w columns it evaluates column 0 with the first pattern and column
// w-1 with the last. On a band 1 sample wide both are column 0: that
// coefficient enters its row's sum twice, once with a window that reads
// column 1 (past the band) and once with one that reads column -1 (before
// it); on a band 1 sample high the same holds for rows 1 and -1. Netflix's
// float ADM puts all 20 band planes of a frame into one allocation, each
// plane (W+1)/2 floats wide rounded up to 32 bytes (its stride, the same at
// every scale) by (H+1)/2 rows, so those reads land in the same plane's
// leftovers of earlier scales (column 1, row 1: scale 2's values) or in the
// last row or column of the plane allocated before it (scale 0's values).
// In a 4-scale ADM this happens at scale 3, on frames 9..16 samples wide or
// high (smaller frames make the wavelet itself read outside its buffers).
//
// Where every such read finds a value the same frame wrote (a bounded set of
// sizes: 15 or 16 samples wide and 9..48 high, or 9..16 high and 15..48 wide;
// valgrind-clean in Netflix), Netflix's result is deterministic, and this file
// reproduces it by running the frame in that layout: the same planes, the same
// order of writes (Netflix's CSF runs twice per scale and its two calls swap
// the roles of the csf_a and csf_f planes, so a leftover holds what the second
// call wrote there), and the same window patterns. Elsewhere on such frames
// Netflix reads memory it never wrote, there is no reference, and float_adm
// refuses the frame (unwritten_read(), FloatAdmExtractor::init()).
//
// The per-coefficient arithmetic is float_adm_math.h's, and every sum has the
// order the default path has, so on frames where Netflix reads only its bands
// this path gives the default path's bits (tests/unit/test_float_adm.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "features/adm/adm_dwt_math.h"
#include "features/float_adm/float_adm.h"
#include "features/float_adm/float_adm_math.h"

namespace twinvmaf::float_adm::arena {

// Netflix's band planes in its order of allocation (h, v, d follow each
// other in our orientation order; a precedes them in the wavelet's groups).
enum Plane : int {
    kRefA = 0,       // ref a, h, v, d: 0..3
    kRefDetail = 1,  // ref h, v, d
    kDisA = 4,       // dis a, h, v, d: 4..7
    kDisDetail = 5,
    kRestored = 8,   // decouple's restored h, v, d
    kAdditive = 11,  // decouple's additive h, v, d
    kCsfA = 14,      // Netflix's csf_a h, v, d
    kCsfF = 17,      // Netflix's csf_f h, v, d
    kPlanes = 20,
};

struct Layout {
    int stride = 0;  // floats per row
    int rows = 0;

    TV_HD std::ptrdiff_t plane() const { return static_cast<std::ptrdiff_t>(stride) * rows; }
    TV_HD std::ptrdiff_t floats() const { return kPlanes * plane(); }
    // Where row `row`, column `column` of `plane` lies (row and column may be
    // one outside the plane's band, as Netflix's windows read).
    TV_HD std::ptrdiff_t at(int plane_index, int row, int column) const
    {
        return plane_index * plane() + static_cast<std::ptrdiff_t>(row) * stride + column;
    }
};

// Netflix's layout for a width x height frame: (width + 1) / 2 floats
// rounded up to 32 bytes (8 floats) per row, (height + 1) / 2 rows.
TV_HD Layout layout(int width, int height)
{
    const int floats = (width + 1) / 2;
    return Layout{(floats + 7) / 8 * 8, (height + 1) / 2};
}

// The rows (or columns) of the masking window at an evaluated coefficient.
// Netflix's three patterns: the first row of a band (1, 0, 1), the last
// (n-2, n-1, n-1), one in between (i-1, i, i+1). On a band of 1 both edge
// patterns are used for index 0: (1, 0, 1) and (-1, 0, 0).
enum class Edge { kFirst, kMiddle, kLast };

TV_HD void window_indices(Edge edge, int index, int size, int out[3])
{
    if (edge == Edge::kFirst) {
        out[0] = 1, out[1] = 0, out[2] = 1;
    } else if (edge == Edge::kLast) {
        out[0] = size - 2, out[1] = size - 1, out[2] = size - 1;
    } else {
        out[0] = index - 1, out[1] = index, out[2] = index + 1;
    }
}

struct Window {
    int rows[3];
    int cols[3];
};

// The coefficients Netflix's masking evaluates on a band, in its order: the
// first row (if scored: its first column, the inner columns, its last
// column), each inner row the same way, the last row; visit(i, j, window)
// for each, flush() after each row's group (Netflix adds each row's float
// sum to the total). The scored region decides which edge positions run at
// all; on a band of 1 the first and last column (row) both run, at 0.
template <class Visit, class Flush>
TV_HD void for_each_masked(const ScaleParams& p, Visit&& visit, Flush&& flush)
{
    const int w = p.width, h = p.height;
    const Region& s = p.scored;
    const int first_col = s.left > 1 ? s.left : 1, end_col = s.right < w - 1 ? s.right : w - 1;
    const int first_row = s.top > 1 ? s.top : 1, end_row = s.bottom < h - 1 ? s.bottom : h - 1;
    auto row = [&](Edge row_edge, int i) {
        Window win;
        window_indices(row_edge, i, h, win.rows);
        if (s.left <= 0) {
            window_indices(Edge::kFirst, 0, w, win.cols);
            visit(i, 0, win);
        }
        for (int j = first_col; j < end_col; ++j) {
            window_indices(Edge::kMiddle, j, w, win.cols);
            visit(i, j, win);
        }
        if (s.right > w - 1) {
            window_indices(Edge::kLast, w - 1, w, win.cols);
            visit(i, w - 1, win);
        }
        flush();
    };
    if (s.top <= 0) row(Edge::kFirst, 0);
    for (int i = first_row; i < end_row; ++i) row(Edge::kMiddle, i);
    if (s.bottom > h - 1) row(Edge::kLast, h - 1);
}

// The threshold at (i, j): masking_threshold()'s sum (all three
// orientations, each window row by row, 1/15 of |weighted| at the centre),
// with the window's cells read where Netflix reads them: `masking` and
// `weighted` are the first (h) planes of the two groups.
TV_HD float threshold(const float* memory, const Layout& l, int weighted, int masking, int i, int j,
                      const Window& win)
{
    float total = 0.0f;
    for (int theta = 0; theta < kOrientations; ++theta) {
        float sum = 0.0f;
        for (int dy = 0; dy < 3; ++dy) {
            for (int dx = 0; dx < 3; ++dx) {
                if (dy == 1 && dx == 1) {
                    const float centre = memory[l.at(weighted + theta, i, j)];
                    sum = static_cast<float>(sum + kOneBy15 * std::fabs(centre));
                } else {
                    sum += memory[l.at(masking + theta, win.rows[dy], win.cols[dx])];
                }
            }
        }
        total += sum;
    }
    return total;
}

// One part's masked sums (Netflix's adm_cm_s): `measured` (h plane of the
// unweighted part), thresholds from `weighted` / `masking` (the other part).
TV_HD void masked_sums(const float* memory, const Layout& l, const ScaleParams& p, const FrameParams& frame,
                       int measured, int weighted, int masking, float sums[kOrientations])
{
    float row[kOrientations] = {0.0f, 0.0f, 0.0f};
    for (int theta = 0; theta < kOrientations; ++theta) sums[theta] = 0.0f;
    for_each_masked(
        p,
        [&](int i, int j, const Window& win) {
            const float thr = frame.bypass_cm ? 0.0f : threshold(memory, l, weighted, masking, i, j, win);
            for (int theta = 0; theta < kOrientations; ++theta) {
                const float x = csf_weighted(p.weight[theta], memory[l.at(measured + theta, i, j)]);
                row[theta] += masked_term(x, thr, frame.p_norm);
            }
        },
        [&] {
            for (int theta = 0; theta < kOrientations; ++theta) {
                sums[theta] += row[theta];
                row[theta] = 0.0f;
            }
        });
}

// Netflix's adm_csf_s: the CSF-weighted `source` planes into `weighted`,
// their masking parts into `masking`, over the decoupled region.
TV_HD void csf(float* memory, const Layout& l, const ScaleParams& p, int source, int weighted, int masking)
{
    const Region& r = p.decoupled;
    for (int theta = 0; theta < kOrientations; ++theta) {
        for (int i = r.top; i < r.bottom; ++i) {
            for (int j = r.left; j < r.right; ++j) {
                const float v = csf_weighted(p.weight[theta], memory[l.at(source + theta, i, j)]);
                memory[l.at(weighted + theta, i, j)] = v;
                memory[l.at(masking + theta, i, j)] = masking_part(v);
            }
        }
    }
}

// The wavelet of one side: `input` rows of `input_stride` floats into the
// side's a (and unless `approx_only`, h, v, d) planes. From scale 1 on the
// input is the side's own a plane, overwritten row by row as Netflix does;
// each output row only needs input rows at or below it, so that is safe.
TV_HD void wavelet(float* memory, const Layout& l, const ScaleParams& p, const float* input, int input_stride,
                   int a_plane, bool approx_only, float* low, float* high)
{
    for (int y = 0; y < p.height; ++y) {
        const adm::Taps taps = adm::dwt_taps(y, p.input_height);
        const float* rows[4];
        for (int k = 0; k < 4; ++k) rows[k] = input + static_cast<std::ptrdiff_t>(taps.index[k]) * input_stride;
        dwt_vertical_row(rows, p.input_width, low, high);
        for (int j = 0; j < p.width; ++j) {
            float* a = memory + l.at(a_plane, y, j);
            if (approx_only) {
                dwt_horizontal(low, high, p.input_width, j, a, nullptr, nullptr, nullptr);
            } else {
                dwt_horizontal(low, high, p.input_width, j, a, memory + l.at(a_plane + 2, y, j),
                               memory + l.at(a_plane + 1, y, j), memory + l.at(a_plane + 3, y, j));
            }
        }
    }
}

// One frame's sums of every scale: `ref` and `dis` are the luma planes as
// floats (packed, width x height), `memory` holds layout().floats(), `low`
// and `high` the frame's width each.
TV_HD void frame_sums(const float* ref, const float* dis, int width, int height, const FrameParams& frame,
                      float* memory, float* low, float* high, ScaleSums sums[kScales])
{
    const Layout l = layout(width, height);
    for (int scale = 0; scale < kScales; ++scale) {
        const ScaleParams& p = frame.scale[scale];
        const bool analyse = !(scale == 0 && frame.skip_scale0);
        const float* inputs[2] = {scale == 0 ? ref : memory + l.at(kRefA, 0, 0),
                                  scale == 0 ? dis : memory + l.at(kDisA, 0, 0)};
        const int input_stride = scale == 0 ? width : l.stride;
        wavelet(memory, l, p, inputs[0], input_stride, kRefA, !analyse, low, high);
        wavelet(memory, l, p, inputs[1], input_stride, kDisA, !analyse, low, high);
        ScaleSums& out = sums[scale];
        out = ScaleSums{};
        if (!analyse) continue;

        const Region& d = p.decoupled;
        for (int i = d.top; i < d.bottom; ++i) {
            for (int j = d.left; j < d.right; ++j) {
                float o[kOrientations], t[kOrientations], restored[kOrientations], additive[kOrientations];
                for (int theta = 0; theta < kOrientations; ++theta) {
                    o[theta] = memory[l.at(kRefDetail + theta, i, j)];
                    t[theta] = memory[l.at(kDisDetail + theta, i, j)];
                }
                decouple(o, t, frame.decouple, restored, additive);
                for (int theta = 0; theta < kOrientations; ++theta) {
                    memory[l.at(kRestored + theta, i, j)] = restored[theta];
                    memory[l.at(kAdditive + theta, i, j)] = additive[theta];
                }
            }
        }

        const Region& s = p.scored;
        for (int i = s.top; i < s.bottom; ++i) {
            float row[kOrientations] = {0.0f, 0.0f, 0.0f};
            for (int j = s.left; j < s.right; ++j)
                for (int theta = 0; theta < kOrientations; ++theta)
                    row[theta] += reference_term(memory[l.at(kRefDetail + theta, i, j)], p.weight[theta],
                                                 frame.p_norm);
            for (int theta = 0; theta < kOrientations; ++theta) out.den[theta] += row[theta];
        }

        // Netflix's order: the additive part through the CSF (csf_a, csf_f),
        // the DLM; then the restored part (csf_f, csf_a: roles swapped), the AIM.
        csf(memory, l, p, kAdditive, kCsfA, kCsfF);
        masked_sums(memory, l, p, frame, kRestored, kCsfA, kCsfF, out.dlm);
        csf(memory, l, p, kRestored, kCsfF, kCsfA);
        masked_sums(memory, l, p, frame, kAdditive, kCsfF, kCsfA, out.aim);
    }
}

// Where frame_sums() on a width x height frame would read what Netflix's
// frame never wrote (memory outside its allocations, the padding of its
// rows, or cells of its planes no stage of that frame has written): the
// first such read, described; empty when every read finds a value of the
// frame. It follows Netflix's writes plane by plane and checks every cell
// its wavelet and masking read (all its other stages read inside what its
// previous stage wrote). Depends on the size and on adm_skip_scale0 and
// adm_bypass_cm (without masking windows only the band is read).
// for_each_masked()'s visits, recorded (device-safe functors, so that host
// code can walk the same positions as frame_sums()).
struct Visit {
    int i, j;
    Window window;
};
struct VisitRecorder {
    Visit* out;
    int* count;
    TV_HD void operator()(int i, int j, const Window& window) const { out[(*count)++] = Visit{i, j, window}; }
};
struct NoFlush {
    TV_HD void operator()() const {}
};

inline std::string unwritten_read(const FrameParams& frame, int width, int height)
{
    const Layout l = layout(width, height);
    std::vector<char> written(static_cast<std::size_t>(l.floats()), 0);
    auto mark = [&](int first_plane, int planes, const Region& r) {
        for (int plane = first_plane; plane < first_plane + planes; ++plane)
            for (int i = r.top; i < r.bottom; ++i)
                for (int j = r.left; j < r.right; ++j) written[static_cast<std::size_t>(l.at(plane, i, j))] = 1;
    };
    auto scale_text = [](int scale) { return "scale " + std::to_string(scale); };
    for (int scale = 0; scale < kScales; ++scale) {
        const ScaleParams& p = frame.scale[scale];
        if (p.input_width < 2 || p.input_height < 2)
            return scale_text(scale) + "'s wavelet input is " + std::to_string(p.input_width) + "x" +
                   std::to_string(p.input_height) + ", and its mirrored taps fall outside it";
        const bool analyse = !(scale == 0 && frame.skip_scale0);
        const Region band{0, p.height, 0, p.width};
        mark(kRefA, analyse ? 4 : 1, band);
        mark(kDisA, analyse ? 4 : 1, band);
        if (!analyse || frame.bypass_cm) continue;  // without masking windows only the band is read
        mark(kRestored, 6, p.decoupled);
        mark(kCsfA, 6, p.decoupled);  // both CSF calls write csf_a and csf_f there
        // At most 2 visits per column (a band of 1) in at most h + 2 row groups.
        std::vector<Visit> visits(static_cast<std::size_t>(p.height + 2) * (p.width + 2) * 2);
        int count = 0;
        for_each_masked(p, VisitRecorder{visits.data(), &count}, NoFlush{});
        for (const int masking : {kCsfF, kCsfA}) {  // the DLM's windows, then the AIM's
            for (int n = 0; n < count; ++n) {
                const Window& win = visits[n].window;
                for (int theta = 0; theta < kOrientations; ++theta) {
                    for (int dy = 0; dy < 3; ++dy) {
                        for (int dx = 0; dx < 3; ++dx) {
                            const int i = win.rows[dy], j = win.cols[dx];
                            const std::ptrdiff_t at = l.at(masking + theta, i, j);
                            if (at < 0 || at >= l.floats() || !written[static_cast<std::size_t>(at)])
                                return scale_text(scale) + "'s masking (band " + std::to_string(p.width) + "x" +
                                       std::to_string(p.height) + ") reads row " + std::to_string(i) +
                                       ", column " + std::to_string(j) + " of a plane, which the frame never wrote";
                        }
                    }
                }
            }
        }
    }
    return {};
}

}  // namespace twinvmaf::float_adm::arena
