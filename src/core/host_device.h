// TV_HD marks arithmetic that is compiled for the host and for GPU devices
// (CUDA and HIP) from the same source: the one implementation that a CPU
// reference and its GPU twin share (docs/architecture.md, "Twins").
#pragma once

#if defined(__CUDACC__) || defined(__HIP__)
#define TV_HD __host__ __device__ inline
#else
#define TV_HD inline
#endif

#include <math.h>

namespace tv {

// The bits of `from` as a `To` of the same size: std::bit_cast for code
// that also runs on GPUs (HIP's device code has no std::memcpy; the
// builtin is there for nvcc, hipcc and the host compilers alike).
template <class To, class From>
TV_HD To bit_cast(const From& from)
{
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of one size");
    To to;
    __builtin_memcpy(&to, &from, sizeof(To));
    return to;
}

// a * b + c with one rounding, where a reference algorithm has a fused
// multiply-add (glibc's libm as built for x86-64 with FMA: core/glibc_*.h).
// Everything else in the project is compiled without contraction, so the
// PTX/IR checks (tools/kernel_fp_check.py) accept exactly these: on CUDA the
// instruction comes from inline PTX carrying the marker below, on HIP from
// this one function's llvm.fma; on the host ::fma is IEEE's fused operation
// (an instruction with FMA hardware, glibc's exact software fma without).
TV_HD double fused_multiply_add(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    double r;
    asm("fma.rn.f64 %0, %1, %2, %3; // twinvmaf: explicit fma" : "=d"(r) : "d"(a), "d"(b), "d"(c));
    return r;
#else
    return __builtin_fma(a, b, c);
#endif
}

// The same in float (fmaf), where a reference chains float fused
// multiply-adds (the lusoris/vmaf fork's MS-SSIM pyramid: fork_ms_ssim_math.h).
TV_HD float fused_multiply_add(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
    float r;
    asm("fma.rn.f32 %0, %1, %2, %3; // twinvmaf: explicit fma" : "=f"(r) : "f"(a), "f"(b), "f"(c));
    return r;
#else
    return __builtin_fmaf(a, b, c);
#endif
}

}  // namespace tv
