// The device side of a math header's Loop policy (e.g. speed_math.h's
// SerialLoop): a loop of independent entries shared by the threads of one
// block, with the block synchronised before the loop (its inputs are
// written) and after it (its outputs are); single() runs in thread 0. Every
// thread of the block must reach every call. Compiled for the host too (a
// plain loop there), so that host/device templates can take it.
#pragma once

#include "core/host_device.h"
#include "gpu/gpu_runtime.h"

namespace twinvmaf::gpu {

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define TV_BLOCK_SYNC() __syncthreads()
#define TV_THREAD_INDEX() static_cast<int>(threadIdx.x)
#define TV_BLOCK_THREADS() static_cast<int>(blockDim.x)
#else
#define TV_BLOCK_SYNC() ((void)0)
#define TV_THREAD_INDEX() 0
#define TV_BLOCK_THREADS() 1
#endif

struct BlockLoop {
    template <class F>
    TV_HD void operator()(int begin, int end, F&& f) const
    {
        TV_BLOCK_SYNC();
        for (int i = begin + TV_THREAD_INDEX(); i < end; i += TV_BLOCK_THREADS()) f(i);
        TV_BLOCK_SYNC();
    }
    template <class F>
    TV_HD void single(F&& f) const
    {
        TV_BLOCK_SYNC();
        if (TV_THREAD_INDEX() == 0) f();
        TV_BLOCK_SYNC();
    }
    // An entry-per-thread matrix product with a math header's entry function.
    template <class Entry>
    TV_HD void matmul_entries(float* dst, int rows, int cols, Entry entry) const
    {
        (*this)(0, rows * cols, [&](int e) { dst[e] = entry(e / cols, e % cols); });
    }
};

#undef TV_BLOCK_SYNC
#undef TV_THREAD_INDEX
#undef TV_BLOCK_THREADS

}  // namespace twinvmaf::gpu
