#include "core/device_cache.h"

#include <map>
#include <utility>

#include "core/picture_pool.h"

namespace twinvmaf {

const PictureAllocator* picture_allocator(Backend backend, int device)
{
    if (backend == Backend::kCpu) return nullptr;
    // Never freed: a picture may outlive everything but the process.
    static std::mutex mutex;
    static auto* allocators = new std::map<std::pair<Backend, int>, PictureAllocator>;
    std::lock_guard lock(mutex);
    auto [entry, added] = allocators->try_emplace({backend, device});
    if (added) entry->second = pinned_picture_allocator(backend, device);
    return entry->second.allocate ? &entry->second : nullptr;
}

DeviceCache::DeviceCache() = default;
DeviceCache::~DeviceCache() = default;

std::unique_ptr<GpuEngine> DeviceCache::take_engine(const GpuEngineShape& shape,
                                                    const std::function<std::unique_ptr<GpuEngine>()>& make)
{
    {
        std::lock_guard lock(mutex_);
        if (engine_ && engine_shape_ == shape) return std::move(engine_);
    }
    return make();
}

void DeviceCache::give_back(GpuEngineShape shape, std::unique_ptr<GpuEngine> engine)
{
    std::unique_ptr<GpuEngine> dropped;  // destroyed outside the lock
    std::lock_guard lock(mutex_);
    dropped = std::move(engine_);
    engine_ = std::move(engine);
    engine_shape_ = std::move(shape);
}

std::shared_ptr<PicturePool> DeviceCache::pool(Backend backend, int device, const VideoFormat& format)
{
    std::lock_guard lock(mutex_);
    if (!pool_ || pool_backend_ != backend || pool_device_ != device || !(pool_format_ == format)) {
        pool_ = std::make_shared<PicturePool>(picture_allocator(backend, device));
        pool_backend_ = backend;
        pool_device_ = device;
        pool_format_ = format;
    }
    return pool_;
}

}  // namespace twinvmaf
