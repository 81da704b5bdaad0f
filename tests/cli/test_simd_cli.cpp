// TWINVMAF_SIMD (src/core/simd.h) through the CLI: a bad name is refused, the
// cap is reported by --version, and every instruction set gives the same
// bytes (the golden runs under each cap are the GoldenSimd.* tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <string>

#include "core/simd.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf;
using namespace twinvmaf::test;

namespace {

// Sets TWINVMAF_SIMD for the CLIs a test runs, and unsets it after.
class SimdCli : public testing::Test {
protected:
    void TearDown() override { unsetenv("TWINVMAF_SIMD"); }
    static void cap(const std::string& name) { setenv("TWINVMAF_SIMD", name.c_str(), 1); }
};

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

TEST_F(SimdCli, UnknownInstructionSetIsAnError)
{
    cap("pentium");
    const CommandResult r = run_cli("--version");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("twinvmaf: error: TWINVMAF_SIMD=pentium: unknown instruction set"),
              std::string::npos)
        << r.stderr_text;
}

TEST_F(SimdCli, VersionSaysWhichKernelsRun)
{
    // Uncapped: the best target this build has and the CPU runs.
    const auto targets = simd::available();
    CommandResult r = run_cli("--version");
    EXPECT_NE(r.stdout_text.find("CPU kernels: " + simd::name(targets.size() > 1 ? targets[1] : targets[0])),
              std::string::npos)
        << r.stdout_text;
    cap("scalar");
    r = run_cli("--version");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.stdout_text.find("CPU kernels: scalar"), std::string::npos) << r.stdout_text;
    for (simd::Target target : simd::available()) {
        cap(lower(simd::name(target)));
        r = run_cli("--version");
        EXPECT_NE(r.stdout_text.find("CPU kernels: " + simd::name(target)), std::string::npos) << r.stdout_text;
    }
}

// Contract 3: the same bytes for any SIMD level (and thread count).
TEST_F(SimdCli, SameBytesForEveryInstructionSet)
{
    for (const char* name : {"vtest_576x324_420p10", "vtest_576x324_420p8"}) {
        SCOPED_TRACE(name);
        const fs::path fixture = fixtures_dir() / name;
        if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
        const std::string depth = std::string(name).back() == '8' ? "8" : "10";
        const std::string args = "-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                                 " -w 576 -h 324 -p 420 -b " + depth +
                                 " -n --feature psnr --feature vif=debug=true --feature adm=debug=true"
                                 " --feature motion=debug=true --feature cambi"
                                 " --feature speed_chroma --feature speed_temporal"
                                 " --feature float_vif=debug=true --feature float_motion"
                                 " --feature float_adm=debug=true --feature float_adm=adm_p_norm=2.5"
                                 " --feature float_adm=adm_bypass_cm=1 --feature float_ssim --feature float_ms_ssim"
                                 " --json --precision max -o -";
        std::string first;
        for (simd::Target target : simd::available()) {
            cap(lower(simd::name(target)));
            const CommandResult r = run_cli(args + " --threads 2");
            ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
            const std::string text = std::regex_replace(r.stdout_text, std::regex(R"(fps[^,/\n]*)"), "fps");
            if (first.empty())
                first = text;
            else
                EXPECT_EQ(text, first) << simd::name(target) << " differs from the reference kernels";
        }
        EXPECT_NE(first.find("integer_vif_num_scale3"), std::string::npos);
        EXPECT_NE(first.find("cambi"), std::string::npos);
        EXPECT_NE(first.find("speed_chroma_uv"), std::string::npos);
        EXPECT_NE(first.find("\"vif_num_scale3\""), std::string::npos);  // float_vif's
        EXPECT_NE(first.find("\"motion2\""), std::string::npos);         // float_motion's
        EXPECT_NE(first.find("adm2_apn_2.5"), std::string::npos);
        EXPECT_NE(first.find("\"float_ms_ssim\""), std::string::npos);

        // ciede on the first frames only (its reference kernels, under the
        // scalar cap, take seconds for the whole fixture).
        std::string first_ciede;
        for (simd::Target target : simd::available()) {
            cap(lower(simd::name(target)));
            const CommandResult r = run_cli("-r " + shell_quote(fixture / "ref.yuv") + " -d " +
                                            shell_quote(fixture / "dis.yuv") + " -w 576 -h 324 -p 420 -b " + depth +
                                            " -n --frame_cnt 3 --feature ciede --json --precision max -o -");
            ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
            const std::string text = std::regex_replace(r.stdout_text, std::regex(R"(fps[^,/\n]*)"), "fps");
            if (first_ciede.empty())
                first_ciede = text;
            else
                EXPECT_EQ(text, first_ciede) << simd::name(target) << " differs from the reference kernels (ciede)";
        }
        EXPECT_NE(first_ciede.find("ciede2000"), std::string::npos);
    }
}

}  // namespace
