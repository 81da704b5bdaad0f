// The models against Netflix, without the features: every golden output of a
// model run holds, per frame, the features Netflix computed and the scores it
// predicted from them. We load those features into a Collector, predict with
// our models, and demand every per-frame model output (vmaf; for bootstrap
// models also vmaf_0001.., _bagging, _stddev, _ci_p95_lo/hi), its pooled
// values and the output key order identical at %.17g.
//
// Prediction does not depend on how the features were computed, so every
// stored Netflix output is a test vector: golden/ (AVX-512), golden_c/ (plain
// C, the reference where the paths disagree) and golden_avx2/, including the
// runs where Netflix's feature code read outside its buffers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

#include "cli/cli_args.h"
#include "core/collector.h"
#include "core/feature_names.h"
#include "model/model.h"
#include "model/predict.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using Json = nlohmann::ordered_json;

namespace {

const char* const kVariants[] = {"golden", "golden_c", "golden_avx2"};

struct Case {
    std::string fixture, variant, run;
};

void PrintTo(const Case& c, std::ostream* out)
{
    *out << c.fixture << "/" << c.variant << "/" << c.run << ".json";
}

// Every stored JSON output of a MANIFEST run that uses --model.
std::vector<Case> cases()
{
    std::vector<Case> all;
    if (!fs::is_directory(test::fixtures_dir())) return all;
    const auto runs = test::manifest_runs();
    std::vector<std::string> fixtures;
    for (const auto& entry : fs::directory_iterator(test::fixtures_dir()))
        if (fs::exists(entry.path() / "fixture.json")) fixtures.push_back(entry.path().filename());
    std::sort(fixtures.begin(), fixtures.end());
    for (const std::string& fixture : fixtures)
        for (const char* variant : kVariants)
            for (const auto& [run, args] : runs)
                if (args.find("--model") != std::string::npos &&
                    fs::exists(test::fixtures_dir() / fixture / variant / (run + ".json")))
                    all.push_back({fixture, variant, run});
    return all;
}

std::string g17(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// The run's --model and --subsample, from its MANIFEST arguments.
void parse_run_arguments(const std::string& args, cli::ModelRequest& model, unsigned& subsample)
{
    std::istringstream in(args);
    std::string word;
    while (in >> word) {
        std::string value;
        if (word == "--model" && in >> value) model = cli::parse_model_argument(value);
        else if (word == "--subsample" && in >> value) subsample = static_cast<unsigned>(std::stoul(value));
    }
}

// Binds each model feature to the golden key that carries it: the key is the
// feature's alias plus the suffix of its options ("integer_adm2_egl_1"). The
// options (and --model overrides) only rename the inputs here, since the
// values come from the golden.
void bind_to_golden_keys(model::LoadedModel& loaded, const std::vector<std::string>& keys)
{
    for (model::Model* m : loaded.all_models()) {
        for (model::ModelFeature& feature : m->features) {
            const std::string& alias = feature_alias(feature.name);
            std::vector<std::string> matches;
            for (const std::string& key : keys)
                if (key == alias || key.starts_with(alias + "_")) matches.push_back(key);
            ASSERT_EQ(matches.size(), 1u) << feature.name << " (" << alias << ") in the golden keys";
            feature.input = matches[0];
        }
    }
}

class ModelGolden : public testing::TestWithParam<Case> {};

TEST_P(ModelGolden, PredictsNetflixScoresExactly)
{
    const Case& c = GetParam();
    const fs::path dir = test::fixtures_dir() / c.fixture;
    const Json golden = Json::parse(test::read_file(dir / c.variant / (c.run + ".json")));
    const Json fixture = Json::parse(test::read_file(dir / "fixture.json"));
    const std::uint64_t frames = fixture["frames"].get<std::uint64_t>();

    cli::ModelRequest request;
    unsigned subsample = 1;
    parse_run_arguments(test::manifest_runs().at(c.run), request, subsample);
    const model::LoadOptions options{.name = request.name,
                                     .disable_clip = request.disable_clip,
                                     .enable_transform = request.enable_transform};
    std::vector<model::LoadedModel> models;
    models.push_back(model::load_builtin_model(request.version, options));
    const std::vector<std::string> outputs = model::output_names(models[0]);
    const std::set<std::string> output_set(outputs.begin(), outputs.end());

    // Netflix's features, in its key order.
    const Json& golden_frames = golden["frames"];
    ASSERT_EQ(golden_frames.size(), (frames + subsample - 1) / subsample);
    std::vector<std::string> feature_keys;
    for (auto it = golden_frames[0]["metrics"].begin(); it != golden_frames[0]["metrics"].end(); ++it)
        if (!output_set.count(it.key())) feature_keys.push_back(it.key());
    Collector collector;
    for (const Json& frame : golden_frames)
        for (const std::string& key : feature_keys)
            collector.set(key, frame["frameNum"].get<std::uint64_t>(), frame["metrics"][key].get<double>());

    bind_to_golden_keys(models[0], feature_keys);
    if (HasFatalFailure()) return;
    model::score_models(models, collector, frames, subsample);

    // Same keys in the same order, then the same doubles.
    std::vector<std::string> ours, theirs;
    for (const auto& series : collector.series()) ours.push_back(series.name);
    for (auto it = golden_frames[0]["metrics"].begin(); it != golden_frames[0]["metrics"].end(); ++it)
        theirs.push_back(it.key());
    ASSERT_EQ(ours, theirs);
    for (const Json& frame : golden_frames) {
        const std::uint64_t index = frame["frameNum"].get<std::uint64_t>();
        for (const std::string& name : outputs)
            EXPECT_EQ(g17(collector.get(*collector.find(name), index)), g17(frame["metrics"][name].get<double>()))
                << name << " at frame " << index;
    }
    const std::pair<const char*, PoolMethod> methods[] = {{"min", PoolMethod::kMin},
                                                          {"max", PoolMethod::kMax},
                                                          {"mean", PoolMethod::kMean},
                                                          {"harmonic_mean", PoolMethod::kHarmonicMean}};
    for (const std::string& name : outputs) {
        for (const auto& [method, pool] : methods) {
            const auto value = collector.pooled(*collector.find(name), pool, frames, subsample);
            ASSERT_TRUE(value) << name;
            EXPECT_EQ(g17(*value), g17(golden["pooled_metrics"][name][method].get<double>()))
                << "pooled " << method << " of " << name;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllStoredOutputs, ModelGolden, testing::ValuesIn(cases()),
                         [](const auto& info) {
                             std::string name = info.param.fixture + "__" + info.param.variant + "__" + info.param.run;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ModelGolden);

TEST(ModelGoldenCoverage, EveryModelRunHasStoredOutputs)
{
    if (!fs::is_directory(test::fixtures_dir())) GTEST_SKIP() << "no fixtures at " << test::fixtures_dir();
    std::set<std::string> runs;
    for (const Case& c : cases()) runs.insert(c.run);
    for (const char* run : {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg",
                            "vmaf_b_v0.6.3", "vmaf_v0.6.1_egl", "vmaf_v0.6.1_subsample3",
                            "vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1",
                            "vmaf_float_b_v0.6.3", "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_enc720p8"})
        EXPECT_TRUE(runs.count(run)) << run;
}

}  // namespace
