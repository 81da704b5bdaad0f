// The pipeline: reads frame pairs, runs every extractor on them - frames in
// parallel on a thread pool - and collects the results strictly in frame
// order, so the output is the same bytes for any thread count.
//
//   main thread:  read pair N+k ... | collect N (in order) | recycle pictures
//   workers:      extract(N), extract(N+1), ... concurrently
//
// With a GPU backend the workers are replaced by the GPU engine: the main
// thread submits frame N+k to the device and collects frame N from it.
//
// At most `window` frames are in flight; pictures are recycled through a
// pool, so memory does not grow with the video's length.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/collector.h"
#include "core/feature.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"

namespace twinvmaf {

class PicturePool;

struct PipelineConfig {
    unsigned threads = 0;           // 0: every core
    unsigned subsample = 1;         // non-temporal features run on multiples only
    std::uint64_t frame_cnt = 0;    // 0: all frames
    std::uint64_t skip_ref = 0;     // frames dropped at the start of each input
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
};

struct PipelineResult {
    std::uint64_t frames = 0;  // frame pairs scored
    double seconds = 0.0;      // wall time of the frame loop
    std::string device;        // the GPU that ran, empty on the CPU
    GpuStats gpu_stats;        // zero on the CPU
};

class Pipeline {
public:
    Pipeline(std::vector<std::unique_ptr<FeatureExtractor>> extractors, PipelineConfig config);
    ~Pipeline();

    // Throws twinvmaf::Error on mismatched inputs, zero frames, read errors
    // and extractor refusals; the collector is then incomplete and must not
    // be written.
    PipelineResult run(VideoReader& reference, VideoReader& distorted, Collector& collector);

private:
    GpuStats start_gpu(const VideoFormat& format, unsigned history, std::size_t upload_bytes, std::size_t pictures,
                       unsigned threads, PicturePool& pool, std::unique_ptr<GpuEngine>& engine) const;

    std::vector<std::unique_ptr<FeatureExtractor>> extractors_;
    PipelineConfig config_;
};

}  // namespace twinvmaf
