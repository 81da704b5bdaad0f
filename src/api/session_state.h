// What a Session holds (include/twinvmaf/engine.h) from Engine::open() to
// its Scores: the extractors for its models and features, the backend they
// run on, and the pipeline once pictures arrive.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/scores_data.h"
#include "core/device_cache.h"
#include "core/feature.h"
#include "core/options.h"
#include "core/pipeline.h"
#include "twinvmaf/engine.h"

namespace twinvmaf {

struct Engine::State {
    EngineConfig config;
    DeviceCache device_cache;
};

struct Session::State {
    std::shared_ptr<Engine::State> engine;  // keeps the device cache alive
    // One configuration (extractor, option values) per extractor, in
    // Netflix's order of registration: the models' features, then the rest.
    std::vector<OptionValues> configs;
    std::vector<std::unique_ptr<FeatureExtractor>> extractors;  // until the pipeline takes them
    std::vector<std::string> output_names;
    Backend backend = Backend::kCpu;
    unsigned subsample = 1;
    bool device_pictures = false;  // SessionConfig::device_pictures
    std::shared_ptr<detail::ScoresData> data;
    std::unique_ptr<Pipeline> pipeline;
    bool used = false;      // score() or start() called
    bool finished = false;
    std::string start_error;  // why start() failed: every later call says it

    PipelineConfig pipeline_config() const;
    // Both pictures have the session's format; else an Error naming frame.
    void check_formats(const Picture& reference, const Picture& distorted, std::uint64_t frame) const;
    // After the last frame: prediction, then the Scores.
    Scores complete(PipelineResult result);
};

}  // namespace twinvmaf
