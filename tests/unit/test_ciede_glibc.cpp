// ciede against Netflix's formula on the live glibc: ciede_math.h compiled a
// second time, in a namespace of its own, with its libm calls bound to this
// machine's glibc (as Netflix's ciede.c calls them), compared per Lab colour
// and per dE00 with ciede_math.h as the project builds it (its libm calls are
// core/glibc_*.h). The contract is Netflix built with glibc on x86-64, whose
// libm picks its FMA variants on a CPU with FMA and AVX2: elsewhere glibc runs
// other code, and the comparison is skipped.
//
// The pairs: every co-located pixel pair of the natural fixtures (vtest 8-,
// 10- and 12-bit, megamind, cup, box), then pairs of colours drawn at random
// from those pictures, then random samples: 40 M pairs in all by default.
#include <math.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/host_device.h"
#include "features/common/libm.h"

// Netflix's libm calls, on the live glibc. Called through volatile pointers
// so that the compiler neither folds nor substitutes builtins.
namespace netflix_formula::libm {
inline double (*volatile glibc_pow)(double, double) = ::pow;
inline float (*volatile glibc_powf)(float, float) = ::powf;
inline double (*volatile glibc_exp)(double) = ::exp;
inline double (*volatile glibc_sin)(double) = ::sin;
inline double (*volatile glibc_cos)(double) = ::cos;
inline double (*volatile glibc_atan2)(double, double) = ::atan2;
inline double pow(double x, double y) { return glibc_pow(x, y); }
inline double pow_7(float c) { return glibc_pow(c, 7.0); }
inline float powf_7(float c) { return glibc_powf(c, 7.0f); }
inline double exp(double x) { return glibc_exp(x); }
inline double sin(double x) { return glibc_sin(x); }
inline double cos(double x) { return glibc_cos(x); }
inline double atan2(double y, double x) { return glibc_atan2(y, x); }
using twinvmaf::libm::square_of_float;  // exact: no libm involved
}  // namespace netflix_formula::libm

#include "features/ciede/ciede_math.h"
#include "glibc_live.h"
#include "test_support.h"

// The second compilation: ciede_math.h's includes are skipped (already
// included above), so its libm:: names resolve to the namespace just defined.
#undef TWINVMAF_FEATURES_CIEDE_CIEDE_MATH_H
#define twinvmaf netflix_formula
#include "features/ciede/ciede_math.h"
#undef twinvmaf

namespace {

using twinvmaf::test::glibc_runs_its_fma_variants;
namespace ours = twinvmaf::ciede;
namespace netflix = netflix_formula::ciede;

bool same(const ours::Lab& a, const netflix::Lab& b)
{
    return tv::bit_cast<std::uint32_t>(a.l) == tv::bit_cast<std::uint32_t>(b.l) &&
           tv::bit_cast<std::uint32_t>(a.a) == tv::bit_cast<std::uint32_t>(b.a) &&
           tv::bit_cast<std::uint32_t>(a.b) == tv::bit_cast<std::uint32_t>(b.b);
}

netflix::Lab as_netflix(const ours::Lab& c) { return {c.l, c.a, c.b}; }

// A sample triple: Y, U, V.
struct Triple {
    unsigned y, u, v;
};

// A clip's colours, converted once (ciede_math.h's lab_from_yuv equals
// Netflix's: the Lab test below). Chroma is taken at (x >> ssx, y >> ssy),
// not by Netflix's exact reading rule (tested elsewhere): any triple is a
// valid colour here.
struct NaturalClip {
    std::vector<ours::Lab> ref, dis;
};

// The fixture's frames as Lab colours.
NaturalClip read_clip(const std::string& name, unsigned w, unsigned h, unsigned ssx, unsigned ssy, unsigned bitdepth,
                      unsigned frames)
{
    NaturalClip clip;
    const unsigned cw = (w + ssx) >> ssx, ch = (h + ssy) >> ssy, bytes = bitdepth > 8 ? 2 : 1;
    const std::size_t frame_bytes = (std::size_t{w} * h + 2 * std::size_t{cw} * ch) * bytes;
    for (const char* which : {"ref.yuv", "dis.yuv"}) {
        std::ifstream in(twinvmaf::test::fixtures_dir() / name / which, std::ios::binary);
        if (!in) return {};
        std::vector<unsigned char> frame(frame_bytes);
        auto& out = std::string(which) == "ref.yuv" ? clip.ref : clip.dis;
        for (unsigned f = 0; f < frames && in.read(reinterpret_cast<char*>(frame.data()), frame.size()); ++f) {
            auto sample = [&](std::size_t index) {
                return bytes == 1 ? frame[index] : unsigned(frame[2 * index]) | unsigned(frame[2 * index + 1]) << 8;
            };
            for (unsigned y = 0; y < h; ++y)
                for (unsigned x = 0; x < w; ++x) {
                    const std::size_t c = std::size_t{w} * h + std::size_t{y >> ssy} * cw + (x >> ssx);
                    out.push_back(ours::lab_from_yuv(sample(std::size_t{y} * w + x), sample(c),
                                                     sample(c + std::size_t{cw} * ch), bitdepth));
                }
        }
    }
    return clip;
}

struct Counts {
    std::atomic<std::uint64_t> compared{0}, differ{0};
};

ours::Lab lab_of(const Triple& t, unsigned bitdepth) { return ours::lab_from_yuv(t.y, t.u, t.v, bitdepth); }

// dE00 of both builds on the pairs produced by make_pair(i), i < n, on two
// threads; counts the pairs whose float differs in any bit.
template <class MakePair>
void compare_delta_e(std::uint64_t n, MakePair make_pair, Counts& counts)
{
    auto work = [&](unsigned part) {
        std::uint64_t compared = 0, differ = 0;
        for (std::uint64_t i = part; i < n; i += 2) {
            ours::Lab a, b;
            make_pair(i, a, b);
            const float mine = ours::delta_e_2000(a, b, ours::kNetflixWeights);
            const float theirs = netflix::delta_e_2000(as_netflix(a), as_netflix(b), netflix::kNetflixWeights);
            ++compared;
            if (tv::bit_cast<std::uint32_t>(mine) != tv::bit_cast<std::uint32_t>(theirs)) {
                if (differ < 5)
                    ADD_FAILURE() << "dE00 differs for Lab (" << a.l << ", " << a.a << ", " << a.b << ") vs (" << b.l
                                  << ", " << b.a << ", " << b.b << "): " << mine << " vs glibc " << theirs;
                ++differ;
            }
        }
        counts.compared += compared;
        counts.differ += differ;
    };
    std::thread other(work, 1);
    work(0);
    other.join();
}

TEST(CiedeGlibc, LabEqualsNetflixsOnEveryEightBitTripleAndRandomDeepOnes)
{
    if (!glibc_runs_its_fma_variants()) GTEST_SKIP() << "this CPU lacks FMA or AVX2: glibc runs other code";
    std::uint64_t differ = 0;
    // Every 8-bit triple (2^24).
    for (unsigned y = 0; y < 256; ++y)
        for (unsigned u = 0; u < 256; ++u)
            for (unsigned v = 0; v < 256; ++v)
                if (!same(ours::lab_from_yuv(y, u, v, 8), netflix::lab_from_yuv(y, u, v, 8))) ++differ;
    // 2 M random triples each of 10 and 12 bits.
    std::mt19937 rng(20261203);
    for (unsigned bitdepth : {10u, 12u}) {
        std::uniform_int_distribution<unsigned> sample(0, (1u << bitdepth) - 1);
        for (int i = 0; i < 2'000'000; ++i) {
            const unsigned y = sample(rng), u = sample(rng), v = sample(rng);
            if (!same(ours::lab_from_yuv(y, u, v, bitdepth), netflix::lab_from_yuv(y, u, v, bitdepth))) ++differ;
        }
    }
    EXPECT_EQ(differ, 0u);
}

// How many pairs DeltaE... compares in all: 40 M by default (80 s of CPU;
// every co-located natural pair is 18 M of them), more with
// TWINVMAF_CIEDE_PAIRS (100 M, the count before CI time was cut, pass too).
std::uint64_t ciede_pairs()
{
    const char* env = std::getenv("TWINVMAF_CIEDE_PAIRS");
    return env && *env ? std::strtoull(env, nullptr, 10) : 40'000'000;
}

TEST(CiedeGlibc, DeltaEEqualsNetflixsOnNaturalAndRandomPairs)
{
    if (!glibc_runs_its_fma_variants()) GTEST_SKIP() << "this CPU lacks FMA or AVX2: glibc runs other code";
    const std::vector<NaturalClip> clips = {
        read_clip("vtest_576x324_420p8", 576, 324, 1, 1, 8, 48),  read_clip("vtest_576x324_420p10", 576, 324, 1, 1, 10, 12),
        read_clip("vtest_576x324_420p12", 576, 324, 1, 1, 12, 6), read_clip("megamind_720x528_420p8", 720, 528, 1, 1, 8, 10),
        read_clip("cup_640x480_444p8", 640, 480, 0, 0, 8, 6),     read_clip("box_640x480_422p10", 640, 480, 1, 0, 10, 6),
    };
    Counts counts;
    std::uint64_t natural_colours = 0;
    // 1. Every co-located pair of the natural fixtures (about 18 M).
    for (const NaturalClip& clip : clips) {
        ASSERT_FALSE(clip.ref.empty()) << "a natural fixture is missing under " << twinvmaf::test::fixtures_dir();
        natural_colours += 2 * clip.ref.size();
        compare_delta_e(
            clip.ref.size(),
            [&](std::uint64_t i, ours::Lab& a, ours::Lab& b) {
                a = clip.ref[i];
                b = clip.dis[i];
            },
            counts);
    }
    // 2. Pairs of colours of one clip drawn at random (hues and chromas of
    // natural images, far more combinations than co-located pairs give).
    const std::uint64_t total = ciede_pairs();
    ASSERT_GT(total, counts.compared.load()) << "TWINVMAF_CIEDE_PAIRS is below the natural pairs";
    const std::uint64_t cross_pairs = (total - counts.compared.load()) / 2;
    compare_delta_e(
        cross_pairs,
        [&](std::uint64_t i, ours::Lab& a, ours::Lab& b) {
            std::mt19937_64 rng(i * 0x9E3779B97F4A7C15ull + 1);
            const NaturalClip& clip = clips[i % clips.size()];
            const std::vector<ours::Lab>& from = (i & 8) ? clip.dis : clip.ref;
            a = from[rng() % from.size()];
            b = clip.dis[rng() % clip.dis.size()];
        },
        counts);
    // 3. Random samples (8, 10 and 12 bits), and near pairs (a random colour
    // and one a few code values away: small differences, near-equal hues).
    const std::uint64_t random_pairs = total - counts.compared.load();
    compare_delta_e(
        random_pairs,
        [&](std::uint64_t i, ours::Lab& a, ours::Lab& b) {
            std::mt19937_64 rng(i * 0xD1B54A32D192ED03ull + 7);
            const unsigned bitdepth = 8 + 2 * static_cast<unsigned>(i % 3), top = (1u << bitdepth) - 1;
            const Triple t{unsigned(rng() & top), unsigned(rng() & top), unsigned(rng() & top)};
            Triple s{unsigned(rng() & top), unsigned(rng() & top), unsigned(rng() & top)};
            if (i & 1) {
                auto near = [&](unsigned v) {
                    const int moved = int(v) + int(rng() % 9) - 4;
                    return unsigned(moved < 0 ? 0 : moved > int(top) ? int(top) : moved);
                };
                s = {near(t.y), near(t.u), near(t.v)};
            }
            a = lab_of(t, bitdepth);
            b = lab_of(s, bitdepth);
        },
        counts);
    std::printf("dE00 compared with Netflix's formula on glibc: %llu pairs (%llu natural colours), %llu differ\n",
                static_cast<unsigned long long>(counts.compared.load()),
                static_cast<unsigned long long>(natural_colours),
                static_cast<unsigned long long>(counts.differ.load()));
    EXPECT_EQ(counts.compared.load(), total);
    EXPECT_EQ(counts.differ.load(), 0u);
}

}  // namespace
