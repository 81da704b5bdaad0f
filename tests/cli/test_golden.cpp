// Golden tests: the CLI against Netflix libvmaf's own output on every public
// fixture (../shared/fixtures). Every frame value and pooled metric must be
// the identical double (compared at %.17g), and with --precision max the JSON
// must be the same bytes as Netflix's apart from the version and fps lines.
//
// The arguments of each run come from MANIFEST.md, so a run is scored exactly
// as Netflix's CLI was invoked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "test_support.h"

namespace fs = std::filesystem;
using twinvmaf::test::fixtures_dir;
using twinvmaf::test::read_file;
using twinvmaf::test::run_cli;
using twinvmaf::test::shell_quote;
using twinvmaf::test::TempDir;

namespace {

// Runs twinvmaf implements today; each must match on every fixture.
const char* const kImplementedRuns[] = {"psnr", "psnr_enable_chroma_false"};

// run stem -> arguments after the common part, from MANIFEST.md's Runs table.
std::map<std::string, std::string> manifest_runs()
{
    std::map<std::string, std::string> runs;
    std::istringstream manifest(read_file(fixtures_dir() / "MANIFEST.md"));
    const std::regex row(R"(^\| `([A-Za-z0-9_.]+)`[^|]*\| `([^`]*)` \|)");
    std::string line;
    std::smatch m;
    while (std::getline(manifest, line)) {
        if (std::regex_search(line, m, row)) runs.emplace(m[1], m[2]);
    }
    return runs;
}

std::vector<std::string> fixture_names()
{
    std::vector<std::string> names;
    if (!fs::is_directory(fixtures_dir())) return names;
    for (const auto& entry : fs::directory_iterator(fixtures_dir())) {
        if (fs::exists(entry.path() / "fixture.json")) names.push_back(entry.path().filename());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Every line but those that differ by design (tool version, wall-clock fps).
std::string without_version_and_fps(const std::string& json)
{
    std::istringstream in(json);
    std::string line, kept;
    while (std::getline(in, line)) {
        if (line.rfind("  \"version\":", 0) == 0 || line.rfind("  \"fps\":", 0) == 0) continue;
        kept += line + "\n";
    }
    return kept;
}

std::string g17(const nlohmann::ordered_json& v)
{
    if (v.is_null()) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v.get<double>());
    return text;
}

void expect_same_numbers(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& golden,
                         const std::string& where)
{
    ASSERT_EQ(ours.size(), golden.size()) << where << ": different number of entries";
    auto a = ours.begin();
    auto b = golden.begin();
    for (; b != golden.end(); ++a, ++b) {
        ASSERT_EQ(a.key(), b.key()) << where << ": keys differ in name or order";
        EXPECT_EQ(g17(a.value()), g17(b.value())) << where << "." << b.key();
    }
}

class Golden : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Golden, MatchesNetflixAtFullPrecision)
{
    const auto& [fixture, run] = GetParam();
    const fs::path dir = fixtures_dir() / fixture;
    const fs::path golden_path = dir / "golden" / (run + ".json");
    ASSERT_TRUE(fs::exists(golden_path)) << golden_path << " missing: no Netflix result for this run";

    const auto info = nlohmann::json::parse(read_file(dir / "fixture.json"));
    const auto runs = manifest_runs();
    ASSERT_TRUE(runs.count(run)) << run << " not in MANIFEST.md";

    TempDir tmp;
    const fs::path out = tmp / "out.json";
    std::ostringstream args;
    args << "-r " << shell_quote(dir / "ref.yuv") << " -d " << shell_quote(dir / "dis.yuv")
         << " -w " << info["width"].get<int>() << " -h " << info["height"].get<int>()
         << " -p " << info["pixel_format"].get<int>() << " -b " << info["bitdepth"].get<int>()
         << " --threads 1 " << runs.at(run) << " --json --precision max -o " << shell_quote(out);
    const auto result = run_cli(args.str());
    ASSERT_EQ(result.exit_code, 0) << args.str() << "\n" << result.stderr_text;

    const std::string ours_text = read_file(out);
    const std::string golden_text = read_file(golden_path);
    const auto ours = nlohmann::ordered_json::parse(ours_text);
    const auto golden = nlohmann::ordered_json::parse(golden_text);

    ASSERT_EQ(ours["frames"].size(), golden["frames"].size());
    for (std::size_t i = 0; i < golden["frames"].size(); ++i) {
        EXPECT_EQ(ours["frames"][i]["frameNum"], golden["frames"][i]["frameNum"]);
        expect_same_numbers(ours["frames"][i]["metrics"], golden["frames"][i]["metrics"],
                            "frame " + std::to_string(i));
    }
    ASSERT_EQ(ours["pooled_metrics"].size(), golden["pooled_metrics"].size());
    for (auto it = golden["pooled_metrics"].begin(); it != golden["pooled_metrics"].end(); ++it)
        expect_same_numbers(ours["pooled_metrics"][it.key()], it.value(), "pooled " + it.key());
    expect_same_numbers(ours["aggregate_metrics"], golden["aggregate_metrics"], "aggregate");

    EXPECT_EQ(without_version_and_fps(ours_text), without_version_and_fps(golden_text))
        << "same numbers but different bytes";
}

std::vector<std::tuple<std::string, std::string>> cases()
{
    std::vector<std::tuple<std::string, std::string>> all;
    for (const std::string& fixture : fixture_names())
        for (const char* run : kImplementedRuns) all.emplace_back(fixture, run);
    return all;
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, Golden, testing::ValuesIn(cases()),
                         [](const auto& info) {
                             std::string name = std::get<0>(info.param) + "__" + std::get<1>(info.param);
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

TEST(GoldenFixtures, ArePresent)
{
    if (!fs::is_directory(fixtures_dir()))
        GTEST_SKIP() << "no fixtures at " << fixtures_dir()
                     << " (set TWINVMAF_FIXTURES); golden tests did not run";
    EXPECT_EQ(fixture_names().size(), 15u) << "expected the 15 public fixtures";
    const auto runs = manifest_runs();
    for (const char* run : kImplementedRuns) EXPECT_TRUE(runs.count(run)) << run;
}

}  // namespace
