#include "core/pipeline.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>

#include "core/frame_source.h"
#include "core/picture_pool.h"
#include "core/thread_pool.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

struct FrameJob {
    std::uint64_t index = 0;
    // [0] is this frame; [k] is frame index-k (temporal history).
    std::vector<std::shared_ptr<Picture>> ref;
    std::vector<std::shared_ptr<Picture>> dis;
    std::vector<FrameScores> scores;  // per extractor
    std::vector<bool> ran;            // per extractor (subsample may skip)
    bool done = false;                // CPU: extract() finished
    std::exception_ptr error;
};

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

// The GPU's start-up: the engine (the device context takes hundreds of
// milliseconds on a large GPU), then `pictures` pinned pictures made on
// `threads` threads (faulting their pages in is the part that scales with
// threads). Not side by side: faulting hundreds of MB in while the driver
// creates the context made the context's creation slower and its time vary by
// 100 ms on the H200 machine; one after the other costs about 12 ms more at
// 4K and is steady.
GpuStats Pipeline::start_gpu(const VideoFormat& format, unsigned history, std::size_t upload_bytes,
                             std::size_t pictures, unsigned threads, PicturePool& pool,
                             std::unique_ptr<GpuEngine>& engine) const
{
    GpuStats stats;
    const auto start = Clock::now();
    engine = make_gpu_engine(config_.backend, config_.gpu_device, format, config_.feature_options, history,
                             upload_bytes);
    const auto pinning = Clock::now();
    pool.reserve(pictures, format, threads);
    stats.pinned_ms = ms_since(pinning);
    stats.pinned_pictures = pictures;
    stats.startup_ms = ms_since(start);
    return stats;
}

Pipeline::Pipeline(std::vector<std::unique_ptr<FeatureExtractor>> extractors, PipelineConfig config)
    : extractors_(std::move(extractors)), config_(std::move(config))
{
}

Pipeline::~Pipeline() = default;

PipelineResult Pipeline::run(VideoReader& reference, VideoReader& distorted, Collector& collector)
{
    if (!(reference.format() == distorted.format())) {
        throw Error("reference and distorted differ: " + reference.path() + " is " +
                    reference.format().describe() + ", " + distorted.path() + " is " +
                    distorted.format().describe());
    }
    const VideoFormat format = reference.format();
    // A run the GPU cannot take is refused before any extractor sets up
    // (cambi's heatmaps_path would make its files in init()).
    if (config_.backend != Backend::kCpu) {
        if (std::string why = gpu_refusal(config_.backend, config_.feature_options); !why.empty()) throw Error(why);
    }
    for (auto& extractor : extractors_) extractor->init(format);

    reference.skip(config_.skip_ref);
    distorted.skip(config_.skip_dist);

    unsigned history = 0;
    for (auto& extractor : extractors_) history = std::max(history, extractor->history());
    const unsigned subsample = std::max(1u, config_.subsample);
    // Other features run only on the frames that are written.
    auto runs_on = [&](const FeatureExtractor& extractor, std::uint64_t index) {
        return extractor.every_frame() || index % subsample == 0;
    };
    // Collection order: temporal extractors first, then the rest, each group
    // in registration order (Netflix's write order, hence its key order).
    std::vector<std::size_t> collect_order;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t e = 0; e < extractors_.size(); ++e)
            if (extractors_[e]->temporal() == (pass == 0)) collect_order.push_back(e);

    // The first planes of each frame that some extractor reads: all that is
    // read of a raw frame, and uploaded to a GPU (luma only for VMAF).
    int planes = 0;
    for (auto& extractor : extractors_) planes = std::max(planes, extractor->planes_read());
    const std::size_t frame_prefix = format.plane_offset(std::min(planes, 3));

    const bool on_gpu = config_.backend != Backend::kCpu;
    const unsigned threads = on_gpu ? 1 : resolve_thread_count(config_.threads);
    const std::size_t window =
        on_gpu ? gpu_engine_depth(history) : std::max<std::size_t>(2, std::size_t{threads} * 2);
    // On the CPU, --threads also bounds the readers (batch farms run many
    // --threads 1 jobs side by side); a GPU needs them all to be fed.
    const unsigned read_threads = on_gpu ? default_read_threads() : std::min(default_read_threads(), threads);
    // Frames are read in parts by all threads at once, so a few suffice.
    const unsigned ahead = 3;

    // GPU pictures live in pinned memory (uploads need no staging copy).
    const PictureAllocator pinned =
        on_gpu ? pinned_picture_allocator(config_.backend, config_.gpu_device) : PictureAllocator{};
    auto pool = std::make_shared<PicturePool>(pinned.allocate ? &pinned : nullptr);
    std::unique_ptr<GpuEngine> engine;
    GpuStats startup;
    if (on_gpu) {
        if (config_.feature_options.size() != extractors_.size())
            throw Error("internal: GPU backend needs the option values of every extractor");
        // Every picture the run will hold at once (in flight, history, read
        // ahead, one in hand), made up front; fewer for a short input.
        std::uint64_t needed = 2 * (std::uint64_t{window} + history + ahead + 1);
        if (reference.frames_left() && distorted.frames_left()) {
            std::uint64_t frames = std::min(*reference.frames_left(), *distorted.frames_left());
            if (config_.frame_cnt) frames = std::min(frames, config_.frame_cnt);
            needed = std::min(needed, 2 * (frames + history));
        }
        startup = start_gpu(format, history, frame_prefix, static_cast<std::size_t>(needed), read_threads, *pool,
                            engine);
    }

    std::vector<SlotWriter> writers;
    writers.reserve(extractors_.size());
    for (auto& extractor : extractors_) writers.emplace_back(collector, extractor->output_names());
    // scratch[worker][extractor], made on first use by that worker.
    std::vector<std::vector<std::unique_ptr<Scratch>>> scratch(threads);
    for (auto& per_worker : scratch) per_worker.resize(extractors_.size());

    std::mutex mutex;
    std::condition_variable finished;
    std::deque<std::shared_ptr<FrameJob>> in_flight;
    // The last `history` frames, newest first, for temporal features.
    std::deque<std::shared_ptr<Picture>> recent_ref, recent_dis;
    // Declared last so it is joined first, before the state its tasks use.
    std::unique_ptr<ThreadPool> workers;
    if (!engine) workers = std::make_unique<ThreadPool>(threads);

    auto extract_on_cpu = [&](FrameJob& job, unsigned worker) {
        std::vector<const Picture*> previous_ref, previous_dis;
        for (std::size_t k = 1; k < job.ref.size(); ++k) {
            previous_ref.push_back(job.ref[k].get());
            previous_dis.push_back(job.dis[k].get());
        }
        const FrameInputs inputs{*job.ref[0], *job.dis[0], job.index, previous_ref, previous_dis};
        for (std::size_t e = 0; e < extractors_.size(); ++e) {
            if (!job.ran[e]) continue;
            const FeatureExtractor& extractor = *extractors_[e];
            std::unique_ptr<Scratch>& s = scratch[worker][e];
            if (!s) s = extractor.make_scratch();
            extractor.extract(inputs, job.scores[e], s.get());
        }
    };

    auto dispatch = [&](const std::shared_ptr<FrameJob>& job) {
        if (engine) {
            engine->submit(static_cast<unsigned>(job->index % window), job->index, *job->ref[0], *job->dis[0],
                           job->ran);
            return;
        }
        workers->submit([&, job](unsigned worker) {
            try {
                extract_on_cpu(*job, worker);
            } catch (...) {
                job->error = std::current_exception();
            }
            std::lock_guard lock(mutex);
            job->done = true;
            finished.notify_all();
        });
    };

    auto collect_oldest = [&]() {
        std::shared_ptr<FrameJob> job = in_flight.front();
        if (engine) {
            engine->collect(static_cast<unsigned>(job->index % window), job->ran, job->scores);
        } else {
            std::unique_lock lock(mutex);
            finished.wait(lock, [&] { return job->done; });
        }
        in_flight.pop_front();
        if (job->error) std::rethrow_exception(job->error);
        for (std::size_t e : collect_order) {
            if (job->ran[e]) extractors_[e]->collect(job->index, job->scores[e], writers[e]);
        }
        if (config_.progress) config_.progress(job->index + 1);
    };

    // On an exception, CPU workers must finish before the state they use
    // dies (the GPU engine synchronises in its destructor).
    auto drain = [&]() {
        std::unique_lock lock(mutex);
        finished.wait(lock, [&] {
            return engine || std::all_of(in_flight.begin(), in_flight.end(), [](auto& j) { return j->done; });
        });
    };

    const auto start = std::chrono::steady_clock::now();
    FrameSource source(reference, distorted, pool,
                       FrameSourceConfig{.frame_limit = config_.frame_cnt,
                                         .read_threads = read_threads,
                                         .ahead = ahead,
                                         .frame_prefix = frame_prefix,
                                         .warn = config_.warn});
    std::uint64_t index = 0;
    try {
        for (;; ++index) {
            std::optional<FramePair> pair = source.next();
            if (!pair) break;

            auto job = std::make_shared<FrameJob>();
            job->index = index;
            job->ref.push_back(pair->ref);
            job->dis.push_back(pair->dis);
            for (std::size_t k = 0; k < recent_ref.size(); ++k) {
                job->ref.push_back(recent_ref[k]);
                job->dis.push_back(recent_dis[k]);
            }
            job->scores.resize(extractors_.size());
            job->ran.resize(extractors_.size());
            for (std::size_t e = 0; e < extractors_.size(); ++e) job->ran[e] = runs_on(*extractors_[e], index);
            if (history) {
                recent_ref.push_front(pair->ref);
                recent_dis.push_front(pair->dis);
                if (recent_ref.size() > history) {
                    recent_ref.pop_back();
                    recent_dis.pop_back();
                }
            }

            if (in_flight.size() >= window) collect_oldest();
            in_flight.push_back(job);
            dispatch(job);
        }
        while (!in_flight.empty()) collect_oldest();
    } catch (...) {
        drain();
        throw;
    }

    if (index == 0) {
        throw Error("no frames to score: " + reference.path() + " and " + distorted.path() +
                    " have no frame pair" +
                    (config_.skip_ref || config_.skip_dist ? " after --frame_skip_ref/--frame_skip_dist"
                                                           : ""));
    }
    // Temporal extractors flush first, as Netflix's threaded flush does
    // (that decides the key order of what flush() writes).
    for (std::size_t e : collect_order) extractors_[e]->flush(collector);

    PipelineResult result;
    result.frames = index;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (engine) {
        result.device = engine->description();
        result.gpu_stats = engine->stats();
        result.gpu_stats.pinned_ms = startup.pinned_ms;
        result.gpu_stats.pinned_pictures = startup.pinned_pictures;
        result.gpu_stats.startup_ms = startup.startup_ms;
    }
    return result;
}

}  // namespace twinvmaf
