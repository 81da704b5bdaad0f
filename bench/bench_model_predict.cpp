// Cost of scoring with the built-in models, per frame, from features already
// in the collector (what the CLI does after the pipeline): vmaf_v0.6.1 (one
// SVM, 211 support vectors) and vmaf_b_v0.6.3 (21 SVMs plus the bootstrap
// statistics). Prints time per frame; never a pass/fail.
#include <benchmark/benchmark.h>

#include <random>

#include "core/collector.h"
#include "core/feature_names.h"
#include "model/model.h"
#include "model/predict.h"

namespace {

using namespace twinvmaf;

void score(benchmark::State& state, const char* version)
{
    constexpr std::uint64_t kFrames = 256;
    std::vector<model::LoadedModel> models;
    models.push_back(model::load_builtin_model(version, {}));
    // Plausible feature values in [0, 1]; the inputs are named by alias, as
    // the extractors would write them with default options.
    Collector features;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (model::Model* m : models[0].all_models()) {
        for (model::ModelFeature& feature : m->features) {
            feature.input = feature_alias(feature.name);
            if (features.find(feature.input)) continue;
            for (std::uint64_t frame = 0; frame < kFrames; ++frame) features.set(feature.input, frame, unit(rng));
        }
    }
    for (auto _ : state) {
        Collector collector = features;
        model::score_models(models, collector, kFrames, 1);
        benchmark::DoNotOptimize(collector.series().back().values.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kFrames));
    state.counters["us/frame"] = benchmark::Counter(
        static_cast<double>(state.iterations() * kFrames), benchmark::Counter::kIsRate | benchmark::Counter::kInvert,
        benchmark::Counter::kIs1000);
}

BENCHMARK_CAPTURE(score, vmaf_v0_6_1, "vmaf_v0.6.1")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(score, vmaf_b_v0_6_3, "vmaf_b_v0.6.3")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
