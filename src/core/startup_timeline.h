// Where a run's start-up goes, step by step, for TWINVMAF_GPU_TIMING=1.
//
// On a GPU most of a short run is start-up (issue 27, item 5: main() to the
// first frame scored). The steps are marked where they end: main() (the
// origin), the models parsed, the driver found the devices, the device's
// context, the twins' device memory, the streams and slots, the pinned
// pictures, the first frame read and the first frame scored. summary()
// prints each step's own milliseconds and the total; the CLI prints it
// beside the per-twin device times. Off (one relaxed load) unless the
// variable is set.
#pragma once

#include <string>

namespace twinvmaf::startup {

// True when TWINVMAF_GPU_TIMING is set.
bool timing_enabled();
// Records that `step` ended now (the first mark is the origin). A step
// marked again keeps its first time, so a second run in one process (a
// batch, a reused engine) does not move the first run's figures.
void mark(const char* step);
// "step ms, ..., main() to first frame scored ms", or "" when nothing was
// marked after the origin.
std::string summary();

}  // namespace twinvmaf::startup
