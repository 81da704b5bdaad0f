// The GPU backend as the pipeline sees it. This header is plain C++ and is
// compiled in every build; without CUDA/HIP the functions below report that no
// GPU backend is built (src/gpu/no_gpu.cpp).
//
// Per frame pair the engine uploads both pictures (pinned memory, async, on a
// copy stream), enqueues every twin's kernels (a stream per twin, after the
// upload), and reads back one small result block; the host waits only in
// collect(). With gpu_engine_depth() >= 2 slots the pipeline submits frame
// N+1 before it collects frame N, so uploads overlap scoring.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/feature.h"
#include "core/options.h"
#include "twinvmaf/backend.h"
#include "twinvmaf/picture.h"

namespace twinvmaf {

// True while the calling thread has a CUDA context current that its caller
// chose (libvmaf's CUDA API: FFmpeg's own device context, capi::CudaScope).
// An engine made on this thread then runs in that context instead of making
// the device's primary context current.
inline thread_local bool gpu_caller_context = false;

// Counters that prove the frame flow (tests assert them per frame).
struct GpuStats {
    std::uint64_t frames = 0;
    std::uint64_t uploads = 0;     // host-to-device copies of pictures
    std::uint64_t device_copies = 0;  // pictures taken from device memory (DeviceSurface)
    std::uint64_t readbacks = 0;   // device-to-host copies
    std::uint64_t host_waits = 0;  // times the host blocked on the device
    // With timing on (TWINVMAF_GPU_TIMING=1): device milliseconds summed over
    // all frames, from events around the uploads, each twin and the readback.
    double upload_ms = 0.0;
    double readback_ms = 0.0;
    double device_span_ms = 0.0;      // first upload to last readback: the device's pace
    // Start-up, wall clock: the engine's construction (device context,
    // allocations), then the pictures pinned up front (pipeline).
    double setup_ms = 0.0;
    double pinned_ms = 0.0;
    std::size_t pinned_pictures = 0;
    double startup_ms = 0.0;          // both, one after the other
    std::vector<std::pair<std::string, double>> twin_ms;  // per feature
};

class GpuEngine {
public:
    virtual ~GpuEngine() = default;

    // "CUDA device 0: NVIDIA H200"
    virtual std::string description() const = 0;
    // Uploads the pair into `slot` and enqueues the twins whose `run` flag is
    // set. The pictures must stay alive until collect(slot) returns.
    virtual void submit(unsigned slot, std::uint64_t index, const Picture& ref, const Picture& dis,
                        const std::vector<bool>& run) = 0;
    // Waits for `slot`, then writes each run twin's results into scores[e]
    // exactly as the CPU extractor's extract() would.
    virtual void collect(unsigned slot, const std::vector<bool>& run, std::vector<FrameScores>& scores) = 0;
    virtual GpuStats stats() const = 0;
};

// Before FFmpeg's NVDEC opens CUDA device `device` in its primary context
// (io/av_decoder.cpp): gives that context the scheduling flags FFmpeg
// insists on, so that the decoder and the twins share it whether or not
// the twins opened it first. False without CUDA or where the driver says no
// (FFmpeg then reports why).
bool share_primary_context_with_ffmpeg(int device);

// True when this build contains `backend` (CPU always).
bool backend_compiled(Backend backend);
// Devices of `backend` present (0 when not compiled or none).
int gpu_device_count(Backend backend);
// True when `feature` has a twin on `backend`.
bool twin_exists(const std::string& feature, Backend backend);
// Why `features` (extractor option values) cannot all run on `backend`: ""
// when they can, else a one-line reason ("feature 'x' has no cuda twin yet;
// use --backend cpu", or an option only the CPU reference has). The pipeline
// asks before any extractor is initialised, so nothing is set up (no file
// made) for a run that is refused.
std::string gpu_refusal(Backend backend, const std::vector<OptionValues>& features);

// Pinned host memory for pictures scored on `device`, so that uploads need
// no staging copy. It carries the device rather than an engine, because the
// pool makes pictures on its helper threads, each of which must make that
// device current (Pipeline::start_gpu: after the engine, not beside it).
PictureAllocator pinned_picture_allocator(Backend backend, int device);

// Frame pairs that may be in flight at once (slots 0 .. depth-1) in an
// engine whose twins look back `history` frames. A free function: the
// pipeline sizes its picture pool before the engine exists.
unsigned gpu_engine_depth(unsigned history);

// One engine running the twins of `features` (their option values, in
// extractor order) on device `device`. Throws twinvmaf::Error when the
// backend is not built, the device does not exist, or a feature has no twin.
// Each picture's first `upload_bytes` (the planes the twins read; the whole
// frame when larger or 0) are uploaded.
std::unique_ptr<GpuEngine> make_gpu_engine(Backend backend, int device, const VideoFormat& format,
                                           const std::vector<OptionValues>& features, unsigned history,
                                           std::size_t upload_bytes = 0);

}  // namespace twinvmaf
