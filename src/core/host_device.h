// TV_HD marks arithmetic that is compiled for the host and for GPU devices
// (CUDA and HIP) from the same source: the one implementation that a CPU
// reference and its GPU twin share (docs/architecture.md, "Twins").
#pragma once

#if defined(__CUDACC__) || defined(__HIP__)
#define TV_HD __host__ __device__ inline
#else
#define TV_HD inline
#endif

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

}  // namespace tv
