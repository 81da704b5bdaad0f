// The twinvmaf C++ API.
//
//   Engine   opened once: backend (CPU or a GPU), device, threads. It keeps
//            what a GPU run sets up (the engine's streams and twins, pinned
//            pictures) for the next pair of the same shape.
//   Session  one reference/distorted pair: the models and features to
//            compute (Netflix's names and options), then either
//              score(Inputs)          the pair's files (.y4m, raw .yuv, or
//                                     compressed video such as .mp4, .mkv), or
//              push(ref, dis) ... finish()   pictures handed in one by one;
//            both give the same Scores, bit for bit, on every backend.
//   Scores   per-frame and pooled values, output files (twinvmaf/scores.h).
//
// Errors are twinvmaf::Error exceptions whose message names the feature,
// option, model, file or frame at fault.
//
//   twinvmaf::Engine engine({.threads = 4});
//   twinvmaf::Session session = engine.open({.models = {twinvmaf::Model::builtin("vmaf_v0.6.1")}});
//   twinvmaf::Scores scores = session.score({.reference = "ref.y4m", .distorted = "dis.y4m"});
//   double vmaf = *scores.pooled("vmaf", twinvmaf::PoolMethod::kMean);
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "twinvmaf/backend.h"
#include "twinvmaf/error.h"
#include "twinvmaf/model.h"
#include "twinvmaf/options.h"
#include "twinvmaf/output.h"
#include "twinvmaf/picture.h"
#include "twinvmaf/scores.h"

namespace twinvmaf {

struct EngineConfig {
    // nullopt ("auto"): a GPU when this build has one, a device is there and
    // every feature of the session has a twin on it; otherwise the CPU (also
    // for a session without features).
    std::optional<Backend> backend;
    int gpu = 0;           // GPU device index
    unsigned threads = 0;  // CPU worker threads; 0: every core
};

// A feature extractor by Netflix's name ("psnr", "float_ssim", "adm", ...)
// and its options, e.g. {"psnr", {{"enable_chroma", "false"}}}.
struct FeatureRequest {
    std::string name;
    OptionList options;
};

struct SessionConfig {
    // Models, in order: their features are extracted, then (with `predict`)
    // their scores written after the features, as Netflix's vmaf does.
    std::vector<Model> models;
    // Further features; one asked for twice (same options) runs once.
    std::vector<FeatureRequest> features;
    // Score only frames that are multiples of this (temporal features still
    // see every frame).
    unsigned subsample = 1;
    // false: the models choose features but predict nothing (--no_prediction).
    bool predict = true;
    // The pictures pushed will be in GPU memory (Picture::set_device_surface:
    // libvmaf's CUDA pictures, a hardware decoder's frames), so no picture
    // is pinned in host memory for uploads. Pictures of either kind are
    // scored either way.
    bool device_pictures = false;
};

// A pair of video files for Session::score().
struct Inputs {
    // .y4m (recognised by its header or extension), raw .yuv, or compressed
    // video in a container (MP4, MKV, WebM, IVF, MPEG-TS, ...: whatever
    // FFmpeg's libraries decode, in builds with them; docs/decoding.md).
    std::string reference;
    std::string distorted;
    // Geometry of raw .yuv input (required there; must agree with a .y4m header).
    std::optional<VideoFormat> raw_format;
    std::uint64_t frame_cnt = 0;  // score at most this many pairs (0: all)
    std::uint64_t skip_ref = 0;   // frames dropped at the start of each input
    std::uint64_t skip_dist = 0;
    // ---- compressed inputs only (Y4M and raw input ignore these) ----------
    // The N-th video stream of the file (0-based, as ffmpeg's -map 0:V:N);
    // nullopt: the first.
    std::optional<unsigned> reference_stream;
    std::optional<unsigned> distorted_stream;
    // A decoded distorted picture of another size than the reference's is
    // scaled to the reference's with this libswscale filter, as ffmpeg's
    // -vf scale=W:H:flags=<scale> does ("bicubic", "bilinear", "lanczos",
    // ..., optionally "+accurate_rnd" and the like); empty: a size mismatch
    // is an error.
    std::string scale;
    // Decoded pictures of another pixel format are converted to this one
    // ("yuv420p", "yuv422p10le", ...), as ffmpeg's -pix_fmt does; empty: a
    // format twinvmaf does not score (nv12, rgb24, ...) is an error, and so
    // are inputs of unlike formats.
    std::string pix_fmt;
    // Where they are decoded: "none" (the host), "cuda" (NVDEC on the run's
    // GPU, whose pictures stay in GPU memory: --backend cuda only, without
    // scale or pix_fmt), or "auto" / empty (NVDEC when the session scores on
    // CUDA, asked for or chosen by Backend::kAuto, and neither scale nor
    // pix_fmt is asked for, the host for what NVDEC cannot decode and AV1;
    // else the host).
    std::string hwdec;
};

struct ScoreCallbacks {
    // Both inputs are open: the pairs to score when known (raw files).
    std::function<void(std::optional<std::uint64_t> frames)> opened;
    // After each frame pair is scored (on the calling thread).
    std::function<void(std::uint64_t frames_done)> progress;
    // A notice that does not stop the run (e.g. one input is shorter).
    std::function<void(const std::string& message)> warn;
};

class Session {
public:
    Session(Session&&) noexcept;
    Session& operator=(Session&&) noexcept;
    ~Session();

    // Where this session's features run (decided when it was opened).
    Backend backend() const;
    // Every per-frame series the session writes: features', then models'.
    std::vector<std::string> output_names() const;

    // Scores a pair of files. Once per session (as finish()).
    Scores score(const Inputs& inputs, const ScoreCallbacks& callbacks = {});

    // ---- pictures handed in one by one -----------------------------------
    // Initialises the features for `format` (their refusals of a frame size
    // or bit depth throw here). The first push() calls it when not called.
    void start(const VideoFormat& format);
    // A picture of the started format to fill and push (from the session's
    // pool; page-locked on a GPU, so it uploads without a copy).
    std::shared_ptr<Picture> picture();
    // The next frame pair (frame number = pairs pushed so far). The session
    // keeps the pictures until it has scored them: do not change them.
    // Samples above the bit depth are refused, as the file readers do.
    void push(std::shared_ptr<const Picture> reference, std::shared_ptr<const Picture> distorted);
    // The same for pictures the caller keeps using: copies them first.
    void push(const Picture& reference, const Picture& distorted);
    std::uint64_t frames_pushed() const;
    // Scores every frame pushed, flushes the features and, with
    // SessionConfig::predict, predicts the models.
    Scores finish();

    // A pre-computed score (libvmaf's vmaf_import_feature_score), e.g. a
    // feature twinvmaf does not compute that a model needs. Before finish();
    // a name the session computes itself is refused.
    void import_score(const std::string& name, std::uint64_t frame, double value);

    struct State;
    explicit Session(std::unique_ptr<State> state);
    // Internal: the session's state (src/api/session_state.h).
    State& state() const { return *state_; }

private:
    std::unique_ptr<State> state_;
};

class Engine {
public:
    explicit Engine(EngineConfig config = {});
    ~Engine();
    Engine(Engine&&) noexcept;
    Engine& operator=(Engine&&) noexcept;

    const EngineConfig& config() const;

    // A session for one pair. Throws for an unknown feature or option, a
    // model feature no extractor computes, two sources of one output name,
    // or a backend that is asked for but not built or has no twin of a
    // feature. Sessions may outlive the engine.
    Session open(const SessionConfig& config) const;

    // True when this build contains `backend` (the CPU always).
    static bool compiled(Backend backend);
    // Devices of `backend` present (0 when not built or none).
    static int devices(Backend backend);

    struct State;

private:
    std::shared_ptr<State> state_;
};

}  // namespace twinvmaf
