// The GPU twin of motion_v2: motion's twin (features/motion/motion_gpu.cu),
// which computes the frame's SAD exactly as motion_v2's CPU reference does
// (motion::MotionCpu, the same SAD): one implementation of that behaviour on
// each side. The twin is made with motion's options that give this SAD
// (sad_options(): motion_force_zero as given); the scores, motion2 and
// motion3 are MotionV2Extractor's, on the host, for both backends.
#include "features/motion_v2/motion_v2.h"
#include "gpu/device_twin.h"

namespace twinvmaf {
namespace motion {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}

namespace motion_v2 {

std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    return motion::make_twin(sad_options(Settings::from(options)), format);
}

}  // namespace motion_v2
}  // namespace twinvmaf
