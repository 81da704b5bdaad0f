// Engine::open(): a session's extractors from its models and features, and
// the backend they run on.
#include <algorithm>
#include <span>

#include "api/session_state.h"
#include "core/message_text.h"
#include "core/thread_pool.h"
#include "gpu/gpu_engine.h"
#include "model/binding.h"
#include "model/predict.h"

namespace twinvmaf {

namespace {

// The extractors to run, in Netflix's order of registration: every model's
// features (models in order), then the other features. A configuration
// (extractor and option values) asked for twice runs once. Sets the models'
// inputs.
std::vector<OptionValues> extractor_configs(std::vector<model::LoadedModel>& models,
                                            const std::vector<FeatureRequest>& features)
{
    std::vector<OptionValues> wanted;
    for (model::LoadedModel& loaded : models) {
        for (OptionValues& values : model::bind_to_extractors(loaded)) wanted.push_back(std::move(values));
    }
    for (const FeatureRequest& request : features) {
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
std::vector<std::unique_ptr<FeatureExtractor>> make_extractors(const std::vector<OptionValues>& configs,
                                                               std::span<const model::LoadedModel> predicting,
                                                               std::vector<std::string>& names)
{
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;
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

// Auto: the GPU when this build has one, a device is present and every
// feature has a twin there that takes its options; otherwise the CPU. A
// session without features (it only reads the pairs: a read or frame count
// check) runs on the CPU: the GPU would add its engine's start-up (about
// 180 ms) and an upload per picture, and score nothing.
Backend choose_backend(const EngineConfig& config, const std::vector<OptionValues>& features)
{
    if (config.backend) return *config.backend;
    if (features.empty()) return Backend::kCpu;
    for (Backend gpu : {Backend::kCuda, Backend::kHip}) {
        if (gpu_device_count(gpu) <= config.gpu) continue;
        if (gpu_refusal(gpu, features).empty()) return gpu;
    }
    return Backend::kCpu;
}

}  // namespace

Engine::Engine(EngineConfig config) : state_(std::make_shared<State>())
{
    state_->config = std::move(config);
}

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

const EngineConfig& Engine::config() const { return state_->config; }

bool Engine::compiled(Backend backend) { return backend_compiled(backend); }
int Engine::devices(Backend backend) { return gpu_device_count(backend); }

Session Engine::open(const SessionConfig& config) const
{
    auto state = std::make_unique<Session::State>();
    state->engine = state_;
    state->subsample = std::max(1u, config.subsample);
    state->device_pictures = config.device_pictures;
    auto data = std::make_shared<detail::ScoresData>();
    data->predict = config.predict;
    data->subsample = state->subsample;
    for (const Model& model : config.models) data->models.push_back(model.loaded());

    state->configs = extractor_configs(data->models, config.features);
    state->extractors = make_extractors(state->configs,
                                        config.predict ? std::span<const model::LoadedModel>(data->models)
                                                       : std::span<const model::LoadedModel>(),
                                        state->output_names);
    state->backend = choose_backend(state_->config, state->configs);
    data->backend = state->backend;
    data->threads = state->backend == Backend::kCpu ? resolve_thread_count(state_->config.threads) : 0;
    state->data = std::move(data);
    return Session(std::move(state));
}

}  // namespace twinvmaf
