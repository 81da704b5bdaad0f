// Cost of writing the per-frame output of a long run: 100k frames x 40
// scores at --precision max, per format. Prints time and bytes per second;
// never a pass/fail (tests/unit/test_writers.cpp checks the content).
#include <benchmark/benchmark.h>

#include <filesystem>

#include "core/collector.h"
#include "long_run_scores.h"
#include "output/writers.h"

namespace {

using namespace twinvmaf;

void write_run(benchmark::State& state, OutputFormat format, const char* file_name)
{
    constexpr std::uint64_t kFrames = 100000;
    const Collector scores = test::long_run_scores(kFrames, 40);
    const std::filesystem::path path = std::filesystem::temp_directory_path() / file_name;
    const OutputContext context{scores, kFrames, 1, 1920, 1080, 30.0, Precision::parse("max"), "bench"};
    for (auto _ : state) write_output_file(path.string(), format, context);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
    std::filesystem::remove(path);
}

}  // namespace

BENCHMARK_CAPTURE(write_run, json, OutputFormat::kJson, "twinvmaf_bench_writer.json")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_run, xml, OutputFormat::kXml, "twinvmaf_bench_writer.xml")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(write_run, csv, OutputFormat::kCsv, "twinvmaf_bench_writer.csv")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
