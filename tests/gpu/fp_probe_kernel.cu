// The strict-floating-point probe: a kernel built like the extractors
// computes a*b+c, a/b and sqrtf(|a|) for every input triple. The same file is
// built twice: with the strict device flags (must equal the host's correctly
// rounded results bit for bit) and with contraction on (FMA), to show that
// the probe can tell the difference.
#include <cstddef>

#include "gpu/gpu_runtime.h"

#ifndef TWINVMAF_PROBE_NAMESPACE
#error "build with -DTWINVMAF_PROBE_NAMESPACE=strict or =contracted"
#endif

namespace twinvmaf::fp_probe::TWINVMAF_PROBE_NAMESPACE {

namespace {

__global__ void probe_kernel(const float* a, const float* b, const float* c, float* mad, float* quotient,
                             float* root, std::size_t n)
{
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    mad[i] = a[i] * b[i] + c[i];
    quotient[i] = a[i] / b[i];
    root[i] = sqrtf(fabsf(a[i]));
}

}  // namespace

// Runs the kernel on the device over host arrays; returns false when there
// is no device.
bool run(const float* a, const float* b, const float* c, float* mad, float* quotient, float* root, std::size_t n)
{
    int devices = 0;
    if (gpuGetDeviceCount(&devices) != gpuSuccess || devices == 0) return false;
    float* d = nullptr;
    gpu::check(gpuMalloc(reinterpret_cast<void**>(&d), 6 * n * sizeof(float)), "probe allocation");
    const std::size_t bytes = n * sizeof(float);
    gpuStream_t stream = nullptr;
    gpu::check(gpuStreamCreate(&stream), "probe stream");
    gpu::check(gpuMemcpyAsync(d, a, bytes, gpuMemcpyHostToDevice, stream), "probe upload");
    gpu::check(gpuMemcpyAsync(d + n, b, bytes, gpuMemcpyHostToDevice, stream), "probe upload");
    gpu::check(gpuMemcpyAsync(d + 2 * n, c, bytes, gpuMemcpyHostToDevice, stream), "probe upload");
    probe_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(d, d + n, d + 2 * n, d + 3 * n,
                                                                            d + 4 * n, d + 5 * n, n);
    gpu::check(gpuGetLastError(), "probe kernel");
    gpu::check(gpuMemcpyAsync(mad, d + 3 * n, bytes, gpuMemcpyDeviceToHost, stream), "probe readback");
    gpu::check(gpuMemcpyAsync(quotient, d + 4 * n, bytes, gpuMemcpyDeviceToHost, stream), "probe readback");
    gpu::check(gpuMemcpyAsync(root, d + 5 * n, bytes, gpuMemcpyDeviceToHost, stream), "probe readback");
    gpu::check(gpuStreamSynchronize(stream), "probe sync");
    (void)gpuStreamDestroy(stream);
    (void)gpuFree(d);
    return true;
}

}  // namespace twinvmaf::fp_probe::TWINVMAF_PROBE_NAMESPACE
