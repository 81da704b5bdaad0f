// The device side of a GPU twin: what a feature implements in its
// <name>_gpu.cu next to its CPU reference.
//
// A twin enqueues kernels for one frame pair on the engine's stream and
// writes a small, fixed-size result block in device memory; after the single
// readback, unpack() turns that block into the same FrameScores the CPU
// extract() produces, so the feature's collect() (host) is shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/feature.h"
#include "gpu/gpu_runtime.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::gpu {

// One plane of a frame in device memory (file layout; see picture.h).
struct DevicePlane {
    const std::uint8_t* data;
    std::ptrdiff_t stride;  // bytes
    unsigned width;         // scored geometry
    unsigned height;
};

// Most earlier frames a twin can read (FeatureExtractor::history()).
inline constexpr unsigned kMaxHistory = 4;

// A frame pair resident on the device, and for temporal twins the earlier
// pairs (still resident in the engine's slots): previous_ref[k - 1] is frame
// index - k, for k = 1 .. previous_count (fewer at the start of the video).
struct DeviceFrame {
    const std::uint8_t* ref;  // whole frame, file layout
    const std::uint8_t* dis;
    VideoFormat format;
    std::uint64_t index;
    const std::uint8_t* previous_ref[kMaxHistory] = {};
    const std::uint8_t* previous_dis[kMaxHistory] = {};
    unsigned previous_count = 0;

    DevicePlane ref_plane(int plane) const { return plane_of(ref, plane); }
    DevicePlane dis_plane(int plane) const { return plane_of(dis, plane); }
    DevicePlane previous_ref_plane(unsigned k, int plane) const { return plane_of(previous_ref[k - 1], plane); }
    DevicePlane previous_dis_plane(unsigned k, int plane) const { return plane_of(previous_dis[k - 1], plane); }

private:
    DevicePlane plane_of(const std::uint8_t* base, int plane) const;
};

// A twin's frames are enqueued strictly in order on its own stream (other
// twins run beside it on theirs), so a twin may keep
// device state from one frame to the next (e.g. a filtered earlier frame).
// All device memory is allocated in the constructor; enqueue() only launches.
class DeviceTwin {
public:
    virtual ~DeviceTwin() = default;
    // Bytes of the per-frame result block (zeroed before enqueue()).
    virtual std::size_t result_bytes() const = 0;
    virtual void enqueue(const DeviceFrame& frame, void* device_result, gpuStream_t stream) = 0;
    virtual void unpack(const void* host_result, FrameScores& scores) const = 0;
};

// Twin factories by feature name (src/gpu/twin_registry.cu).
std::unique_ptr<DeviceTwin> make_twin(const OptionValues& options, const VideoFormat& format);
bool has_twin(const std::string& feature);
// "" when the feature's twin takes these options, else why not (e.g. an
// option whose output only the CPU reference writes).
std::string twin_option_refusal(const OptionValues& options);

// Launch geometry helper.
inline unsigned blocks_for(std::size_t items, unsigned per_block)
{
    return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// Throws if the last kernel launch failed.
inline void check_launch(const char* kernel) { check(gpuGetLastError(), kernel); }

}  // namespace twinvmaf::gpu
