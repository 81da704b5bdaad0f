// The pipeline: takes frame pairs in order, runs every extractor on them -
// frames in parallel on a thread pool - and collects the results strictly in
// frame order, so the output is the same bytes for any thread count.
//
//   caller:   push pair N+k ... | collect N (in order) | recycle pictures
//   workers:  extract(N), extract(N+1), ... concurrently
//
// With a GPU backend the workers are replaced by the GPU engine: push()
// submits frame N+k to the device and collects frame N from it.
//
// Pairs come in two ways, through the same push():
//   push mode  begin(), push() per pair, finish(): the library's API (the C
//              API hands its pictures in one by one);
//   run()      the same over two VideoReaders, read ahead on background
//              threads (the CLI and --batch).
//
// At most `window` frames are in flight; pictures are recycled through a
// pool, so memory does not grow with the video's length.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/collector.h"
#include "core/feature.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"

namespace twinvmaf {

class DeviceCache;
class PicturePool;

struct PipelineConfig {
    unsigned threads = 0;           // 0: every core
    unsigned subsample = 1;         // non-temporal features run on multiples only
    std::uint64_t frame_cnt = 0;    // run(): 0 = all frames
    std::uint64_t skip_ref = 0;     // run(): frames dropped at the start of each input
    std::uint64_t skip_dist = 0;
    // Called on the pipeline's thread after each collected frame.
    std::function<void(std::uint64_t frames_done)> progress;
    // Non-fatal notices (e.g. one input ended before the other).
    std::function<void(const std::string&)> warn;

    // Where extract() runs. For a GPU backend, `feature_options` holds each
    // extractor's option values (same order) so the engine can build twins.
    Backend backend = Backend::kCpu;
    int gpu_device = 0;
    std::vector<OptionValues> feature_options;
    // The pictures will be in GPU memory (DeviceSurface: a hardware
    // decoder's), so none is pinned in host memory for uploads.
    bool device_pictures = false;
    // GPU resources kept from one run to the next (the engine with its
    // streams and twins, pinned pictures); nullptr: made for this run only.
    DeviceCache* device_cache = nullptr;
};

struct PipelineResult {
    std::uint64_t frames = 0;  // frame pairs scored
    double seconds = 0.0;      // wall time of the frame loop
    std::string device;        // the GPU that ran, empty on the CPU
    GpuStats gpu_stats;        // zero on the CPU; this run's share of a reused engine's
};

class Pipeline {
public:
    Pipeline(std::vector<std::unique_ptr<FeatureExtractor>> extractors, PipelineConfig config);
    // Waits for the frames in flight; an unfinished run is dropped.
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    // ---- push mode -------------------------------------------------------
    // Initialises the extractors for `format` (their refusals throw here)
    // and writes into `collector` from then on. Once per pipeline.
    void begin(const VideoFormat& format, Collector& collector);
    // The GPU's start-up (engine, pinned pictures for about `frames` frame
    // pairs); nothing on the CPU. Called by the first push() or picture()
    // when not called before.
    void prepare(std::optional<std::uint64_t> frames = std::nullopt);
    // A picture of the format, from the pipeline's pool (pinned for a GPU):
    // fill it and push it; it returns to the pool when no one holds it.
    std::shared_ptr<Picture> picture();
    // Bytes at the start of each frame that some extractor reads (the rest
    // is neither read from files nor uploaded).
    std::size_t bytes_read() const;
    // The next frame pair (index frames_pushed()). Both must have the
    // format of begin(); they are held until scored. May collect earlier
    // frames, so extractor errors of those surface here.
    void push(std::shared_ptr<const Picture> ref, std::shared_ptr<const Picture> dis);
    std::uint64_t frames_pushed() const;
    // Collects every frame and flushes the extractors. Throws if no pair was
    // pushed. After an exception from push() or finish() the pipeline can
    // only be destroyed.
    PipelineResult finish();

    // ---- pull mode -------------------------------------------------------
    // begin(), every pair the readers give (after the skips, up to
    // frame_cnt; read ahead on background threads), finish(). Throws
    // twinvmaf::Error on mismatched inputs, zero frames, read errors and
    // extractor refusals; the collector is then incomplete and must not be
    // written.
    PipelineResult run(VideoReader& reference, VideoReader& distorted, Collector& collector);

private:
    struct Run;
    struct Job;  // one frame pair to score
    void collect_oldest();
    bool oldest_done();  // CPU: whether the oldest frame in flight is scored
    // Runs every extractor due on `job` with `worker`'s scratch; an error is
    // kept in the job (collect_oldest() rethrows it in frame order).
    void score(Job& job, unsigned worker);

    std::vector<std::unique_ptr<FeatureExtractor>> extractors_;
    PipelineConfig config_;
    std::unique_ptr<Run> run_;
};

}  // namespace twinvmaf
