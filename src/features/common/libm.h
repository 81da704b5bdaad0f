// The C library's transcendental functions as the float features call them
// per sample: each one named once here, so that a GPU twin can replace all
// of its uses with one correctly rounded host+device version (DESIGN.md §1,
// "Twins") and the CPU reference follows in the same place.
//
// On the host these are glibc's, which Netflix's build calls too (glibc 2.36
// on the reference machine): pow, exp, sin, cos and atan2 are accurate to
// about 0.5 ulp but not promised to be correctly rounded, powf likewise.
// Nothing here may be replaced by a "faster" formula: a different rounding
// is a different score.
//
// Exact operations need no entry: sqrt / sqrtf (IEEE), fabs, and pow(x, 2)
// on a value that was a float (GCC folds it to x * x, and x * x is exact in
// double), see square_of_float().
#pragma once

#include <math.h>

#include "core/host_device.h"

namespace twinvmaf::libm {

TV_HD double pow(double x, double y) { return ::pow(x, y); }
TV_HD float powf(float x, float y) { return ::powf(x, y); }
TV_HD double exp(double x) { return ::exp(x); }
TV_HD double sin(double x) { return ::sin(x); }
TV_HD double cos(double x) { return ::cos(x); }
TV_HD double atan2(double y, double x) { return ::atan2(y, x); }
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
