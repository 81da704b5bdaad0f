// float_ansnr's arithmetic, shared by the CPU reference and a GPU twin.
//
// Netflix (ansnr.c, ansnr_tools.c; ansnr_options.h leaves every option
// undefined, so: 2-D filters, mirrored borders, no normalisation) filters the
// reference luma (floats, offset -128) with a 3x3 kernel and the distorted
// luma with a 5x5 kernel, then sums, in float, the filtered reference's
// squares (signal) and the squared differences of the two (noise).
//
// Both kernels are non-separable, so they are applied as written: for each
// output sample, for each kernel row fi a float sum over its columns fj (in
// order, from 0), and those row sums added in order (from 0). The border
// rule is Netflix's: tap -k reads k, tap n-1+k reads n-k (the edge sample
// repeats on the far side only; integer ADM's adm::mirror() is the same
// rule). It stays inside the plane for n >= 3, which init() requires.
//
// Reduction orders: per output sample as above (fixed by the kernel);
// signal and noise: per row a float sum from 0, samples left to right, and
// the row sums added in row order to a float from 0.
#pragma once

#include <cstddef>

#include "core/host_device.h"

namespace twinvmaf::float_ansnr {

inline constexpr int kReferenceTaps = 3;
inline constexpr int kDistortedTaps = 5;

// A square kernel of N x N float taps, row-major.
template <int N>
struct Kernel {
    float taps[N * N];
};

// Netflix's taps; their double quotients rounded to float, as its C does.
TV_HD constexpr Kernel<kReferenceTaps> reference_kernel()
{
    return {{1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0,
             2.0 / 16.0, 4.0 / 16.0, 2.0 / 16.0,
             1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0}};
}

TV_HD constexpr Kernel<kDistortedTaps> distorted_kernel()
{
    return {{2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0,
             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
             12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0, 52.0 / 571.0, 12.0 / 571.0,
             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
             2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0}};
}

// Netflix's border rule for a tap at `index` of a line of `size` samples
// (size >= 3, index within 2 of the line).
TV_HD int mirror(int index, int size)
{
    if (index < 0) return -index;
    if (index >= size) return 2 * size - index - 1;
    return index;
}

// One filtered sample at column x. rows[fi] is input row mirror(y - N/2 + fi)
// of the output row y. Columns are mirrored when kAtEdge (x within N/2 of an
// edge); elsewhere they are read directly (the same samples).
template <int N, bool kAtEdge>
TV_HD float filtered_sample(const Kernel<N>& kernel, const float* const* rows, int x, int width)
{
    float accum = 0.0f;
    for (int fi = 0; fi < N; ++fi) {
        float accum_inner = 0.0f;
        for (int fj = 0; fj < N; ++fj) {
            const int column = kAtEdge ? mirror(x - N / 2 + fj, width) : x - N / 2 + fj;
            accum_inner += kernel.taps[fi * N + fj] * rows[fi][column];
        }
        accum += accum_inner;
    }
    return accum;
}

// One filtered sample at any column x (a GPU twin's per-sample form of
// filter_row(): the same sum, mirrored only within N/2 of an edge).
template <int N>
TV_HD float filtered_sample_at(const Kernel<N>& kernel, const float* const* rows, int x, int width)
{
    constexpr int half = N / 2;
    if (x < half || x >= width - half) return filtered_sample<N, true>(kernel, rows, x, width);
    return filtered_sample<N, false>(kernel, rows, x, width);
}

// The rows a kernel of N taps reads for output row y of a packed plane.
template <int N>
TV_HD void kernel_rows(const float* plane, int width, int height, int y, const float* (&rows)[N])
{
    for (int fi = 0; fi < N; ++fi)
        rows[fi] = plane + static_cast<std::ptrdiff_t>(mirror(y - N / 2 + fi, height)) * width;
}

// One filtered row: out[x] for x in [0, width), width >= 3.
template <int N>
TV_HD void filter_row(const Kernel<N>& kernel, const float* const* rows, int width, float* out)
{
    constexpr int half = N / 2;
    const int interior_end = width - half;
    int x = 0;
    for (; x < half && x < width; ++x) out[x] = filtered_sample<N, true>(kernel, rows, x, width);
    for (; x < interior_end; ++x) out[x] = filtered_sample<N, false>(kernel, rows, x, width);
    for (; x < width; ++x) out[x] = filtered_sample<N, true>(kernel, rows, x, width);
}

// Signal and noise of one row, each a float sum from 0, left to right.
struct RowEnergy {
    float signal = 0.0f;
    float noise = 0.0f;
};

// One sample's terms: the filtered reference squared, and the squared
// difference of the two filtered samples.
TV_HD float signal_term(float r) { return r * r; }
TV_HD float noise_term(float r, float d) { return (r - d) * (r - d); }

TV_HD RowEnergy row_energy(const float* reference_filtered, const float* distorted_filtered, int width)
{
    RowEnergy e;
    for (int x = 0; x < width; ++x) {
        const float r = reference_filtered[x];
        const float d = distorted_filtered[x];
        e.signal += signal_term(r);
        e.noise += noise_term(r, d);
    }
    return e;
}

}  // namespace twinvmaf::float_ansnr
