// Support for the checkasm-style tests (tests/unit/test_simd_*.cpp): every
// SIMD kernel against its reference on random and extreme rows, for every
// instruction set this build has and this CPU runs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/simd.h"

namespace twinvmaf::test {

// Runs f() once per Highway target (not the reference), with that target
// forced, then returns to the default choice. Returns the targets' names.
template <class F>
std::vector<std::string> for_each_simd_target(const F& f)
{
    std::vector<std::string> names;
    for (simd::Target target : simd::available()) {
        if (target == simd::kReference) continue;
        simd::force(target);
        names.push_back(simd::name(target));
        SCOPED_TRACE("SIMD target " + names.back());
        f();
    }
    simd::force(-1);
    return names;
}

// How a test row is filled: uniformly random, or one of the extremes.
enum class Fill { kRandom, kZero, kMax, kAlternating, kRandomExtremes };
inline constexpr Fill kFills[] = {Fill::kRandom, Fill::kZero, Fill::kMax, Fill::kAlternating,
                                  Fill::kRandomExtremes};

inline const char* fill_name(Fill fill)
{
    switch (fill) {
    case Fill::kRandom: return "random";
    case Fill::kZero: return "zero";
    case Fill::kMax: return "max";
    case Fill::kAlternating: return "alternating";
    default: return "random extremes";
    }
}

// Fills `values` with samples in [0, max_value] as `fill` says.
template <class T>
void fill_samples(std::vector<T>& values, std::uint64_t max_value, Fill fill, std::mt19937& rng)
{
    std::uniform_int_distribution<std::uint64_t> any(0, max_value);
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint64_t v = 0;
        switch (fill) {
        case Fill::kRandom: v = any(rng); break;
        case Fill::kZero: v = 0; break;
        case Fill::kMax: v = max_value; break;
        case Fill::kAlternating: v = (i & 1) ? max_value : 0; break;
        case Fill::kRandomExtremes: v = (rng() & 1) ? max_value : 0; break;
        }
        values[i] = static_cast<T>(v);
    }
}

// Widths that a test runs: every width 1..64 (so every tail of every vector
// length up to 64 lanes) and a few wider ones.
inline std::vector<unsigned> test_widths()
{
    std::vector<unsigned> widths;
    for (unsigned w = 1; w <= 64; ++w) widths.push_back(w);
    for (unsigned w : {65u, 100u, 127u, 128u, 129u, 257u, 1000u}) widths.push_back(w);
    return widths;
}

}  // namespace twinvmaf::test
