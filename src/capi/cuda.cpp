// libvmaf's CUDA API (include/libvmaf/libvmaf_cuda.h) over the GPU backend,
// for FFmpeg's libvmaf_cuda filter: its CUDA frames are scored by the twins
// without leaving the device.
//
// FFmpeg decodes into its own CUDA context (not the device's primary one)
// and hands it over in VmafCudaConfiguration. Device memory belongs to the
// context it was allocated in, so everything the scoring does on the GPU -
// the engine's streams, its frame slots, the kernels - happens in that
// context: CudaScope makes it current around each call that reaches the GPU
// (FFmpeg pushes and pops it around its own calls only), and the engine
// then runs in it instead of making the primary context current
// (gpu_caller_context). The CUDA runtime that twinvmaf uses works in
// whatever context is current; the few driver calls it has no equivalent
// for (push, pop, the context's device) are gpu/cuda_driver.h's.
#include <cstring>
#include <mutex>

#include "capi/capi.h"
#include "gpu/cuda_driver.h"
#include "gpu/gpu_engine.h"
#include "libvmaf/libvmaf_cuda.h"

#if defined(TWINVMAF_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

struct VmafCudaState {
    void* context = nullptr;  // CUcontext; nullptr: device 0's primary context
    int device = 0;
};

namespace twinvmaf::capi {

#if defined(TWINVMAF_HAVE_CUDA)

namespace {

// `context` current on this thread while it lives (nothing for nullptr).
class PushedContext {
public:
    explicit PushedContext(void* context) : pushed_(context != nullptr)
    {
        if (pushed_) gpu::check_driver(gpu::cuda_driver().push(context), "cuCtxPushCurrent");
    }
    ~PushedContext()
    {
        void* popped = nullptr;
        if (pushed_) (void)gpu::cuda_driver().pop(&popped);
    }
    PushedContext(const PushedContext&) = delete;
    PushedContext& operator=(const PushedContext&) = delete;

private:
    bool pushed_;
};

void check_runtime(cudaError_t status, const char* what)
{
    if (status != cudaSuccess) throw Error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace

// The context a VmafContext scores in, and the device pictures it handed
// out: buffers in the file layout of `format`, reused once a picture is
// given back (its last reference dropped), freed with the binding.
struct CudaBinding {
    void* context = nullptr;
    int device = 0;
    VideoFormat format;
    VmafCudaPicturePreallocationMethod method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE;
    std::mutex mutex;
    std::vector<void*> buffers;  // every one allocated
    std::vector<void*> free;     // those no picture holds

    ~CudaBinding()
    {
        if (buffers.empty()) return;
        try {
            const PushedContext current(context);
            if (!context) check_runtime(cudaSetDevice(device), "cudaSetDevice");
            for (void* buffer : buffers) (void)cudaFree(buffer);
        } catch (...) {
            // A destructor: the driver is gone (process exit); nothing to free.
        }
    }
};

CudaScope::CudaScope(const std::shared_ptr<CudaBinding>& binding)
{
    if (!binding || !binding->context) return;
    gpu::check_driver(gpu::cuda_driver().push(binding->context), "cuCtxPushCurrent");
    pushed_ = true;
    was_caller_context_ = gpu_caller_context;
    gpu_caller_context = true;
}

CudaScope::~CudaScope()
{
    if (!pushed_) return;
    gpu_caller_context = was_caller_context_;
    void* popped = nullptr;
    (void)gpu::cuda_driver().pop(&popped);
}

namespace {

// A device picture of the binding's format, from its free buffers or a new
// one (zeroed).
void fetch_device_picture(const std::shared_ptr<CudaBinding>& binding, VmafPicture* pic)
{
    const VideoFormat& format = binding->format;
    void* buffer = nullptr;
    {
        std::lock_guard lock(binding->mutex);
        if (!binding->free.empty()) {
            buffer = binding->free.back();
            binding->free.pop_back();
        }
    }
    if (!buffer) {
        const CudaScope in_callers_context(binding);
        if (!binding->context) check_runtime(cudaSetDevice(binding->device), "cudaSetDevice");
        check_runtime(cudaMalloc(&buffer, format.frame_bytes()), "cudaMalloc of a picture");
        const cudaError_t zeroed = cudaMemset(buffer, 0, format.frame_bytes());
        if (zeroed != cudaSuccess) {
            (void)cudaFree(buffer);
            check_runtime(zeroed, "cudaMemset of a picture");
        }
        std::lock_guard lock(binding->mutex);
        binding->buffers.push_back(buffer);
    }
    DeviceSurface surface;
    auto* base = static_cast<std::uint8_t*>(buffer);
    for (int p = 0; p < 3; ++p) {
        surface.plane[p] = base + format.plane_offset(p);
        surface.pitch[p] = static_cast<std::ptrdiff_t>(format.stored_width(p)) * format.bytes_per_sample();
    }
    surface.device = binding->device;
    // FFmpeg's libvmaf_cuda filter, the one user of these pictures, copies
    // the luma plane only (its copy loop stops after plane 0): chroma holds
    // zeros, never the frame's. A run whose features read chroma (psnr's
    // chroma, ciede, SpEED's chroma in the v1.0.16 models) is refused at the
    // first picture rather than scored on those zeros.
    surface.luma_only = true;
    // Back to the free list when the last holder (the caller, the pipeline)
    // lets go.
    surface.owner = std::shared_ptr<const void>(buffer, [binding](void* memory) {
        std::lock_guard lock(binding->mutex);
        binding->free.push_back(memory);
    });
    auto picture = std::make_shared<Picture>();
    picture->set_device_surface(format, std::move(surface));
    expose_picture(pic, std::move(picture));
}

}  // namespace

#else  // no CUDA in this build

struct CudaBinding {
    void* context = nullptr;
};
CudaScope::CudaScope(const std::shared_ptr<CudaBinding>&) {}
CudaScope::~CudaScope() = default;

#endif

}  // namespace twinvmaf::capi

using namespace twinvmaf;

#if defined(TWINVMAF_HAVE_CUDA)

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!cu_state) return capi::refuse(function, "cu_state is NULL");
        *cu_state = nullptr;
        const gpu::CudaDriver& cuda = gpu::cuda_driver();
        gpu::check_driver(cuda.init(0), "cuInit");
        auto state = std::make_unique<VmafCudaState>();
        state->context = cfg.cu_ctx;
        if (cfg.cu_ctx) {
            const capi::PushedContext current(cfg.cu_ctx);
            gpu::check_driver(cuda.device_of_current(&state->device), "cuCtxGetDevice");
        }
        *cu_state = state.release();
        return 0;
    });
}

extern "C" int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!vmaf || !cu_state) return capi::refuse(function, "vmaf and cu_state must not be NULL");
        auto binding = std::make_shared<capi::CudaBinding>();
        binding->context = cu_state->context;
        binding->device = cu_state->device;
        capi::bind_cuda(*vmaf, std::move(binding), cu_state->device);
        return 0;
    });
}

extern "C" int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!vmaf) return capi::refuse(function, "vmaf is NULL");
        const std::shared_ptr<capi::CudaBinding> binding = capi::cuda_binding(*vmaf);
        if (!binding) return capi::refuse(function, "no CUDA state: call vmaf_cuda_import_state() first");
        switch (cfg.pic_prealloc_method) {
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE:
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED: break;
        default:
            return capi::refuse(function, "pic_prealloc_method " +
                                              std::to_string(static_cast<int>(cfg.pic_prealloc_method)) +
                                              " is not a preallocation method");
        }
        const VideoFormat format =
            capi::video_format(cfg.pic_params.pix_fmt, cfg.pic_params.bpc, cfg.pic_params.w, cfg.pic_params.h);
        if (cfg.pic_prealloc_method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE)
            capi::expect_device_pictures(*vmaf);
        std::lock_guard lock(binding->mutex);
        binding->format = format;
        binding->method = cfg.pic_prealloc_method;
        return 0;
    });
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic)
{
    const char* const function = __func__;
    return capi::guarded(function, [&] {
        if (!vmaf || !pic) return capi::refuse(function, "vmaf and pic must not be NULL");
        const std::shared_ptr<capi::CudaBinding> binding = capi::cuda_binding(*vmaf);
        if (!binding || binding->method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE)
            return capi::refuse(function, "no pictures to fetch: call vmaf_cuda_preallocate_pictures() with a "
                                          "preallocation method first");
        const VideoFormat& format = binding->format;
        switch (binding->method) {
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE: capi::fetch_device_picture(binding, pic); return 0;
        default: {
            // HOST and HOST_PINNED: a host picture, as vmaf_picture_alloc()
            // makes it (uploads from it are staged by the runtime).
            auto picture = std::make_shared<Picture>(format);
            std::memset(picture->bytes(), 0, picture->size_bytes());
            capi::expose_picture(pic, std::move(picture));
            return 0;
        }
        }
    });
}

extern "C" int vmaf_cuda_state_free(VmafCudaState* cu_state)
{
    delete cu_state;
    return 0;
}

#else  // no CUDA in this build: the calls say so

namespace {
int no_cuda(const char* function)
{
    capi::log(VMAF_LOG_LEVEL_ERROR, function, "this libvmaf (twinvmaf) was built without CUDA");
    return -ENOSYS;
}
}  // namespace

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration)
{
    if (cu_state) *cu_state = nullptr;
    return no_cuda(__func__);
}
extern "C" int vmaf_cuda_import_state(VmafContext*, VmafCudaState*) { return no_cuda(__func__); }
extern "C" int vmaf_cuda_preallocate_pictures(VmafContext*, VmafCudaPictureConfiguration) { return no_cuda(__func__); }
extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext*, VmafPicture*) { return no_cuda(__func__); }
extern "C" int vmaf_cuda_state_free(VmafCudaState* cu_state)
{
    delete cu_state;
    return 0;
}

#endif
