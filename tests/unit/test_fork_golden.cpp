// The lusoris/vmaf fork's extractors (motion_v2, ssim) against the fork's own
// CPU build on every public fixture: tests/data/fork_goldens/<run>.txt holds
// the fork's values (tools/fork_goldens.py; README there: the commands and
// the pinned commit), and every frame value and pooled metric must be the
// same double, compared at %.17g. Where the fork refuses a run, we must
// refuse it too (a twinvmaf::Error, no scores).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "test_support.h"
#include "twinvmaf/engine.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using twinvmaf::test::fixtures_dir;
using twinvmaf::test::read_file;

namespace {

const fs::path kData = fs::path(__FILE__).parent_path().parent_path() / "data" / "fork_goldens";

// runs.txt: run name -> the fork CLI's arguments after the common part.
std::map<std::string, std::vector<std::string>> fork_runs()
{
    std::map<std::string, std::vector<std::string>> runs;
    std::istringstream in(read_file(kData / "runs.txt"));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string name, word;
        words >> name;
        while (words >> word) runs[name].push_back(word);
    }
    return runs;
}

// "--feature name=opt=val:opt=val" arguments as feature requests.
std::vector<FeatureRequest> features_of(const std::vector<std::string>& args)
{
    std::vector<FeatureRequest> features;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != "--feature") continue;
        const std::string& text = args[i + 1];
        FeatureRequest request;
        const std::size_t eq = text.find('=');
        request.name = text.substr(0, eq);
        if (eq != std::string::npos) {
            std::istringstream pairs(text.substr(eq + 1));
            std::string pair;
            while (std::getline(pairs, pair, ':')) {
                const std::size_t at = pair.find('=');
                request.options.emplace_back(pair.substr(0, at), pair.substr(at + 1));
            }
        }
        features.push_back(request);
    }
    return features;
}

// One fixture's lines of a golden file.
struct ForkResult {
    bool refused = false;
    std::string why;
    std::vector<std::pair<std::string, std::vector<std::string>>> frames;  // key -> per-frame text
    std::vector<std::pair<std::string, std::vector<std::string>>> pooled;  // key -> min max mean hm
};

std::map<std::string, ForkResult> read_golden(const std::string& run)
{
    std::map<std::string, ForkResult> results;
    std::istringstream in(read_file(kData / (run + ".txt")));
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string fixture, key, value;
        words >> fixture >> key;
        ForkResult& r = results[fixture];
        if (key == "refused") {
            r.refused = true;
            std::getline(words, r.why);
            continue;
        }
        std::vector<std::string> values;
        while (words >> value) values.push_back(value);
        if (key.rfind("pooled:", 0) == 0)
            r.pooled.emplace_back(key.substr(7), values);
        else
            r.frames.emplace_back(key, values);
    }
    return results;
}

std::string g17(const std::optional<double>& v)
{
    if (!v) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", *v);
    return text;
}

Inputs fixture_inputs(const fs::path& dir)
{
    const auto info = nlohmann::json::parse(read_file(dir / "fixture.json"));
    const int p = info["pixel_format"].get<int>();
    const VideoFormat format{info["width"].get<unsigned>(), info["height"].get<unsigned>(),
                             p == 444 ? ChromaFormat::k444 : p == 422 ? ChromaFormat::k422 : ChromaFormat::k420,
                             info["bitdepth"].get<unsigned>()};
    return Inputs{.reference = (dir / "ref.yuv").string(), .distorted = (dir / "dis.yuv").string(),
                  .raw_format = format};
}

using Case = std::tuple<std::string, std::string>;  // run, fixture

std::vector<Case> cases()
{
    std::vector<Case> all;
    for (const auto& [run, args] : fork_runs())
        for (const auto& [fixture, result] : read_golden(run)) all.emplace_back(run, fixture);
    return all;
}

class ForkGolden : public testing::TestWithParam<Case> {};

TEST_P(ForkGolden, MatchesTheForkAtFullPrecision)
{
    const auto& [run, fixture] = GetParam();
    const fs::path dir = fixtures_dir() / fixture;
    if (!fs::exists(dir / "fixture.json")) GTEST_SKIP() << "no fixture " << dir;
    const ForkResult golden = read_golden(run).at(fixture);

    SessionConfig config;
    config.features = features_of(fork_runs().at(run));
    config.predict = false;
    const Engine engine({.backend = Backend::kCpu, .threads = 1});
    if (golden.refused) {
        EXPECT_THROW(engine.open(config).score(fixture_inputs(dir)), Error) << "the fork refused:" << golden.why;
        return;
    }
    const Scores scores = engine.open(config).score(fixture_inputs(dir));
    std::vector<std::string> keys;
    for (const auto& [key, values] : golden.frames) {
        keys.push_back(key);
        ASSERT_EQ(scores.frames(), values.size()) << key;
        for (std::size_t i = 0; i < values.size(); ++i)
            EXPECT_EQ(g17(scores.at(key, i)), values[i]) << key << " frame " << i;
    }
    EXPECT_EQ(scores.names(), keys);
    const PoolMethod methods[] = {PoolMethod::kMin, PoolMethod::kMax, PoolMethod::kMean, PoolMethod::kHarmonicMean};
    for (const auto& [key, values] : golden.pooled) {
        ASSERT_EQ(values.size(), 4u) << key;
        for (int m = 0; m < 4; ++m) EXPECT_EQ(g17(scores.pooled(key, methods[m])), values[m]) << "pooled " << key;
    }
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, ForkGolden, testing::ValuesIn(cases()), [](const auto& info) {
    std::string name = std::get<0>(info.param) + "__" + std::get<1>(info.param);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
});

}  // namespace
