// The C API end to end: tests/capi/capi_test.c (a C program using only
// <libvmaf.h>, linked against libvmaf.so) against the CLI on fixtures.
// Scores through the C API must be the CLI's bit for bit: the output file
// byte for byte apart from fps, and every per-frame model score printed by
// the C program at %.17g equal to the CLI's JSON value.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

CommandResult run(const std::string& command)
{
    const TempDir capture;
    const std::string out = (capture / "stdout").string(), err = (capture / "stderr").string();
    CommandResult result;
    const int status = std::system((command + " >" + shell_quote(out) + " 2>" + shell_quote(err)).c_str());
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.stdout_text = read_file(out);
    result.stderr_text = read_file(err);
    return result;
}

std::string strip_fps(const std::string& text)
{
    return std::regex_replace(text, std::regex(R"(fps[^,/\n]*)"), "fps");
}

std::string g17(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

struct Case {
    std::string name;
    std::string fixture;
    unsigned frames;          // 0: all
    std::string capi_options; // capi_test score options and features
    std::string cli_options;  // the same for the CLI
    std::string format = "json";
};

std::vector<Case> cases()
{
    return {
        {"DefaultModelPsnrSsim", "vtest_576x324_420p8", 12, "--threads 2 psnr float_ssim",
         "--threads 2 --feature psnr --feature float_ssim"},
        {"TenBit422Ciede", "box_640x480_422p10", 0, "ciede", "--feature ciede"},
        {"FourFourFourV1Model", "cup_640x480_444p8", 4, "--model vmaf_v1.0.16_3d0h",
         "--model version=vmaf_v1.0.16_3d0h"},
        {"OddSizeFeaturesOnly", "noise_17x17_420p10", 0, "--model none psnr:enable_chroma=true psnr_hvs motion",
         "--no_prediction --feature psnr=enable_chroma=true --feature psnr_hvs --feature motion"},
        {"TwelveBitPreallocatedSubsample", "vtest_576x324_420p12", 0, "--prealloc --threads 3 --subsample 2",
         "--threads 3 --subsample 2"},
        {"Collection", "vtest_576x324_420p8", 6, "--model none --collection vmaf_b_v0.6.3",
         "--model version=vmaf_b_v0.6.3"},
        {"TwoModelsXml", "megamind_720x528_420p8", 4,
         "--model vmaf_v0.6.1 --model vmaf_v0.6.1neg --format xml float_psnr",
         "--model version=vmaf_v0.6.1:name=vmaf_v0.6.1 --model version=vmaf_v0.6.1neg:name=vmaf_v0.6.1neg "
         "--feature float_psnr --xml",
         "xml"},
    };
}

void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

class CApiScores : public testing::TestWithParam<Case> {};

TEST_P(CApiScores, EqualTheCliBitForBit)
{
    const Case& c = GetParam();
    const fs::path fixture = fixtures_dir() / c.fixture;
    if (!fs::exists(fixture / "fixture.json")) GTEST_SKIP() << "no fixture " << fixture;
    const auto info = nlohmann::json::parse(read_file(fixture / "fixture.json"));
    const std::string w = std::to_string(info["width"].get<int>()), h = std::to_string(info["height"].get<int>());
    const std::string p = info["pixel_format"].is_string() ? info["pixel_format"].get<std::string>()
                                                           : info["pixel_format"].dump();
    const std::string b = std::to_string(info["bitdepth"].get<int>());
    const std::string ref = shell_quote((fixture / "ref.yuv").string()), dis = shell_quote((fixture / "dis.yuv").string());

    TempDir dir;
    const fs::path capi_out = dir / ("capi." + c.format), cli_out = dir / ("cli." + c.format);
    const auto capi = run(std::string(TWINVMAF_CAPI_TEST) + " score " + ref + " " + dis + " " + w + " " + h + " " + p +
                          " " + b + " " + std::to_string(c.frames) + " " + shell_quote(capi_out.string()) + " " +
                          c.capi_options);
    ASSERT_EQ(capi.exit_code, 0) << capi.stderr_text;
    const auto cli = run_cli("-r " + ref + " -d " + dis + " -w " + w + " -h " + h + " -p " + p + " -b " + b +
                             (c.frames ? " --frame_cnt " + std::to_string(c.frames) : std::string()) +
                             " --precision max -q " + c.cli_options + (c.format == "json" ? " --json" : "") + " -o " +
                             shell_quote(cli_out.string()));
    ASSERT_EQ(cli.exit_code, 0) << cli.stderr_text;

    const std::string capi_bytes = read_file(capi_out), cli_bytes = read_file(cli_out);
    EXPECT_EQ(strip_fps(capi_bytes), strip_fps(cli_bytes));
    EXPECT_GT(cli_bytes.size(), 200u);

    if (c.format != "json") return;
    // Every score vmaf_score_at_index() / vmaf_score_pooled() returned,
    // against the CLI's JSON.
    const auto json = nlohmann::json::parse(cli_bytes);
    std::istringstream lines(capi.stdout_text);
    std::string line;
    std::size_t compared = 0;
    const std::regex frame_line(R"(model (\d+) frame (\d+) (\S+))"), pooled_line(R"(model (\d+) pooled (\S+))");
    const std::string model_name = "vmaf";
    while (std::getline(lines, line)) {
        std::smatch m;
        if (std::regex_match(line, m, frame_line)) {
            const unsigned frame = std::stoul(m[2]);
            const auto& frames = json["frames"];
            const auto found = std::find_if(frames.begin(), frames.end(),
                                            [&](const auto& f) { return f["frameNum"].template get<unsigned>() == frame; });
            ASSERT_NE(found, frames.end()) << line;
            EXPECT_EQ(g17((*found)["metrics"][model_name].get<double>()), m[3].str()) << line;
            ++compared;
        } else if (std::regex_match(line, m, pooled_line)) {
            EXPECT_EQ(g17(json["pooled_metrics"][model_name]["mean"].get<double>()), m[2].str()) << line;
            ++compared;
        }
    }
    if (c.capi_options.find("--model none") == std::string::npos) {
        EXPECT_GT(compared, 1u) << capi.stdout_text;
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CApiScores, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(CApi, EveryFunctionAndItsErrorPaths)
{
    TempDir dir;
    const auto result = run(std::string(TWINVMAF_CAPI_TEST) + " api " + shell_quote(TWINVMAF_MODEL_DIR) + " " +
                            shell_quote(dir.path().string()));
    EXPECT_EQ(result.exit_code, 0) << result.stdout_text << result.stderr_text;
    EXPECT_NE(result.stdout_text.find(", 0 failed"), std::string::npos) << result.stdout_text;
    // Every refusal says why, naming the function.
    EXPECT_NE(result.stderr_text.find("vmaf_read_pictures: picture index 1 out of order"), std::string::npos)
        << result.stderr_text;
    EXPECT_NE(result.stderr_text.find("vmaf_use_feature: vmaf_use_feature after the first vmaf_read_pictures()"),
              std::string::npos)
        << result.stderr_text;
    EXPECT_NE(result.stderr_text.find("vmaf_model_load: no built-in model 'vmaf_v9.9.9'"), std::string::npos)
        << result.stderr_text;
}

TEST(CApi, LibraryExportsTheCApiOnly)
{
    const auto nm = run("nm -D --defined-only " + shell_quote(TWINVMAF_LIBVMAF));
    if (nm.exit_code != 0) GTEST_SKIP() << "nm is not available: " << nm.stderr_text;
    std::set<std::string> exported;
    std::istringstream lines(nm.stdout_text);
    std::string address, type, name;
    while (lines >> address >> type >> name) exported.insert(name);
    // Netflix libvmaf 3.2.0's public host API (libvmaf.h, model.h,
    // picture.h, feature.h) and the twinvmaf extension.
    const std::set<std::string> expected = {
        "vmaf_init", "vmaf_close", "vmaf_use_features_from_model", "vmaf_use_features_from_model_collection",
        "vmaf_use_feature", "vmaf_import_feature_score", "vmaf_read_pictures", "vmaf_score_at_index",
        "vmaf_score_at_index_model_collection", "vmaf_feature_score_at_index", "vmaf_score_pooled",
        "vmaf_score_pooled_model_collection", "vmaf_feature_score_pooled", "vmaf_preallocate_pictures",
        "vmaf_fetch_preallocated_picture", "vmaf_write_output", "vmaf_version", "vmaf_model_load",
        "vmaf_model_load_from_path", "vmaf_model_feature_overload", "vmaf_model_destroy",
        "vmaf_model_collection_load", "vmaf_model_collection_load_from_path",
        "vmaf_model_collection_feature_overload", "vmaf_model_collection_destroy", "vmaf_picture_alloc",
        "vmaf_picture_unref", "vmaf_feature_dictionary_set", "vmaf_feature_dictionary_free", "twinvmaf_set_option",
        // libvmaf_cuda.h (in a build without CUDA they return -ENOSYS).
        "vmaf_cuda_state_init", "vmaf_cuda_import_state", "vmaf_cuda_preallocate_pictures",
        "vmaf_cuda_fetch_preallocated_picture", "vmaf_cuda_state_free"};
    EXPECT_EQ(exported, expected);
    const auto soname = run("readelf -d " + shell_quote(TWINVMAF_LIBVMAF));
    if (soname.exit_code == 0) {
        EXPECT_NE(soname.stdout_text.find("[libvmaf.so.3]"), std::string::npos);
    }
}

// libvmaf_cuda.h: its refusals in any build; without a GPU (CI) the state
// cannot be made and the error says why, with one it is made and device
// pictures are fetched (FFmpeg's libvmaf_cuda filter is checked on the GPU
// machine: docs/compat.md).
TEST(CApi, CudaCallsRefuseWhatTheyCannotDo)
{
    const auto result = run(std::string(TWINVMAF_CAPI_TEST) + " cuda");
    EXPECT_EQ(result.exit_code, 0) << result.stdout_text << result.stderr_text;
    EXPECT_NE(result.stdout_text.find(", 0 failed"), std::string::npos) << result.stdout_text;
    if (result.stdout_text.find("cuda: no state") != std::string::npos) {
        const bool said_why = result.stderr_text.find("vmaf_cuda_state_init: ") != std::string::npos &&
                              (result.stderr_text.find("CUDA driver") != std::string::npos ||
                               result.stderr_text.find("built without CUDA") != std::string::npos);
        EXPECT_TRUE(said_why) << result.stderr_text;
    } else {
        EXPECT_NE(result.stdout_text.find("cuda: state"), std::string::npos) << result.stdout_text;
    }
    if (result.stderr_text.find("built without CUDA") == std::string::npos) {
        EXPECT_NE(result.stderr_text.find("vmaf_cuda_preallocate_pictures: no CUDA state"), std::string::npos)
            << result.stderr_text;
    }
}

TEST(CApi, BackendFromTheEnvironment)
{
    const fs::path fixture = fixtures_dir() / "noise_33x33_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "no fixture " << fixture;
    TempDir dir;
    const std::string args = " score " + shell_quote((fixture / "ref.yuv").string()) + " " +
                             shell_quote((fixture / "dis.yuv").string()) + " 33 33 420 8 2 " +
                             shell_quote((dir / "out.json").string()) + " --model none psnr";
    // A bad value is refused by vmaf_init, saying which variable.
    auto bad = run("TWINVMAF_BACKEND=quantum " + std::string(TWINVMAF_CAPI_TEST) + args);
    EXPECT_NE(bad.exit_code, 0);
    EXPECT_NE(bad.stderr_text.find("$TWINVMAF_BACKEND: backend \"quantum\""), std::string::npos) << bad.stderr_text;
    auto cpu = run("TWINVMAF_BACKEND=cpu " + std::string(TWINVMAF_CAPI_TEST) + args);
    EXPECT_EQ(cpu.exit_code, 0) << cpu.stderr_text;
}

}  // namespace
