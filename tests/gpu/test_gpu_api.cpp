// The C++ API on a GPU: one engine scoring pair after pair (as --batch
// does) keeps its GPU engine and pinned pictures for pairs of one shape, and
// every pair's scores are the CPU's bit for bit. Skipped without a GPU.
#include <gtest/gtest.h>

#include <regex>

#include "api/scores_data.h"
#include "gpu/gpu_engine.h"
#include "test_support.h"
#include "twinvmaf/engine.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using twinvmaf::test::fixtures_dir;

namespace {

std::optional<Backend> present_gpu_backend()
{
    for (Backend backend : {Backend::kCuda, Backend::kHip})
        if (gpu_device_count(backend) > 0) return backend;
    return std::nullopt;
}

Inputs fixture(const std::string& name, unsigned w, unsigned h)
{
    const fs::path dir = fixtures_dir() / name;
    return Inputs{.reference = (dir / "ref.yuv").string(),
                  .distorted = (dir / "dis.yuv").string(),
                  .raw_format = VideoFormat{w, h, ChromaFormat::k420, 8},
                  .frame_cnt = 6};
}

std::string bytes(const Scores& scores)
{
    return std::regex_replace(scores.render(OutputFormat::kJson, Precision::parse("max")),
                              std::regex(R"("fps": [^,]*)"), "\"fps\"");
}

TEST(GpuApi, PairsOfOneShapeReuseTheEngineAndEqualTheCpu)
{
    const std::optional<Backend> backend = present_gpu_backend();
    if (!backend) GTEST_SKIP() << "no GPU device: the GPU API test did not run";
    const SessionConfig config{.models = {Model::builtin("vmaf_v0.6.1")}, .features = {{"psnr", {}}}};
    const Engine gpu({.backend = *backend});
    const Engine cpu({.backend = Backend::kCpu, .threads = 2});
    const Inputs a = fixture("vtest_576x324_420p8", 576, 324);
    const Inputs b = fixture("noise_33x33_420p8", 33, 33);

    struct Step {
        const Inputs* inputs;
        bool reuses;  // the engine and pictures of the pair before
    };
    const Step steps[] = {{&a, false}, {&a, true}, {&a, true}, {&b, false}, {&a, false}};
    for (std::size_t i = 0; i < std::size(steps); ++i) {
        const Scores on_gpu = gpu.open(config).score(*steps[i].inputs);
        const Scores on_cpu = cpu.open(config).score(*steps[i].inputs);
        EXPECT_EQ(on_gpu.backend(), *backend);
        EXPECT_EQ(bytes(on_gpu), bytes(on_cpu)) << "step " << i;
        const GpuStats& stats = on_gpu.data().result.gpu_stats;
        // This pair's counters only, whether or not the engine is new.
        EXPECT_EQ(stats.frames, on_gpu.frames()) << "step " << i;
        EXPECT_EQ(stats.uploads, 2 * on_gpu.frames()) << "step " << i;
        if (steps[i].reuses) {
            EXPECT_EQ(stats.setup_ms, 0.0) << "step " << i << ": the engine was made again";
            EXPECT_EQ(stats.pinned_pictures, 0u) << "step " << i << ": pictures were pinned again";
        } else {
            EXPECT_GT(stats.setup_ms, 0.0) << "step " << i;
            EXPECT_GT(stats.pinned_pictures, 0u) << "step " << i;
        }
    }
}

// The default backend (auto) puts a session whose features all have twins on
// the GPU, and one without features (it only reads the pairs) on the CPU,
// which gives the same frames without the GPU engine's start-up.
TEST(GpuApi, AutoChoosesTheGpuForTwinsAndTheCpuWithoutFeatures)
{
    const std::optional<Backend> backend = present_gpu_backend();
    if (!backend) GTEST_SKIP() << "no GPU device: the GPU API test did not run";
    const Engine automatic(EngineConfig{});  // no backend: auto
    const Inputs a = fixture("vtest_576x324_420p8", 576, 324);
    const Scores with_twins = automatic.open({.features = {{"psnr", {}}}, .predict = false}).score(a);
    EXPECT_EQ(with_twins.backend(), *backend);
    const Scores without_features = automatic.open({.predict = false}).score(a);
    EXPECT_EQ(without_features.backend(), Backend::kCpu);
    EXPECT_EQ(without_features.frames(), 6u);
    EXPECT_EQ(without_features.data().result.gpu_stats.uploads, 0u);
}

// float_motion's twin keeps each frame's blur for the next frame: pairs of
// one shape scored one after another on the same engine (its twins are kept
// from pair to pair) must not take the last pair's blurs for their own. The
// pairs have other pictures at the same frame indices (frames skipped), a
// one-frame pair and a pair longer than the one before.
TEST(GpuApi, KeptBlursDoNotCrossPairs)
{
    const std::optional<Backend> backend = present_gpu_backend();
    if (!backend) GTEST_SKIP() << "no GPU device: the GPU API test did not run";
    const SessionConfig config{.features = {{"float_motion", {}},
                                            {"float_motion", {{"motion_add_scale1", "true"}}},
                                            {"float_motion", {{"motion_add_uv", "true"}}}},
                               .predict = false};
    const Engine gpu({.backend = *backend});
    const Engine cpu({.backend = Backend::kCpu, .threads = 2});
    auto pair = [](std::uint64_t skip, std::uint64_t frames) {
        Inputs inputs = fixture("vtest_576x324_420p8", 576, 324);
        inputs.skip_ref = inputs.skip_dist = skip;
        inputs.frame_cnt = frames;
        return inputs;
    };
    const Inputs steps[] = {pair(0, 6), pair(3, 6), pair(1, 1), pair(5, 2), pair(0, 8), pair(2, 4)};
    for (std::size_t i = 0; i < std::size(steps); ++i) {
        const Scores on_gpu = gpu.open(config).score(steps[i]);
        const Scores on_cpu = cpu.open(config).score(steps[i]);
        EXPECT_EQ(bytes(on_gpu), bytes(on_cpu)) << "step " << i;
        if (i > 0) {
            EXPECT_EQ(on_gpu.data().result.gpu_stats.setup_ms, 0.0) << "step " << i << ": the engine was made again";
        }
    }
}

}  // namespace
