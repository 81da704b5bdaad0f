// The CLI end to end: every bad input gives a one-line error, a nonzero exit
// and no output file; the output is the same bytes for any --threads.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

// 8-bit 4:2:0 raw frames of w x h with a simple pattern.
std::string raw_frames(unsigned w, unsigned h, unsigned frames, unsigned seed)
{
    const std::size_t frame = std::size_t{w} * h + 2 * std::size_t{(w + 1) / 2} * ((h + 1) / 2);
    std::string bytes(frame * frames, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 7 + seed * 13 + i / 5) & 0xff);
    return bytes;
}

std::string y4m(unsigned w, unsigned h, const std::string& chroma, unsigned frames)
{
    std::string text = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip C" + chroma + "\n";
    const std::string frame = raw_frames(w, h, 1, 3);
    for (unsigned i = 0; i < frames; ++i) text += "FRAME\n" + frame;
    return text;
}

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
        const fs::path out = dir / "out.xml";
        const auto r = run_cli(args + " -o " + shell_quote(out));
        EXPECT_NE(r.exit_code, 0) << args;
        EXPECT_NE(r.stderr_text.find(needle), std::string::npos) << args << "\nstderr: " << r.stderr_text;
        EXPECT_EQ(r.stderr_text.rfind("twinvmaf: error: ", 0), 0u) << r.stderr_text;
        EXPECT_FALSE(fs::exists(out)) << "a failed run left an output file: " << args;
        for (const auto& entry : fs::directory_iterator(dir.path()))
            EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos)
                << "temporary file left: " << entry.path();
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

TEST_F(Cli, ModelsAreNotImplementedYetAndSaySo)
{
    expect_failure(raw_args(), "not implemented yet");
    expect_failure(raw_args() + " --model version=vmaf_v0.6.1", "not implemented yet");
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

TEST_F(Cli, SameBytesForAnyThreadCount)
{
    const fs::path fixture = fixtures_dir() / "vtest_576x324_420p8";
    if (!fs::exists(fixture / "ref.yuv")) GTEST_SKIP() << "fixtures not found at " << fixtures_dir();
    std::string first;
    for (const char* threads : {"1", "2", "7"}) {
        const fs::path out = dir / (std::string("t") + threads + ".xml");
        const auto r = run_cli("-r " + shell_quote(fixture / "ref.yuv") + " -d " + shell_quote(fixture / "dis.yuv") +
                               " -w 576 -h 324 -p 420 -b 8 -n --feature psnr=enable_mse=true:enable_apsnr=true "
                               "--feature vif=debug=true "
                               "--precision max --threads " + std::string(threads) + " -o " + shell_quote(out));
        ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
        const std::string text = strip_fps(read_file(out));
        if (first.empty()) first = text;
        else EXPECT_EQ(text, first) << "--threads " << threads << " differs from --threads 1";
    }
    EXPECT_NE(first.find("apsnr_y"), std::string::npos);
    EXPECT_NE(first.find("integer_vif_den_scale3"), std::string::npos);
}

}  // namespace
