// twinvmaf: the command-line tool, a client of the C++ API
// (include/twinvmaf/engine.h). Mirrors Netflix's `vmaf` CLI for one pair, and
// scores every pair of a list with --batch; every error ends here as one
// line on stderr, a nonzero exit, and no output file.
//
// Exit codes: 0 success, 1 bad command line, 2 bad input or failed run.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/scores_data.h"
#include "cli/batch.h"
#include "cli/cli_args.h"
#include "cli/progress.h"
#include "core/message_text.h"
#include "core/simd.h"
#include "core/startup_timeline.h"
#include "io/video_reader.h"
#include "output/output_file.h"
#include "twinvmaf/engine.h"
#include "twinvmaf/error.h"
#include "twinvmaf/version.h"

namespace twinvmaf::cli {
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

// Loads each --model (cli::load_model), naming the argument in errors.
std::vector<Model> load_models(const Settings& settings)
{
    std::vector<Model> models;
    for (const ModelRequest& request : settings.models) {
        try {
            models.push_back(load_model(request));
        } catch (const Error& e) {
            throw Error("--model " + message_text(request.text) + ": " + e.what());
        }
    }
    return models;
}

EngineConfig engine_config(const Settings& settings)
{
    EngineConfig config;
    if (settings.backend == "cpu") config.backend = Backend::kCpu;
    if (settings.backend == "cuda") config.backend = Backend::kCuda;
    if (settings.backend == "hip") config.backend = Backend::kHip;
    config.gpu = settings.gpu;
    config.threads = settings.threads;
    // An explicit --gpu with --backend auto must name a device that exists,
    // or it would be silently ignored (the CPU would run).
    if (settings.gpu_given && !config.backend && Engine::devices(Backend::kCuda) <= settings.gpu &&
        Engine::devices(Backend::kHip) <= settings.gpu)
        throw Error("--gpu " + std::to_string(settings.gpu) + ": there is no such GPU (CUDA devices: " +
                    std::to_string(Engine::devices(Backend::kCuda)) +
                    ", HIP devices: " + std::to_string(Engine::devices(Backend::kHip)) + ")");
    return config;
}

// With --no_prediction, models still choose features (as in Netflix's vmaf)
// but predict nothing.
SessionConfig session_config(const Settings& settings, std::vector<Model> models)
{
    SessionConfig config;
    config.models = std::move(models);
    for (const FeatureRequest& request : settings.features)
        config.features.push_back(twinvmaf::FeatureRequest{request.name, request.options});
    config.subsample = settings.subsample;
    config.predict = !settings.no_prediction;
    return config;
}

// Scores one pair (settings.reference, settings.distorted) in a session of
// `engine` and writes its output, as a single run and each --batch pair do.
// `label` prefixes the closing line ("" for a single run).
void score_pair(const Engine& engine, const SessionConfig& session_config, const Settings& settings,
                const std::string& label)
{
    const auto started = std::chrono::steady_clock::now();
    // A bad TWINVMAF_SIMD fails now, whatever the features.
    simd::configure();
    // A folder, a missing folder or a read-only file fails now, not after
    // the scoring; the path is resolved again when the output is written.
    if (!settings.output_path.empty()) resolve_output_target(settings.output_path);
    Session session = engine.open(session_config);

    const bool show_progress = !settings.quiet && ::isatty(STDERR_FILENO);
    std::optional<Progress> progress;
    ScoreCallbacks callbacks;
    callbacks.opened = [&](std::optional<std::uint64_t> frames) { progress.emplace(show_progress, frames, label); };
    callbacks.progress = [&](std::uint64_t done) { progress->update(done); };
    callbacks.warn = [&](const std::string& message) {
        if (progress) progress->interrupt();
        std::fprintf(stderr, "twinvmaf: warning: %s\n", message.c_str());
    };
    const Inputs inputs{.reference = settings.reference,
                        .distorted = settings.distorted,
                        .raw_format = settings.raw_format,
                        .frame_cnt = settings.frame_cnt,
                        .skip_ref = settings.frame_skip_ref,
                        .skip_dist = settings.frame_skip_dist,
                        .reference_stream = settings.ref_stream,
                        .distorted_stream = settings.dist_stream,
                        .scale = settings.scale,
                        .pix_fmt = settings.pix_fmt,
                        .hwdec = settings.hwdec};
    const auto pipeline_started = std::chrono::steady_clock::now();
    std::optional<Scores> scored;
    try {
        scored = session.score(inputs, callbacks);
    } catch (...) {
        if (progress) progress->interrupt();
        throw;
    }
    const Scores& scores = *scored;
    if (progress) progress->finish(scores.frames());
    const double pipeline_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pipeline_started).count();

    // Netflix prints the pooled scores when stderr is a terminal, unless
    // --quiet is given together with an output file.
    if (!settings.no_prediction && ::isatty(STDERR_FILENO) && (!settings.quiet || settings.output_path.empty()))
        std::fputs(scores.pooled_summary().c_str(), stderr);

    if (!settings.output_path.empty()) scores.write(settings.output_path, settings.output_format, settings.precision);
    // Which backend ran, once the run has succeeded.
    if (!settings.quiet) {
        const std::string where =
            scores.device().empty() ? std::to_string(scores.threads()) + " threads" : scores.device();
        std::fprintf(stderr, "twinvmaf: %sbackend %s (%s), %llu frames\n", label.c_str(),
                     backend_name(scores.backend()), where.c_str(), static_cast<unsigned long long>(scores.frames()));
        // TWINVMAF_GPU_TIMING=1: where the time went (per frame on a GPU).
        const GpuStats& gpu = scores.data().result.gpu_stats;
        if (std::getenv("TWINVMAF_GPU_TIMING") && scores.backend() == Backend::kCpu) {
            const double total_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            std::fprintf(stderr, "twinvmaf: %shost ms: start-up 0.0 (cpu), frame loop %.1f (%.3f/frame), pipeline "
                                 "%.1f, whole run %.1f\n",
                         label.c_str(), 1000 * scores.seconds(), 1000 * scores.seconds() / std::max<double>(1, scores.frames()),
                         pipeline_ms, total_ms);
        }
        if (gpu.frames && (gpu.upload_ms > 0 || gpu.readback_ms > 0)) {
            const double n = static_cast<double>(gpu.frames);
            std::fprintf(stderr, "twinvmaf: %sdevice ms/frame: upload %.4f", label.c_str(), gpu.upload_ms / n);
            for (const auto& [feature, ms] : gpu.twin_ms) std::fprintf(stderr, ", %s %.4f", feature.c_str(), ms / n);
            std::fprintf(stderr, ", readback %.4f\n", gpu.readback_ms / n);
            // Where the pictures came from: uploaded from the host, or copied
            // on the device from a decoder's surface (--hwdec cuda).
            std::fprintf(stderr, "twinvmaf: %sflow: %llu uploads, %llu device copies, %llu readbacks, %llu host waits\n",
                         label.c_str(), static_cast<unsigned long long>(gpu.uploads),
                         static_cast<unsigned long long>(gpu.device_copies),
                         static_cast<unsigned long long>(gpu.readbacks), static_cast<unsigned long long>(gpu.host_waits));
            const double total_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            const double seconds = scores.seconds();
            std::fprintf(stderr,
                         "twinvmaf: %shost ms: start-up %.1f (engine %.1f, then %zu pinned pictures %.1f), "
                         "frame loop %.1f (%.3f/frame), pipeline %.1f, whole run %.1f; device span %.1f (%.3f/frame)\n",
                         label.c_str(), gpu.startup_ms, gpu.setup_ms, gpu.pinned_pictures, gpu.pinned_ms, 1000 * seconds,
                         1000 * seconds / n, pipeline_ms, total_ms, gpu.device_span_ms, gpu.device_span_ms / n);
            if (const std::string steps = startup::summary(); !steps.empty())
                std::fprintf(stderr, "twinvmaf: %sstart-up ms: %s\n", label.c_str(), steps.c_str());
        }
    }
}

int run(const Settings& settings)
{
    // The output path is checked before anything else (again by score_pair).
    if (!settings.output_path.empty()) resolve_output_target(settings.output_path);
    const Engine engine(engine_config(settings));
    std::vector<Model> models = load_models(settings);
    startup::mark("options and models");
    score_pair(engine, session_config(settings, std::move(models)), settings, "");
    return 0;
}

// --batch LIST: every pair of the list in one process, through one engine
// (a GPU's engine and pinned pictures are made once for pairs of one shape),
// each exactly as a single run would score and write it. A pair that fails
// is reported and the rest go on; the exit status says whether any failed.
// The list's text; why not, when it cannot be read (no such file, a
// folder, no permission).
std::string read_batch_list(const std::string& path)
{
    const std::string what = "--batch " + message_text(path) + ": cannot read the list: ";
    std::error_code status;
    if (std::filesystem::is_directory(path, status)) throw Error(what + "it is a folder, not a list file");
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) throw Error(what + std::strerror(errno));
    std::string text;
    char buffer[1 << 16];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get())) text.append(buffer, n);
    if (std::ferror(file.get())) throw Error(what + std::strerror(errno));
    return text;
}

int run_batch(const Settings& settings)
{
    const std::vector<BatchPair> pairs = parse_batch_list(read_batch_list(settings.batch_list));
    if (pairs.empty()) throw Error("--batch " + message_text(settings.batch_list) + ": the list names no pair");
    const std::string& output_option = settings.output_path;
    if (!output_option.empty() && output_option != "-") {
        std::error_code status;
        if (!std::filesystem::exists(output_option, status))
            throw Error("--batch: -o " + message_text(output_option) +
                        ": no such folder (create it first; -o names the folder each pair's output goes to)");
        if (!std::filesystem::is_directory(output_option, status))
            throw Error("--batch: -o " + message_text(output_option) +
                        " is not a folder (it names where each pair's output goes)");
    }

    const Engine engine(engine_config(settings));
    const SessionConfig config = session_config(settings, load_models(settings));
    // An unknown feature or option fails every pair alike: say so once.
    (void)engine.open(config);

    std::map<std::string, std::size_t> outputs;  // path -> line that writes it
    std::size_t failed = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const BatchPair& pair = pairs[i];
        const std::string label = "pair " + std::to_string(i + 1) + "/" + std::to_string(pairs.size()) + " (line " +
                                  std::to_string(pair.line) + "): ";
        try {
            if (!pair.error.empty()) throw Error(pair.error);
            Settings one = settings;
            one.batch_list.clear();
            one.reference = pair.reference;
            one.distorted = pair.distorted;
            if (pair.raw_format) one.raw_format = pair.raw_format;
            if (pair.ref_stream) one.ref_stream = pair.ref_stream;
            if (pair.dist_stream) one.dist_stream = pair.dist_stream;
            one.output_path = batch_output_path(pair, output_option, settings.output_format);
            if (one.output_path != "-") {
                const std::string key = std::filesystem::weakly_canonical(one.output_path).string();
                const auto [at, added] = outputs.try_emplace(key, pair.line);
                if (!added)
                    throw Error("output " + message_text(one.output_path) + " is written by line " + std::to_string(at->second) +
                                " already; give this pair its own output=");
            }
            score_pair(engine, config, one, label);
        } catch (const std::exception& e) {
            ++failed;
            std::fprintf(stderr, "twinvmaf: error: %s%s\n", label.c_str(), e.what());
        }
    }
    if (failed || !settings.quiet)
        std::fprintf(stderr, "twinvmaf: batch: %zu of %zu pairs scored, %zu failed\n", pairs.size() - failed,
                     pairs.size(), failed);
    return failed ? 2 : 0;
}

}  // namespace
}  // namespace twinvmaf::cli


int main(int argc, char** argv)
{
    using namespace twinvmaf;
    cli::print_wall_clock("at main()");
    startup::mark("main()");
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
            // Which CPU kernels run (TWINVMAF_SIMD caps them; src/core/simd.h).
            std::printf("CPU kernels: %s\n", simd::name(simd::current()).c_str());
            std::printf("Compressed input: %s\n", decodes_compressed_video()
                                                       ? "FFmpeg's libraries (loaded when a file needs them)"
                                                       : "none (built without FFmpeg)");
            return 0;
        case cli::Action::kRun: {
            const int status =
                parsed.settings.batch_list.empty() ? cli::run(parsed.settings) : cli::run_batch(parsed.settings);
            cli::print_wall_clock("after run()");
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
