// The lusoris/vmaf fork's extractors (motion_v2, ssim) against the fork's own
// CPU build on every public fixture: tests/data/fork_goldens/<run>.txt holds
// the fork's values (tools/fork_goldens.py; README there: the commands and
// the pinned commit), and every frame value and pooled metric must be the
// same double, compared at %.17g. Where the fork refuses a run, we must
// refuse it too (a twinvmaf::Error, no scores).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
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
        // The fork's name of an extractor whose twinvmaf name differs.
        if (request.name == "float_ms_ssim") request.name = "lusoris_float_ms_ssim";
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

// "--subsample N" (1 without).
unsigned subsample_of(const std::vector<std::string>& args)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--subsample") return static_cast<unsigned>(std::stoul(args[i + 1]));
    return 1;
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

void expect_fork_golden(const std::string& run, const std::string& fixture, unsigned threads);

// Threads: the fork's goldens were made at --threads 1; twinvmaf must give
// them at any thread count. The 48-frame fixture runs at 1 and 3 threads.
std::vector<unsigned> thread_counts(const std::string& fixture)
{
    return fixture == "vtest_576x324_420p8" ? std::vector<unsigned>{1, 3} : std::vector<unsigned>{1};
}

class ForkGolden : public testing::TestWithParam<Case> {};

TEST_P(ForkGolden, MatchesTheForkAtFullPrecision)
{
    const auto& [run, fixture] = GetParam();
    for (unsigned threads : thread_counts(fixture)) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expect_fork_golden(run, fixture, threads);
    }
}

void expect_fork_golden(const std::string& run, const std::string& fixture, unsigned threads)
{
    const fs::path dir = fixtures_dir() / fixture;
    if (!fs::exists(dir / "fixture.json")) GTEST_SKIP() << "no fixture " << dir;
    const ForkResult golden = read_golden(run).at(fixture);

    SessionConfig config;
    config.features = features_of(fork_runs().at(run));
    config.subsample = subsample_of(fork_runs().at(run));
    config.predict = false;
    const Engine engine({.backend = Backend::kCpu, .threads = threads});
    if (golden.refused) {
        EXPECT_THROW(engine.open(config).score(fixture_inputs(dir)), Error) << "the fork refused:" << golden.why;
        return;
    }
    const Scores scores = engine.open(config).score(fixture_inputs(dir));
    std::vector<std::string> keys;
    // The golden lists the frames written: 0, subsample, 2 subsample, ...
    const std::uint64_t step = config.subsample;
    for (const auto& [key, values] : golden.frames) {
        keys.push_back(key);
        ASSERT_EQ((scores.frames() + step - 1) / step, values.size()) << key;
        for (std::size_t i = 0; i < values.size(); ++i)
            EXPECT_EQ(g17(scores.at(key, i * step)), values[i]) << key << " frame " << i * step;
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

// ---- the small-size sweep (tools/fork_goldens.py --sweep) ----

namespace {

// The sweep's clips: fork_goldens.py's sweep_luma(), chroma mid-grey.
std::vector<std::pair<Picture, Picture>> sweep_clip(unsigned w, unsigned h, unsigned bitdepth, unsigned frames)
{
    const VideoFormat format{w, h, ChromaFormat::k420, bitdepth};
    const std::int64_t maxval = (std::int64_t{1} << bitdepth) - 1, amp = std::int64_t{24} << (bitdepth - 8);
    const std::uint64_t state0 = (std::uint64_t{w} << 40) ^ (std::uint64_t{h} << 24) ^ (std::uint64_t{bitdepth} << 16);
    std::vector<std::pair<Picture, Picture>> clip;
    std::vector<std::int64_t> base;
    for (unsigned f = 0; f < frames; ++f) {
        Picture ref = twinvmaf::test::constant_picture(format, 1u << (bitdepth - 1));
        Picture dis = twinvmaf::test::constant_picture(format, 1u << (bitdepth - 1));
        std::uint64_t state = state0 ^ f;
        std::vector<std::int64_t> values(static_cast<std::size_t>(w) * h);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::uint64_t r = twinvmaf::test::splitmix64(state);
            const std::int64_t motion = static_cast<std::int64_t>((r >> 16) % (2 * amp + 1)) - amp;
            const std::int64_t noise = static_cast<std::int64_t>((r >> 40) % (2 * amp + 1)) - amp;
            const std::int64_t value = base.empty() ? static_cast<std::int64_t>(r % (maxval + 1))
                                                    : std::clamp<std::int64_t>(base[i] + motion, 0, maxval);
            values[i] = value;
            const unsigned x = static_cast<unsigned>(i % w), y = static_cast<unsigned>(i / w);
            twinvmaf::test::set_sample(ref, 0, x, y, static_cast<unsigned>(value));
            twinvmaf::test::set_sample(dis, 0, x, y, static_cast<unsigned>(std::clamp<std::int64_t>(value + noise, 0, maxval)));
        }
        base = values;
        clip.emplace_back(std::move(ref), std::move(dis));
    }
    return clip;
}

// undefined.txt: "<feature> <bitdepth> <why>" - cases where the fork's code
// is undefined, which twinvmaf refuses whatever the fork printed.
bool fork_undefined(const std::string& feature, unsigned bitdepth)
{
    std::istringstream in(read_file(kData / "undefined.txt"));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string name;
        unsigned bits = 0;
        words >> name >> bits;
        if (name == feature && bits == bitdepth) return true;
    }
    return false;
}

// A sweep file's lines by clip ("WxH bitdepth" -> the rest of each line),
// read once per run.
const std::vector<std::string>& sweep_lines(const std::string& run, const std::string& where)
{
    static std::map<std::string, std::map<std::string, std::vector<std::string>>> files;
    auto it = files.find(run);
    if (it == files.end()) {
        std::map<std::string, std::vector<std::string>> by_clip;
        std::istringstream in(read_file(kData / ("sweep_" + run + ".txt")));
        std::string line;
        while (std::getline(in, line)) {
            const std::size_t first = line.find(' '), second = line.find(' ', first + 1);
            if (second == std::string::npos) continue;
            by_clip[line.substr(0, second)].push_back(line.substr(second + 1));
        }
        it = files.emplace(run, std::move(by_clip)).first;
    }
    static const std::vector<std::string> none;
    const auto clip = it->second.find(where);
    return clip == it->second.end() ? none : clip->second;
}

// The runs that have a sweep file, and each one's clips ("WxH bitdepth") in
// file order.
std::vector<std::string> sweep_runs()
{
    std::vector<std::string> runs;
    for (const auto& [run, args] : fork_runs())
        if (fs::exists(kData / ("sweep_" + run + ".txt"))) runs.push_back(run);
    return runs;
}

std::vector<std::string> sweep_clips(const std::string& run)
{
    std::vector<std::string> clips;
    std::istringstream in(read_file(kData / ("sweep_" + run + ".txt")));
    std::string line, size, bits;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        words >> size >> bits;
        if (clips.empty() || clips.back() != size + " " + bits) clips.push_back(size + " " + bits);
    }
    return clips;
}

// One clip of a sweep against the fork's lines for it.
void expect_sweep_clip(const std::string& run, const std::string& where)
{
    unsigned w = 0, h = 0, bitdepth = 0;
    ASSERT_EQ(std::sscanf(where.c_str(), "%ux%u %u", &w, &h, &bitdepth), 3);
    // The fork's lines for this clip.
    std::vector<std::pair<std::string, std::vector<std::string>>> golden;
    bool refused = false;
    for (const std::string& line : sweep_lines(run, where)) {
        std::istringstream words(line);
        std::string key, value;
        words >> key;
        if (key == "refused") {
            refused = true;
            continue;
        }
        std::vector<std::string> values;
        while (words >> value) values.push_back(value);
        golden.emplace_back(key, values);
    }
    SessionConfig config;
    config.features = features_of(fork_runs().at(run));
    config.predict = false;
    const Engine engine({.backend = Backend::kCpu, .threads = 1});
    Session session = engine.open(config);
    const auto clip = sweep_clip(w, h, bitdepth, 3);
    const bool undefined = fork_undefined(config.features.at(0).name, bitdepth);
    if (refused || undefined) {
        EXPECT_THROW(
            {
                for (const auto& [ref, dis] : clip) session.push(ref, dis);
                session.finish();
            },
            Error)
            << (undefined ? "the fork's code is undefined here (undefined.txt)" : "the fork refused");
        return;
    }
    for (const auto& [ref, dis] : clip) session.push(ref, dis);
    const Scores scores = session.finish();
    for (const auto& [key, values] : golden) {
        ASSERT_EQ(scores.frames(), values.size()) << key;
        for (std::size_t i = 0; i < values.size(); ++i)
            EXPECT_EQ(g17(scores.at(key, i)), values[i]) << key << " frame " << i;
    }
}

// One test per sweep run, not one per clip: each gtest case is a process
// under ctest, and a few thousand processes cost more than the clips
// themselves (0.3 s each under the sanitizers). A failure names its clip.
class ForkSweep : public testing::TestWithParam<std::string> {};

TEST_P(ForkSweep, EveryClipMatchesTheForkAtFullPrecision)
{
    const std::vector<std::string> clips = sweep_clips(GetParam());
    ASSERT_FALSE(clips.empty());
    for (const std::string& where : clips) {
        SCOPED_TRACE(GetParam() + " " + where);
        expect_sweep_clip(GetParam(), where);
    }
}

INSTANTIATE_TEST_SUITE_P(SmallSizes, ForkSweep, testing::ValuesIn(sweep_runs()),
                         [](const auto& info) { return info.param; });

}  // namespace
