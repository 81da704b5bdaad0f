// Pictures recycled between frames: the pipeline's memory does not grow with
// the video's length, and pinned (GPU) buffers are allocated once per picture.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "twinvmaf/picture.h"

namespace twinvmaf {

// Hands out pictures as shared_ptr; the last owner returns them here. Safe to
// use from several threads (the frame source's readers and the pipeline).
class PicturePool : public std::enable_shared_from_this<PicturePool> {
public:
    explicit PicturePool(const PictureAllocator* allocator) : allocator_(allocator) {}

    std::shared_ptr<Picture> get()
    {
        Picture* picture = nullptr;
        {
            std::lock_guard lock(mutex_);
            if (!free_.empty()) {
                picture = free_.back().release();
                free_.pop_back();
            }
        }
        if (!picture) picture = new Picture(allocator_);
        std::weak_ptr<PicturePool> pool = weak_from_this();
        return std::shared_ptr<Picture>(picture, [pool](Picture* p) {
            if (auto alive = pool.lock()) alive->put(p);
            else delete p;
        });
    }

    // Makes `count` pictures of `format` now rather than on first use:
    // pinned allocations cost milliseconds per 4K picture, which would
    // otherwise land in the first frames' time. One thread: the driver
    // serialises pinning (8 threads were slower on the H200 machine).
    void reserve(std::size_t count, const VideoFormat& format)
    {
        std::vector<std::unique_ptr<Picture>> made;
        for (std::size_t i = 0; i < count; ++i) {
            made.push_back(std::make_unique<Picture>(allocator_));
            made.back()->reset(format);
        }
        std::lock_guard lock(mutex_);
        for (auto& picture : made) free_.push_back(std::move(picture));
    }

private:
    void put(Picture* picture)
    {
        std::lock_guard lock(mutex_);
        free_.emplace_back(picture);
    }

    const PictureAllocator* allocator_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<Picture>> free_;
};

}  // namespace twinvmaf
