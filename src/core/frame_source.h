// Reads frame pairs ahead of the pipeline on background threads and hands
// them out strictly in frame order.
//
// Reading is not on the scoring path: while the pipeline scores frame N, the
// readers fill pictures for N+1 .. N+ahead. Raw YUV in regular files is read
// by several threads at once, by frame number and in parts of about a MiB
// (pread), which a 4K GPU run needs: one thread copies a few GB/s out of the
// page cache, the device scores a 25 MB frame pair in about a millisecond.
// Reading in parts keeps read-ahead (and so pinned memory) small. Pipes and
// Y4M files are read in order, one thread per input.
//
// Errors (a truncated frame, a sample above the bit depth) surface from
// next() at the frame where they happened, as if read in order.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/picture_pool.h"
#include "io/video_reader.h"

namespace twinvmaf {

struct FramePair {
    std::uint64_t index = 0;  // counted from the first scored frame
    std::shared_ptr<Picture> ref;
    std::shared_ptr<Picture> dis;
};

struct FrameSourceConfig {
    std::uint64_t frame_limit = 0;  // 0: until an input ends
    unsigned read_threads = 1;      // used when both inputs allow random access
    unsigned ahead = 4;             // frame pairs read before they are asked for
    // Bytes at the start of each frame that are read where frames are read
    // by number (the planes the extractors read; 0: the whole frame). Pipes
    // and Y4M files are read whole.
    std::size_t frame_prefix = 0;
    // Called from next() when one input ends before the other.
    std::function<void(const std::string&)> warn;
};

class FrameSource {
public:
    // Starts reading at the readers' current positions (after any skip).
    FrameSource(VideoReader& reference, VideoReader& distorted, std::shared_ptr<PicturePool> pool,
                FrameSourceConfig config);
    ~FrameSource();
    FrameSource(const FrameSource&) = delete;
    FrameSource& operator=(const FrameSource&) = delete;

    // The next pair in order, or nullopt when an input (or the limit) ends.
    // Rethrows a read error of that frame.
    std::optional<FramePair> next();

    // Threads reading (for tests and the progress of a slow start).
    unsigned threads() const { return static_cast<unsigned>(threads_.size()); }

private:
    struct Entry {
        bool ready = false;
        bool end = false;  // this input has no frame here
        std::shared_ptr<Picture> picture;
        std::exception_ptr error;
        unsigned parts_left = 0;  // random access: parts still being read
    };
    // One ring of `ahead` entries per input; entry i % ahead holds frame i.
    struct Lane {
        VideoReader* reader;
        std::vector<Entry> ring;
    };

    void read_in_order(unsigned lane);       // one thread per input
    void read_by_number();                   // several threads, parts of both inputs
    bool may_fill(std::uint64_t index) const { return index < consumed_ + config_.ahead; }
    bool frame_ready(std::uint64_t index) const
    {
        return lanes_[0].ring[index % config_.ahead].ready && lanes_[1].ring[index % config_.ahead].ready;
    }
    // Under the lock, after a picture of frame `index` became ready: whether
    // the consumer waits for just that frame, which is now whole.
    bool consumer_wants(std::uint64_t index) const
    {
        return consumer_waiting_ && index == consumed_ && frame_ready(index);
    }
    // Under the lock: waits on room_ until `can_go`, counted in readers_waiting_.
    template <class Predicate>
    void wait_for_room(std::unique_lock<std::mutex>& lock, Predicate can_go)
    {
        if (can_go()) return;
        ++readers_waiting_;
        room_.wait(lock, can_go);
        --readers_waiting_;
    }
    std::size_t bytes_read(std::size_t frame_bytes) const
    {
        return config_.frame_prefix ? std::min(config_.frame_prefix, frame_bytes) : frame_bytes;
    }
    void warn_shorter(std::uint64_t scored, unsigned ended_lane);

    std::shared_ptr<PicturePool> pool_;
    FrameSourceConfig config_;
    Lane lanes_[2];
    std::uint64_t base_[2] = {0, 0};  // reader positions at the start
    std::uint64_t left_[2] = {0, 0};  // random access: frames each input holds from there

    // Who waits for what: the consumer (next()) for both pictures of frame
    // consumed_, readers for room in the ring. Each side is woken only when
    // the thing it waits for happened and only if it waits (a wake-up costs
    // a futex call and a context switch on both sides, per frame).
    std::mutex mutex_;
    std::condition_variable frame_ready_;  // the consumer waits here
    std::condition_variable room_;         // readers wait here
    bool consumer_waiting_ = false;
    unsigned readers_waiting_ = 0;
    std::uint64_t consumed_ = 0;   // frames handed out by next()
    std::uint64_t next_unit_ = 0;  // random access: next (frame, lane, part) to read
    unsigned parts_ = 1;           // random access: parts a picture is read in
    unsigned units_per_frame_ = 2;
    std::uint64_t total_ = 0;      // random access: frames that exist in both
    bool stopping_ = false;
    bool finished_ = false;        // an input ended or failed: no more pairs
    bool by_number_ = false;       // both inputs random access
    std::vector<std::thread> threads_;
};

// Read threads for random-access inputs: enough to outrun a GPU at 4K, few
// enough to leave cores to CPU scoring.
unsigned default_read_threads();

}  // namespace twinvmaf
