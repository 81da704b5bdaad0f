// Session: one pair, scored from files or from pictures handed in, through
// the one pipeline.
#include <algorithm>
#include <cstring>

#include "api/session_state.h"
#include "core/startup_timeline.h"
#include "io/video_reader.h"
#include "model/predict.h"

namespace twinvmaf {

namespace {

std::optional<std::uint64_t> expected_frames(const Inputs& inputs, const VideoReader& ref, const VideoReader& dis)
{
    const auto ref_count = ref.frame_count();
    const auto dis_count = dis.frame_count();
    if (!ref_count || !dis_count) return inputs.frame_cnt ? std::optional(inputs.frame_cnt) : std::nullopt;
    const std::uint64_t ref_left = *ref_count > inputs.skip_ref ? *ref_count - inputs.skip_ref : 0;
    const std::uint64_t dis_left = *dis_count > inputs.skip_dist ? *dis_count - inputs.skip_dist : 0;
    std::uint64_t frames = std::min(ref_left, dis_left);
    if (inputs.frame_cnt) frames = std::min(frames, inputs.frame_cnt);
    return frames;
}

// How each input is decoded, when it is compressed video. The flags are
// parsed before any file is opened, so a bad one fails whatever the inputs.
DecodeOptions decode_options(const Inputs& inputs, bool reference, unsigned threads)
{
    DecodeOptions options;
    options.stream = reference ? inputs.reference_stream : inputs.distorted_stream;
    options.stream_option = reference ? "--ref_stream" : "--dist_stream";
    if (!inputs.pix_fmt.empty()) options.convert_to = parse_pixel_format_name(inputs.pix_fmt, "--pix_fmt");
    if (!reference && !inputs.scale.empty()) options.scale_flags = parse_scale_flags(inputs.scale, "--scale");
    options.threads = threads;
    return options;
}

// --hwdec: NVDEC decodes on the run's GPU when asked ("cuda"), or by default
// ("auto", "") when the run scores on CUDA (asked for, or chosen by --backend
// auto) and no host step (--scale, --pix_fmt) is; "auto" decodes on the host
// what NVDEC cannot decode. NVDEC's pictures were shown to score the host
// decode's bytes on H.264, HEVC and VP9 (docs/decoding.md).
void set_hardware_decoding(DecodeOptions& options, const Inputs& inputs, Backend backend, int gpu)
{
    const HardwareDecodingMode mode =
        inputs.hwdec.empty() ? HardwareDecodingMode::kAuto : parse_hardware_decoding(inputs.hwdec, "--hwdec");
    if (mode == HardwareDecodingMode::kNone) return;
    const bool host_step = !inputs.scale.empty() || !inputs.pix_fmt.empty();
    if (mode == HardwareDecodingMode::kCuda) {
        if (backend != Backend::kCuda)
            throw Error("--hwdec cuda: NVDEC's pictures stay in GPU memory, which only --backend cuda scores (this "
                        "run is on " + std::string(backend_name(backend)) + ")");
        if (host_step)
            throw Error("--hwdec cuda: --scale and --pix_fmt are host steps; give --hwdec none with them");
    } else if (backend != Backend::kCuda || host_step) {
        return;
    }
    options.hardware = HardwareDecoding::kCuda;
    options.gpu = gpu;
    options.hardware_fallback = mode == HardwareDecodingMode::kAuto;
}

// The two inputs must have one format; the message says which flag would
// make them agree where decoding is involved.
void check_same_format(const VideoReader& ref, const VideoReader& dis, const Inputs& inputs)
{
    const VideoFormat& a = ref.format();
    const VideoFormat& b = dis.format();
    if (a == b) return;
    auto described = [](const VideoFormat& f) {
        return f.describe() + " (" + pixel_format_name(f.chroma, f.bitdepth) + ")";
    };
    std::string message = "reference and distorted differ: " + ref.path() + " is " + described(a) + ", " +
                          dis.path() + " is " + described(b);
    if (a.width != b.width || a.height != b.height) {
        if (dis.decoded() && inputs.scale.empty())
            message += "; give --scale bicubic (or another libswscale filter) to scale the distorted to " +
                       std::to_string(a.width) + "x" + std::to_string(a.height);
        else if (!dis.decoded())
            message += " (only a compressed distorted is scaled, with --scale)";
    } else if ((ref.decoded() || dis.decoded()) && inputs.pix_fmt.empty()) {
        message += "; give --pix_fmt " + pixel_format_name(a.chroma, a.bitdepth) + " (or another) to convert decoded pictures";
    }
    throw Error(message);
}

}  // namespace

PipelineConfig Session::State::pipeline_config() const
{
    PipelineConfig config;
    config.threads = engine->config.threads;
    config.subsample = subsample;
    config.backend = backend;
    config.gpu_device = engine->config.gpu;
    config.feature_options = configs;
    config.device_cache = &engine->device_cache;
    config.device_pictures = device_pictures;
    return config;
}

void Session::State::check_formats(const Picture& reference, const Picture& distorted, std::uint64_t frame) const
{
    for (const Picture* picture : {&reference, &distorted}) {
        if (!(picture->format() == data->format))
            throw Error(std::string(picture == &reference ? "reference" : "distorted") + " picture of frame " +
                        std::to_string(frame) + " is " + picture->format().describe() +
                        ", but this session scores " + data->format.describe());
    }
}

Scores Session::State::complete(PipelineResult result)
{
    finished = true;
    data->frames = result.frames;
    data->result = std::move(result);
    if (data->predict) model::score_models(data->models, data->collector, data->frames, data->subsample);
    return Scores(data);
}

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Backend Session::backend() const { return state_->backend; }

std::vector<std::string> Session::output_names() const { return state_->output_names; }

Scores Session::score(const Inputs& inputs, const ScoreCallbacks& callbacks)
{
    State& s = *state_;
    if (s.used) throw Error("a session scores one pair; open another session for the next");
    s.used = true;
    // libavcodec's threads: on the CPU at most --threads, as the readers
    // (batch farms run many --threads 1 jobs side by side).
    const unsigned decode_threads = s.backend == Backend::kCpu ? s.engine->config.threads : 0;
    DecodeOptions ref_decode = decode_options(inputs, true, decode_threads);
    DecodeOptions dis_decode = decode_options(inputs, false, decode_threads);
    set_hardware_decoding(ref_decode, inputs, s.backend, s.engine->config.gpu);
    set_hardware_decoding(dis_decode, inputs, s.backend, s.engine->config.gpu);
    auto reference = open_video(inputs.reference, inputs.raw_format, ref_decode);
    if (!inputs.scale.empty()) dis_decode.scale_to = std::pair(reference->format().width, reference->format().height);
    auto distorted = open_video(inputs.distorted, inputs.raw_format, dis_decode);
    startup::mark("inputs opened");
    check_same_format(*reference, *distorted, inputs);
    if (callbacks.opened) callbacks.opened(expected_frames(inputs, *reference, *distorted));

    PipelineConfig config = s.pipeline_config();
    config.frame_cnt = inputs.frame_cnt;
    config.skip_ref = inputs.skip_ref;
    config.skip_dist = inputs.skip_dist;
    config.device_pictures = reference->device_pictures() && distorted->device_pictures();
    config.progress = callbacks.progress;
    config.warn = callbacks.warn;
    s.pipeline = std::make_unique<Pipeline>(std::move(s.extractors), config);
    s.data->format = reference->format();
    PipelineResult result = s.pipeline->run(*reference, *distorted, s.data->collector);
    s.pipeline.reset();
    return s.complete(std::move(result));
}

void Session::start(const VideoFormat& format)
{
    State& s = *state_;
    if (s.used) throw Error("the session has already started");
    s.used = true;
    s.data->format = format;
    try {
        auto pipeline = std::make_unique<Pipeline>(std::move(s.extractors), s.pipeline_config());
        pipeline->begin(format, s.data->collector);
        s.pipeline = std::move(pipeline);
    } catch (const std::exception& e) {
        s.start_error = e.what();
        throw;
    }
}

std::shared_ptr<Picture> Session::picture()
{
    State& s = *state_;
    if (!s.pipeline || s.finished) throw Error("no pictures before start() or after finish()");
    return s.pipeline->picture();
}

void Session::push(std::shared_ptr<const Picture> reference, std::shared_ptr<const Picture> distorted)
{
    State& s = *state_;
    if (!reference || !distorted) throw Error("a frame pair needs a reference and a distorted picture");
    if (s.finished) throw Error("frame pair pushed after finish()");
    if (!s.start_error.empty()) throw Error("the session could not start: " + s.start_error);
    if (!s.pipeline) {
        if (s.used) throw Error("a session scores one pair; this one scored files");
        start(reference->format());
    }
    const std::uint64_t frame = s.pipeline->frames_pushed();
    s.check_formats(*reference, *distorted, frame);
    // The readers check what they read; pictures handed in get the same.
    const std::size_t checked = s.pipeline->bytes_read();
    check_sample_range(*reference, "reference picture", frame, 0, checked);
    check_sample_range(*distorted, "distorted picture", frame, 0, checked);
    s.pipeline->push(std::move(reference), std::move(distorted));
}

void Session::push(const Picture& reference, const Picture& distorted)
{
    State& s = *state_;
    if (!s.pipeline && !s.used) start(reference.format());
    if (!s.start_error.empty()) throw Error("the session could not start: " + s.start_error);
    if (s.finished || !s.pipeline) throw Error("frame pair pushed after finish() or to a session that scored files");
    s.check_formats(reference, distorted, s.pipeline->frames_pushed());
    auto copy = [&](const Picture& from) {
        std::shared_ptr<Picture> to = picture();
        std::memcpy(to->bytes(), from.bytes(), from.size_bytes());
        return std::shared_ptr<const Picture>(std::move(to));
    };
    push(copy(reference), copy(distorted));
}

std::uint64_t Session::frames_pushed() const { return state_->pipeline ? state_->pipeline->frames_pushed() : 0; }

Scores Session::finish()
{
    State& s = *state_;
    if (s.finished) throw Error("finish() was called already");
    if (!s.start_error.empty()) throw Error("the session could not start: " + s.start_error);
    if (!s.pipeline) throw Error("no frames to score: no frame pair was pushed");
    PipelineResult result = s.pipeline->finish();
    s.pipeline.reset();
    return s.complete(std::move(result));
}

void Session::import_score(const std::string& name, std::uint64_t frame, double value)
{
    State& s = *state_;
    if (s.finished) throw Error("import_score(): the session has finished");
    if (std::find(s.output_names.begin(), s.output_names.end(), name) != s.output_names.end())
        throw Error("import_score(): '" + name + "' is computed by this session and cannot be imported");
    Collector& collector = s.data->collector;
    if (const auto id = collector.find(name); id && collector.has(*id, frame))
        throw Error("import_score(): '" + name + "' already has a value at frame " + std::to_string(frame));
    collector.set(name, frame, value);
}

}  // namespace twinvmaf
