// What a Scores object holds (include/twinvmaf/scores.h): the collector of
// one pair, the models that predicted into it, and the run's statistics.
#pragma once

#include <cstdint>
#include <vector>

#include "core/collector.h"
#include "core/pipeline.h"
#include "model/model.h"
#include "output/writers.h"
#include "twinvmaf/backend.h"
#include "twinvmaf/picture.h"

namespace twinvmaf::detail {

struct ScoresData {
    Collector collector;
    // Bound to the session's extractors (ModelFeature::input set); with
    // `predict` their scores are in the collector after the features.
    std::vector<model::LoadedModel> models;
    bool predict = true;
    std::uint64_t frames = 0;
    unsigned subsample = 1;
    VideoFormat format;
    Backend backend = Backend::kCpu;
    unsigned threads = 0;  // CPU workers (0 on a GPU)
    PipelineResult result;

    double fps() const
    {
        return result.seconds > 0 ? static_cast<double>(frames) / result.seconds : 0.0;
    }
    // The CLI's output of these scores (its version, the frame size, fps).
    OutputContext output_context(const Precision& precision) const;
};

}  // namespace twinvmaf::detail
