#include "gpu/cuda_driver.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "gpu/gpu_engine.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace gpu {

const CudaDriver& cuda_driver()
{
    static const CudaDriver bound = [] {
        CudaDriver d;
        void* library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) throw Error(std::string("cannot load the CUDA driver (libcuda.so.1): ") + ::dlerror());
        auto bind = [&](auto& function, const char* name) {
            function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(library, name));
            if (!function) throw Error(std::string("the CUDA driver has no ") + name);
        };
        bind(d.init, "cuInit");
        bind(d.device_get, "cuDeviceGet");
        bind(d.push, "cuCtxPushCurrent_v2");
        bind(d.pop, "cuCtxPopCurrent_v2");
        bind(d.device_of_current, "cuCtxGetDevice");
        bind(d.primary_set_flags, "cuDevicePrimaryCtxSetFlags_v2");
        return d;
    }();
    return bound;
}

void check_driver(int status, const char* what)
{
    if (status != 0) throw Error(std::string("CUDA driver error ") + std::to_string(status) + " in " + what);
}

}  // namespace gpu

// FFmpeg shares the primary context only when its flags are exactly
// CU_CTX_SCHED_BLOCKING_SYNC (hwcontext_cuda.c: "Primary context already
// active with incompatible flags" otherwise). Set before FFmpeg looks, they
// are what FFmpeg would set on an inactive context; on one the twins opened
// already (an earlier pair of a batch) CUDA 11 and later allow the change.
bool share_primary_context_with_ffmpeg(int device)
{
    try {
        const gpu::CudaDriver& cuda = gpu::cuda_driver();
        int handle = 0;
        if (cuda.init(0) != 0 || cuda.device_get(&handle, device) != 0) return false;
        constexpr unsigned kSchedBlockingSync = 0x04;  // CU_CTX_SCHED_BLOCKING_SYNC
        return cuda.primary_set_flags(handle, kSchedBlockingSync) == 0;
    } catch (const Error&) {
        return false;
    }
}

}  // namespace twinvmaf
