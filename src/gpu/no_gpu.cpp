// The GPU entry points of a build without CUDA or HIP.
#include "gpu/gpu_engine.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

bool backend_compiled(Backend backend) { return backend == Backend::kCpu; }

int gpu_device_count(Backend) { return 0; }

bool share_primary_context_with_ffmpeg(int) { return false; }

bool twin_exists(const std::string&, Backend) { return false; }

std::string gpu_refusal(Backend backend, const std::vector<OptionValues>&)
{
    return std::string("--backend ") + backend_name(backend) +
           ": this twinvmaf was built without it (no nvcc/hipcc at build time)";
}

PictureAllocator pinned_picture_allocator(Backend, int) { return {}; }

std::unique_ptr<GpuEngine> make_gpu_engine(Backend backend, int, const VideoFormat&,
                                           const std::vector<OptionValues>&, unsigned, std::size_t)
{
    throw Error(gpu_refusal(backend, {}));
}

}  // namespace twinvmaf
