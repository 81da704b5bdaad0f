// twinvmaf: the command-line tool. Mirrors Netflix's `vmaf` CLI; every error
// ends here as one line on stderr, a nonzero exit, and no output file.
//
// Exit codes: 0 success, 1 bad command line, 2 bad input or failed run.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "cli/progress.h"
#include "core/collector.h"
#include "core/feature.h"
#include "core/message_text.h"
#include "core/pipeline.h"
#include "core/thread_pool.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"
#include "model/binding.h"
#include "model/model.h"
#include "model/predict.h"
#include "output/output_file.h"
#include "output/writers.h"
#include "twinvmaf/error.h"
#include "twinvmaf/version.h"

namespace twinvmaf::cli {
namespace {

// Loads each --model as Netflix's vmaf does: the built-in version or the file,
// then its "<extractor>.<option>=<value>" overrides.
std::vector<model::LoadedModel> load_models(const Settings& settings)
{
    std::vector<model::LoadedModel> models;
    for (const ModelRequest& request : settings.models) {
        try {
            const model::LoadOptions options{.name = request.name,
                                             .disable_clip = request.disable_clip,
                                             .enable_transform = request.enable_transform};
            model::LoadedModel loaded = request.version.empty()
                                            ? model::load_model_file(request.path, options)
                                            : model::load_builtin_model(request.version, options);
            for (const auto& [extractor, overrides] : request.overrides)
                model::apply_override(loaded, extractor, overrides);
            models.push_back(std::move(loaded));
        } catch (const Error& e) {
            throw Error("--model " + message_text(request.text) + ": " + e.what());
        }
    }
    return models;
}

// The extractors to run, in Netflix's order of registration: every model's
// features (models in order), then --feature. A configuration (extractor and
// option values) asked for twice runs once. Sets the models' inputs.
std::vector<OptionValues> extractor_configs(const Settings& settings,
                                            std::vector<model::LoadedModel>& models)
{
    std::vector<OptionValues> wanted;
    for (model::LoadedModel& loaded : models) {
        for (OptionValues& values : model::bind_to_extractors(loaded)) wanted.push_back(std::move(values));
    }
    for (const FeatureRequest& request : settings.features) {
        const FeatureInfo& info = find_feature(request.name);
        OptionValues values(info.name, info.options);
        values.set_all(request.options);
        wanted.push_back(std::move(values));
    }
    std::vector<OptionValues> distinct;
    for (OptionValues& values : wanted) {
        if (std::find(distinct.begin(), distinct.end(), values) == distinct.end())
            distinct.push_back(std::move(values));
    }
    return distinct;
}

// One extractor per configuration. Two that would write the same output name
// (e.g. the same extractor with a different non-naming option), or a
// predicting model named like an output, are an error rather than a silent
// overwrite.
std::vector<std::unique_ptr<FeatureExtractor>> make_extractors(
    const std::vector<OptionValues>& configs, std::span<const model::LoadedModel> predicting)
{
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
    std::vector<std::string> names;
    auto claim = [&](const std::string& name, const std::string& writer) {
        if (std::find(names.begin(), names.end(), name) != names.end())
            throw Error("two sources write '" + message_text(name) + "' (the second: " + message_text(writer) +
                        "); give each feature once, with options that rename its outputs, "
                        "and name models apart with --model ...:name=");
        names.push_back(name);
    };
    for (const OptionValues& values : configs) {
        extractors.push_back(find_feature(values.feature()).create(values));
        for (const std::string& name : extractors.back()->output_names()) claim(name, "feature " + values.feature());
    }
    for (const model::LoadedModel& loaded : predicting) {
        for (const std::string& name : model::output_names(loaded)) claim(name, "model " + loaded.label);
    }
    return extractors;
}

// --backend auto: the GPU when this build has one, a device is present and
// every feature has a twin there; otherwise the CPU.
Backend choose_backend(const Settings& settings, const std::vector<OptionValues>& features)
{
    if (settings.backend == "cpu") return Backend::kCpu;
    if (settings.backend == "cuda") return Backend::kCuda;
    if (settings.backend == "hip") return Backend::kHip;
    // An explicit --gpu must name a device that exists, or it would be
    // silently ignored.
    if (settings.gpu_given && gpu_device_count(Backend::kCuda) <= settings.gpu &&
        gpu_device_count(Backend::kHip) <= settings.gpu)
        throw Error("--gpu " + std::to_string(settings.gpu) + ": there is no such GPU (CUDA devices: " +
                    std::to_string(gpu_device_count(Backend::kCuda)) +
                    ", HIP devices: " + std::to_string(gpu_device_count(Backend::kHip)) + ")");
    for (Backend gpu : {Backend::kCuda, Backend::kHip}) {
        if (gpu_device_count(gpu) <= settings.gpu) continue;
        const bool all_twins = std::all_of(features.begin(), features.end(), [&](const OptionValues& f) {
            return twin_exists(f.feature(), gpu);
        });
        if (all_twins) return gpu;
    }
    return Backend::kCpu;
}

std::optional<std::uint64_t> expected_frames(const Settings& s, const VideoReader& ref,
                                             const VideoReader& dis)
{
    const auto ref_count = ref.frame_count();
    const auto dis_count = dis.frame_count();
    if (!ref_count || !dis_count) return s.frame_cnt ? std::optional(s.frame_cnt) : std::nullopt;
    const std::uint64_t ref_left = *ref_count > s.frame_skip_ref ? *ref_count - s.frame_skip_ref : 0;
    const std::uint64_t dis_left = *dis_count > s.frame_skip_dist ? *dis_count - s.frame_skip_dist : 0;
    std::uint64_t frames = std::min(ref_left, dis_left);
    if (s.frame_cnt) frames = std::min(frames, s.frame_cnt);
    return frames;
}

int run(const Settings& settings)
{
    const auto started = std::chrono::steady_clock::now();
    // A folder, a missing folder or a read-only file fails now, not after
    // the scoring; the path is resolved again when the output is written.
    if (!settings.output_path.empty()) resolve_output_target(settings.output_path);
    // With --no_prediction, models still choose features (as in Netflix's vmaf)
    // but predict nothing.
    std::vector<model::LoadedModel> models = load_models(settings);
    const std::vector<OptionValues> configs = extractor_configs(settings, models);
    auto extractors = make_extractors(configs, settings.no_prediction ? std::span<const model::LoadedModel>() : models);
    const Backend backend = choose_backend(settings, configs);
    auto reference = open_video(settings.reference, settings.raw_format);
    auto distorted = open_video(settings.distorted, settings.raw_format);

    const bool show_progress = !settings.quiet && ::isatty(STDERR_FILENO);
    Progress progress(show_progress, expected_frames(settings, *reference, *distorted));

    PipelineConfig config;
    config.threads = settings.threads;
    config.subsample = settings.subsample;
    config.frame_cnt = settings.frame_cnt;
    config.skip_ref = settings.frame_skip_ref;
    config.skip_dist = settings.frame_skip_dist;
    config.backend = backend;
    config.gpu_device = settings.gpu;
    config.feature_options = configs;
    config.progress = [&](std::uint64_t done) { progress.update(done); };
    config.warn = [&](const std::string& message) {
        progress.interrupt();
        std::fprintf(stderr, "twinvmaf: warning: %s\n", message.c_str());
    };

    Collector collector;
    Pipeline pipeline(std::move(extractors), config);
    PipelineResult result;
    const auto pipeline_started = std::chrono::steady_clock::now();
    try {
        result = pipeline.run(*reference, *distorted, collector);
    } catch (...) {
        progress.interrupt();
        throw;
    }
    progress.finish(result.frames);
    const double pipeline_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pipeline_started).count();

    if (!settings.no_prediction) {
        model::score_models(models, collector, result.frames, settings.subsample);
        // Netflix prints the pooled scores when stderr is a terminal, unless
        // --quiet is given together with an output file.
        if (::isatty(STDERR_FILENO) && (!settings.quiet || settings.output_path.empty()))
            std::fputs(model::pooled_summary(models, collector, result.frames, settings.subsample).c_str(),
                       stderr);
    }

    if (!settings.output_path.empty()) {
        const VideoFormat& format = reference->format();
        OutputContext context{collector};
        context.frame_count = result.frames;
        context.subsample = settings.subsample;
        context.width = format.width;
        context.height = format.height;
        context.fps = result.seconds > 0 ? static_cast<double>(result.frames) / result.seconds : 0.0;
        context.precision = settings.precision;
        context.version = kVersion;
        write_output_file(settings.output_path, settings.output_format, context);
    }
    // Which backend ran, once the run has succeeded.
    if (!settings.quiet) {
        const std::string where = result.device.empty()
                                      ? std::to_string(resolve_thread_count(settings.threads)) + " threads"
                                      : result.device;
        std::fprintf(stderr, "twinvmaf: backend %s (%s), %llu frames\n", backend_name(backend), where.c_str(),
                     static_cast<unsigned long long>(result.frames));
        // TWINVMAF_GPU_TIMING=1: where the device time went, per frame.
        const GpuStats& gpu = result.gpu_stats;
        if (gpu.frames && (gpu.upload_ms > 0 || gpu.readback_ms > 0)) {
            const double n = static_cast<double>(gpu.frames);
            std::fprintf(stderr, "twinvmaf: device ms/frame: upload %.4f", gpu.upload_ms / n);
            for (const auto& [feature, ms] : gpu.twin_ms) std::fprintf(stderr, ", %s %.4f", feature.c_str(), ms / n);
            std::fprintf(stderr, ", readback %.4f\n", gpu.readback_ms / n);
            const double total_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            std::fprintf(stderr,
                         "twinvmaf: host ms: start-up %.1f (engine %.1f, then %zu pinned pictures %.1f), "
                         "frame loop %.1f (%.3f/frame), pipeline %.1f, whole run %.1f; device span %.1f (%.3f/frame)\n",
                         gpu.startup_ms, gpu.setup_ms, gpu.pinned_pictures, gpu.pinned_ms, 1000 * result.seconds,
                         1000 * result.seconds / n, pipeline_ms, total_ms, gpu.device_span_ms, gpu.device_span_ms / n);
        }
    }
    return 0;
}

}  // namespace
}  // namespace twinvmaf::cli

namespace {

// TWINVMAF_GPU_TIMING=1 also prints the wall clock (ns since the epoch) when
// main() starts and when run() has returned, so that a script timing the
// whole command can tell the process's start and end from its work.
void print_wall_clock(const char* when)
{
    if (!std::getenv("TWINVMAF_GPU_TIMING")) return;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    std::fprintf(stderr, "twinvmaf: wall clock %s: %lld ns\n", when, static_cast<long long>(ns.count()));
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace twinvmaf;
    print_wall_clock("at main()");
    // SIGINT/SIGTERM/SIGHUP/SIGQUIT: remove a half-written temporary output
    // file and say why the run ended.
    install_interrupt_cleanup();
    try {
        const cli::ParseResult parsed = cli::parse_arguments(argc, argv);
        switch (parsed.action) {
        case cli::Action::kHelp:
            std::fputs(cli::usage_text(argv[0]).c_str(), stdout);
            return 0;
        case cli::Action::kVersion:
            std::printf("twinvmaf %s (scores match Netflix libvmaf %s)\n", kVersion,
                        kNetflixReferenceVersion);
            return 0;
        case cli::Action::kRun: {
            const int status = cli::run(parsed.settings);
            print_wall_clock("after run()");
            return status;
        }
        }
    } catch (const cli::UsageError& e) {
        std::fprintf(stderr, "twinvmaf: error: %s\nRun '%s --help' for usage.\n", e.what(), argv[0]);
        return 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "twinvmaf: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "twinvmaf: error: %s\n", e.what());
        return 2;
    }
    return 2;
}
