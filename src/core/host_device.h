// TV_HD marks arithmetic that is compiled for the host and for GPU devices
// (CUDA and HIP) from the same source: the one implementation that a CPU
// reference and its GPU twin share (docs/architecture.md, "Twins").
#pragma once

#if defined(__CUDACC__) || defined(__HIP__)
#define TV_HD __host__ __device__ inline
#else
#define TV_HD inline
#endif
