// The readers' sample range check (io/sample_range.h): the SIMD kernel
// against the reference for every instruction set this build has, on rows of
// in-range samples of every bit depth with no sample, or one at each place,
// out of range, at every length 0..300 bytes and a few longer, from every
// alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "io/sample_range.h"
#include "simd_targets.h"

namespace twinvmaf {
namespace {

using test::for_each_simd_target;

std::vector<std::size_t> sizes()
{
    std::vector<std::size_t> all;
    for (std::size_t s = 0; s <= 300; s += 2) all.push_back(s);
    for (std::size_t s : {510u, 1024u, 4098u, 65536u, 262146u}) all.push_back(s);
    return all;
}

TEST(SimdSampleRange, MatchesTheReference)
{
    for_each_simd_target([&] {
        const SampleBitsFn simd = sample_bits_simd();
        std::mt19937 rng(40);
        for (unsigned depth = 9; depth <= 15; ++depth) {
            const std::uint16_t mask = sample_range_mask(depth);
            const std::uint16_t max = static_cast<std::uint16_t>((1u << depth) - 1);
            for (std::size_t size : sizes()) {
                for (std::size_t align = 0; align < 4; ++align) {
                    SCOPED_TRACE(testing::Message() << depth << "-bit, " << size << " bytes at +" << align);
                    std::vector<std::uint8_t> buffer(size + align + 64, 0xff);
                    std::uint8_t* bytes = buffer.data() + align;
                    auto set = [&](std::size_t i, std::uint16_t v) {
                        bytes[2 * i] = static_cast<std::uint8_t>(v);
                        bytes[2 * i + 1] = static_cast<std::uint8_t>(v >> 8);
                    };
                    for (std::size_t i = 0; i < size / 2; ++i) set(i, static_cast<std::uint16_t>(rng() % (max + 1u)));
                    // The 0xff bytes past the end are out of range: never read.
                    ASSERT_FALSE(sample_bits_reference(bytes, size, mask));
                    ASSERT_FALSE(simd(bytes, size, mask));
                    // One sample out of range: each one of short rows, a few of long ones.
                    const std::size_t samples = size / 2;
                    std::vector<std::size_t> places;
                    for (std::size_t i = 0; i < samples; i += samples <= 150 ? 1 : samples / 37) places.push_back(i);
                    if (samples) places.push_back(samples - 1);
                    for (std::size_t i : places) {
                        const std::uint16_t kept = static_cast<std::uint16_t>(bytes[2 * i] | bytes[2 * i + 1] << 8);
                        const std::uint16_t bad = static_cast<std::uint16_t>(max + 1u + rng() % (0xffffu - max));
                        set(i, bad);
                        ASSERT_TRUE(sample_bits_reference(bytes, size, mask)) << "sample " << i << " = " << bad;
                        ASSERT_TRUE(simd(bytes, size, mask)) << "sample " << i << " = " << bad;
                        set(i, kept);
                    }
                }
            }
        }
    });
}

}  // namespace
}  // namespace twinvmaf
