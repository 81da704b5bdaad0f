// Bad inputs of every kind (issue 17): each is one clear error line naming
// the file, frame or option, a nonzero exit and no output file. Cases the
// fuzzers found are here too, where they reach the command line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

class BadInput : public testing::Test {
protected:
    void SetUp() override
    {
        write_file(dir / "ref.yuv", raw_frames(32, 18, 4, 1));
        write_file(dir / "dis.yuv", raw_frames(32, 18, 4, 2));
        write_file(dir / "a.y4m", y4m(32, 18, "420", 2));
    }

    std::string quoted(const std::string& name) const { return shell_quote(dir / name); }
    std::string raw_args() const { return "-r " + quoted("ref.yuv") + " -d " + quoted("dis.yuv") + " -w 32 -h 18 -p 420 -b 8"; }
    // `reference` scored against a.y4m or dis.yuv with psnr.
    std::string args_for(const std::string& reference, bool y4m_pair = false) const
    {
        return "-r " + quoted(reference) + " -d " + quoted(y4m_pair ? "a.y4m" : "dis.yuv") +
               (y4m_pair ? "" : " -w 32 -h 18 -p 420 -b 8") + " -n --feature psnr";
    }
    void expect_failure(const std::string& args, const std::string& needle) { expect_cli_failure(dir.path(), args, needle); }

    TempDir dir;
};

// A container whose size is exactly 4 frames of 32x18 (the audit's case:
// it used to be scored as raw samples with exit 0).
std::string container_file(const std::string& head)
{
    std::string bytes = raw_frames(32, 18, 4, 9);
    bytes.replace(0, head.size(), head);
    return bytes;
}

std::string transport_stream(std::size_t packet, std::size_t first)
{
    std::string bytes = raw_frames(32, 18, 4, 9);
    for (std::size_t at = first; at + 4 <= bytes.size(); at += packet) {
        bytes[at] = 0x47;
        bytes[at + 1] = 0x40;  // payload start, PID 0
        bytes[at + 2] = 0x00;
        bytes[at + 3] = 0x10;  // payload only
    }
    return bytes;
}

TEST_F(BadInput, ContainerFilesAreRefusedByTheirSignatureOrByFfmpeg)
{
    const std::pair<const char*, std::string> cases[] = {
        {"MP4/MOV", container_file(std::string("\0\0\0\x20" "ftypisom\0\0\x02\0", 16))},
        {"MP4/MOV", container_file(std::string("\0\0\0\x14" "ftypqt  ", 12))},     // .mov
        {"MP4/MOV", container_file(std::string("\0\0\x01\0" "moov", 8))},          // old QuickTime
        {"MP4/MOV", container_file(std::string("\0\0\0\x08" "wide", 8))},
        {"Matroska/WebM", container_file("\x1A\x45\xDF\xA3\x9F\x42\x86\x81\x01")},  // .mkv and .webm
        {"IVF", container_file(std::string("DKIF\0\0\x20\0VP90", 12))},
        {"MPEG-TS", transport_stream(188, 0)},
        {"MPEG-TS", transport_stream(192, 4)},  // .m2ts
        {"AVI", container_file(std::string("RIFF\x10\0\0\0AVI LIST", 16))},
    };
    // A build with FFmpeg decodes such files (tests/cli/test_decode.cpp):
    // these hold no real stream, so FFmpeg's refusal is the one line.
    const bool decodes = run_cli("--version").stdout_text.find("Compressed input: FFmpeg") != std::string::npos;
    for (const auto& [kind, bytes] : cases) {
        SCOPED_TRACE(kind);
        write_file(dir / "video.bin", bytes);
        expect_failure(args_for("video.bin"), decodes ? "video.bin: " : "video.bin: this is " + std::string(kind) + " (compressed video");
        expect_failure("-r " + quoted("ref.yuv") + " -d " + quoted("video.bin") + " -w 32 -h 18 -p 420 -b 8 -n",
                       decodes ? "video.bin: " : "video.bin: this is " + std::string(kind));
    }
}

TEST_F(BadInput, RawVideoThatMerelyResemblesAContainerIsScored)
{
    // Flat grey of 0x47 (MPEG-TS's sync byte everywhere) and "ftyp" without a
    // plausible box size are raw video.
    write_file(dir / "grey.yuv", std::string(raw_frames(32, 18, 4, 1).size(), '\x47'));
    std::string ftyp = raw_frames(32, 18, 4, 1);
    ftyp.replace(0, 8, std::string("\xff\xff\xff\xff" "ftyp", 8));
    write_file(dir / "ftyp.yuv", ftyp);
    for (const char* name : {"grey.yuv", "ftyp.yuv"}) {
        const auto r = run_cli(args_for(name) + " --csv -o -");
        EXPECT_EQ(r.exit_code, 0) << name << ": " << r.stderr_text;
    }
}

TEST_F(BadInput, StandardInputIsReadForOneInput)
{
    const std::string expected = run_cli(raw_args() + " -n --feature psnr --csv -o -").stdout_text;
    ASSERT_NE(expected.find("psnr_y"), std::string::npos);
    for (const bool pipe : {false, true}) {
        auto r = run_cli_with_input("-r - -d " + quoted("dis.yuv") + " -w 32 -h 18 -p 420 -b 8 -n --feature psnr --csv -o -",
                                    dir / "ref.yuv", pipe);
        EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
        EXPECT_EQ(r.stdout_text, expected) << "pipe " << pipe;
        // Y4M on the distorted side.
        write_file(dir / "b.y4m", y4m(32, 18, "420", 2));
        const std::string y4m_expected =
            run_cli("-r " + quoted("a.y4m") + " -d " + quoted("b.y4m") + " -n --feature psnr --csv -o -").stdout_text;
        r = run_cli_with_input("-r " + quoted("a.y4m") + " -d - -n --feature psnr --csv -o -", dir / "b.y4m", pipe);
        EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
        EXPECT_EQ(r.stdout_text, y4m_expected) << "pipe " << pipe;
    }
    expect_failure("-r - -d - -w 32 -h 18 -p 420 -b 8 -n --feature psnr", "cannot both read standard input");
    // A truncated pipe names standard input and the frame.
    std::string short_frames = raw_frames(32, 18, 2, 1);
    short_frames.resize(short_frames.size() - 5);
    write_file(dir / "short.yuv", short_frames);
    const auto r = run_cli_with_input("-r - -d " + quoted("dis.yuv") + " -w 32 -h 18 -p 420 -b 8 -n --feature psnr -o " +
                                          quoted("out.xml"),
                                      dir / "short.yuv", true);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find("standard input: frame 1: truncated frame"), std::string::npos) << r.stderr_text;
    EXPECT_FALSE(fs::exists(dir / "out.xml"));
}

TEST_F(BadInput, AHugeClaimedFrameFailsBeforeItIsAllocated)
{
    // 32768x32768 4:4:4 16-bit is a 6 GiB frame; the file holds 300 bytes
    // of it. With the address space limited to 1 GiB, allocating the frame
    // first would fail with "out of memory" instead.
    write_file(dir / "huge.y4m", "YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n" + std::string(300, '\0'));
    const std::string limit = kAddressSanitizer ? "" : "ulimit -v 1048576; ";
    const std::string command = limit + shell_quote(TWINVMAF_CLI) + " -r " + quoted("huge.y4m") + " -d " +
                                quoted("huge.y4m") + " -n --feature psnr -o " +
                                quoted("out.xml") + " 2>" + quoted("err.txt");
    EXPECT_NE(std::system(command.c_str()), 0);
    EXPECT_EQ(read_file(dir / "err.txt"),
              "twinvmaf: error: " + (dir / "huge.y4m").string() + ": frame 0: truncated frame (got 300 of 6442450944 bytes)\n");
    // Through a pipe the length is unknown: the first frame's buffer grows
    // only as its bytes arrive.
    const std::string piped = limit + "cat " + quoted("huge.y4m") + " | " + shell_quote(TWINVMAF_CLI) + " -r - -d " +
                              quoted("huge.y4m") + " -n --feature psnr 2>" + quoted("err.txt");
    EXPECT_NE(std::system(piped.c_str()), 0);
    EXPECT_EQ(read_file(dir / "err.txt"),
              "twinvmaf: error: standard input: frame 0: truncated frame (got 300 of 6442450944 bytes)\n");
    // The raw reader measures the file at open.
    const std::string raw = limit + shell_quote(TWINVMAF_CLI) + " -r " + quoted("ref.yuv") + " -d " + quoted("dis.yuv") +
                            " -w 32768 -h 32768 -p 444 -b 16 -n --feature psnr 2>" + quoted("err.txt");
    EXPECT_NE(std::system(raw.c_str()), 0);
    EXPECT_NE(read_file(dir / "err.txt").find("is less than one 6442450944-byte frame"), std::string::npos)
        << read_file(dir / "err.txt");
    EXPECT_FALSE(fs::exists(dir / "out.xml"));
}

TEST_F(BadInput, RunningOutOfMemoryIsAnErrorNamingTheFrame)
{
    if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v stops AddressSanitizer itself";
    // Two real (sparse) frames of 768 MiB, in 400 MB of address space: the
    // frame's buffer cannot be made, on the readers' threads.
    for (const char* name : {"ref.yuv", "dis.yuv"}) fs::resize_file(dir / name, std::uintmax_t{2} * 16384 * 8192 * 6);
    const std::string command = "ulimit -v 400000; " + shell_quote(TWINVMAF_CLI) + " -r " + quoted("ref.yuv") + " -d " +
                                quoted("dis.yuv") + " -w 16384 -h 8192 -p 444 -b 16 -n --feature psnr --threads 1 -o " +
                                quoted("out.xml") + " 2>" + quoted("err.txt");
    EXPECT_NE(std::system(command.c_str()), 0);
    EXPECT_NE(read_file(dir / "err.txt").find("ref.yuv: frame 0: out of memory for a 805306368-byte frame of 16384x8192 "
                                              "4:4:4 16-bit"),
              std::string::npos)
        << read_file(dir / "err.txt");
    EXPECT_FALSE(fs::exists(dir / "out.xml"));
}

TEST_F(BadInput, Y4mEndingInsideAFrameHeader)
{
    const std::string two = y4m(32, 18, "420", 2);
    for (const std::string tail : {"F", "FRA", "FRAME", "FRAME Ixyz", "FRAME X"}) {
        write_file(dir / "cut.y4m", two + tail);
        expect_failure(args_for("cut.y4m", true), "cut.y4m: frame 2: truncated frame header");
    }
    write_file(dir / "cut.y4m", two + "FRAME\n" + std::string(100, 'x'));
    expect_failure(args_for("cut.y4m", true), "cut.y4m: frame 2: truncated frame (got 100 of 864 bytes)");
    write_file(dir / "cut.y4m", two + "FRAMEX\n");
    expect_failure(args_for("cut.y4m", true), "cut.y4m: frame 2: bad frame header");
    write_file(dir / "cut.y4m", "YUV4MPEG2 W32 H18 C420");
    expect_failure(args_for("cut.y4m", true), "cut.y4m: Y4M header is not terminated by a newline");
    write_file(dir / "cut.y4m", "YUV4M");
    expect_failure(args_for("cut.y4m"), "cut.y4m: .y4m file without YUV4MPEG2 header");
}

TEST_F(BadInput, MessagesNameTheRealCause)
{
    expect_failure(raw_args() + " -w 0 -n --feature psnr", "invalid argument \"0\" for option -w/--width; a frame size must be positive");
    expect_failure(raw_args() + " -h 0 -n --feature psnr", "-h/--height");
    expect_failure(raw_args() + " -w 40000 -n --feature psnr", "-w/--width; at most 32768");
    fs::create_directory(dir / "models");
    expect_failure(raw_args() + " --model path=" + quoted("models"), "models': it is a directory");
    expect_failure(raw_args() + " --model path=/dev/zero", "larger than any model file");
    // An option string of 100 kB is shortened, and a newline in one escaped.
    const std::string long_option(100000, 'a');
    const auto r = run_cli(raw_args() + " -n --feature psnr=" + long_option + "=1");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_LT(r.stderr_text.size(), 400u) << r.stderr_text.size();
    EXPECT_NE(r.stderr_text.find("(100000 bytes)"), std::string::npos) << r.stderr_text;
    expect_failure(raw_args() + " -n --feature " + shell_quote("psnr=enable_chroma=yes\nno"), "enable_chroma=yes\\nno: expected true or false");
    expect_failure(raw_args() + " -n --feature psnr --precision " + shell_quote("9\n9"), "got '9\\n9'");
    expect_failure(raw_args() + " -n --feature " + shell_quote(std::string(5000, 'x')), "(5000 bytes)");
}

TEST_F(BadInput, OptionsThatCannotApplyAreErrors)
{
    expect_failure(raw_args() + " -n --feature psnr --gpu 1 --backend cpu", "--gpu picks a GPU device; it cannot apply with --backend cpu");
    // No machine has GPU 1000; --backend auto must not ignore it.
    expect_failure(raw_args() + " -n --feature psnr --gpu 1000", "--gpu");
    expect_failure(raw_args() + " -n --feature psnr --gpu 1023", "--gpu 1023: there is no such GPU");
    // Without -o nothing is written: a format or precision would be ignored.
    for (const char* option : {"--json", "--csv", "--xml", "--sub", "--precision max"}) {
        const auto r = run_cli(raw_args() + " -n --feature psnr " + option);
        EXPECT_EQ(r.exit_code, 1) << option;
        EXPECT_NE(r.stderr_text.find(std::string(option).substr(0, std::string(option).find(' ')) +
                                     " shapes the output file, but there is none"),
                  std::string::npos)
            << r.stderr_text;
    }
}

TEST_F(BadInput, CountsOutOfRange)
{
    const std::string base = raw_args() + " -n --feature psnr";
    expect_failure(base + " --threads -1", "invalid argument \"-1\" for option --threads");
    expect_failure(base + " --threads 1025", "--threads; at most 1024");
    expect_failure(base + " --threads 4294967296", "--threads; at most 1024");
    expect_failure(base + " --threads 2x", "--threads");
    expect_failure(base + " --subsample -1", "--subsample");
    expect_failure(base + " --subsample 4294967296", "--subsample; at most 4294967295");
    expect_failure(base + " --subsample 1.5", "--subsample");
    expect_failure(base + " --frame_cnt -1", "--frame_cnt");
    expect_failure(base + " --frame_cnt 18446744073709551616", "--frame_cnt");
    expect_failure(base + " --frame_cnt 1e3", "--frame_cnt");
    expect_failure(base + " --frame_skip_ref 4", "no frames to score");
    expect_failure(base + " --frame_skip_dist 99999999999999999999", "--frame_skip_dist");
    // In range, the run succeeds: a subsample beyond the length writes frame 0.
    const auto r = run_cli(base + " --subsample 4294967295 --threads 1024 --frame_cnt 18446744073709551615 --csv -o -");
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_NE(r.stdout_text.find("\n0,"), std::string::npos) << r.stdout_text;
}

// The float features' options (issue 13): out of range, not a number (NaN
// and infinities are refused, not compared), an unknown method, an option
// a feature does not have; each a one-line error naming feature and option.
TEST_F(BadInput, FloatFeatureOptionsOutOfRange)
{
    const std::pair<const char*, const char*> cases[] = {
        {"float_vif=vif_kernelscale=7", "option float_vif.vif_kernelscale=7: out of range"},
        {"float_vif=vif_kernelscale=nan", "option float_vif.vif_kernelscale=nan: expected a number"},
        {"float_vif=vif_sigma_nsq=-1", "option float_vif.vif_sigma_nsq=-1: out of range"},
        {"float_vif=vif_prescale=inf", "option float_vif.vif_prescale=inf: expected a number"},
        {"float_vif=vif_enhn_gain_limit=0.5", "option float_vif.vif_enhn_gain_limit=0.5: out of range"},
        {"float_vif=vif_prescale_method=foo", "vif_prescale_method: invalid scaling method \"foo\""},
        {"float_adm=adm_csf_mode=99", "option float_adm.adm_csf_mode=99: out of range"},
        {"float_adm=adm_p_norm=nan", "option float_adm.adm_p_norm=nan: expected a number"},
        {"float_adm=adm_enhn_gain_limit=1e999", "option float_adm.adm_enhn_gain_limit=inf: expected a number"},
        {"float_adm=adm_min_val=-nan", "float_adm.adm_min_val"},
        {"float_motion=motion_max_val=-5", "option float_motion.motion_max_val=-5: out of range"},
        {"float_motion=motion_blend_factor=nan", "option float_motion.motion_blend_factor=nan: expected a number"},
        {"float_motion=motion_filter_size=x", "float_motion.motion_filter_size=x"},
        {"float_ssim=scale=-1", "option float_ssim.scale=-1: out of range"},
        {"float_ssim=scale=99", "option float_ssim.scale=99: out of range"},
        {"float_ms_ssim=enable_lcs=maybe", "option float_ms_ssim.enable_lcs=maybe: expected true or false"},
        {"ciede=debug=true", "feature 'ciede' has no option 'debug'"},
        {"float_psnr=enable_chroma=true", "feature 'float_psnr' has no option 'enable_chroma'"},
        {"psnr_hvs=x=1", "feature 'psnr_hvs' has no option 'x'"},
        {"float_ansnr=x=1", "feature 'float_ansnr' has no option 'x'"},
        {"float_moment=x=1", "feature 'float_moment' has no option 'x'"},
    };
    for (const auto& [feature, needle] : cases)
        expect_failure(raw_args() + " -n --feature " + shell_quote(feature), needle);
}

// A psnr model file, as test_cli.cpp's.
nlohmann::ordered_json psnr_model()
{
    return nlohmann::ordered_json::parse(R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale",
        "feature_names": ["psnr_y", "psnr_cb"], "slopes": [0.01, 0.02, 0.025], "intercepts": [-0.5, -0.2, -0.3],
        "score_clip": [0.0, 100.0],
        "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.05\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n4 1:0.4 2:0.6 \n-2 1:0.7 2:0.2 \n"}})");
}

TEST_F(BadInput, ModelFilesWithBadNumbersOrArrayLengths)
{
    auto model_failure = [&](const std::string& text, const std::string& needle) {
        write_file(dir / "bad.json", text);
        expect_failure(raw_args() + " --model path=" + quoted("bad.json"), needle);
    };
    auto with = [&](const std::string& key, const std::string& value_json) {
        // A placeholder replaced by the text: nlohmann would not write NaN or 1e999.
        nlohmann::ordered_json changed = psnr_model();
        changed["model_dict"][key] = nullptr;
        std::string text = changed.dump();
        const std::string placeholder = "\"" + key + "\":null";
        return text.replace(text.find(placeholder), placeholder.size(), "\"" + key + "\":" + value_json);
    };
    auto svm_with = [&](const std::string& from, const std::string& to) {
        nlohmann::ordered_json changed = psnr_model();
        std::string svm = changed["model_dict"]["model"];
        svm.replace(svm.find(from), from.size(), to);
        changed["model_dict"]["model"] = svm;
        return changed.dump();
    };
    // NaN: not JSON at all; in the libsvm text, not a finite number.
    model_failure(with("slopes", "[NaN, 0.02, 0.025]"), "not valid JSON");
    model_failure(svm_with("gamma 0.05", "gamma nan"), "gamma: 'nan' is not a finite number");
    model_failure(svm_with("4 1:0.4", "inf 1:0.4"), "support vector 1 coefficient: 'inf' is not a finite number");
    // Huge: beyond a double, or a support-vector count that is only a claim.
    model_failure(with("intercepts", "[1e999, 0, 0]"), "number overflow");
    model_failure(svm_with("gamma 0.05", "gamma 1e999"), "gamma: '1e999' is not a finite number");
    model_failure(svm_with("total_sv 2", "total_sv 2147483647"), "total_sv is 2147483647 but only 2 support vector lines follow");
    model_failure(svm_with("total_sv 2", "total_sv 2147483648"), "total_sv: '2147483648' is not an integer");
    // Negative where nothing negative means anything.
    model_failure(svm_with("total_sv 2", "total_sv -1"), "total_sv: '-1' is not an integer in [0, 2147483647]");
    model_failure(svm_with("1:0.4", "-1:0.4"), "support vector 1 index: '-1'");
    model_failure(with("score_clip", "[100.0, 0.0]"), "score_clip: min is above max in [100.0,0.0]");
    model_failure(with("feature_opts_dicts", "[{\"min_sse\": -1}]"), "min_sse=-1: out of range");
    // Wrong array lengths.
    model_failure(with("slopes", "[0.01, 0.02]"), "slopes: 2 values; expected 1 + one per feature = 3");
    model_failure(with("intercepts", "[0.01, 0.02, 0.03, 0.04]"), "intercepts: 4 values");
    model_failure(with("score_clip", "[0.0, 50.0, 100.0]"), "score_clip: expected [min, max]");
    model_failure(with("score_clip", "[]"), "score_clip: expected [min, max]");
    model_failure(with("feature_opts_dicts", "[{}, {}, {}]"), "feature_opts_dicts: 3 entries for 2 features");
    model_failure(with("score_transform", "{\"enabled\": true, \"knots\": [[0, 0, 1]]}"), "each knot is [x, y]");
    model_failure(with("feature_names", "[]"), "feature_names: no features");
    model_failure(with("slopes", std::string("[") + std::string(100000, '[') + std::string(100000, ']') + "]"),
                  "nested deeper than 32 levels (at byte");
    model_failure(with("slopes", "[[[1]], 2, 3]"), "slopes: expected a number, found an array of 1 item");
}

}  // namespace
