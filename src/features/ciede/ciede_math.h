// CIEDE2000 arithmetic of Netflix libvmaf's "ciede" extractor (ciede.c, a
// port of av-metrics), shared by the CPU reference and a GPU twin: YUV
// (BT.709) -> Lab per pixel, the colour difference of two Lab colours, and
// where Netflix's chroma upsampler reads its chroma samples.
//
// Precision follows Netflix's C exactly: its helpers take and return float,
// its libm calls are the double ones (pow, sqrt, atan2, sin, cos, exp) on
// float values promoted to double, except powf in R_T; every promotion,
// narrowing and association of Netflix's expressions is written out here.
// The libm functions are our implementations of glibc's algorithms (libm.h,
// core/glibc_*.h), which return glibc's bits, as Netflix's build gets them.
// Their domains hold by construction: pow's bases are > 0.09 (gamma) and
// > 216/24389 (Lab), exp's argument -(d*d) lies in [-122, 0], the cosines'
// arguments in [-0.6, 38] (mean hue <= 3 pi), the sines' in [-pi/2, 1.05],
// atan2's are floats.
// Compile without contraction (-ffp-contract=off; nvcc --fmad=false).
//
// libm per pixel (through features/common/libm.h): in lab_from_yuv, per
// colour, 3 pow(x, 2.4) (or none, in the linear segment) and up to 3
// pow(x, 1/3); in delta_e_2000, pow(x, 7) once, powf(x, 7) once, atan2
// twice, sin twice, cos 4 times and exp once; sqrt (exact) 7 times.
//
// Facts taken from Netflix libvmaf (BSD-2-Clause-Patent; the formula from
// av-metrics, MIT): constants, the order of operations and the upsampler's
// indexing; the code is our own.
// An include guard, not #pragma once: tests/unit/test_ciede_glibc.cpp
// compiles this file a second time in a namespace of its own, with its libm
// calls bound to the live glibc (Netflix's formula as Netflix's build runs it).
#ifndef TWINVMAF_FEATURES_CIEDE_CIEDE_MATH_H
#define TWINVMAF_FEATURES_CIEDE_CIEDE_MATH_H

#include <math.h>

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"
#include "features/common/libm.h"

namespace twinvmaf::ciede {

// M_PI, as Netflix's constants are formed from it (GCC folds them exactly as
// C++ constant evaluation does).
inline constexpr double kPi = 3.14159265358979323846;

struct Lab {
    float l;
    float a;
    float b;
};

// The weights k_L, k_C, k_H of the formula. Netflix uses 0.65, 1, 4.
struct Weights {
    float l;
    float c;
    float h;
};
inline constexpr Weights kNetflixWeights{0.65f, 1.0f, 4.0f};

// --- YUV -> Lab -------------------------------------------------------------

// sRGB-like transfer to linear light (threshold 10/255).
TV_HD double linear_from_gamma(double c)
{
    if (c > 10. / 255.) return libm::pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

// CIE Lab's f(t), returned as float as Netflix's xyz_to_lab_map does (its
// cube root is pow(t, 1/3), not cbrt).
TV_HD float lab_f(double t)
{
    if (t > 216.0 / 24389.0) return static_cast<float>(libm::pow(t, 1.0 / 3.0));
    return static_cast<float>(((24389.0 / 27.0) * t + 16.0) * (1.0 / 116.0));
}

// Netflix's get_lab_color(): samples (as doubles) of `bitdepth` bits, BT.709
// limited range, D65 white (0.95047, 1, 1.08883).
TV_HD Lab lab_from_yuv(double y, double u, double v, unsigned bitdepth)
{
    const double scale = static_cast<double>(1 << (bitdepth - 8));
    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));

    const double r = linear_from_gamma(y + 1.28033 * v);
    const double g = linear_from_gamma(y - 0.21482 * u - 0.38059 * v);
    const double b = linear_from_gamma(y + 2.12798 * u);

    const double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    const double lum = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    const double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;

    const double fx = lab_f(x * (1.0 / 0.95047));
    const double fy = lab_f(lum);
    const double fz = lab_f(z * (1.0 / 1.08883));
    return Lab{static_cast<float>((116.0 * fy) - 16.0), static_cast<float>(500.0 * (fx - fy)),
               static_cast<float>(200.0 * (fy - fz))};
}

// --- CIEDE2000 --------------------------------------------------------------

// Hue angle in [0, 2 pi) of (a', b'); 0 for the neutral colour.
TV_HD float hue_angle(float b, float a_prime)
{
    if (b == 0.0f && a_prime == 0.0f) return 0.0f;
    float h = static_cast<float>(libm::atan2(b, a_prime));
    if (h < 0.0f) h = static_cast<float>(h + 2. * kPi);
    return h;
}

// Delta h': 0 when either chroma C (of a, b; not C') is 0.
TV_HD float hue_difference(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
    if (fabsf(h1 - h2) <= kPi) return h2 - h1;
    if (h2 <= h1) return static_cast<float>((h2 - h1) + 2. * kPi);
    return static_cast<float>((h2 - h1) - 2. * kPi);
}

// Mean hue H'. Netflix (as av-metrics) adds 2 pi whenever the hues are more
// than pi apart, without the textbook's "- 2 pi when h1 + h2 >= 2 pi" case.
TV_HD float mean_hue(float h1, float h2)
{
    if (fabsf(h1 - h2) > kPi) return static_cast<float>(((h1 + h2) + 2.0 * kPi) / 2.0);
    return static_cast<float>((h1 + h2) / 2.0);
}

TV_HD float hue_weighting_t(float mean_h)
{
    const double h = mean_h;
    return static_cast<float>(1.0 - 0.17 * libm::cos(h - kPi / 6.0) + 0.24 * libm::cos(2.0 * h) +
                              0.32 * libm::cos(3.0 * h + kPi / 30.0) - 0.20 * libm::cos(4.0 * h - 7.0 * kPi / 20.0));
}

TV_HD float radians_to_degrees(float radians) { return static_cast<float>(radians * (180.0 / kPi)); }
TV_HD float degrees_to_radians(float degrees) { return static_cast<float>(degrees * (kPi / 180.0)); }

// 25^7 as powf(25., 7) gives it (folded by the compiler, correctly rounded):
// 6103515625 rounded to float.
inline constexpr float kTwentyFivePow7f = static_cast<float>(6103515625.0);

// The rotation term R_T, in float with powf as Netflix writes it.
TV_HD float rotation_term(float c_bar_prime, float mean_h)
{
    const float d = static_cast<float>((radians_to_degrees(mean_h) - 275.0) * (1.0 / 25.0));
    const float c7 = libm::powf_7(c_bar_prime);
    const float ratio = c7 / (c7 + kTwentyFivePow7f);
    // powf(d, 2) is d * d (folded by GCC; exact rounding either way).
    const float angle_degrees = static_cast<float>(60.0 * libm::exp(-(d * d)));
    return static_cast<float>(-2.0 * sqrt(static_cast<double>(ratio)) *
                              libm::sin(degrees_to_radians(angle_degrees)));
}

// CIEDE2000 colour difference of two Lab colours (Netflix's ciede2000()).
TV_HD float delta_e_2000(Lab c1, Lab c2, Weights k)
{
    using libm::square_of_float;
    const float delta_l_prime = c2.l - c1.l;
    const float l_bar = (c1.l + c2.l) / 2;
    const float chroma1 = static_cast<float>(sqrt(square_of_float(c1.a) + square_of_float(c1.b)));
    const float chroma2 = static_cast<float>(sqrt(square_of_float(c2.a) + square_of_float(c2.b)));
    const float c_bar = (chroma1 + chroma2) / 2;
    // pow(c_bar, 7) / (pow(c_bar, 7) + pow(25, 7)); 25^7 is exact in double.
    const double c_bar7 = libm::pow_7(c_bar);
    const double g = 1 - sqrt(c_bar7 / (c_bar7 + 6103515625.0));
    const float a_prime1 = static_cast<float>(c1.a + (c1.a / 2) * g);
    const float a_prime2 = static_cast<float>(c2.a + (c2.a / 2) * g);
    const float c_prime1 = static_cast<float>(sqrt(square_of_float(a_prime1) + square_of_float(c1.b)));
    const float c_prime2 = static_cast<float>(sqrt(square_of_float(a_prime2) + square_of_float(c2.b)));
    const float c_bar_prime = (c_prime1 + c_prime2) / 2;
    const float delta_c_prime = c_prime2 - c_prime1;
    const float l_bar_minus_50 = l_bar - 50;
    const float s_l = static_cast<float>(1. + ((0.015 * square_of_float(l_bar_minus_50)) /
                                               sqrt(20 + square_of_float(l_bar_minus_50))));
    const float s_c = static_cast<float>(1. + 0.045 * c_bar_prime);
    const float h_prime1 = hue_angle(c1.b, a_prime1);
    const float h_prime2 = hue_angle(c2.b, a_prime2);
    const float delta_h_prime = hue_difference(chroma1, chroma2, h_prime1, h_prime2);
    const float delta_big_h_prime = static_cast<float>(
        2.0 * sqrt(static_cast<double>(c_prime1 * c_prime2)) * libm::sin(delta_h_prime / 2.0));
    const float mean_h = mean_hue(h_prime1, h_prime2);
    const float t = hue_weighting_t(mean_h);
    const float s_h = static_cast<float>(1.0 + 0.015 * c_bar_prime * t);
    const float r_t = rotation_term(c_bar_prime, mean_h);
    const float lightness = delta_l_prime / (k.l * s_l);
    const float chroma = delta_c_prime / (k.c * s_c);
    const float hue = delta_big_h_prime / (k.h * s_h);
    return static_cast<float>(sqrt(square_of_float(lightness) + square_of_float(chroma) + square_of_float(hue) +
                                   r_t * chroma * hue));
}

// --- Where Netflix's upsampler reads chroma ---------------------------------
//
// Netflix converts 4:2:0 and 4:2:2 to 4:4:4 before scoring (its
// scale_chroma_planes), writing out[y][x] = in_row[x / cx] with in_row
// advanced by one stride on every odd y. The two flags are swapped in its
// code: the row advances every other line whenever chroma is horizontally
// subsampled, and x is halved only when it is vertically subsampled. So
//   4:2:0: chroma row y >> 1, column x >> 1 (right for even sizes);
//   4:2:2: chroma row y >> 1, column x       (treated as 4:4:0);
//   4:4:4: row y, column x                   (Netflix reads its input).
// Column indices past the plane's width run on into Netflix's picture
// memory: libvmaf pictures (vmaf_picture_alloc) hold Y, U, V back to back in
// one zeroed allocation, each row `stride` samples apart with stride = width
// rounded up to 32, so such a read gives 0 (row padding) or a sample of a
// later row, and U's rows past its height are V's rows. This is what the
// goldens hold (4:2:2 at 640x480 reads U/V row 2r+1 for x >= 320), and it is
// reproduced here exactly. Reads past the end of V (4:2:0 with an odd
// height: row h >> 1 of V) are past Netflix's allocation and give whatever
// the heap holds there (noise_257x145 is not reproducible for that reason);
// twinvmaf defines them as 0, as if the allocation went on zeroed.

inline constexpr unsigned kNetflixStrideAlign = 32;

struct ChromaPlanes {
    const std::uint8_t* data[2];  // U, V: row 0, sample 0
    std::ptrdiff_t stride[2];     // bytes between rows
    unsigned width;               // libvmaf's chroma size (w >> ssx, h >> ssy)
    unsigned height;
    bool high_bitdepth;           // 16-bit samples
    bool subsampled_x;            // 4:2:0, 4:2:2
    bool subsampled_y;            // 4:2:0
};

TV_HD unsigned chroma_sample_at(const ChromaPlanes& c, int plane, unsigned row, unsigned column)
{
    const std::uint8_t* p = c.data[plane] + static_cast<std::ptrdiff_t>(row) * c.stride[plane];
    return c.high_bitdepth ? reinterpret_cast<const std::uint16_t*>(p)[column] : p[column];
}

// The chroma sample (plane 0: U, 1: V) that Netflix's upsampler puts at
// luma position (x, y), per the rules above.
TV_HD unsigned netflix_upsampled_chroma(const ChromaPlanes& c, int plane, unsigned x, unsigned y)
{
    const unsigned row = c.subsampled_x ? y >> 1 : y;
    const unsigned column = c.subsampled_y ? x >> 1 : x;
    if (row < c.height && column < c.width) return chroma_sample_at(c, plane, row, column);

    const std::uint64_t stride = (c.width + kNetflixStrideAlign - 1) / kNetflixStrideAlign * kNetflixStrideAlign;
    const std::uint64_t plane_samples = stride * c.height;
    std::uint64_t offset = stride * row + column;
    while (plane < 2 && offset >= plane_samples) {  // U runs on into V
        offset -= plane_samples;
        ++plane;
    }
    if (plane == 2) return 0;  // past Netflix's allocation: defined as 0
    const unsigned r = static_cast<unsigned>(offset / stride);
    const unsigned col = static_cast<unsigned>(offset % stride);
    return col < c.width ? chroma_sample_at(c, plane, r, col) : 0;  // row padding is zeroed
}

}  // namespace twinvmaf::ciede

#endif  // TWINVMAF_FEATURES_CIEDE_CIEDE_MATH_H
