// The CLI end to end: every bad input gives a one-line error, a nonzero exit
// and no output file; the output is the same bytes for any --threads.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <regex>
#include <sstream>

#include "core/feature.h"
#include "model/model.h"
#include "model/predict.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

std::string strip_fps(const std::string& text)
{
    return std::regex_replace(text, std::regex(R"(fps[^,/\n]*)"), "fps");
}

class Cli : public testing::Test {
protected:
    void SetUp() override
    {
        write_file(dir / "ref.yuv", raw_frames(32, 18, 4, 1));
        write_file(dir / "dis.yuv", raw_frames(32, 18, 4, 2));
    }

    std::string raw_args() const
    {
        return "-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
               " -w 32 -h 18 -p 420 -b 8";
    }

    // Expects a failure with one error line containing `needle` and no output.
    void expect_failure(const std::string& args, const std::string& needle)
    {
        expect_cli_failure(dir.path(), args, needle);
    }

    // Runs `args` (writing to stdout) once per thread count; every output must
    // be the same bytes, apart from fps. Returns that output.
    std::string same_output_for_threads(const std::string& args, std::initializer_list<const char*> thread_counts)
    {
        std::string first;
        for (const char* threads : thread_counts) {
            const auto r = run_cli(args + " --threads " + threads + " -o -");
            EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
            const std::string text = strip_fps(r.stdout_text);
            if (first.empty()) first = text;
            else EXPECT_EQ(text, first) << "--threads " << threads << " differs from --threads 1";
        }
        return first;
    }

    TempDir dir;
};

TEST_F(Cli, HelpAndVersion)
{
    auto r = run_cli("--help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.stdout_text.find("--reference/-r"), std::string::npos);
    r = run_cli("--version");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.stdout_text.find("twinvmaf"), std::string::npos);
}

TEST_F(Cli, ScoresPsnrInEveryFormat)
{
    for (const char* format : {"xml", "json", "csv", "sub"}) {
        const fs::path out = dir / (std::string("out.") + format);
        const auto r = run_cli(raw_args() + " -n --feature psnr --" + format + " -o " + shell_quote(out));
        ASSERT_EQ(r.exit_code, 0) << format << ": " << r.stderr_text;
        const std::string text = read_file(out);
        EXPECT_NE(text.find("psnr_y"), std::string::npos) << format;
    }
    EXPECT_NE(read_file(dir / "out.xml").find("<frame frameNum=\"3\""), std::string::npos);
    EXPECT_NE(read_file(dir / "out.sub").find("{3}{4}frame: 3|psnr_y: "), std::string::npos);
}

TEST_F(Cli, OutputDashWritesToStdout)
{
    const auto r = run_cli(raw_args() + " -n --feature psnr --json -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(r.stdout_text.find("\"pooled_metrics\""), std::string::npos);
}

TEST_F(Cli, FrameCountSkipAndSubsample)
{
    const auto r = run_cli(raw_args() + " -n --feature psnr --csv --frame_cnt 2 --frame_skip_ref 1 "
                                        "--frame_skip_dist 1 -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n'), 3) << r.stdout_text;
    const auto s = run_cli(raw_args() + " -n --feature psnr --csv --subsample 3 -o -");
    ASSERT_EQ(s.exit_code, 0) << s.stderr_text;
    EXPECT_NE(s.stdout_text.find("\n0,"), std::string::npos);
    EXPECT_NE(s.stdout_text.find("\n3,"), std::string::npos);
    EXPECT_EQ(s.stdout_text.find("\n1,"), std::string::npos);
}

TEST_F(Cli, Y4mInputAndGeometryFlagsMustAgree)
{
    write_file(dir / "ref.y4m", y4m(32, 18, "420", 3));
    write_file(dir / "dis.y4m", y4m(32, 18, "420", 3));
    const std::string args = "-r " + shell_quote(dir / "ref.y4m") + " -d " + shell_quote(dir / "dis.y4m");
    const auto r = run_cli(args + " -n --feature psnr --json -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    expect_failure(args + " -w 32 -h 20 -p 420 -b 8 -n --feature psnr", "32x20");
}

TEST_F(Cli, ShorterInputEndsTheRunWithAWarningAsNetflix)
{
    write_file(dir / "short.yuv", raw_frames(32, 18, 2, 2));
    const auto r = run_cli("-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "short.yuv") +
                           " -w 32 -h 18 -p 420 -b 8 -n --feature psnr --csv -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("ended before"), std::string::npos) << r.stderr_text;
    EXPECT_EQ(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n'), 3);
}

TEST_F(Cli, BadCommandLines)
{
    expect_failure("-d " + shell_quote(dir / "dis.yuv") + " -n", "-r/--reference");
    expect_failure(raw_args() + " -n --feature nosuch", "unknown feature 'nosuch'");
    expect_failure(raw_args() + " -n --feature psnr=bogus=1", "valid options: enable_chroma");
    expect_failure(raw_args() + " -n --feature psnr=enable_chroma=maybe", "true or false");
    expect_failure(raw_args() + " -n --feature psnr --bogus", "unknown option --bogus");
    expect_failure(raw_args() + " -n --feature psnr --threads x", "--threads");
    expect_failure(raw_args() + " -n --feature psnr --precision 99", "--precision");
    expect_failure("-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
                       " -w 32 -h 18 -n --feature psnr",
                   "--pixel_format");
    expect_failure("-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
                       " -w 32 -h 18 -p 411 -b 8 -n --feature psnr",
                   "pixel format");
    expect_failure("-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
                       " -w 32 -h 18 -p 420 -b 9 -n --feature psnr",
                   "bitdepth");
}

// ---- models ----------------------------------------------------------------

// A model over psnr (the features twinvmaf has): psnr_y and psnr_cb in,
// linear_rescale, two support vectors, clipped to [0, 100].
nlohmann::ordered_json psnr_model_dict()
{
    nlohmann::ordered_json dict;
    dict["model_type"] = "LIBSVMNUSVR";
    dict["norm_type"] = "linear_rescale";
    dict["feature_names"] = {"psnr_y", "psnr_cb"};
    dict["slopes"] = {0.01, 0.02, 0.025};
    dict["intercepts"] = {-0.5, -0.2, -0.3};
    dict["score_clip"] = {0.0, 100.0};
    dict["model"] = "svm_type nu_svr\nkernel_type rbf\ngamma 0.05\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n"
                    "4 1:0.4 2:0.6 \n-2 1:0.7 2:0.2 \n";
    return dict;
}

class CliModels : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        write_file(dir / "psnr_model.json", nlohmann::ordered_json{{"model_dict", psnr_model_dict()}}.dump(2));
        nlohmann::ordered_json collection;
        for (int i = 0; i < 4; ++i) {
            nlohmann::ordered_json dict = psnr_model_dict();
            dict["model_type"] = "BOOTSTRAP_LIBSVMNUSVR";
            dict["slopes"][0] = 0.01 + 0.001 * i;
            collection[std::to_string(i)]["model_dict"] = dict;
        }
        write_file(dir / "psnr_bootstrap.json", collection.dump());
    }

    std::string model_path(const char* file = "psnr_model.json") const { return shell_quote(dir / file); }

    nlohmann::ordered_json run_json(const std::string& args)
    {
        const auto r = run_cli(raw_args() + " " + args + " --json --precision max -o -");
        EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.stderr_text;
        return nlohmann::ordered_json::parse(r.exit_code == 0 ? r.stdout_text : "{}");
    }
};

std::vector<std::string> keys(const nlohmann::ordered_json& object)
{
    std::vector<std::string> names;
    for (auto it = object.begin(); it != object.end(); ++it) names.push_back(it.key());
    return names;
}

TEST_F(CliModels, ScoresAModelFileFromTheFeaturesItNames)
{
    const auto out = run_json("--model path=" + model_path());
    const auto loaded = twinvmaf::model::load_model_file(dir / "psnr_model.json", {});
    ASSERT_EQ(out["frames"].size(), 4u);
    for (const auto& frame : out["frames"]) {
        const auto& m = frame["metrics"];
        EXPECT_EQ(keys(m), (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr", "vmaf"}));
        const double features[] = {m["psnr_y"].get<double>(), m["psnr_cb"].get<double>()};
        EXPECT_EQ(m["vmaf"].get<double>(), twinvmaf::model::predict(loaded.model, features));
    }
    EXPECT_TRUE(out["pooled_metrics"].contains("vmaf"));
}

TEST_F(CliModels, SeveralModelsNamesFeaturesAndSubsample)
{
    // psnr runs once for both models and --feature (same options).
    const auto out = run_json("--model path=" + model_path() + " --model path=" + model_path() +
                              ":name=second:disable_clip --feature psnr --model path=" +
                              model_path("psnr_bootstrap.json") + ":name=boot --subsample 2");
    ASSERT_EQ(out["frames"].size(), 2u);
    EXPECT_EQ(out["frames"][1]["frameNum"], 2);
    EXPECT_EQ(keys(out["frames"][0]["metrics"]),
              (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr", "vmaf", "second", "boot", "boot_0001",
                                        "boot_0002", "boot_0003", "boot_bagging", "boot_stddev",
                                        "boot_ci_p95_lo", "boot_ci_p95_hi"}));
    EXPECT_EQ(out["frames"][0]["metrics"]["boot"], out["frames"][0]["metrics"]["vmaf"]);
}

TEST_F(CliModels, NoPredictionStillExtractsTheModelsFeatures)
{
    const auto out = run_json("-n --model path=" + model_path());
    EXPECT_EQ(keys(out["frames"][0]["metrics"]), (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"}));
}

// Netflix prints the pooled score on stderr when stderr is a terminal, unless
// --quiet comes with an output file. `script` gives the CLI a terminal.
TEST_F(CliModels, PooledSummaryOnATerminalLikeNetflix)
{
    if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no `script` to fake a terminal";
    auto transcript = [&](const std::string& args) {
        const std::string cli = shell_quote(TWINVMAF_CLI) + " " + raw_args() + " " + args;
        const std::string command = "script -qec " + shell_quote(cli) + " /dev/null > " +
                                    shell_quote(dir / "transcript.txt") + " 2>&1 </dev/null";
        EXPECT_EQ(std::system(command.c_str()), 0) << command;
        return read_file(dir / "transcript.txt");
    };
    const std::string model = "--model path=" + model_path();
    const std::string shown = transcript(model + " --json --precision max -o " + shell_quote(dir / "out.json"));
    const auto out = nlohmann::ordered_json::parse(read_file(dir / "out.json"));
    char expected[128];
    std::snprintf(expected, sizeof expected, "%s: %f", (dir / "psnr_model.json").c_str(),
                  out["pooled_metrics"]["vmaf"]["mean"].get<double>());
    EXPECT_NE(shown.find(expected), std::string::npos) << shown;
    EXPECT_EQ(transcript(model + " -q -o " + shell_quote(dir / "out.xml")).find("psnr_model.json: "),
              std::string::npos);
    EXPECT_NE(transcript(model + " -q").find(expected), std::string::npos);
    const std::string boot = transcript("--model path=" + model_path("psnr_bootstrap.json") + " -o " +
                                        shell_quote(dir / "boot.xml"));
    EXPECT_NE(boot.find("psnr_bootstrap.json: "), std::string::npos) << boot;
    EXPECT_NE(boot.find(", ci.p95: ["), std::string::npos) << boot;
    EXPECT_NE(boot.find("], stddev: "), std::string::npos) << boot;
}

TEST_F(CliModels, DefaultModelIsVmafV061)
{
    if (twinvmaf::find_feature_providing("VMAF_integer_feature_adm2_score")) {
        // adm needs both sides above 32 (Netflix's adm reads outside its
        // buffers below: docs/compat.md), so not the class's 32x18 pair.
        write_file(dir / "ref48.yuv", raw_frames(48, 34, 2, 1));
        write_file(dir / "dis48.yuv", raw_frames(48, 34, 2, 2));
        const auto r = run_cli("-r " + shell_quote(dir / "ref48.yuv") + " -d " + shell_quote(dir / "dis48.yuv") +
                               " -w 48 -h 34 -p 420 -b 8 --json --precision max -o -");
        ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
        const auto out = nlohmann::ordered_json::parse(r.stdout_text);
        ASSERT_EQ(out["frames"].size(), 2u);
        EXPECT_TRUE(out["frames"][0]["metrics"].contains("vmaf"));
        // ... and with the class's 32x18 frames it is adm's refusal.
        expect_failure(raw_args(), "adm");
    } else {
        expect_failure(raw_args(), "model vmaf_v0.6.1 needs feature 'VMAF_integer_feature_adm2_score', "
                                   "which twinvmaf does not implement yet");
    }
}

TEST_F(CliModels, BadModelArguments)
{
    expect_failure(raw_args() + " --model version=nosuch", "no built-in model 'nosuch'; built-in models: ");
    expect_failure(raw_args() + " --model version=vmaf_v0.6.1:path=x.json", "exactly one of path= or version=");
    expect_failure(raw_args() + " --model name=x", "exactly one of path= or version=");
    expect_failure(raw_args() + " --model bogus", "bad option string");
    expect_failure(raw_args() + " --model path=" + model_path() + " --model path=" + model_path(), "uniquely named");
    expect_failure(raw_args() + " --model path=" + model_path() + ":adm.adm_enhn_gain_limit=1.2",
                   "computes no feature with extractor 'adm'; its extractors are: psnr");
    expect_failure(raw_args() + " --model path=" + model_path() + ":psnr.bogus=1", "has no option 'bogus'");
    expect_failure(raw_args() + " --model path=" + model_path() + ":psnr.min_sse=-1", "out of range");
    // Without chroma, psnr_cb is never written.
    expect_failure(raw_args() + " --model path=" + model_path() + ":psnr.enable_chroma=false",
                   "no value of feature 'psnr_cb'");
    // The same outputs from two differently configured extractors, or a model
    // named like a feature output.
    expect_failure(raw_args() + " --model path=" + model_path() + ":psnr.enable_mse=true --feature psnr",
                   "two sources write 'psnr_y'");
    expect_failure(raw_args() + " --model path=" + model_path() + ":name=psnr_cr", "two sources write 'psnr_cr'");
}

TEST_F(CliModels, BadModelFiles)
{
    expect_failure(raw_args() + " --model path=" + shell_quote(dir / "missing.json"),
                   "cannot read model file");
    write_file(dir / "notjson.json", "model_dict: no");
    expect_failure(raw_args() + " --model path=" + model_path("notjson.json"), "not valid JSON");
    auto broken = [&](const std::string& key, const nlohmann::ordered_json& value, const std::string& needle) {
        nlohmann::ordered_json dict = psnr_model_dict();
        if (value.is_null()) dict.erase(key);
        else dict[key] = value;
        write_file(dir / "broken.json", nlohmann::ordered_json{{"model_dict", dict}}.dump());
        expect_failure(raw_args() + " --model path=" + model_path("broken.json"), needle);
    };
    broken("model_type", "SVM", "model_type: unknown type 'SVM'");
    broken("norm_type", nullptr, "no 'norm_type'");
    broken("norm_type", 1, "norm_type: expected a string");
    broken("slopes", {1.0}, "slopes: 1 values");
    broken("model", "svm_type nu_svr\nkernel_type rbf\ngamma 0.05\nnr_class 2\ntotal_sv 1\nrho 1\nSV\n1 1:x\n",
           "support vector 1 value: 'x' is not a finite number");
    broken("feature_names", {"psnr_y", "No_such_feature_score"},
           "needs feature 'No_such_feature_score', which twinvmaf does not implement yet");
}

TEST_F(Cli, BadInputFiles)
{
    expect_failure("-r " + shell_quote(dir / "missing.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
                       " -w 32 -h 18 -p 420 -b 8 -n --feature psnr",
                   "missing.yuv");
    // Truncated: one byte short of 4 frames.
    std::string truncated = raw_frames(32, 18, 4, 2);
    truncated.pop_back();
    write_file(dir / "truncated.yuv", truncated);
    expect_failure("-r " + shell_quote(dir / "ref.yuv") + " -d " + shell_quote(dir / "truncated.yuv") +
                       " -w 32 -h 18 -p 420 -b 8 -n --feature psnr",
                   "not a whole number");
    write_file(dir / "empty.yuv", "");
    expect_failure("-r " + shell_quote(dir / "empty.yuv") + " -d " + shell_quote(dir / "dis.yuv") +
                       " -w 32 -h 18 -p 420 -b 8 -n --feature psnr",
                   "empty");
    // 10-bit file whose samples exceed 1023.
    write_file(dir / "big10.yuv", std::string((32 * 18 + 2 * 16 * 9) * 2, '\x7f'));
    write_file(dir / "ok10.yuv", std::string((32 * 18 + 2 * 16 * 9) * 2, '\x01'));
    expect_failure("-r " + shell_quote(dir / "ok10.yuv") + " -d " + shell_quote(dir / "big10.yuv") +
                       " -w 32 -h 18 -p 420 -b 10 -n --feature psnr",
                   "exceeds the 10-bit maximum");
    // Different geometry.
    write_file(dir / "a.y4m", y4m(32, 18, "420", 2));
    write_file(dir / "b.y4m", y4m(34, 18, "420", 2));
    expect_failure("-r " + shell_quote(dir / "a.y4m") + " -d " + shell_quote(dir / "b.y4m") + " -n --feature psnr",
                   "differ");
    // Bad Y4M headers.
    write_file(dir / "mono.y4m", "YUV4MPEG2 W32 H18 F25:1 Cmono\nFRAME\n" + std::string(32 * 18, 'x'));
    expect_failure("-r " + shell_quote(dir / "mono.y4m") + " -d " + shell_quote(dir / "mono.y4m") + " -n --feature psnr",
                   "mono");
    write_file(dir / "nowidth.y4m", "YUV4MPEG2 H18 F25:1 C420\n");
    expect_failure("-r " + shell_quote(dir / "nowidth.y4m") + " -d " + shell_quote(dir / "a.y4m") + " -n --feature psnr",
                   "nowidth.y4m");
    std::string bad_frame = y4m(32, 18, "420", 2);
    bad_frame.replace(bad_frame.rfind("FRAME"), 5, "FRAMX");
    write_file(dir / "badframe.y4m", bad_frame);
    expect_failure("-r " + shell_quote(dir / "badframe.y4m") + " -d " + shell_quote(dir / "a.y4m") + " -n --feature psnr",
                   "frame 1");
}

TEST_F(Cli, ChromaIsReadOnlyWhenAFeatureReadsIt)
{
    // 10-bit frames with valid luma (257) and chroma above 1023: psnr with
    // chroma reads (and refuses) it; luma-only features never read it.
    const std::size_t luma = 32 * 18 * 2, chroma = 2 * 16 * 9 * 2;
    std::string frames;
    for (int f = 0; f < 3; ++f) frames += std::string(luma, '\x01') + std::string(chroma, '\x7f');
    write_file(dir / "ref10.yuv", frames);
    write_file(dir / "dis10.yuv", frames);
    const std::string args = "-r " + shell_quote(dir / "ref10.yuv") + " -d " + shell_quote(dir / "dis10.yuv") +
                             " -w 32 -h 18 -p 420 -b 10 -n";
    expect_failure(args + " --feature psnr", "exceeds the 10-bit maximum");
    for (const std::string features : {"--feature psnr=enable_chroma=false", "--feature motion"}) {
        const auto r = run_cli(args + " " + features + " --json -o -");
        EXPECT_EQ(r.exit_code, 0) << features << ": " << r.stderr_text;
        EXPECT_NE(r.stdout_text.find("\"frameNum\": 2"), std::string::npos) << r.stdout_text;
    }
}

TEST_F(Cli, SameBytesForAnyThreadCount)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string first = same_output_for_threads(
        "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
            " -w 576 -h 324 -p 420 -b 8 -n --feature psnr=enable_mse=true:enable_apsnr=true "
            "--feature vif=debug=true --precision max",
        {"1", "2", "7"});
    EXPECT_NE(first.find("apsnr_y"), std::string::npos);
    EXPECT_NE(first.find("integer_vif_den_scale3"), std::string::npos);
}

// Motion reads earlier pictures and writes motion2/motion3 at the end: its
// output must not depend on which worker scored which frame.
TEST_F(Cli, MotionSameBytesForThreads1And3)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 8 -n --feature motion=debug=true "
                             "--feature motion=motion_five_frame_window=true:motion_moving_average=true "
                             "--json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("integer_motion3_mffw_mma"), std::string::npos);
}

// The float luma features sum in long serial chains: whichever worker
// scores a frame, the bytes are the same.
TEST_F(Cli, FloatPsnrAnsnrMomentSameBytesForAnyThreadCount)
{
    const fs::path fixture = fixtures_dir() / "megamind_720x528_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 720 -h 528 -p 420 -b 8 -n --feature float_psnr --feature float_ansnr "
                             "--feature float_moment --json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "2", "7"});
    EXPECT_NE(first.find("float_anpsnr"), std::string::npos);
    EXPECT_NE(first.find("float_moment_dis2nd"), std::string::npos);
}

// Netflix's ANSNR filter reads outside its buffers below 3 samples.
TEST_F(Cli, FloatAnsnrRefusesFramesUnder3x3)
{
    write_file(dir / "narrow.yuv", raw_frames(2, 8, 2, 1));
    const std::string args = "-r " + shell_quote(dir / "narrow.yuv") + " -d " + shell_quote(dir / "narrow.yuv") +
                             " -w 2 -h 8 -p 420 -b 8 -n";
    expect_failure(args + " --feature float_ansnr", "float_ansnr: frame 2x8 is too small");
    const auto r = run_cli(args + " --feature float_psnr --feature float_moment --json -o -");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

// float_ssim (decimated by 2 here) and float_ms_ssim with every output: the
// same bytes for any thread count (each worker has its own buffers).
TEST_F(Cli, SsimSameBytesForThreads1And3)
{
    const fs::path fixture = fixtures_dir() / "megamind_720x528_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 720 -h 528 -p 420 -b 8 -n --feature float_ssim=enable_lcs=true "
                             "--feature float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true "
                             "--json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("float_ssim_s"), std::string::npos);
    EXPECT_NE(first.find("float_ms_ssim_s_scale4"), std::string::npos);
}

// float_motion reads the previous picture and writes motion2 / motion3 a
// frame late; float_vif's sums are per-thread scratch: the same bytes for any
// thread count.
TEST_F(Cli, FloatVifAndMotionSameBytesForThreads1And3)
{
    const fs::path fixture = fixtures_dir() / "megamind_720x528_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 720 -h 528 -p 420 -b 8 -n --feature float_vif=debug=true "
                             "--feature float_motion=motion_add_scale1=true --feature float_motion "
                             "--json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("vif_den_scale3"), std::string::npos);
    EXPECT_NE(first.find("motion3_mdc"), std::string::npos);
}

// float_adm with and without options: the same bytes for any thread count.
TEST_F(Cli, FloatAdmSameBytesForThreads1And3)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 8 -n --feature float_adm=debug=true "
                             "--feature float_adm=adm_enhn_gain_limit=1.2:adm_csf_mode=2 --json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("adm_den_scale3"), std::string::npos);
    EXPECT_NE(first.find("adm_scale3_csf_2_egl_1.2"), std::string::npos);
}

// The v1 features (cambi, speed_chroma, adm csf 2, motion with the HFR
// window) and the model: the same bytes for any thread count.
TEST_F(Cli, V1ModelSameBytesForThreads1And3)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p10";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 10 --model version=vmaf_v1.0.16_hfr_3d0h "
                             "--feature speed_temporal --feature cambi=full_ref=true --json --precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("cambi_hrs_1080_cmxv_17_vlt_0.06"), std::string::npos);
    EXPECT_NE(first.find("speed_temporal"), std::string::npos);
    EXPECT_NE(first.find("cambi_full_reference"), std::string::npos);
}

// ciede and psnr_hvs on an odd size where Netflix's ciede is not
// reproducible (it reads past its picture): ours is the same bytes for any
// thread count.
TEST_F(Cli, CiedeAndPsnrHvsSameBytesForThreads1And3)
{
    // An even height: ciede refuses odd 4:2:0 heights (Netflix reads past its
    // chroma there).
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p10";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 10 --frame_cnt 6 -n --feature ciede --feature psnr_hvs --json "
                             "--precision max";
    const std::string first = same_output_for_threads(args, {"1", "3"});
    EXPECT_NE(first.find("ciede2000"), std::string::npos);
    EXPECT_NE(first.find("psnr_hvs_cr"), std::string::npos);
}

// SpEED's singular covariance (4:2:0 576x324 with prescale 0.6: every frame)
// is reported once, after the last frame, with the count and the planes.
TEST_F(Cli, SpeedSingularCovarianceIsOneWarning)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const auto r = run_cli("-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                           " -w 576 -h 324 -p 420 -b 8 -n --feature "
                           "speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear --json -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find("twinvmaf: warning: speed_chroma: covariance matrix singular on 48 frames "
                                 "(first: frame 0; U ref, U dis, V ref, V dis)"),
              std::string::npos)
        << r.stderr_text;
    std::size_t lines = 0;
    for (std::size_t at = r.stderr_text.find("singular"); at != std::string::npos;
         at = r.stderr_text.find("singular", at + 1))
        ++lines;
    EXPECT_EQ(lines, 1u) << r.stderr_text;
}

// With --subsample, motion still compares consecutive frames (Netflix runs it
// on every frame); only the written frames are thinned out.
TEST_F(Cli, MotionWithSubsampleKeepsEveryFramesValue)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 8 -n --feature motion --csv --precision max -o -";
    const auto all = run_cli(args);
    const auto thinned = run_cli(args + " --subsample 3");
    ASSERT_EQ(all.exit_code, 0) << all.stderr_text;
    ASSERT_EQ(thinned.exit_code, 0) << thinned.stderr_text;
    std::istringstream all_lines(all.stdout_text), thinned_lines(thinned.stdout_text);
    std::string line, expected;
    std::getline(thinned_lines, line);
    std::getline(all_lines, expected);
    EXPECT_EQ(line, expected);  // header
    for (int frame = 0; std::getline(all_lines, expected); ++frame) {
        if (frame % 3) continue;
        ASSERT_TRUE(std::getline(thinned_lines, line)) << "frame " << frame;
        EXPECT_EQ(line, expected);
    }
    EXPECT_FALSE(std::getline(thinned_lines, line)) << line;
}

}  // namespace

namespace {

// Netflix's CLI (with --threads >= 1, as the goldens were made) extracts
// temporal features such as psnr before the others, so their keys come
// first whatever the order of --feature; checked against Netflix's vmaf 3.2.0.
// float_motion writes motion3 of frame 0 when it extracts frame 1, so with
// two or more frames it comes right after motion; a one-frame run writes it
// at the temporal flush, after the frame's other features and before the
// other extractors' flushes (Netflix 3.2.0, checked on 576x324). On tiny
// frames Netflix's order races with its thread pool; ours is always this.
TEST(CliOrder, FloatMotionWritesMotion3WhenNetflixDoes)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                             " -w 576 -h 324 -p 420 -b 8 -n --feature float_vif --feature float_motion "
                             "--feature motion --csv -o -";
    const auto header = [&](const char* frames) {
        const auto r = run_cli(args + " --frame_cnt " + frames);
        EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
        return r.stdout_text.substr(0, r.stdout_text.find('\n'));
    };
    EXPECT_EQ(header("1"), "Frame,motion2,motion,vif_scale0,vif_scale1,vif_scale2,vif_scale3,"
                           "VMAF_integer_feature_motion_sad_score,motion3,integer_motion2,integer_motion3,");
    EXPECT_EQ(header("3"), "Frame,motion2,motion,motion3,vif_scale0,vif_scale1,vif_scale2,vif_scale3,"
                           "VMAF_integer_feature_motion_sad_score,integer_motion2,integer_motion3,");
}

TEST(CliOrder, TemporalFeaturesComeFirstAsNetflix)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    const auto r = run_cli("-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                           " -w 576 -h 324 -p 420 -b 8 -n --feature motion --feature psnr --frame_cnt 3 --csv -o -");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(r.stdout_text.substr(0, r.stdout_text.find('\n')),
              "Frame,psnr_y,psnr_cb,psnr_cr,VMAF_integer_feature_motion_sad_score,integer_motion2,integer_motion3,");
}

}  // namespace
