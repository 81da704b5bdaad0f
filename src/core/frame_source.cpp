#include "core/frame_source.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "twinvmaf/error.h"

namespace twinvmaf {

unsigned default_read_threads()
{
    // A tuning knob for benchmarks; the default suits most machines.
    if (const char* forced = std::getenv("TWINVMAF_READ_THREADS")) {
        const int n = std::atoi(forced);
        if (n > 0) return static_cast<unsigned>(std::min(n, 64));
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::clamp(cores / 2, 1u, 8u);
}

FrameSource::FrameSource(VideoReader& reference, VideoReader& distorted, std::shared_ptr<PicturePool> pool,
                         FrameSourceConfig config)
    : pool_(std::move(pool)), config_(std::move(config))
{
    config_.ahead = std::max(1u, config_.ahead);
    lanes_[0] = Lane{&reference, std::vector<Entry>(config_.ahead)};
    lanes_[1] = Lane{&distorted, std::vector<Entry>(config_.ahead)};
    base_[0] = reference.position();
    base_[1] = distorted.position();

    by_number_ = reference.random_access() && distorted.random_access();
    if (by_number_) {
        left_[0] = *reference.frames_left();
        left_[1] = *distorted.frames_left();
        total_ = std::min(left_[0], left_[1]);
        if (config_.frame_limit) total_ = std::min(total_, config_.frame_limit);
        // Large frames are read in parts, so all threads can work on one
        // frame pair and little needs to be read ahead: about 1 MiB or more a
        // part, up to half the threads per picture.
        const std::size_t frame_bytes = bytes_read(reference.format().frame_bytes());
        const std::size_t by_size = std::max<std::size_t>(1, frame_bytes >> 20);
        parts_ = static_cast<unsigned>(std::clamp<std::size_t>(by_size, 1, std::max(1u, config_.read_threads / 2)));
        units_per_frame_ = 2 * parts_;
        const unsigned workers = std::max(1u, config_.read_threads);
        for (unsigned w = 0; w < workers; ++w) threads_.emplace_back([this] { read_by_number(); });
    } else {
        for (unsigned lane = 0; lane < 2; ++lane) threads_.emplace_back([this, lane] { read_in_order(lane); });
    }
}

FrameSource::~FrameSource()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    room_.notify_all();
    frame_ready_.notify_all();
    for (std::thread& thread : threads_) thread.join();
}

void FrameSource::read_by_number()
{
    for (;;) {
        std::uint64_t index = 0;
        unsigned lane = 0, part = 0;
        Picture* target = nullptr;
        bool failed = false;  // the frame's pictures could not be made
        {
            std::unique_lock lock(mutex_);
            wait_for_room(lock, [&] {
                const std::uint64_t frame = next_unit_ / units_per_frame_;
                return stopping_ || frame >= total_ || may_fill(frame);
            });
            const std::uint64_t unit = next_unit_;
            index = unit / units_per_frame_;
            if (stopping_ || index >= total_) return;
            ++next_unit_;
            const unsigned within = static_cast<unsigned>(unit % units_per_frame_);
            lane = within / parts_;
            part = within % parts_;
            if (within == 0) {
                // The frame's first unit: its pictures, before any part is
                // read. Out of memory is that frame's error, as a read error.
                for (unsigned l = 0; l < 2; ++l) {
                    Entry& slot = lanes_[l].ring[index % config_.ahead];
                    slot.parts_left = parts_;
                    try {
                        slot.picture = pool_->get();
                        const VideoReader& reader = *lanes_[l].reader;
                        reset_for_frame(*slot.picture, reader.format(), reader.path(), base_[l] + index);
                    } catch (...) {
                        slot.error = std::current_exception();
                    }
                }
            }
            const Entry& slot = lanes_[lane].ring[index % config_.ahead];
            target = slot.picture.get();
            failed = slot.error != nullptr;
        }
        std::exception_ptr error;
        if (!failed) {
            // Even offsets (whole samples); the last part takes the remainder.
            const std::size_t bytes = bytes_read(target->size_bytes());
            const std::size_t share = bytes / parts_ & ~std::size_t{7};
            const std::size_t offset = part * share;
            const std::size_t length = part + 1 == parts_ ? bytes - offset : share;
            try {
                lanes_[lane].reader->read_frame_part_at(base_[lane] + index, *target, offset, length);
            } catch (...) {
                error = std::current_exception();
            }
        }
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            Entry& slot = lanes_[lane].ring[index % config_.ahead];
            if (error && !slot.error) slot.error = error;
            if (--slot.parts_left == 0) {
                slot.ready = true;
                if (slot.error) slot.picture.reset();
                wake = consumer_wants(index);
            }
        }
        if (wake) frame_ready_.notify_one();
    }
}

void FrameSource::read_in_order(unsigned lane)
{
    VideoReader& reader = *lanes_[lane].reader;
    for (std::uint64_t index = 0;; ++index) {
        if (config_.frame_limit && index >= config_.frame_limit) return;
        {
            std::unique_lock lock(mutex_);
            wait_for_room(lock, [&] { return stopping_ || may_fill(index); });
            if (stopping_) return;
        }
        Entry read;
        try {
            read.picture = pool_->get();
            if (!reader.read(*read.picture)) {
                read.picture.reset();
                read.end = true;
            }
        } catch (...) {
            read.picture.reset();
            read.error = std::current_exception();
        }
        const bool last = read.end || read.error;
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            Entry& slot = lanes_[lane].ring[index % config_.ahead];
            slot = std::move(read);
            slot.ready = true;
            wake = consumer_wants(index);
        }
        if (wake) frame_ready_.notify_one();
        if (last) return;
    }
}

void FrameSource::warn_shorter(std::uint64_t scored, unsigned ended_lane)
{
    // With no frame scored the run fails, and its error says why.
    if (scored == 0) return;
    const VideoReader& ended = *lanes_[ended_lane].reader;
    const VideoReader& other = *lanes_[1 - ended_lane].reader;
    // Compressed inputs of different lengths are an error unless
    // --frame_cnt asks for a number of frames (issue 27): an encode that
    // lost or gained pictures is paired by number against the wrong ones
    // from there on, which a warning after the scores would hide. Y4M and
    // raw input keep Netflix's warning.
    if ((ended.decoded() || other.decoded()) && !config_.frame_limit)
        throw Error(ended.path() + ": frame " + std::to_string(scored) + ": the video ends here, before " +
                    other.path() + " does (compressed inputs of different lengths); give --frame_cnt " +
                    std::to_string(scored) + " to score the first " + std::to_string(scored) + " frames");
    if (!config_.warn) return;
    config_.warn("\"" + ended.path() + "\" ended before \"" + other.path() + "\"; scored the first " +
                 std::to_string(scored) + " frames");
}

std::optional<FramePair> FrameSource::next()
{
    std::unique_lock lock(mutex_);
    const std::uint64_t index = consumed_;
    if (finished_ || (config_.frame_limit && index >= config_.frame_limit)) return std::nullopt;
    if (by_number_ && index >= total_) {
        finished_ = true;
        // Only the shorter input can have ended here (the limit returned above).
        lock.unlock();
        if (left_[0] != left_[1]) warn_shorter(index, left_[0] < left_[1] ? 0 : 1);
        return std::nullopt;
    }
    Entry& ref_slot = lanes_[0].ring[index % config_.ahead];
    Entry& dis_slot = lanes_[1].ring[index % config_.ahead];
    if (!frame_ready(index)) {
        consumer_waiting_ = true;
        frame_ready_.wait(lock, [&] { return frame_ready(index); });
        consumer_waiting_ = false;
    }
    Entry ref = std::exchange(ref_slot, Entry{});
    Entry dis = std::exchange(dis_slot, Entry{});
    const bool last = ref.end || dis.end || ref.error || dis.error;
    if (last) {
        // Nothing more is handed out; readers waiting for room may stop.
        finished_ = true;
        stopping_ = true;
    }
    ++consumed_;
    // The ring has room for one more frame: wake as many waiting readers as
    // it has units to read (one per input in order, units_per_frame_ by
    // number; a reader that finds none left waits again), or all to stop.
    const unsigned units = by_number_ ? units_per_frame_ : 2u;
    const unsigned to_wake = std::min(readers_waiting_, units);
    lock.unlock();
    if (last) room_.notify_all();
    else
        for (unsigned i = 0; i < to_wake; ++i) room_.notify_one();

    if (ref.error) std::rethrow_exception(ref.error);
    if (dis.error) std::rethrow_exception(dis.error);
    if (ref.end || dis.end) {
        if (ref.end != dis.end) warn_shorter(index, ref.end ? 0 : 1);
        return std::nullopt;
    }
    return FramePair{index, std::move(ref.picture), std::move(dis.picture)};
}

}  // namespace twinvmaf
