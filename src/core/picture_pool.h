// Pictures recycled between frames: the pipeline's memory does not grow with
// the video's length, and pinned (GPU) buffers are allocated once per picture.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
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

    // Makes `count` pictures of `format` now rather than on first use, on
    // up to `threads` threads: pinned allocations cost milliseconds per 4K
    // picture (mostly faulting the pages in, which scales with threads; the
    // driver serialises the pinning itself), which would otherwise land in
    // the first frames' time. Rethrows the first allocation error.
    void reserve(std::size_t count, const VideoFormat& format, unsigned threads = 1)
    {
        std::vector<std::unique_ptr<Picture>> made(count);
        std::vector<std::exception_ptr> errors(count);
        std::atomic<std::size_t> next{0};
        auto make = [&] {
            for (std::size_t i; (i = next++) < count;) {
                try {
                    auto picture = std::make_unique<Picture>(allocator_);
                    picture->reset(format);
                    made[i] = std::move(picture);
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            }
        };
        std::vector<std::thread> helpers;
        try {
            for (std::size_t t = 1; t < std::min<std::size_t>(threads, count); ++t) helpers.emplace_back(make);
        } catch (const std::system_error&) {
            // Fewer threads: this one and those already started do the rest.
        }
        make();
        for (std::thread& helper : helpers) helper.join();
        for (const std::exception_ptr& error : errors)
            if (error) std::rethrow_exception(error);
        std::lock_guard lock(mutex_);
        for (auto& picture : made) free_.push_back(std::move(picture));
    }

    // Makes pictures until `count` are free (a pool kept from an earlier
    // run already holds them: nothing to do). Returns how many it made.
    std::size_t top_up(std::size_t count, const VideoFormat& format, unsigned threads = 1)
    {
        const std::size_t free = free_count();
        if (free >= count) return 0;
        reserve(count - free, format, threads);
        return count - free;
    }

    std::size_t free_count()
    {
        std::lock_guard lock(mutex_);
        return free_.size();
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
