#include "gpu/gpu_engine.h"

#include <algorithm>

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

// One definition for every build: the pipeline sizes its picture pool with
// it before it knows whether an engine can be made.
unsigned gpu_engine_depth(unsigned history) { return std::max(3u, history + 2); }

}  // namespace twinvmaf
