// GPU resources kept from one scored pair to the next (batch mode, the
// library's engine): a GPU run's set-up is the device context (once per
// process, the driver's), then the engine's streams, slots and twins, and the
// pinned pictures. The last two are what this cache keeps, so that a pair
// scored after another of the same shape pays neither again.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/options.h"
#include "gpu/gpu_engine.h"
#include "twinvmaf/picture.h"

namespace twinvmaf {

class PicturePool;

// Everything an engine is built for: one engine serves any run of the same.
struct GpuEngineShape {
    Backend backend = Backend::kCpu;
    int device = 0;
    VideoFormat format;
    std::vector<OptionValues> features;
    unsigned history = 0;
    std::size_t upload_bytes = 0;

    bool operator==(const GpuEngineShape& other) const
    {
        return backend == other.backend && device == other.device && format == other.format &&
               features == other.features && history == other.history && upload_bytes == other.upload_bytes;
    }
};

// The pinned-memory allocator of `backend` and `device`, or nullptr for the
// CPU (ordinary heap pictures). The pointer stays valid for the whole
// process: pictures keep it until they are freed, which may be after the
// pool or run that made them is gone.
const PictureAllocator* picture_allocator(Backend backend, int device);

// A run's engine for `shape` and its pinned pictures. One run at a time
// holds the cached engine; a second run at the same time makes its own.
class DeviceCache {
public:
    DeviceCache();
    ~DeviceCache();
    DeviceCache(const DeviceCache&) = delete;
    DeviceCache& operator=(const DeviceCache&) = delete;

    // The cached engine if it was built for `shape` and is not in use, else
    // one from make() (the cached one of another shape is then dropped).
    std::unique_ptr<GpuEngine> take_engine(const GpuEngineShape& shape,
                                           const std::function<std::unique_ptr<GpuEngine>()>& make);
    // Returns an engine after a run that collected all of its frames.
    void give_back(GpuEngineShape shape, std::unique_ptr<GpuEngine> engine);

    // The pool of pinned pictures of `format` on the shape's device (a new
    // one when the format changes: the old one's pictures are unpinned as
    // their last holders let go).
    std::shared_ptr<PicturePool> pool(Backend backend, int device, const VideoFormat& format);

private:
    std::mutex mutex_;
    std::unique_ptr<GpuEngine> engine_;
    GpuEngineShape engine_shape_;
    std::shared_ptr<PicturePool> pool_;
    Backend pool_backend_ = Backend::kCpu;
    int pool_device_ = 0;
    VideoFormat pool_format_;
};

}  // namespace twinvmaf
