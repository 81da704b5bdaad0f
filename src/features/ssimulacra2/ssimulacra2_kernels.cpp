// ssimulacra2's reference kernels and the choice between them and the SIMD
// ones.
#include "features/ssimulacra2/ssimulacra2_kernels.h"

#include "core/simd.h"

namespace twinvmaf::ssimulacra2 {

namespace {

void rgb_row(const RgbParams& p, const float* ys, const float* us, const float* vs, int w, float* r, float* g, float* b)
{
    for (int x = 0; x < w; ++x) {
        const LinearRgb c = yuv_floats_to_linear_rgb(p, ys[x], us[x], vs[x]);
        r[x] = c.r;
        g[x] = c.g;
        b[x] = c.b;
    }
}

void xyb(const float* lin, std::size_t plane, float* out)
{
    const float cbrt_bias = fork_cbrtf(kOpsinBias);
    for (std::size_t i = 0; i < plane; ++i) {
        const Xyb v = linear_rgb_to_xyb(lin[i], lin[plane + i], lin[2 * plane + i], cbrt_bias);
        out[i] = v.x;
        out[plane + i] = v.y;
        out[2 * plane + i] = v.b;
    }
}

void vertical_step(const float* const* lrow, const float* const* rrow, int w, float* state, float* rows)
{
    for (int m = 0; m < kMaps; ++m) {
        float* st = state + static_cast<std::size_t>(m) * 6 * w;
        float* out = rows + static_cast<std::size_t>(m) * w;
        for (int x = 0; x < w; ++x)
            out[x] = iir_step_at(st + x, st + w + x, st + 2 * w + x, st + 3 * w + x, st + 4 * w + x, st + 5 * w + x,
                                 lrow[m][x] + rrow[m][x]);
    }
}

void terms_row(const float* rows, const float* img1, const float* img2, int w, double* terms)
{
    const float* mu1 = rows;
    const float* mu2 = rows + w;
    const float* s11 = rows + 2 * w;
    const float* s22 = rows + 3 * w;
    const float* s12 = rows + 4 * w;
    for (int x = 0; x < w; ++x) {
        const double d = ssim_term(mu1[x], mu2[x], s11[x], s22[x], s12[x]);
        const EdgeTerms e = edge_terms(edge_ratio(edge_abs_diff(img1[x], mu1[x]), edge_abs_diff(img2[x], mu2[x])));
        terms[x] = d;
        terms[w + x] = quartic(d);
        terms[2 * w + x] = e.art;
        terms[3 * w + x] = quartic(e.art);
        terms[4 * w + x] = e.det;
        terms[5 * w + x] = quartic(e.det);
    }
}

}  // namespace

Kernels reference_kernels() { return {rgb_row, xyb, vertical_step, terms_row}; }

Kernels kernels() { return simd::use_reference() ? reference_kernels() : simd_kernels(); }

}  // namespace twinvmaf::ssimulacra2
