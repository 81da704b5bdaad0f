// PSNR kernel throughput: bytes of reference + distorted per second through
// the shared row arithmetic, at 1080p, 8 and 10 bits. Prints GB/s and
// frames/s; never a pass/fail.
#include <benchmark/benchmark.h>

#include <random>

#include "core/feature.h"
#include "features/psnr/psnr.h"

namespace {

using namespace twinvmaf;

void fill(Picture& p, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    const unsigned max = p.format().max_sample();
    const std::size_t n = p.size_bytes() / p.format().bytes_per_sample();
    for (std::size_t i = 0; i < n; ++i) {
        if (p.format().bitdepth > 8) reinterpret_cast<std::uint16_t*>(p.bytes())[i] = static_cast<std::uint16_t>(rng() % (max + 1));
        else p.bytes()[i] = static_cast<std::uint8_t>(rng());
    }
}

void psnr_frame(benchmark::State& state)
{
    const VideoFormat format{1920, 1080, ChromaFormat::k420, static_cast<unsigned>(state.range(0))};
    Picture ref(format), dis(format);
    fill(ref, 1);
    fill(dis, 2);
    const FeatureInfo& info = find_feature("psnr");
    auto extractor = info.create(OptionValues("psnr", info.options));
    extractor->init(format);
    FrameScores scores;
    for (auto _ : state) {
        const FrameInputs inputs{ref, dis, 0, {}, {}};
        extractor->extract(inputs, scores, nullptr);
        benchmark::DoNotOptimize(scores.get_integer(0));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 *
                            static_cast<std::int64_t>(format.frame_bytes()));
    state.counters["fps"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

BENCHMARK(psnr_frame)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
