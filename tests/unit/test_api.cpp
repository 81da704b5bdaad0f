// The public C++ API (include/twinvmaf/engine.h): files and pushed pictures
// give the same scores, one engine serves many sessions, and every misuse
// is a twinvmaf::Error that says what is wrong.
#include <gtest/gtest.h>

#include <cstring>

#include "test_support.h"
#include "twinvmaf/engine.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using namespace twinvmaf::test;

namespace {

const VideoFormat kApiFormat{64, 36, ChromaFormat::k420, 8};

// `frames` reference/distorted pictures and the raw files holding them.
struct Pair {
    std::vector<Picture> refs, dis;
    fs::path ref_path, dis_path;
};

Pair make_pair(const TempDir& dir, const VideoFormat& format, unsigned frames, std::uint32_t seed = 1)
{
    Pair pair;
    std::string ref_bytes, dis_bytes;
    for (unsigned i = 0; i < frames; ++i) {
        pair.refs.push_back(random_picture(format, seed + i));
        pair.dis.push_back(random_picture(format, seed + 100 + i, 12, &pair.refs.back()));
        ref_bytes.append(reinterpret_cast<const char*>(pair.refs.back().bytes()), pair.refs.back().size_bytes());
        dis_bytes.append(reinterpret_cast<const char*>(pair.dis.back().bytes()), pair.dis.back().size_bytes());
    }
    pair.ref_path = dir / "ref.yuv";
    pair.dis_path = dir / "dis.yuv";
    write_file(pair.ref_path, ref_bytes);
    write_file(pair.dis_path, dis_bytes);
    return pair;
}

SessionConfig vmaf_and_psnr()
{
    SessionConfig config;
    config.models = {Model::builtin("vmaf_v0.6.1")};
    config.features = {{"psnr", {{"enable_apsnr", "true"}}}};
    return config;
}

Inputs files(const Pair& pair, const VideoFormat& format)
{
    return Inputs{.reference = pair.ref_path.string(), .distorted = pair.dis_path.string(), .raw_format = format};
}

std::string json(const Scores& scores) { return scores.render(OutputFormat::kJson, Precision::parse("max")); }

std::string strip_fps(std::string text)
{
    const std::size_t at = text.find("\"fps\": ");
    if (at != std::string::npos) text.erase(at, text.find(',', at) - at);
    return text;
}

template <class F>
void expect_error(F&& f, const std::string& needle)
{
    try {
        f();
        ADD_FAILURE() << "no error; expected one saying: " << needle;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(Api, PushedPicturesScoreAsTheirFiles)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 5);
    const Engine engine({.threads = 2});

    const Scores from_files = engine.open(vmaf_and_psnr()).score(files(pair, kApiFormat));
    EXPECT_EQ(from_files.frames(), 5u);

    Session pushed = engine.open(vmaf_and_psnr());
    for (std::size_t i = 0; i < pair.refs.size(); ++i) pushed.push(pair.refs[i], pair.dis[i]);  // copies
    const Scores from_pictures = pushed.finish();

    Session shared = engine.open(vmaf_and_psnr());
    shared.start(kApiFormat);
    for (std::size_t i = 0; i < pair.refs.size(); ++i) {
        std::shared_ptr<Picture> ref = shared.picture(), dis = shared.picture();
        std::memcpy(ref->bytes(), pair.refs[i].bytes(), ref->size_bytes());
        std::memcpy(dis->bytes(), pair.dis[i].bytes(), dis->size_bytes());
        shared.push(std::move(ref), std::move(dis));
    }
    EXPECT_EQ(shared.frames_pushed(), 5u);
    const Scores from_pool = shared.finish();

    EXPECT_EQ(strip_fps(json(from_pictures)), strip_fps(json(from_files)));
    EXPECT_EQ(strip_fps(json(from_pool)), strip_fps(json(from_files)));
}

TEST(Api, ScoresAccessors)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 4);
    const Scores scores = Engine({.threads = 1}).open(vmaf_and_psnr()).score(files(pair, kApiFormat));

    EXPECT_EQ(scores.backend(), Backend::kCpu);
    EXPECT_EQ(scores.threads(), 1u);
    EXPECT_TRUE(scores.device().empty());
    EXPECT_EQ(scores.format(), kApiFormat);
    EXPECT_EQ(scores.subsample(), 1u);
    const std::vector<std::string> names = scores.names();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.back(), "vmaf");  // models after the features
    EXPECT_NE(std::find(names.begin(), names.end(), "psnr_y"), names.end());

    // The pooled mean is the mean of the per-frame values, in frame order.
    double sum = 0;
    for (std::uint64_t i = 0; i < 4; ++i) {
        ASSERT_TRUE(scores.at("vmaf", i));
        sum += *scores.at("vmaf", i);
    }
    EXPECT_EQ(*scores.pooled("vmaf", PoolMethod::kMean), sum / 4);
    EXPECT_LE(*scores.pooled("vmaf", PoolMethod::kMin), *scores.pooled("vmaf", PoolMethod::kHarmonicMean));
    EXPECT_FALSE(scores.at("vmaf", 4));
    EXPECT_FALSE(scores.at("no_such_score", 0));
    EXPECT_FALSE(scores.pooled("no_such_score", PoolMethod::kMean));
    const auto aggregates = scores.aggregates();
    ASSERT_FALSE(aggregates.empty());
    EXPECT_EQ(aggregates.front().first, "apsnr_y");

    // write() puts render()'s bytes in the file.
    scores.write((dir / "out.xml").string(), OutputFormat::kXml);
    EXPECT_EQ(read_file(dir / "out.xml"), scores.render(OutputFormat::kXml));
    EXPECT_NE(scores.pooled_summary().find("vmaf_v0.6.1: "), std::string::npos);
}

TEST(Api, OneEngineManySessionsSameBytes)
{
    TempDir dir;
    const Pair a = make_pair(dir, kApiFormat, 3, 7);
    const VideoFormat other{33, 35, ChromaFormat::k444, 10};
    TempDir dir2;
    const Pair b = make_pair(dir2, other, 2, 9);

    const Engine engine({.threads = 3});
    std::vector<std::string> outputs;
    for (int round = 0; round < 2; ++round) {
        outputs.push_back(json(engine.open(vmaf_and_psnr()).score(files(a, kApiFormat))));
        outputs.push_back(json(engine.open(vmaf_and_psnr()).score(files(b, other))));
    }
    EXPECT_EQ(strip_fps(outputs[0]), strip_fps(outputs[2]));
    EXPECT_EQ(strip_fps(outputs[1]), strip_fps(outputs[3]));
    // The same as fresh engines with other thread counts.
    EXPECT_EQ(strip_fps(json(Engine({.threads = 1}).open(vmaf_and_psnr()).score(files(a, kApiFormat)))),
              strip_fps(outputs[0]));
    EXPECT_EQ(strip_fps(json(Engine({.threads = 5}).open(vmaf_and_psnr()).score(files(b, other)))),
              strip_fps(outputs[1]));
}

TEST(Api, SessionsOutliveTheirEngine)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 2);
    std::optional<Session> session;
    {
        const Engine engine;
        session.emplace(engine.open(vmaf_and_psnr()));
    }
    EXPECT_EQ(session->score(files(pair, kApiFormat)).frames(), 2u);
}

TEST(Api, OpenRefusesWhatCannotBeComputed)
{
    const Engine engine;
    expect_error([&] { engine.open({.features = {{"no_such_feature", {}}}}); }, "unknown feature 'no_such_feature'");
    expect_error([&] { engine.open({.features = {{"psnr", {{"no_such_option", "1"}}}}}); },
                 "feature 'psnr' has no option 'no_such_option'");
    expect_error([&] { engine.open({.features = {{"psnr", {{"min_sse", "-5"}}}}}); }, "min_sse");
    // The same outputs from two configurations of one extractor.
    expect_error([&] { engine.open({.features = {{"psnr", {}}, {"psnr", {{"min_sse", "0.5"}}}}}); },
                 "two sources write 'psnr_y'");
    SessionConfig clash;
    clash.models = {Model::builtin("vmaf_v0.6.1", {.name = "psnr_y"})};
    clash.features = {{"psnr", {}}};
    expect_error([&] { engine.open(clash); }, "two sources write 'psnr_y'");
    clash.predict = false;  // the model then writes nothing
    EXPECT_NO_THROW(engine.open(clash));
}

TEST(Api, SessionMisuseIsAnError)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 2);
    const Engine engine;

    Session twice = engine.open(vmaf_and_psnr());
    twice.score(files(pair, kApiFormat));
    expect_error([&] { twice.score(files(pair, kApiFormat)); }, "a session scores one pair");
    expect_error([&] { twice.push(pair.refs[0], pair.dis[0]); }, "");

    Session empty = engine.open(vmaf_and_psnr());
    expect_error([&] { empty.finish(); }, "no frames to score");
    expect_error([&] { empty.picture(); }, "no pictures before start()");

    Session mismatched = engine.open(vmaf_and_psnr());
    mismatched.push(pair.refs[0], pair.dis[0]);
    const Picture bigger = random_picture({66, 36, ChromaFormat::k420, 8}, 3);
    expect_error([&] { mismatched.push(pair.refs[1], bigger); },
                 "distorted picture of frame 1 is 66x36 4:2:0 8-bit, but this session scores 64x36 4:2:0 8-bit");
    // A refused pair leaves the session usable.
    mismatched.push(pair.refs[1], pair.dis[1]);
    const Scores scores = mismatched.finish();
    EXPECT_EQ(scores.frames(), 2u);
    expect_error([&] { mismatched.finish(); }, "finish() was called already");
    expect_error([&] { mismatched.push(pair.refs[0], pair.dis[0]); }, "after finish()");

    // Samples above the bit depth, as the readers refuse them.
    const VideoFormat ten{16, 8, ChromaFormat::k420, 10};
    Picture high = random_picture(ten, 5);
    set_sample(high, 0, 3, 2, 1024);
    Session range = engine.open({.features = {{"psnr", {}}}});
    expect_error([&] { range.push(random_picture(ten, 6), high); }, "distorted picture");

    // A frame size a feature refuses, when scoring starts.
    Session small = engine.open({.features = {{"float_ms_ssim", {}}}});
    expect_error([&] { small.start(kApiFormat); }, "float_ms_ssim");
    // ... and every later call says why.
    expect_error([&] { small.push(random_picture(kApiFormat, 1), random_picture(kApiFormat, 2)); },
                 "the session could not start: float_ms_ssim");
    expect_error([&] { small.finish(); }, "the session could not start");
}

TEST(Api, ModelsByNetflixsNames)
{
    expect_error([] { Model::builtin("vmaf_v9"); }, "no built-in model 'vmaf_v9'");
    expect_error([] { Model::from_file("/nonexistent.json"); }, "/nonexistent.json");
    expect_error([] { Model::from_json("{", "my text"); }, "my text");
    const std::vector<std::string> versions = Model::builtin_versions();
    EXPECT_NE(std::find(versions.begin(), versions.end(), "vmaf_v1.0.16_3d0h"), versions.end());

    const Model model = Model::builtin("vmaf_v0.6.1", {.name = "mine"});
    EXPECT_EQ(model.name(), "mine");
    EXPECT_EQ(model.label(), "vmaf_v0.6.1");
    EXPECT_FALSE(model.is_collection());
    EXPECT_EQ(model.output_names(), std::vector<std::string>{"mine"});

    const Model collection = Model::builtin("vmaf_b_v0.6.3");
    EXPECT_TRUE(collection.is_collection());
    const auto names = collection.output_names();
    EXPECT_EQ(names.front(), "vmaf");
    EXPECT_EQ(names.back(), "vmaf_ci_p95_hi");

    // An override changes the model it is made on, not earlier copies.
    Model changed = model;
    expect_error([&] { changed.override_feature("psnr", {{"x", "1"}}); }, "no feature with extractor 'psnr'");
    changed.override_feature("adm", {{"adm_enhn_gain_limit", "1.2"}});
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 2);
    const Engine engine;
    const Scores plain = engine.open({.models = {model}}).score(files(pair, kApiFormat));
    const Scores egl = engine.open({.models = {changed}}).score(files(pair, kApiFormat));
    EXPECT_TRUE(plain.at("integer_adm2", 0));
    EXPECT_FALSE(plain.at("integer_adm2_egl_1.2", 0));
    EXPECT_TRUE(egl.at("integer_adm2_egl_1.2", 0));
}

TEST(Api, NoPredictionAndSubsample)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 5);
    const Engine engine;
    SessionConfig config = vmaf_and_psnr();
    config.predict = false;
    config.subsample = 2;
    const Scores scores = engine.open(config).score(files(pair, kApiFormat));
    EXPECT_FALSE(scores.at("vmaf", 0));
    EXPECT_TRUE(scores.at("integer_adm2", 0));
    EXPECT_FALSE(scores.at("integer_adm2", 1));
    EXPECT_TRUE(scores.at("integer_adm2", 4));
    EXPECT_EQ(scores.subsample(), 2u);
    EXPECT_TRUE(scores.pooled_summary().empty());
}

TEST(Api, ImportedScores)
{
    const Engine engine;
    Session session = engine.open({.features = {{"psnr", {}}}});
    session.import_score("external", 0, 0.25);
    expect_error([&] { session.import_score("external", 0, 0.5); }, "already has a value at frame 0");
    expect_error([&] { session.import_score("psnr_y", 0, 1.0); }, "is computed by this session");
    session.push(random_picture(kApiFormat, 1), random_picture(kApiFormat, 2));
    session.import_score("external", 1, 0.75);
    const Scores scores = session.finish();
    EXPECT_EQ(*scores.at("external", 1), 0.75);
    EXPECT_EQ(*scores.pooled("external", PoolMethod::kMean), 0.25);  // frame 0 only was scored
    expect_error([&] { session.import_score("late", 0, 1.0); }, "has finished");
}

TEST(Api, FileInputsCallbacks)
{
    TempDir dir;
    const Pair pair = make_pair(dir, kApiFormat, 6);
    std::optional<std::uint64_t> expected;
    std::vector<std::uint64_t> progress;
    std::vector<std::string> warnings;
    ScoreCallbacks callbacks;
    callbacks.opened = [&](std::optional<std::uint64_t> frames) { expected = frames; };
    callbacks.progress = [&](std::uint64_t done) { progress.push_back(done); };
    callbacks.warn = [&](const std::string& message) { warnings.push_back(message); };
    Inputs inputs = files(pair, kApiFormat);
    inputs.skip_ref = 1;
    inputs.frame_cnt = 3;
    const Scores scores = Engine().open({.features = {{"psnr", {}}}}).score(inputs, callbacks);
    EXPECT_EQ(expected, std::optional<std::uint64_t>(3));
    EXPECT_EQ(progress, (std::vector<std::uint64_t>{1, 2, 3}));
    EXPECT_EQ(scores.frames(), 3u);
    EXPECT_TRUE(warnings.empty());

    Inputs missing = files(pair, kApiFormat);
    missing.distorted = (dir / "missing.yuv").string();
    expect_error([&] { Engine().open({.features = {{"psnr", {}}}}).score(missing); }, "missing.yuv");
}

TEST(Api, BackendsAsked)
{
    EXPECT_TRUE(Engine::compiled(Backend::kCpu));
    EXPECT_STREQ(backend_name(Backend::kCuda), "cuda");
    if (!Engine::compiled(Backend::kHip)) {
        TempDir dir;
        const Pair pair = make_pair(dir, kApiFormat, 2);
        Session session = Engine({.backend = Backend::kHip}).open({.features = {{"psnr", {}}}});
        EXPECT_EQ(session.backend(), Backend::kHip);
        expect_error([&] { session.score(files(pair, kApiFormat)); }, "--backend hip");
    }
}

}  // namespace
