// The C library's transcendental functions as the features and the model
// call them: each one named once here, so that the CPU reference and its
// GPU twin call the same function (DESIGN.md §1, "Twins"), and so that every
// machine computes x86-64 glibc's bits (an aarch64 libm rounds otherwise on
// some arguments: issue 30). No feature calls std::pow, exp or log10.
//
// Netflix's scores are those of glibc's libm on x86-64 (the contract), so
// these are our own host+device implementations of glibc 2.36's algorithms,
// as glibc's x86-64 build selects them on a CPU with FMA and AVX2 (the
// `*_fma` ifunc variants, fused multiply-adds where that build has them):
// core/glibc_exp_pow.h, glibc_powf.h, glibc_sin_cos.h, glibc_atan2.h,
// glibc_log.h. They
// return glibc's bits, not the correctly rounded ones (glibc differs from the
// correct rounding on about 0.05 % of arguments, and those differences do
// reach ciede's scores on natural video); tests/unit/test_glibc_*.cpp compare
// each with the live glibc, and test_ciede.cpp the whole dE00. A device's own
// libm is a third set of bits and is never called. Nothing here may be
// replaced by a "faster" formula: a different rounding is a different score.
//
// Exact operations need no entry: sqrt / sqrtf (IEEE), fabs, and pow(x, 2)
// on a value that was a float (GCC folds it to x * x, and x * x is exact in
// double), see square_of_float().
#pragma once

#include <math.h>

#include "core/glibc_atan2.h"
#include "core/glibc_exp_pow.h"
#include "core/glibc_log.h"
#include "core/glibc_powf.h"
#include "core/glibc_sin_cos.h"
#include "core/host_device.h"

namespace twinvmaf::libm {

TV_HD double pow(double x, double y) { return tv::glibc::pow(x, y); }
// C's pow(c, 7) on a float c promoted to double.
TV_HD double pow_7(float c) { return tv::glibc::pow(static_cast<double>(c), 7.0); }
// C's powf(x, y).
TV_HD float powf(float x, float y) { return tv::glibc::powf(x, y); }
// C's powf(c, 7.0f).
TV_HD float powf_7(float c) { return tv::glibc::powf(c, 7.0f); }
TV_HD double exp(double x) { return tv::glibc::exp(x); }
TV_HD double sin(double x) { return tv::glibc::sin(x); }
TV_HD double cos(double x) { return tv::glibc::cos(x); }
TV_HD double atan2(double y, double x) { return tv::glibc::atan2(y, x); }
TV_HD double log10(double x) { return tv::glibc::log10(x); }

// C's pow(x, 2) with x a float promoted to double: the exact square, which is
// what GCC emits for it (x * x) and what any faithful pow returns.
TV_HD double square_of_float(float x)
{
    const double d = x;
    return d * d;
}

}  // namespace twinvmaf::libm
