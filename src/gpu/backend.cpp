#include "gpu/gpu_engine.h"

namespace twinvmaf {

const char* backend_name(Backend backend)
{
    switch (backend) {
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
    case Backend::kHip: return "hip";
    }
    return "?";
}

}  // namespace twinvmaf
