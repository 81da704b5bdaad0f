// A kernel that calls the device's exp(): tools/kernel_fp_check.py must
// reject its PTX and its HIP IR (tests/CMakeLists.txt, tools/hip_check.sh), or
// the check that no twin calls a device math function proves nothing.
// Runs nowhere; needs no GPU.
#include <math.h>

#include "gpu/gpu_runtime.h"

__global__ void twinvmaf_libm_probe(const double* in, double* out, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = exp(in[i]);
}
