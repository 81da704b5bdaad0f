// twinvmaf: the command-line tool. Mirrors Netflix's `vmaf` CLI; every error
// ends here as one line on stderr, a nonzero exit, and no output file.
//
// Exit codes: 0 success, 1 bad command line, 2 bad input or failed run.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "cli/progress.h"
#include "core/collector.h"
#include "core/feature.h"
#include "core/pipeline.h"
#include "core/thread_pool.h"
#include "gpu/gpu_engine.h"
#include "io/video_reader.h"
#include "output/writers.h"
#include "twinvmaf/error.h"
#include "twinvmaf/version.h"

namespace twinvmaf::cli {
namespace {

struct Extractors {
    std::vector<OptionValues> options;  // per extractor, for GPU twins
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
};

// One extractor per distinct (feature, options); two that would write the
// same output name are an error rather than a silent overwrite.
Extractors make_extractors(const Settings& settings)
{
    std::vector<OptionValues> distinct;
    for (const FeatureRequest& request : settings.features) {
        const FeatureInfo& info = find_feature(request.name);
        OptionValues values(info.name, info.options);
        values.set_all(request.options);
        if (std::find(distinct.begin(), distinct.end(), values) == distinct.end())
            distinct.push_back(values);
    }

    Extractors result;
    std::vector<std::string> names;
    for (const OptionValues& values : distinct) {
        result.extractors.push_back(find_feature(values.feature()).create(values));
        result.options.push_back(values);
        for (const std::string& name : result.extractors.back()->output_names()) {
            if (std::find(names.begin(), names.end(), name) != names.end())
                throw Error("two --feature requests both write '" + name +
                            "'; give each feature once or with options that rename its outputs");
            names.push_back(name);
        }
    }
    return result;
}

// --backend auto: the GPU when this build has one, a device is present and
// every feature has a twin there; otherwise the CPU.
Backend choose_backend(const Settings& settings, const std::vector<OptionValues>& features)
{
    if (settings.backend == "cpu") return Backend::kCpu;
    if (settings.backend == "cuda") return Backend::kCuda;
    if (settings.backend == "hip") return Backend::kHip;
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
    if (!settings.models.empty() || !settings.no_prediction) {
        throw Error(std::string(settings.models.empty() ? "no --model given: the default model "
                                                          "vmaf_v0.6.1"
                                                        : "--model " + settings.models[0].text) +
                    " needs VMAF models, which are not implemented yet in this version; "
                    "use --no_prediction/-n with --feature (e.g. --feature psnr)");
    }

    Extractors extractors = make_extractors(settings);
    const Backend backend = choose_backend(settings, extractors.options);
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
    config.feature_options = extractors.options;
    config.progress = [&](std::uint64_t done) { progress.update(done); };
    config.warn = [&](const std::string& message) {
        progress.interrupt();
        std::fprintf(stderr, "twinvmaf: warning: %s\n", message.c_str());
    };

    Collector collector;
    Pipeline pipeline(std::move(extractors.extractors), config);
    PipelineResult result;
    try {
        result = pipeline.run(*reference, *distorted, collector);
    } catch (...) {
        progress.interrupt();
        throw;
    }
    progress.finish(result.frames);
    if (!settings.quiet) {
        const std::string where = result.device.empty()
                                      ? std::to_string(resolve_thread_count(settings.threads)) + " threads"
                                      : result.device;
        std::fprintf(stderr, "twinvmaf: backend %s (%s), %llu frames\n", backend_name(backend), where.c_str(),
                     static_cast<unsigned long long>(result.frames));
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
    return 0;
}

}  // namespace
}  // namespace twinvmaf::cli

int main(int argc, char** argv)
{
    using namespace twinvmaf;
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
        case cli::Action::kRun:
            return cli::run(parsed.settings);
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
