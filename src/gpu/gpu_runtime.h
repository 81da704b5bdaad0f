// The only place where CUDA and HIP differ. Kernels and host code of the GPU
// backend use the gpu* names below; the CUDA build (nvcc) and the HIP build
// (hipcc, which defines __HIP__) map them to their runtimes.
#pragma once

#include <cstdlib>
#include <string>

#include "twinvmaf/error.h"

#if defined(__HIP__)
#include <hip/hip_runtime.h>

#define TWINVMAF_GPU_API_NAME "HIP"
using gpuError_t = hipError_t;
using gpuStream_t = hipStream_t;
using gpuEvent_t = hipEvent_t;
inline constexpr gpuError_t gpuSuccess = hipSuccess;
inline constexpr auto gpuMemcpyHostToDevice = hipMemcpyHostToDevice;
inline constexpr auto gpuMemcpyDeviceToHost = hipMemcpyDeviceToHost;
inline constexpr auto gpuEventDisableTiming = hipEventDisableTiming;
// HIP's hardware queues (GPU_MAX_HW_QUEUES) keep the runtime's default: the
// cost that limit_hardware_queues() avoids was measured on CUDA only.
inline void gpuLimitHardwareQueues(const char*) {}
inline gpuError_t gpuGetDeviceCount(int* count) { return hipGetDeviceCount(count); }
inline gpuError_t gpuSetDevice(int device) { return hipSetDevice(device); }
inline gpuError_t gpuMalloc(void** p, size_t bytes) { return hipMalloc(p, bytes); }
inline gpuError_t gpuFree(void* p) { return hipFree(p); }
// Portable: pinned for every device, whichever thread allocates it.
inline gpuError_t gpuHostAlloc(void** p, size_t bytes) { return hipHostMalloc(p, bytes, hipHostMallocPortable); }
inline gpuError_t gpuFreeHost(void* p) { return hipHostFree(p); }
inline gpuError_t gpuHostRegister(void* p, size_t bytes) { return hipHostRegister(p, bytes, hipHostRegisterPortable); }
inline gpuError_t gpuHostUnregister(void* p) { return hipHostUnregister(p); }
inline gpuError_t gpuMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, gpuStream_t s)
{
    return hipMemcpyAsync(dst, src, bytes, kind, s);
}
inline gpuError_t gpuMemsetAsync(void* dst, int value, size_t bytes, gpuStream_t s) { return hipMemsetAsync(dst, value, bytes, s); }
inline gpuError_t gpuStreamCreate(gpuStream_t* s) { return hipStreamCreateWithFlags(s, hipStreamNonBlocking); }
inline gpuError_t gpuStreamDestroy(gpuStream_t s) { return hipStreamDestroy(s); }
inline gpuError_t gpuStreamSynchronize(gpuStream_t s) { return hipStreamSynchronize(s); }
inline gpuError_t gpuEventCreate(gpuEvent_t* e, unsigned flags) { return hipEventCreateWithFlags(e, flags); }
inline gpuError_t gpuEventDestroy(gpuEvent_t e) { return hipEventDestroy(e); }
inline gpuError_t gpuEventRecord(gpuEvent_t e, gpuStream_t s) { return hipEventRecord(e, s); }
inline gpuError_t gpuEventSynchronize(gpuEvent_t e) { return hipEventSynchronize(e); }
inline gpuError_t gpuStreamWaitEvent(gpuStream_t s, gpuEvent_t e) { return hipStreamWaitEvent(s, e, 0); }
inline gpuError_t gpuEventElapsedTime(float* ms, gpuEvent_t a, gpuEvent_t b) { return hipEventElapsedTime(ms, a, b); }
inline gpuError_t gpuGetLastError() { return hipGetLastError(); }
inline const char* gpuGetErrorString(gpuError_t e) { return hipGetErrorString(e); }
// Kernels: the value `offset` lanes down, within groups of 32 lanes (a
// CUDA warp; half an AMD wave64, all of a wave32).
template <class T>
__device__ T gpuShflDown32(T v, unsigned offset) { return __shfl_down(v, offset, 32); }
// Kernels: a barrier for a group of 32 lanes, with their shared-memory
// stores visible to each other after it. The 32 lanes lie in one AMD wave
// (wave32 or wave64), which runs in lockstep: the fence orders the LDS
// accesses and the wave barrier keeps the compiler from moving them across.
__device__ inline void gpuSyncWarp32()
{
    __threadfence_block();
    __builtin_amdgcn_wave_barrier();
}
inline std::string gpu_device_name(int device)
{
    hipDeviceProp_t p;
    return hipGetDeviceProperties(&p, device) == hipSuccess ? p.name : "unknown HIP device";
}
#else
#include <cuda_runtime.h>

#define TWINVMAF_GPU_API_NAME "CUDA"
using gpuError_t = cudaError_t;
using gpuStream_t = cudaStream_t;
using gpuEvent_t = cudaEvent_t;
inline constexpr gpuError_t gpuSuccess = cudaSuccess;
inline constexpr auto gpuMemcpyHostToDevice = cudaMemcpyHostToDevice;
inline constexpr auto gpuMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
inline constexpr auto gpuEventDisableTiming = cudaEventDisableTiming;
// How many hardware work queues ("connections") the driver opens for a
// context, unless the user's environment says (setenv does not overwrite).
inline void gpuLimitHardwareQueues(const char* queues) { (void)::setenv("CUDA_DEVICE_MAX_CONNECTIONS", queues, 0); }
inline gpuError_t gpuGetDeviceCount(int* count) { return cudaGetDeviceCount(count); }
inline gpuError_t gpuSetDevice(int device) { return cudaSetDevice(device); }
inline gpuError_t gpuMalloc(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
inline gpuError_t gpuFree(void* p) { return cudaFree(p); }
// Portable: pinned for every device, whichever thread allocates it.
inline gpuError_t gpuHostAlloc(void** p, size_t bytes) { return cudaHostAlloc(p, bytes, cudaHostAllocPortable); }
inline gpuError_t gpuFreeHost(void* p) { return cudaFreeHost(p); }
inline gpuError_t gpuHostRegister(void* p, size_t bytes) { return cudaHostRegister(p, bytes, cudaHostRegisterPortable); }
inline gpuError_t gpuHostUnregister(void* p) { return cudaHostUnregister(p); }
inline gpuError_t gpuMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, gpuStream_t s)
{
    return cudaMemcpyAsync(dst, src, bytes, kind, s);
}
inline gpuError_t gpuMemsetAsync(void* dst, int value, size_t bytes, gpuStream_t s) { return cudaMemsetAsync(dst, value, bytes, s); }
inline gpuError_t gpuStreamCreate(gpuStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking); }
inline gpuError_t gpuStreamDestroy(gpuStream_t s) { return cudaStreamDestroy(s); }
inline gpuError_t gpuStreamSynchronize(gpuStream_t s) { return cudaStreamSynchronize(s); }
inline gpuError_t gpuEventCreate(gpuEvent_t* e, unsigned flags) { return cudaEventCreateWithFlags(e, flags); }
inline gpuError_t gpuEventDestroy(gpuEvent_t e) { return cudaEventDestroy(e); }
inline gpuError_t gpuEventRecord(gpuEvent_t e, gpuStream_t s) { return cudaEventRecord(e, s); }
inline gpuError_t gpuEventSynchronize(gpuEvent_t e) { return cudaEventSynchronize(e); }
inline gpuError_t gpuStreamWaitEvent(gpuStream_t s, gpuEvent_t e) { return cudaStreamWaitEvent(s, e, 0); }
inline gpuError_t gpuEventElapsedTime(float* ms, gpuEvent_t a, gpuEvent_t b) { return cudaEventElapsedTime(ms, a, b); }
inline gpuError_t gpuGetLastError() { return cudaGetLastError(); }
inline const char* gpuGetErrorString(gpuError_t e) { return cudaGetErrorString(e); }
// Kernels: the value `offset` lanes down, within groups of 32 lanes.
template <class T>
__device__ T gpuShflDown32(T v, unsigned offset) { return __shfl_down_sync(0xffffffffu, v, offset, 32); }
// Kernels: a barrier for a warp's 32 lanes, with their shared-memory stores
// visible to each other after it.
__device__ inline void gpuSyncWarp32() { __syncwarp(); }
inline std::string gpu_device_name(int device)
{
    cudaDeviceProp p;
    return cudaGetDeviceProperties(&p, device) == cudaSuccess ? p.name : "unknown CUDA device";
}
#endif

namespace twinvmaf::gpu {

// Throws twinvmaf::Error naming the failed call.
inline void check(gpuError_t status, const char* what)
{
    if (status != gpuSuccess)
        throw Error(std::string(TWINVMAF_GPU_API_NAME) + " error in " + what + ": " + gpuGetErrorString(status));
}

// Asks the runtime for kHardwareQueues hardware work queues per context,
// unless the user's environment names a number. Call it before the first
// runtime call of the process: it has no effect after. CUDA opens 8 by
// default, and on the H200 each costs 10..26 ms of context creation and
// teardown: the six beyond 2 cost about what a 4K 100-frame run's whole frame
// loop does. With 2 the
// engine's streams still overlap (copy beside kernels, twins beside each
// other), and the 4K frame loop was no slower than with 8 (0.62 against 0.67
// ms); with 1 it was (0.70 ms). See docs/architecture.md, "GPU start-up".
inline constexpr const char* kHardwareQueues = "2";
inline void limit_hardware_queues() { gpuLimitHardwareQueues(kHardwareQueues); }

}  // namespace twinvmaf::gpu
