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
namespace cambi {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
std::string twin_refusal(const OptionValues& options);
}
namespace ciede {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace speed {
std::unique_ptr<gpu::DeviceTwin> make_chroma_twin(const OptionValues& options, const VideoFormat& format);
std::unique_ptr<gpu::DeviceTwin> make_temporal_twin(const OptionValues& options, const VideoFormat& format);
}
namespace ssim {
std::unique_ptr<gpu::DeviceTwin> make_ssim_twin(const OptionValues& options, const VideoFormat& format);
std::unique_ptr<gpu::DeviceTwin> make_ms_ssim_twin(const OptionValues& options, const VideoFormat& format);
}
namespace psnr_hvs {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace motion_v2 {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace integer_ssim {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace fork_ms_ssim {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}

namespace float_psnr {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace float_ansnr {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace float_moment {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace float_motion {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace float_vif {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace float_adm {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}
namespace ssimulacra2 {
std::unique_ptr<gpu::DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
}

namespace gpu {

namespace {

using Factory = std::unique_ptr<DeviceTwin> (*)(const OptionValues&, const VideoFormat&);
// Options of the CPU reference that a twin does not take ("" if fine).
using Refusal = std::string (*)(const OptionValues&);

struct Twin {
    Factory make;
    Refusal refusal = nullptr;
};

const std::map<std::string, Twin>& twins()
{
    static const std::map<std::string, Twin> registry = {
        {"psnr", {psnr::make_twin}},
        {"motion", {motion::make_twin}},
        {"adm", {adm::make_twin}},
        {"vif", {vif::make_twin}},
        {"cambi", {cambi::make_twin, cambi::twin_refusal}},
        {"ciede", {ciede::make_twin}},
        {"speed_chroma", {speed::make_chroma_twin}},
        {"speed_temporal", {speed::make_temporal_twin}},
        {"float_psnr", {float_psnr::make_twin}},
        {"float_ansnr", {float_ansnr::make_twin}},
        {"float_moment", {float_moment::make_twin}},
        {"float_motion", {float_motion::make_twin}},
        {"float_vif", {float_vif::make_twin}},
        {"float_adm", {float_adm::make_twin}},
        {"float_ssim", {ssim::make_ssim_twin}},
        {"float_ms_ssim", {ssim::make_ms_ssim_twin}},
        {"psnr_hvs", {psnr_hvs::make_twin}},
        {"ssimulacra2", {ssimulacra2::make_twin}},
        {"motion_v2", {motion_v2::make_twin}},
        {"ssim", {integer_ssim::make_twin}},
        {"lusoris_float_ms_ssim", {fork_ms_ssim::make_twin}},
    };
    return registry;
}

}  // namespace

bool has_twin(const std::string& feature) { return twins().count(feature) != 0; }

std::unique_ptr<DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format)
{
    const auto found = twins().find(options.feature());
    if (found == twins().end()) throw Error("feature '" + options.feature() + "' has no GPU twin");
    if (std::string why = twin_option_refusal(options); !why.empty()) throw Error(why);
    return found->second.make(options, format);
}

std::string twin_option_refusal(const OptionValues& options)
{
    const auto found = twins().find(options.feature());
    if (found == twins().end() || !found->second.refusal) return "";
    return found->second.refusal(options);
}

}  // namespace gpu
}  // namespace twinvmaf
