#include "core/pipeline.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>

#include "core/device_cache.h"
#include "core/frame_source.h"
#include "core/picture_pool.h"
#include "core/startup_timeline.h"
#include "core/thread_pool.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Frame pairs read ahead of the one being pushed (run()): frames are read in
// parts by all threads at once, so a few suffice. At one CPU thread, one
// pair ahead and one frame in flight keep the pictures in use few, so that
// reads land in pictures still in the cache: reading 1080p 8-bit pairs
// (--feature null) cost 0.43 ms/frame of CPU time that way against 0.61
// with 3 ahead and 2 in flight (ten pictures in turn).
constexpr unsigned kReadAhead = 3;
constexpr unsigned kReadAheadOneThread = 1;

// A reused engine's counters minus those it had when this run took it.
GpuStats stats_of_this_run(GpuStats now, const GpuStats& before, bool reused)
{
    now.frames -= before.frames;
    now.uploads -= before.uploads;
    now.device_copies -= before.device_copies;
    now.readbacks -= before.readbacks;
    now.host_waits -= before.host_waits;
    now.upload_ms -= before.upload_ms;
    now.readback_ms -= before.readback_ms;
    for (std::size_t i = 0; i < now.twin_ms.size() && i < before.twin_ms.size(); ++i)
        now.twin_ms[i].second -= before.twin_ms[i].second;
    // The engine was built by an earlier run. (device_span_ms still counts
    // from the engine's first upload.)
    if (reused) now.setup_ms = 0.0;
    return now;
}

}  // namespace

struct Pipeline::Job {
    std::uint64_t index = 0;
    // [0] is this frame; [k] is frame index-k (temporal history).
    std::vector<std::shared_ptr<const Picture>> ref;
    std::vector<std::shared_ptr<const Picture>> dis;
    std::vector<FrameScores> scores;  // per extractor
    std::vector<bool> ran;            // per extractor (subsample may skip)
    bool done = false;                // CPU: extract() finished
    std::exception_ptr error;
};

// Everything one run holds between begin() and finish().
struct Pipeline::Run {
    Collector* collector = nullptr;
    VideoFormat format;
    unsigned history = 0;
    unsigned subsample = 1;
    // Collection order: temporal extractors first, then the rest, each group
    // in registration order (Netflix's write order, hence its key order).
    std::vector<std::size_t> collect_order;
    std::size_t frame_prefix = 0;
    bool on_gpu = false;
    unsigned threads = 1;
    std::size_t window = 2;      // frames in flight
    unsigned read_ahead = kReadAhead;
    // run() at one CPU thread: push() scores the frame on the caller's
    // thread (the frame source's reader keeps reading meanwhile), no worker
    // to hand it to and wait for.
    bool score_inline = false;

    std::shared_ptr<PicturePool> pool;
    std::unique_ptr<GpuEngine> engine;
    GpuEngineShape shape;   // what `engine` was built for (the cache's key)
    GpuStats engine_before; // a reused engine's counters when this run took it
    GpuStats startup;
    bool prepared = false;
    bool failed = false;
    bool finished = false;

    std::vector<SlotWriter> writers;
    // scratch[worker][extractor], made on first use by that worker.
    std::vector<std::vector<std::unique_ptr<Scratch>>> scratch;
    std::mutex mutex;
    std::condition_variable job_done;
    const Job* awaited = nullptr;  // the job collect_oldest() waits for, if it waits
    std::deque<std::shared_ptr<Job>> in_flight;
    // The last `history` frames, newest first, for temporal features.
    std::deque<std::shared_ptr<const Picture>> recent_ref, recent_dis;
    std::uint64_t pushed = 0;
    Clock::time_point start;
    // Declared last so it is joined first, before the state its tasks use
    // (a pool's destructor runs every task still queued).
    std::unique_ptr<ThreadPool> workers;

    bool runs_on(const FeatureExtractor& extractor, std::uint64_t index) const
    {
        // Other features run only on the frames that are written.
        return extractor.every_frame() || index % subsample == 0;
    }
};

Pipeline::Pipeline(std::vector<std::unique_ptr<FeatureExtractor>> extractors, PipelineConfig config)
    : extractors_(std::move(extractors)), config_(std::move(config))
{
}

Pipeline::~Pipeline()
{
    if (!run_) return;
    // CPU frames in flight finish first (they use the run's state), then the
    // engine waits for the device, before the pictures it reads go back.
    run_->workers.reset();
    run_->engine.reset();
}

void Pipeline::begin(const VideoFormat& format, Collector& collector)
{
    if (run_) throw Error("internal: a pipeline scores one sequence of frame pairs");
    // A run the GPU cannot take is refused before any extractor sets up
    // (cambi's heatmaps_path would make its files in init()).
    if (config_.backend != Backend::kCpu) {
        if (std::string why = gpu_refusal(config_.backend, config_.feature_options); !why.empty()) throw Error(why);
    }
    for (auto& extractor : extractors_) extractor->init(format);

    auto run = std::make_unique<Run>();
    run->collector = &collector;
    run->format = format;
    for (auto& extractor : extractors_) run->history = std::max(run->history, extractor->history());
    run->subsample = std::max(1u, config_.subsample);
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t e = 0; e < extractors_.size(); ++e)
            if (extractors_[e]->temporal() == (pass == 0)) run->collect_order.push_back(e);

    // The first planes of each frame that some extractor reads: all that is
    // read of a raw frame, and uploaded to a GPU (luma only for VMAF).
    int planes = 0;
    for (auto& extractor : extractors_) planes = std::max(planes, extractor->planes_read());
    run->frame_prefix = format.plane_offset(std::min(planes, 3));

    run->on_gpu = config_.backend != Backend::kCpu;
    run->threads = run->on_gpu ? 1 : resolve_thread_count(config_.threads);
    run->window = run->on_gpu ? gpu_engine_depth(run->history) : std::size_t{run->threads} * 2 - (run->threads == 1);
    run->read_ahead = !run->on_gpu && run->threads == 1 ? kReadAheadOneThread : kReadAhead;

    // GPU pictures live in pinned memory (uploads need no staging copy),
    // unless they are on the device already.
    if (config_.device_pictures)
        run->pool = std::make_shared<PicturePool>(nullptr);
    else if (run->on_gpu && config_.device_cache)
        run->pool = config_.device_cache->pool(config_.backend, config_.gpu_device, format);
    else
        run->pool = std::make_shared<PicturePool>(
            run->on_gpu ? picture_allocator(config_.backend, config_.gpu_device) : nullptr);
    run_ = std::move(run);
}

// The GPU's start-up: the engine (the device context takes hundreds of
// milliseconds on a large GPU), then the pinned pictures made on several
// threads (faulting their pages in is the part that scales with threads).
// Not side by side: faulting hundreds of MB in while the driver creates the
// context made the context's creation slower and its time vary by 100 ms on
// the H200 machine; one after the other costs about 12 ms more at 4K and is
// steady. A device cache keeps both for the next run of the same shape.
void Pipeline::prepare(std::optional<std::uint64_t> frames)
{
    if (!run_) throw Error("internal: Pipeline::prepare before begin");
    Run& r = *run_;
    if (r.prepared) return;
    r.prepared = true;
    if (r.on_gpu) {
        if (config_.feature_options.size() != extractors_.size())
            throw Error("internal: GPU backend needs the option values of every extractor");
        // Every picture the run will hold at once (in flight, history, read
        // ahead, one in hand), made up front; fewer for a short input.
        std::uint64_t needed = 2 * (std::uint64_t{r.window} + r.history + r.read_ahead + 1);
        if (frames) needed = std::min(needed, 2 * (*frames + r.history));

        const auto start = Clock::now();
        r.shape = GpuEngineShape{config_.backend, config_.gpu_device, r.format, config_.feature_options,
                                 r.history, r.frame_prefix};
        auto make = [&] {
            return make_gpu_engine(config_.backend, config_.gpu_device, r.format, config_.feature_options,
                                   r.history, r.frame_prefix);
        };
        r.engine = config_.device_cache ? config_.device_cache->take_engine(r.shape, make) : make();
        r.engine_before = r.engine->stats();
        const auto pinning = Clock::now();
        if (!config_.device_pictures)
            r.startup.pinned_pictures =
                r.pool->top_up(static_cast<std::size_t>(needed), r.format, default_read_threads());
        r.startup.pinned_ms = ms_since(pinning);
        startup::mark("pinned pictures");
        r.startup.startup_ms = ms_since(start);
    }

    r.writers.reserve(extractors_.size());
    for (auto& extractor : extractors_) r.writers.emplace_back(*r.collector, extractor->output_names());
    r.scratch.resize(r.threads);
    for (auto& per_worker : r.scratch) per_worker.resize(extractors_.size());
    if (!r.engine && !r.score_inline) r.workers = std::make_unique<ThreadPool>(r.threads);
    r.start = Clock::now();
}

std::shared_ptr<Picture> Pipeline::picture()
{
    prepare();
    std::shared_ptr<Picture> picture = run_->pool->get();
    picture->reset(run_->format);
    return picture;
}

std::size_t Pipeline::bytes_read() const
{
    if (!run_) throw Error("internal: Pipeline::bytes_read before begin");
    return run_->frame_prefix;
}

std::uint64_t Pipeline::frames_pushed() const { return run_ ? run_->pushed : 0; }

void Pipeline::collect_oldest()
{
    Run& r = *run_;
    std::shared_ptr<Job> job = r.in_flight.front();
    if (r.engine) {
        r.engine->collect(static_cast<unsigned>(job->index % r.window), job->ran, job->scores);
    } else if (!r.score_inline) {
        std::unique_lock lock(r.mutex);
        if (!job->done) {
            r.awaited = job.get();
            r.job_done.wait(lock, [&] { return job->done; });
            r.awaited = nullptr;
        }
    }
    r.in_flight.pop_front();
    if (job->error) std::rethrow_exception(job->error);
    if (job->index == 0) startup::mark("first frame scored");
    for (std::size_t e : r.collect_order) {
        if (job->ran[e]) extractors_[e]->collect(job->index, job->scores[e], r.writers[e]);
    }
    if (config_.progress) config_.progress(job->index + 1);
}

bool Pipeline::oldest_done()
{
    std::lock_guard lock(run_->mutex);
    return run_->in_flight.front()->done;
}

void Pipeline::score(Job& job, unsigned worker)
{
    try {
        std::vector<const Picture*> previous_ref, previous_dis;
        for (std::size_t k = 1; k < job.ref.size(); ++k) {
            previous_ref.push_back(job.ref[k].get());
            previous_dis.push_back(job.dis[k].get());
        }
        const FrameInputs inputs{*job.ref[0], *job.dis[0], job.index, previous_ref, previous_dis};
        for (std::size_t e = 0; e < extractors_.size(); ++e) {
            if (!job.ran[e]) continue;
            const FeatureExtractor& extractor = *extractors_[e];
            std::unique_ptr<Scratch>& s = run_->scratch[worker][e];
            if (!s) s = extractor.make_scratch();
            extractor.extract(inputs, job.scores[e], s.get());
        }
    } catch (...) {
        job.error = std::current_exception();
    }
}

void Pipeline::push(std::shared_ptr<const Picture> ref, std::shared_ptr<const Picture> dis)
{
    if (!run_) throw Error("internal: Pipeline::push before begin");
    Run& r = *run_;
    if (r.failed) throw Error("scoring failed at an earlier frame (see that error); no more frames are taken");
    if (r.finished) throw Error("frame pair given after the last one was scored");
    prepare();
    if (!ref || !dis) throw Error("internal: a frame pair needs two pictures");
    if (!(ref->format() == r.format) || !(dis->format() == r.format))
        throw Error("frame " + std::to_string(r.pushed) + ": the pictures are " + ref->format().describe() +
                    " and " + dis->format().describe() + ", but this run scores " + r.format.describe());

    if (!r.engine && (ref->device_surface() || dis->device_surface()))
        throw Error("frame " + std::to_string(r.pushed) +
                    ": the pictures are in GPU memory (decoded by the GPU, or CUDA pictures), which the cpu backend "
                    "cannot read; score them on the GPU (--backend cuda) or decode on the host (--hwdec none)");
    if (r.pushed == 0) startup::mark("first frame read");
    try {
        auto job = std::make_shared<Job>();
        job->index = r.pushed;
        job->ref.push_back(ref);
        job->dis.push_back(dis);
        for (std::size_t k = 0; k < r.recent_ref.size(); ++k) {
            job->ref.push_back(r.recent_ref[k]);
            job->dis.push_back(r.recent_dis[k]);
        }
        job->scores.resize(extractors_.size());
        job->ran.resize(extractors_.size());
        for (std::size_t e = 0; e < extractors_.size(); ++e) job->ran[e] = r.runs_on(*extractors_[e], job->index);
        if (r.history) {
            r.recent_ref.push_front(std::move(ref));
            r.recent_dis.push_front(std::move(dis));
            if (r.recent_ref.size() > r.history) {
                r.recent_ref.pop_back();
                r.recent_dis.pop_back();
            }
        }

        // Frames already scored are collected now rather than when the window
        // is full, so their pictures go back to the pool for the readers: when
        // scoring keeps up with reading, fewer pictures are in use in turn and
        // more of them are still in the cache when they are read into again.
        if (!r.engine)
            while (!r.in_flight.empty() && oldest_done()) collect_oldest();
        if (r.in_flight.size() >= r.window) collect_oldest();
        r.in_flight.push_back(job);
        ++r.pushed;
        if (r.engine) {
            r.engine->submit(static_cast<unsigned>(job->index % r.window), job->index, *job->ref[0],
                             *job->dis[0], job->ran);
            // Collected when the window is full: "first frame scored" is
            // then later than the device's end of frame 0, never earlier.
            if (job->index == 0) startup::mark("first frame submitted");
            return;
        }
        if (r.score_inline) {
            score(*job, 0);
            job->done = true;
            collect_oldest();
            return;
        }
        r.workers->submit([this, job](unsigned worker) {
            score(*job, worker);
            Run& run = *run_;
            bool awaited = false;
            {
                std::lock_guard lock(run.mutex);
                job->done = true;
                awaited = run.awaited == job.get();
            }
            if (awaited) run.job_done.notify_one();
        });
    } catch (...) {
        r.failed = true;
        throw;
    }
}

PipelineResult Pipeline::finish()
{
    if (!run_) throw Error("internal: Pipeline::finish before begin");
    Run& r = *run_;
    if (r.failed) throw Error("scoring failed at an earlier frame (see that error)");
    if (r.finished) throw Error("internal: the pipeline finished already");
    try {
        while (!r.in_flight.empty()) collect_oldest();
        if (r.pushed == 0) throw Error("no frames to score: no frame pair was given");
        // Temporal extractors flush first, as Netflix's threaded flush does
        // (that decides the key order of what flush() writes).
        for (std::size_t e : r.collect_order) extractors_[e]->flush(*r.collector);
    } catch (...) {
        r.failed = true;
        throw;
    }
    r.finished = true;

    PipelineResult result;
    result.frames = r.pushed;
    result.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    if (r.engine) {
        result.device = r.engine->description();
        const bool reused = r.engine_before.frames > 0;
        result.gpu_stats = stats_of_this_run(r.engine->stats(), r.engine_before, reused);
        result.gpu_stats.pinned_ms = r.startup.pinned_ms;
        result.gpu_stats.pinned_pictures = r.startup.pinned_pictures;
        result.gpu_stats.startup_ms = r.startup.startup_ms;
        // Every frame was collected: the engine is idle and can serve the next run.
        if (config_.device_cache) config_.device_cache->give_back(r.shape, std::move(r.engine));
    }
    return result;
}

PipelineResult Pipeline::run(VideoReader& reference, VideoReader& distorted, Collector& collector)
{
    if (!(reference.format() == distorted.format())) {
        throw Error("reference and distorted differ: " + reference.path() + " is " +
                    reference.format().describe() + ", " + distorted.path() + " is " +
                    distorted.format().describe());
    }
    begin(reference.format(), collector);

    reference.skip(config_.skip_ref);
    distorted.skip(config_.skip_dist);
    std::optional<std::uint64_t> frames;
    if (reference.frames_left() && distorted.frames_left()) {
        frames = std::min(*reference.frames_left(), *distorted.frames_left());
        if (config_.frame_cnt) frames = std::min(*frames, config_.frame_cnt);
    }
    run_->score_inline = !run_->on_gpu && run_->threads == 1;
    prepare(frames);

    // On the CPU, --threads also bounds the readers (batch farms run many
    // --threads 1 jobs side by side); a GPU needs them all to be fed.
    const unsigned read_threads =
        run_->on_gpu ? default_read_threads() : std::min(default_read_threads(), run_->threads);
    FrameSource source(reference, distorted, run_->pool,
                       FrameSourceConfig{.frame_limit = config_.frame_cnt,
                                         .read_threads = read_threads,
                                         .ahead = run_->read_ahead,
                                         .frame_prefix = run_->frame_prefix,
                                         .warn = config_.warn});
    for (;;) {
        std::optional<FramePair> pair = source.next();
        if (!pair) break;
        push(std::move(pair->ref), std::move(pair->dis));
    }
    if (run_->pushed == 0) {
        throw Error("no frames to score: " + reference.path() + " and " + distorted.path() +
                    " have no frame pair" +
                    (config_.skip_ref || config_.skip_dist ? " after --frame_skip_ref/--frame_skip_dist" : ""));
    }
    return finish();
}

}  // namespace twinvmaf
