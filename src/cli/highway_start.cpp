// Highway 1.0's libhwy.so measures its timer's resolution in a static
// initialiser, for hwy::Measure (its nanobenchmark, which twinvmaf never
// calls): back-to-back timer reads in a loop, about 3 ms of CPU time at every
// start of the CLI (as much as reading ten 1080p 10-bit frame pairs; a batch
// farm starts it once per clip). The library calls the function through its
// PLT, so this definition in the executable takes its place (ld exports it,
// libhwy.so refers to it) and the start-up does no measuring. Only the CLI has
// it: a program that links the library and calls hwy::Measure keeps
// Highway's. Where a Highway version does not call it at start-up, this is
// an unused function.
#include <cstdint>

namespace hwy::platform {

std::uint64_t TimerResolution() { return 1; }

}  // namespace hwy::platform
