// The scores of a long run, for the output writers' test
// (tests/unit/test_writers.cpp) and benchmark (bench/bench_output_writer.cpp):
// `frames` frames of `features` scores named feature_0, feature_1, ..., each
// in [0, 100), the same on every call.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "core/collector.h"

namespace twinvmaf::test {

inline Collector long_run_scores(std::uint64_t frames, std::size_t features)
{
    Collector scores;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 100.0);
    for (std::size_t k = 0; k < features; ++k) scores.id("feature_" + std::to_string(k));
    for (std::uint64_t i = 0; i < frames; ++i)
        for (std::size_t k = 0; k < features; ++k) scores.set(k, i, unit(rng));
    return scores;
}

}  // namespace twinvmaf::test
