// PSNR-HVS arithmetic of Netflix libvmaf's "psnr_hvs" extractor
// (third_party/xiph/psnr_hvs.c, from Daala), shared by the CPU reference and
// a GPU twin: per 8x8 block (blocks every 7 samples, so neighbours overlap by
// one), Daala's integer DCT of reference and distorted, a contrast-masking
// threshold from the block's AC energy and the variance of its four 4x4
// quadrants, and the CSF-weighted masked error of each coefficient.
//
// Precision follows Netflix's C: the DCT is int32 (its lifting products are
// formed as x86 does, modulo 2^32), the statistics are float, the one sqrt
// is double (exact). No other libm call: the only transcendental step is the
// per-frame log10 on the host. Compile without contraction.
//
// Facts taken from Netflix libvmaf / Xiph.Org (BSD): the lifting constants,
// the CSF tables, the masking constant 0.3885746225901003, the block step
// and the order of operations; the code is our own.
#pragma once

#include <math.h>

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::psnr_hvs {

inline constexpr int kBlockSize = 8;
inline constexpr int kBlockStep = 7;
inline constexpr int kCoefficients = kBlockSize * kBlockSize;

using CsfTable = float[kBlockSize][kBlockSize];

// Normalised inverse quantisation matrices at the point of transparency
// (Netflix uses the 4:2:0 chroma tables for every chroma format).
inline constexpr CsfTable kCsfY = {
    {1.6193873005f, 2.2901594831f, 2.08509755623f, 1.48366094411f, 1.00227514334f, 0.678296995242f, 0.466224900598f, 0.3265091542f},
    {2.2901594831f, 1.94321815382f, 2.04793073064f, 1.68731108984f, 1.2305666963f, 0.868920337363f, 0.61280991668f, 0.436405793551f},
    {2.08509755623f, 2.04793073064f, 1.34329019223f, 1.09205635862f, 0.875748795257f, 0.670882927016f, 0.501731932449f, 0.372504254596f},
    {1.48366094411f, 1.68731108984f, 1.09205635862f, 0.772819797575f, 0.605636379554f, 0.48309405692f, 0.380429446972f, 0.295774038565f},
    {1.00227514334f, 1.2305666963f, 0.875748795257f, 0.605636379554f, 0.448996256676f, 0.352889268808f, 0.283006984131f, 0.226951348204f},
    {0.678296995242f, 0.868920337363f, 0.670882927016f, 0.48309405692f, 0.352889268808f, 0.27032073436f, 0.215017739696f, 0.17408067321f},
    {0.466224900598f, 0.61280991668f, 0.501731932449f, 0.380429446972f, 0.283006984131f, 0.215017739696f, 0.168869545842f, 0.136153931001f},
    {0.3265091542f, 0.436405793551f, 0.372504254596f, 0.295774038565f, 0.226951348204f, 0.17408067321f, 0.136153931001f, 0.109083846276f},
};
inline constexpr CsfTable kCsfCb = {
    {1.91113096927f, 2.46074210438f, 1.18284184739f, 1.14982565193f, 1.05017074788f, 0.898018824055f, 0.74725392039f, 0.615105596242f},
    {2.46074210438f, 1.58529308355f, 1.21363250036f, 1.38190029285f, 1.33100189972f, 1.17428548929f, 0.996404342439f, 0.830890433625f},
    {1.18284184739f, 1.21363250036f, 0.978712413627f, 1.02624506078f, 1.03145147362f, 0.960060382087f, 0.849823426169f, 0.731221236837f},
    {1.14982565193f, 1.38190029285f, 1.02624506078f, 0.861317501629f, 0.801821139099f, 0.751437590932f, 0.685398513368f, 0.608694761374f},
    {1.05017074788f, 1.33100189972f, 1.03145147362f, 0.801821139099f, 0.676555426187f, 0.605503172737f, 0.55002013668f, 0.495804539034f},
    {0.898018824055f, 1.17428548929f, 0.960060382087f, 0.751437590932f, 0.605503172737f, 0.514674450957f, 0.454353482512f, 0.407050308965f},
    {0.74725392039f, 0.996404342439f, 0.849823426169f, 0.685398513368f, 0.55002013668f, 0.454353482512f, 0.389234902883f, 0.342353999733f},
    {0.615105596242f, 0.830890433625f, 0.731221236837f, 0.608694761374f, 0.495804539034f, 0.407050308965f, 0.342353999733f, 0.295530605237f},
};
inline constexpr CsfTable kCsfCr = {
    {2.03871978502f, 2.62502345193f, 1.26180942886f, 1.11019789803f, 1.01397751469f, 0.867069376285f, 0.721500455585f, 0.593906509971f},
    {2.62502345193f, 1.69112867013f, 1.17180569821f, 1.3342742857f, 1.28513006198f, 1.13381474809f, 0.962064122248f, 0.802254508198f},
    {1.26180942886f, 1.17180569821f, 0.944981930573f, 0.990876405848f, 0.995903384143f, 0.926972725286f, 0.820534991409f, 0.706020324706f},
    {1.11019789803f, 1.3342742857f, 0.990876405848f, 0.831632933426f, 0.77418706195f, 0.725539939514f, 0.661776842059f, 0.587716619023f},
    {1.01397751469f, 1.28513006198f, 0.995903384143f, 0.77418706195f, 0.653238524286f, 0.584635025748f, 0.531064164893f, 0.478717061273f},
    {0.867069376285f, 1.13381474809f, 0.926972725286f, 0.725539939514f, 0.584635025748f, 0.496936637883f, 0.438694579826f, 0.393021669543f},
    {0.721500455585f, 0.962064122248f, 0.820534991409f, 0.661776842059f, 0.531064164893f, 0.438694579826f, 0.375820256136f, 0.330555063063f},
    {0.593906509971f, 0.802254508198f, 0.706020324706f, 0.587716619023f, 0.478717061273f, 0.393021669543f, 0.330555063063f, 0.285345396658f},
};

// The masking weight of coefficient (i, j): (csf * c)^2 in double, as a
// float, c = 0.3885746225901003 (PSNR-HVS-M's masking table from the CSF).
TV_HD float masking_weight(float csf)
{
    const double scaled = csf * 0.3885746225901003;
    return static_cast<float>(scaled * scaled);
}

// --- Daala's 8-point integer DCT (od_bin_fdct8) -----------------------------

// a * b + c >> shift with int32 products and sums wrapping as on x86 (the
// ranges here stay far inside int32; the wrap only makes it defined).
TV_HD std::int32_t lift(std::int32_t a, std::int32_t b, std::int32_t c, int shift)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b) +
                                      static_cast<std::uint32_t>(c)) >>
           shift;
}

// OD_DCT_RSHIFT: a / 2^b rounded towards zero (adds the sign bit first).
TV_HD std::int32_t unbiased_shift(std::int32_t a, int b)
{
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(a) >> (32 - b)) + static_cast<std::uint32_t>(a)) >>
           b;
}

// One 8-point transform: x[k * stride] -> y[0..7].
TV_HD void fdct8(std::int32_t* y, const std::int32_t* x, int stride)
{
    std::int32_t t0 = x[0 * stride], t4 = x[1 * stride], t2 = x[2 * stride], t6 = x[3 * stride];
    std::int32_t t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
    // +1/-1 butterflies
    t1 = t0 - t1;
    const std::int32_t t1h = unbiased_shift(t1, 1);
    t0 -= t1h;
    t4 += t5;
    const std::int32_t t4h = unbiased_shift(t4, 1);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= unbiased_shift(t3, 1);
    t6 += t7;
    const std::int32_t t6h = unbiased_shift(t6, 1);
    t7 = t6h - t7;
    // embedded 4-point type-II DCT
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    // embedded 2-point type-II DCT
    t0 -= lift(t4, 13573, 16384, 15);
    t4 += lift(t0, 11585, 8192, 14);
    t0 -= lift(t4, 13573, 16384, 15);
    // embedded 2-point type-IV DST
    t6 -= lift(t2, 21895, 16384, 15);
    t2 += lift(t6, 15137, 8192, 14);
    t6 -= lift(t2, 21895, 16384, 15);
    // embedded 4-point type-IV DST
    t3 += lift(t5, 19195, 16384, 15);
    t5 += lift(t3, 11585, 8192, 14);
    t3 -= lift(t5, 7489, 4096, 13);
    t7 = unbiased_shift(t5, 1) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    t7 += lift(t1, 3227, 16384, 15);
    t1 -= lift(t7, 6393, 16384, 15);
    t7 += lift(t1, 3227, 16384, 15);
    t5 += lift(t3, 2485, 4096, 13);
    t3 -= lift(t5, 18205, 16384, 15);
    t5 += lift(t3, 2485, 4096, 13);
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

// od_bin_fdct8x8 on a row-major 8x8 block, in place: column i of the block
// becomes row i of a temporary, then column i of that becomes row i.
TV_HD void fdct8x8(std::int32_t* block)
{
    std::int32_t columns[kCoefficients];
    for (int i = 0; i < kBlockSize; ++i) fdct8(columns + kBlockSize * i, block + i, kBlockSize);
    for (int i = 0; i < kBlockSize; ++i) fdct8(block + kBlockSize * i, columns + i, kBlockSize);
}

// --- One block --------------------------------------------------------------

// Quadrant (0..3) of sample (i, j) of a block: ((i & 12) >> 2) + ((j & 12) >> 1).
TV_HD int quadrant(int i, int j) { return ((i & 12) >> 2) + ((j & 12) >> 1); }

// The block's variance masking factor: the sum of its four quadrant
// variances over its own variance (unbiased estimates), or its variance
// when that is 0. Float, each sum one chain in raster order (i, then j).
TV_HD float variance_ratio(const std::int32_t* v)
{
    float mean = 0;
    float quadrant_means[4] = {0, 0, 0, 0};
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            mean += v[i * kBlockSize + j];
            quadrant_means[quadrant(i, j)] += v[i * kBlockSize + j];
        }
    }
    mean /= 64.f;
    for (float& m : quadrant_means) m /= 16.f;
    float variance = 0;
    float quadrant_variances[4] = {0, 0, 0, 0};
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            const int q = quadrant(i, j);
            variance += (v[i * kBlockSize + j] - mean) * (v[i * kBlockSize + j] - mean);
            quadrant_variances[q] += (v[i * kBlockSize + j] - quadrant_means[q]) * (v[i * kBlockSize + j] - quadrant_means[q]);
        }
    }
    variance *= 1 / 63.f * 64;
    for (float& q : quadrant_variances) q *= 1 / 15.f * 16;
    if (variance > 0)
        variance = (quadrant_variances[0] + quadrant_variances[1] + quadrant_variances[2] + quadrant_variances[3]) / variance;
    return variance;
}

// AC energy weighted by the masking table: one float chain over the
// coefficients in raster order, DC skipped; c * c in int32 (as x86 wraps).
TV_HD float masked_ac_energy(const std::int32_t* c, const float (*mask)[kBlockSize])
{
    float energy = 0;
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = (i == 0); j < kBlockSize; ++j) {
            const std::int32_t square = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[i * kBlockSize + j]) *
                                                                  static_cast<std::uint32_t>(c[i * kBlockSize + j]));
            energy += square * mask[i][j];
        }
    }
    return energy;
}

// The block's masking threshold: sqrt(energy * variance ratio) / 32, with
// the sqrt and the division in double (C's sqrt and 32.f promoted).
TV_HD float masking_threshold(const std::int32_t* dct, float ratio, const float (*mask)[kBlockSize])
{
    return static_cast<float>(sqrt(static_cast<double>(masked_ac_energy(dct, mask) * ratio)) / 32.f);
}

// The 64 error terms of the block whose top-left sample is ref[0] / dis[0]
// (strides in samples), in raster order: (err * csf)^2 with err the absolute
// DCT difference, less the masking threshold / mask weight for AC
// coefficients (0 when below it). Netflix adds them, in this order, to one
// float running sum over the whole plane (see plane_error in
// psnr_hvs_cpu.cpp), so a twin returns the terms and keeps that chain.
template <class Sample>
TV_HD void block_terms(const Sample* ref, std::ptrdiff_t ref_stride, const Sample* dis, std::ptrdiff_t dis_stride,
                       const float (*csf)[kBlockSize], const float (*mask)[kBlockSize], float* terms)
{
    std::int32_t s[kCoefficients];
    std::int32_t d[kCoefficients];
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            s[i * kBlockSize + j] = ref[i * ref_stride + j];
            d[i * kBlockSize + j] = dis[i * dis_stride + j];
        }
    }
    const float s_ratio = variance_ratio(s);
    const float d_ratio = variance_ratio(d);
    fdct8x8(s);
    fdct8x8(d);
    float threshold = masking_threshold(s, s_ratio, mask);
    const float d_threshold = masking_threshold(d, d_ratio, mask);
    if (d_threshold > threshold) threshold = d_threshold;
    for (int i = 0; i < kBlockSize; ++i) {
        for (int j = 0; j < kBlockSize; ++j) {
            const std::int32_t diff = s[i * kBlockSize + j] - d[i * kBlockSize + j];
            float err = static_cast<float>(diff < 0 ? -diff : diff);
            if (i != 0 || j != 0) err = err < threshold / mask[i][j] ? 0 : err - threshold / mask[i][j];
            terms[i * kBlockSize + j] = (err * csf[i][j]) * (err * csf[i][j]);
        }
    }
}

// --- One plane -------------------------------------------------------------

// Blocks along a side of n samples: at 0, 7, 14, ... while 8 samples fit
// (Netflix's `x < w - 7`); none under 8.
TV_HD int block_count(int n) { return n < kBlockSize ? 0 : (n - kBlockSize) / kBlockStep + 1; }

// The plane's value from the float sum of its block terms: / (number of
// terms) and / peak^2, in float. No block: 0 / 0, NaN as Netflix, with the
// bits x86 gives it (its default NaN, 0xFFC00000), which the host's
// collect() then turns into the output's NaN; a GPU's 0 / 0 has other bits
// (0x7FFFFFFF), so the value is written out rather than divided.
TV_HD float mean_plane_error(float sum, int terms_added, unsigned bitdepth)
{
    if (terms_added == 0) return tv::bit_cast<float>(0xFFC00000u);
    sum /= terms_added;
    const std::int32_t peak = (1 << bitdepth) - 1;
    sum /= peak * peak;
    return sum;
}

}  // namespace twinvmaf::psnr_hvs
