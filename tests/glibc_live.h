// Helpers of the tests that compare our ports of glibc's libm
// (src/core/glibc_*.h) with the live glibc: bit views of values, whether
// glibc runs the variant the ports follow, and a deterministic argument
// stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"

namespace twinvmaf::test {

inline std::uint64_t bits_of(double x) { return tv::bit_cast<std::uint64_t>(x); }
inline std::uint32_t bits_of(float x) { return tv::bit_cast<std::uint32_t>(x); }
inline double double_of(std::uint64_t u) { return tv::bit_cast<double>(u); }
inline float float_of(std::uint32_t u) { return tv::bit_cast<float>(u); }

// glibc's x86-64 libm picks its *_fma variants (the ones ported) on a CPU
// with FMA and AVX2; elsewhere it runs other code with other bits (on
// aarch64, the same sources built with other contractions), which is not
// the reference, so there the live comparison has nothing to check.
inline bool glibc_runs_its_fma_variants()
{
#if defined(__x86_64__)
    return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

// Skips a test on a CPU where glibc runs other code than the ported *_fma
// variants (`functions` names them in the message).
#define SKIP_UNLESS_GLIBC_FMA_VARIANT(functions)                                                \
    do {                                                                                       \
        if (!glibc_runs_its_fma_variants())                                                    \
            GTEST_SKIP() << "CPU without FMA and AVX2: glibc runs its non-fma " functions ", other bits"; \
    } while (0)

// How many arguments were compared, and how many gave other bits.
struct DifferCount {
    std::size_t n = 0, differ = 0;
};

// Deterministic argument stream (splitmix64).
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }

private:
    std::uint64_t s_;
};

}  // namespace twinvmaf::test
