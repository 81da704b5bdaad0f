// The GPU twins, by feature name. Adding a twin is one line here plus its
// <name>_gpu.cu beside the feature's CPU reference.
#include <map>

#include "gpu/device_twin.h"

namespace twinvmaf {

namespace psnr {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace motion {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace vif {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace adm {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}

namespace gpu {

namespace {

using Factory = std::unique_ptr<DeviceTwin> (*)(const OptionValues&, const VideoFormat&);

const std::map<std::string, Factory>& twins()
{
    static const std::map<std::string, Factory> factories = {
        {"psnr", psnr::make_twin},
        {"motion", motion::make_twin},
        {"adm", adm::make_twin},
        {"vif", vif::make_twin},
    };
    return factories;
}

}  // namespace

bool has_twin(const std::string& feature) { return twins().count(feature) != 0; }

std::unique_ptr<DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    const auto found = twins().find(options.feature());
    if (found == twins().end()) throw Error("feature '" + options.feature() + "' has no GPU twin");
    return found->second(options, format);
}

}  // namespace gpu
}  // namespace twinvmaf
