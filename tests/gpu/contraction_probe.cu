// The smallest kernel where contraction shows: out = a * b + c. Compiled to
// device assembly (PTX for CUDA, GCN/RDNA for HIP) with and without the strict
// flags; the strict build must hold no fused multiply-add (tests/CMakeLists.txt,
// tools/hip_check.sh). Runs nowhere; needs no GPU.
#include "gpu/gpu_runtime.h"

__global__ void twinvmaf_contraction_probe(const float* a, const float* b, const float* c, float* out, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = a[i] * b[i] + c[i];
}
