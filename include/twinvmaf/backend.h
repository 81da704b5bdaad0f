// Where features run: the CPU reference or a GPU backend whose twins return
// the same bits (docs/compat.md, "GPU twins").
#pragma once

namespace twinvmaf {

enum class Backend { kCpu, kCuda, kHip };

// "cpu", "cuda", "hip".
const char* backend_name(Backend backend);

}  // namespace twinvmaf
