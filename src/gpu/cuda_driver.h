// The few CUDA driver calls twinvmaf needs that the runtime has no
// equivalent for: a caller's context made current and its device
// (libvmaf's CUDA API, capi/cuda.cpp), and the primary context's flags
// (shared with FFmpeg's NVDEC). Bound from libcuda.so.1 at first use, so
// that a process that never touches a GPU never loads the driver. CUDA
// builds only (cmake/gpu.cmake).
#pragma once

namespace twinvmaf::gpu {

// cuda.h's signatures, with CUresult = int, CUcontext = void*, CUdevice = int.
struct CudaDriver {
    int (*init)(unsigned) = nullptr;                               // cuInit
    int (*device_get)(int*, int) = nullptr;                        // cuDeviceGet
    int (*push)(void*) = nullptr;                                  // cuCtxPushCurrent
    int (*pop)(void**) = nullptr;                                  // cuCtxPopCurrent
    int (*device_of_current)(int*) = nullptr;                      // cuCtxGetDevice
    int (*primary_set_flags)(int, unsigned) = nullptr;             // cuDevicePrimaryCtxSetFlags
};

// The bound driver; throws twinvmaf::Error when libcuda.so.1 or a
// function is missing.
const CudaDriver& cuda_driver();

// Throws naming `what` when `status` is not CUDA_SUCCESS.
void check_driver(int status, const char* what);

}  // namespace twinvmaf::gpu
