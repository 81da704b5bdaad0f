// The C library's transcendental functions as the float features call them
// per sample: each one named once here, so that the CPU reference and its
// GPU twin call the same function (DESIGN.md §1, "Twins").
//
// pow, exp, sin, cos and atan2 (and pow / powf with the exponent 7 of a
// float base) are the project's correctly rounded host+device functions
// (core/cr_libm.h: method, error bound, domain), not glibc's: glibc 2.36's
// are accurate to about 0.5 ulp but not correctly rounded (its powf(c, 7)
// differs from the correct rounding on about 0.07 % of float arguments, its
// pow(c, 7) on 0.08 %), and a device's libm is a third set of bits. The one
// user, ciede, still equals Netflix's glibc-computed goldens exactly
// (docs/compat.md, "ciede and correctly rounded libm"). Nothing here
// may be replaced by a "faster" formula: a different rounding is a
// different score.
//
// Exact operations need no entry: sqrt / sqrtf (IEEE), fabs, and pow(x, 2)
// on a value that was a float (GCC folds it to x * x, and x * x is exact in
// double), see square_of_float().
#pragma once

#include <math.h>

#include "core/cr_libm.h"
#include "core/host_device.h"

namespace twinvmaf::libm {

TV_HD double pow(double x, double y) { return tv::pow_correctly_rounded(x, y); }
// C's pow(c, 7) on a float c promoted to double.
TV_HD double pow_7(float c) { return tv::pow_7(c); }
// C's powf(c, 7.0f).
TV_HD float powf_7(float c) { return tv::powf_7(c); }
TV_HD double exp(double x) { return tv::exp_correctly_rounded(x); }
TV_HD double sin(double x) { return tv::sin_correctly_rounded(x); }
TV_HD double cos(double x) { return tv::cos_correctly_rounded(x); }
TV_HD double atan2(double y, double x) { return tv::atan2_correctly_rounded(y, x); }
// Host only (per-frame scores in collect()): no twin needs it on a device.
inline double log10(double x) { return ::log10(x); }

// C's pow(x, 2) with x a float promoted to double: the exact square, which is
// what GCC emits for it (x * x) and what any faithful pow returns.
TV_HD double square_of_float(float x)
{
    const double d = x;
    return d * d;
}

}  // namespace twinvmaf::libm
