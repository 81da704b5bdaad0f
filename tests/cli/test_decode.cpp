// Compressed input (issue 27): `twinvmaf -r a.mkv -d b.mp4` scores exactly
// what it scores on the same pair decoded first by Debian's ffmpeg
// (`ffmpeg -i x -f yuv4mpegpipe`): byte-identical JSON and XML at
// --precision max (fps aside), for every codec Debian encodes (H.264,
// HEVC, VP9, AV1 by libaom and SVT-AV1; MPEG-4, MPEG-2, Theora, ProRes), 8 to
// 12 bits, 4:2:0/4:2:2/4:4:4, odd sizes, B-frames, in MP4, MKV, WebM, IVF,
// AVI, MPEG-TS, Ogg and MOV; --scale against ffmpeg's
// scale filter, --pix_fmt against ffmpeg -pix_fmt, stream selection
// against -map 0:V:N; and bad files refused in one line.
//
// The clips are made here, by ffmpeg, from its testsrc2 source: 12 frames
// of at most 176x144, with fast presets (about 30 s on two busy cores in all).
// Skipped (GTEST_SKIP) when ffmpeg is not installed or the CLI was built
// without FFmpeg's libraries.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "test_support.h"

namespace fs = std::filesystem;
using namespace twinvmaf::test;

namespace {

std::string q(const fs::path& path) { return shell_quote(path.string()); }

// Runs ffmpeg quietly (SVT-AV1 prints its settings on stderr regardless).
void ffmpeg(const std::string& arguments)
{
    const CommandResult r = run_command("SVT_LOG=1 ffmpeg -hide_banner -loglevel error -nostdin -y " + arguments);
    ASSERT_EQ(r.exit_code, 0) << "ffmpeg " << arguments << "\n" << r.stderr_text;
}

// ffmpeg's decode of `input` as Y4M (-strict -1: the 10- to 16-bit tags),
// with `options` (filters, -pix_fmt, -map) before the output.
fs::path decoded(const fs::path& input, const std::string& options = "", const std::string& suffix = "")
{
    const fs::path output = input.string() + suffix + ".y4m";
    ffmpeg("-i " + q(input) + " " + options + " -f yuv4mpegpipe -strict -1 " + q(output));
    return output;
}

// Frames of a Y4M file with plain "FRAME\n" headers (ffmpeg writes those),
// from its size and the header's geometry.
std::size_t y4m_frames(const fs::path& path)
{
    const std::string text = read_file(path);
    const std::size_t header = text.find('\n') + 1;
    std::smatch m;
    const std::string line = text.substr(0, header);
    unsigned w = 0, h = 0;
    if (std::regex_search(line, m, std::regex(" W([0-9]+)"))) w = static_cast<unsigned>(std::stoul(m[1]));
    if (std::regex_search(line, m, std::regex(" H([0-9]+)"))) h = static_cast<unsigned>(std::stoul(m[1]));
    std::string chroma = "420";
    if (std::regex_search(line, m, std::regex(" C([0-9a-z]+)"))) chroma = m[1];
    const std::size_t bytes = std::regex_search(chroma, std::regex("p(9|1[0-6])$")) ? 2 : 1;
    const std::size_t cw = chroma.rfind("444", 0) == 0 ? w : (w + 1) / 2;
    const std::size_t ch = chroma.rfind("420", 0) == 0 ? (h + 1) / 2 : h;
    const std::size_t frame = 6 + bytes * (std::size_t{w} * h + 2 * cw * ch);
    EXPECT_EQ((text.size() - header) % frame, 0u) << path;
    return (text.size() - header) / frame;
}

// The default model, every plane's PSNR and SSIM: the luma and chroma
// samples all count.
const std::string kScoring = "--feature psnr=enable_chroma=true --feature float_ssim --precision max -q";

CommandResult score(const fs::path& ref, const fs::path& dis, const std::string& format, const std::string& extra = "")
{
    return run_cli("-r " + q(ref) + " -d " + q(dis) + " " + kScoring + " --" + format + " -o - " + extra);
}

bool decoding_available()
{
    if (run_command("ffmpeg -hide_banner -version").exit_code != 0) return false;
    return run_cli("--version").stdout_text.find("Compressed input: FFmpeg") != std::string::npos;
}

struct Clip {
    std::string name;     // file name, with its container's extension
    std::string encoder;  // ffmpeg's encoder options
    std::string pix_fmt;
    unsigned width = 176, height = 144;
};

// Every codec Debian's ffmpeg encodes, its bit depths and chroma formats.
std::vector<Clip> clips()
{
    const std::string x264 = "-c:v libx264 -preset ultrafast";
    const std::string x265 = "-c:v libx265 -preset ultrafast -x265-params log-level=error";
    const std::string vp9 = "-c:v libvpx-vp9 -deadline realtime -cpu-used 8";
    const std::string aom = "-c:v libaom-av1 -cpu-used 8 -usage realtime";
    const std::string svt = "-c:v libsvtav1 -preset 12";
    return {
        {"h264_bframes.mp4", "-c:v libx264 -preset veryfast -bf 3", "yuv420p"},
        {"h264_10.mkv", x264, "yuv420p10le"},
        {"h264_422_10.mkv", x264, "yuv422p10le"},
        {"h264_444_odd.mkv", x264, "yuv444p", 99, 57},
        {"hevc.mkv", x265, "yuv420p"},
        {"hevc_10.mp4", x265, "yuv420p10le"},
        {"hevc_12.mkv", x265, "yuv420p12le"},
        {"hevc_422_10.mkv", x265, "yuv422p10le"},
        {"hevc_444.mp4", x265, "yuv444p"},
        {"vp9.webm", vp9, "yuv420p"},
        {"vp9_odd.webm", vp9, "yuv420p", 99, 57},
        {"vp9_10.webm", vp9, "yuv420p10le"},
        {"vp9_444.ivf", vp9, "yuv444p"},
        {"av1_aom.ivf", aom, "yuv420p"},
        {"av1_aom_10.mkv", aom, "yuv420p10le"},
        {"av1_aom_444.mkv", aom, "yuv444p"},
        {"av1_aom_odd.ivf", aom, "yuv420p", 99, 57},
        {"av1_svt_10.mp4", svt, "yuv420p10le"},
        // Other codecs and containers FFmpeg reads.
        {"mpeg4.avi", "-c:v mpeg4", "yuv420p"},
        {"mpeg2.ts", "-c:v mpeg2video", "yuv420p"},
        {"theora.ogv", "-c:v libtheora", "yuv420p"},
        {"prores_422_10.mov", "-c:v prores_ks", "yuv422p10le"},
    };
}

class Decode : public testing::Test {
protected:
    static void SetUpTestSuite()
    {
        available_ = decoding_available();
        if (available_) dir_ = new TempDir();
    }
    static void TearDownTestSuite()
    {
        delete dir_;
        dir_ = nullptr;
    }
    void SetUp() override
    {
        if (!available_) GTEST_SKIP() << "ffmpeg is not installed, or twinvmaf was built without FFmpeg's libraries";
    }

    static fs::path path(const std::string& name) { return *dir_ / name; }

    // `name` encoded from testsrc2 (`quality`: the bit rate, so that the
    // two sides of a pair differ), made once per suite.
    static fs::path encode(const Clip& clip, const std::string& quality, const std::string& tag)
    {
        const fs::path out = path(tag + "_" + clip.name);
        if (fs::exists(out)) return out;
        // testsrc2 rounds an odd size down to its chroma grid: draw odd
        // sizes in RGB, and ffmpeg converts them to clip.pix_fmt.
        const bool odd = clip.width % 2 || clip.height % 2;
        ffmpeg("-f lavfi -i testsrc2=size=" + std::to_string(clip.width) + "x" + std::to_string(clip.height) +
               ":rate=25" + (odd ? ",format=rgb24" : "") + " -frames:v 12 -pix_fmt " + clip.pix_fmt + " " +
               clip.encoder + " -b:v " + quality + " " + q(out));
        return out;
    }
    static fs::path high(const Clip& clip) { return encode(clip, "800k", "a"); }
    static fs::path low(const Clip& clip) { return encode(clip, "60k", "b"); }

    // twinvmaf on the compressed pair (with `extra`) and on ffmpeg's decodes
    // give the same bytes, every frame scored; `both` applies to both runs.
    static void expect_same_bytes(const fs::path& ref, const fs::path& dis, const std::string& format,
                                  const fs::path& ref_y4m, const fs::path& dis_y4m, const std::string& extra = "",
                                  const std::string& both = "")
    {
        const CommandResult ours = score(ref, dis, format, extra + " " + both);
        const CommandResult theirs = score(ref_y4m, dis_y4m, format, both);
        ASSERT_EQ(ours.exit_code, 0) << ours.stderr_text;
        ASSERT_EQ(theirs.exit_code, 0) << theirs.stderr_text;
        EXPECT_EQ(strip_fps(ours.stdout_text), strip_fps(theirs.stdout_text));
        if (format == "json" && both.empty()) {
            const auto frames = nlohmann::json::parse(ours.stdout_text)["frames"].size();
            EXPECT_EQ(frames, y4m_frames(dis_y4m));
        }
    }

    static inline bool available_ = false;
    static inline TempDir* dir_ = nullptr;
};

TEST_F(Decode, EveryCodecAndFormatGivesTheBytesOfDecodingFirst)
{
    int proven = 0, left = 0;
    std::set<std::string> formats_seen;
    for (const Clip& clip : clips()) {
        // Under AddressSanitizer, the first clip of each pixel format and
        // size: twinvmaf's side differs by those, not by codec (FFmpeg's
        // decoders are not instrumented), and the 22 cases take two minutes
        // there. The release run checks every one.
        const std::string format = clip.pix_fmt + " " + std::to_string(clip.width) + "x" + std::to_string(clip.height);
        if (kAddressSanitizer && !formats_seen.insert(format).second) {
            ++left;
            continue;
        }
        SCOPED_TRACE(clip.name + " " + clip.pix_fmt);
        const fs::path a = high(clip);
        const fs::path b = low(clip);
        const fs::path a_y4m = decoded(a);
        const fs::path b_y4m = decoded(b);
        ASSERT_EQ(y4m_frames(b_y4m), 12u);
        // The size is the clip's (odd ones included), as ffmpeg decodes it.
        const std::string header = read_file(b_y4m).substr(0, 64);
        EXPECT_NE(header.find(" W" + std::to_string(clip.width) + " H" + std::to_string(clip.height) + " "),
                  std::string::npos)
            << header;
        // Failures are the test's result parts (successes are not recorded).
        const testing::TestResult& result = *testing::UnitTest::GetInstance()->current_test_info()->result();
        const int failures_before = result.total_part_count();
        expect_same_bytes(a, b, "json", a_y4m, b_y4m);
        // Mixed: a Y4M reference against a compressed distorted.
        expect_same_bytes(a_y4m, b, "json", a_y4m, b_y4m);
        if (result.total_part_count() == failures_before) ++proven;
    }
    std::printf("[ decode   ] %d of %zu codec/format cases byte-identical to ffmpeg -f yuv4mpegpipe%s\n", proven,
                clips().size(), left ? (", " + std::to_string(left) + " left to the release run").c_str() : "");
}

TEST_F(Decode, BFramesComeInPresentationOrderAndXmlIsIdenticalToo)
{
    const Clip clip = clips().front();
    const fs::path a = high(clip);
    const fs::path b = low(clip);
    // The stream does reorder: it holds B pictures.
    const CommandResult types =
        run_command("ffprobe -v error -select_streams v -show_entries frame=pict_type -of csv=p=0 " + q(b));
    ASSERT_EQ(types.exit_code, 0) << types.stderr_text;
    EXPECT_NE(types.stdout_text.find('B'), std::string::npos) << types.stdout_text;
    expect_same_bytes(a, b, "xml", decoded(a), decoded(b));
    // Skips and counts apply to the decoded frames as to Y4M ones.
    const std::string skips = "--frame_skip_ref 2 --frame_skip_dist 3 --frame_cnt 5";
    expect_same_bytes(a, b, "json", decoded(a), decoded(b), "", skips);
    EXPECT_EQ(nlohmann::json::parse(score(a, b, "json", skips).stdout_text)["frames"].size(), 5u);
    // One decoding thread (--threads 1 bounds libavcodec's) or the default:
    // the same bytes.
    expect_same_bytes(a, b, "json", decoded(a), decoded(b), "--threads 1");
    expect_same_bytes(a, b, "json", decoded(a), decoded(b), "--threads 3");
}

TEST_F(Decode, ScaleIsFfmpegsScaleFilter)
{
    const Clip ref_clip{"ref.mkv", "-c:v libx264 -preset ultrafast", "yuv420p"};
    const fs::path ref = high(ref_clip);
    const fs::path ref_y4m = decoded(ref);
    // 8-bit, bicubic (the default filter of ffmpeg's scale filter).
    const fs::path small = low(Clip{"small.mp4", "-c:v libx264 -preset ultrafast", "yuv420p", 88, 72});
    expect_same_bytes(ref, small, "json", ref_y4m, decoded(small, "-vf scale=176:144:flags=bicubic", ".bicubic"),
                      "--scale bicubic");
    expect_same_bytes(ref, small, "json", ref_y4m, decoded(small, "-vf scale=176:144:flags=bilinear", ".bilinear"),
                      "--scale bilinear");
    // Without --scale the sizes must agree, and the message names both.
    expect_cli_failure(dir_->path(), "-r " + q(ref) + " -d " + q(small) + " -n --feature psnr",
                       "is 176x144 4:2:0 8-bit (yuv420p), " + small.string() + " is 88x72 4:2:0 8-bit (yuv420p); give --scale");
    // 10-bit 4:2:2 HEVC up to 176x144 4:2:0 8-bit in one libswscale step,
    // as -vf scale=...:flags=lanczos -pix_fmt yuv420p does it.
    const fs::path wide = low(Clip{"wide.mkv", "-c:v libx265 -preset ultrafast -x265-params log-level=error",
                                   "yuv422p10le", 120, 96});
    expect_same_bytes(ref, wide, "json", ref_y4m,
                      decoded(wide, "-vf scale=176:144:flags=lanczos -pix_fmt yuv420p", ".lanczos"),
                      "--scale lanczos --pix_fmt yuv420p");
    // Down from 352x288 (spline), up from an odd 99x57 VP9 (bicubic); and
    // of the same size nothing is scaled.
    const fs::path big = low(Clip{"big.mkv", "-c:v libx264 -preset ultrafast", "yuv420p", 352, 288});
    expect_same_bytes(ref, big, "json", ref_y4m, decoded(big, "-vf scale=176:144:flags=spline", ".spline"),
                      "--scale spline");
    const fs::path odd = low(Clip{"odd.webm", "-c:v libvpx-vp9 -deadline realtime -cpu-used 8", "yuv420p", 99, 57});
    expect_same_bytes(ref, odd, "json", ref_y4m, decoded(odd, "-vf scale=176:144:flags=bicubic", ".bicubic"),
                      "--scale bicubic");
    const fs::path same = low(ref_clip);
    expect_same_bytes(ref, same, "json", ref_y4m, decoded(same), "--scale lanczos");
    expect_cli_failure(dir_->path(), "-r " + q(ref) + " -d " + q(small) + " -n --feature psnr --scale cubic",
                       "--scale cubic: unknown libswscale flag \"cubic\"");
}

TEST_F(Decode, PixelFormatsAreConvertedOnlyWhenAsked)
{
    const fs::path ref = high(Clip{"ref.mkv", "-c:v libx264 -preset ultrafast", "yuv420p"});
    const fs::path ref_y4m = decoded(ref);
    // NV12 (rawvideo in Matroska): not a format twinvmaf scores.
    const fs::path nv12 = low(Clip{"nv12.mkv", "-c:v rawvideo", "nv12"});
    expect_cli_failure(dir_->path(), "-r " + q(ref) + " -d " + q(nv12) + " -n --feature psnr",
                       nv12.string() + ": pixel format nv12 is not one twinvmaf scores");
    expect_same_bytes(ref, nv12, "json", ref_y4m, decoded(nv12, "-pix_fmt yuv420p", ".yuv420p"), "--pix_fmt yuv420p");
    // Another bit depth: an error naming both, unless converted.
    const fs::path ten = low(Clip{"ten.mp4", "-c:v libx264 -preset ultrafast", "yuv420p10le"});
    expect_cli_failure(dir_->path(), "-r " + q(ref) + " -d " + q(ten) + " -n --feature psnr",
                       "(yuv420p), " + ten.string() + " is 176x144 4:2:0 10-bit (yuv420p10le); give --pix_fmt yuv420p");
    expect_same_bytes(ref, ten, "json", ref_y4m, decoded(ten, "-pix_fmt yuv420p", ".yuv420p"), "--pix_fmt yuv420p");
    // Full-range MJPEG (yuvj420p) is scored as decoded, scaled in its own
    // format (as ffmpeg's scale filter keeps it), and converted to yuv420p
    // (the range too) only when asked, as ffmpeg -pix_fmt yuv420p does.
    const Clip jpeg{"jpeg.mkv", "-c:v mjpeg", "yuvj420p"};
    const fs::path ja = high(jpeg), jb = low(jpeg);
    const fs::path small = low(Clip{"jpeg_small.mkv", "-c:v mjpeg", "yuvj420p", 120, 96});
    expect_same_bytes(ja, jb, "json", decoded(ja), decoded(jb));
    expect_same_bytes(ja, small, "json", decoded(ja), decoded(small, "-vf scale=176:144:flags=bicubic", ".scaled"),
                      "--scale bicubic");
    expect_same_bytes(ja, jb, "json", decoded(ja, "-pix_fmt yuv420p", ".yuv420p"),
                      decoded(jb, "-pix_fmt yuv420p", ".yuv420p"), "--pix_fmt yuv420p");
    // Both sides up to 4:4:4 16-bit.
    expect_same_bytes(ref, ten, "json", decoded(ref, "-pix_fmt yuv444p16le", ".444"),
                      decoded(ten, "-pix_fmt yuv444p16le", ".444"), "--pix_fmt yuv444p16le");
}

TEST_F(Decode, StreamsAreChosenByNumber)
{
    // Two video streams (and audio first): -map 0:V:N's pictures.
    const fs::path two = path("two.mkv");
    ffmpeg("-f lavfi -i sine=duration=0.32 -f lavfi -i testsrc2=size=96x64:rate=25:duration=0.32 -f lavfi -i "
           "testsrc=size=96x64:rate=25:duration=0.32 -map 0:a -map 1:v -map 2:v -c:a pcm_s16le -c:v libx264 "
           "-preset ultrafast -pix_fmt yuv420p " + q(two));
    const fs::path first = decoded(two, "-map 0:V:0", ".v0");
    const fs::path second = decoded(two, "-map 0:V:1", ".v1");
    expect_same_bytes(two, two, "json", first, second, "--dist_stream 1");
    expect_same_bytes(two, two, "json", second, first, "--ref_stream 1 --dist_stream 0");
    expect_cli_failure(dir_->path(), "-r " + q(two) + " -d " + q(two) + " -n --feature psnr --dist_stream 2",
                       two.string() + ": --dist_stream 2: the file has 2 video streams (0..1)");
    // A list: a pair per line, streams by key.
    const fs::path list = path("list.txt");
    const fs::path out1 = path("list1.json"), out2 = path("list2.json");
    write_file(list, q(two) + " " + q(two) + " dist_stream=1 output=" + q(out1) + "\n" + q(first) + " " + q(two) +
                         " dist_stream=1 output=" + q(out2) + "\n");
    const CommandResult batch = run_cli("--batch " + q(list) + " " + kScoring + " --json");
    ASSERT_EQ(batch.exit_code, 0) << batch.stderr_text;
    const std::string single = strip_fps(score(first, second, "json").stdout_text);
    EXPECT_EQ(strip_fps(read_file(out1)), single);
    EXPECT_EQ(strip_fps(read_file(out2)), single);
}

TEST_F(Decode, PipesAndElementaryStreams)
{
    const Clip clip{"pipe.mkv", "-c:v libx264 -preset ultrafast", "yuv420p"};
    const fs::path a = high(clip);
    const fs::path b = low(clip);
    const std::string expected = strip_fps(score(decoded(a), decoded(b), "json").stdout_text);
    // Matroska through a pipe (no seeking).
    const CommandResult piped = run_cli_with_input("-r " + q(a) + " -d - " + kScoring + " --json -o -", b, true);
    ASSERT_EQ(piped.exit_code, 0) << piped.stderr_text;
    EXPECT_EQ(strip_fps(piped.stdout_text), expected);
    // An H.264 elementary stream has no container signature: FFmpeg probes it.
    const fs::path annexb = path("b.264");
    ffmpeg("-i " + q(b) + " -c:v copy -f h264 " + q(annexb));
    const CommandResult elementary = score(a, annexb, "json");
    ASSERT_EQ(elementary.exit_code, 0) << elementary.stderr_text;
    EXPECT_EQ(strip_fps(elementary.stdout_text), expected);
}

TEST_F(Decode, BadFilesFailInOneLine)
{
    const Clip clip{"bad.mp4", "-c:v libx264 -preset ultrafast", "yuv420p"};
    const fs::path good = high(clip);
    const std::string bytes = read_file(good);
    // `needle` follows the file's name in the message, or is anywhere in it
    // after the name when it starts with "...".
    auto refused = [&](const std::string& name, const std::string& content, const std::string& needle) {
        SCOPED_TRACE(name);
        write_file(path(name), content);
        const bool anywhere = needle.rfind("...", 0) == 0;
        expect_cli_failure(dir_->path(), "-r " + q(good) + " -d " + q(path(name)) + " -n --feature psnr",
                           anywhere ? needle.substr(3) : path(name).string() + ": " + needle);
    };
    // MP4 keeps its index at the end: cut off, nothing can be read.
    refused("cut.mp4", bytes.substr(0, bytes.size() / 2), "FFmpeg cannot read it");
    // IVF: a frame whose data ends early.
    const fs::path ivf = encode(Clip{"cut.ivf", "-c:v libvpx-vp9 -deadline realtime -cpu-used 8", "yuv420p"}, "200k", "a");
    const std::string ivf_bytes = read_file(ivf);
    refused("cut.ivf", ivf_bytes.substr(0, ivf_bytes.size() * 2 / 3), "frame ");
    // A VP9 frame's header bytes damaged mid-stream: an error, not a dropped frame.
    std::string damaged = ivf_bytes;
    std::size_t at = 32;  // IVF: a 32-byte file header, then 12-byte frame headers
    for (int frame = 0; frame < 6; ++frame) at += 12 + (static_cast<unsigned char>(damaged[at]) |
                                                        static_cast<unsigned char>(damaged[at + 1]) << 8 |
                                                        static_cast<unsigned char>(damaged[at + 2]) << 16);
    for (int i = 0; i < 4; ++i) damaged[at + 12 + i] = '\xff';
    refused("damaged.ivf", damaged, "...: decoding failed (vp9): Invalid data found when processing input");
    // A codec FFmpeg encodes but cannot decode (A64 multicolour, in NUT:
    // no container signature, so FFmpeg probes it).
    const fs::path a64 = path("a64.nut");
    ffmpeg("-f lavfi -i testsrc=size=320x200:rate=25:duration=0.2 -c:v a64multi -f nut " + q(a64));
    expect_cli_failure(dir_->path(), "-r " + q(good) + " -d " + q(a64) + " -n --feature psnr",
                       a64.string() + ": this FFmpeg has no decoder for the video stream's codec (");
    // Audio only.
    const fs::path audio = path("audio.mkv");
    ffmpeg("-f lavfi -i sine=duration=0.2 -c:a pcm_s16le " + q(audio));
    expect_cli_failure(dir_->path(), "-r " + q(good) + " -d " + q(audio) + " -n --feature psnr",
                       audio.string() + ": no video stream in this file (Matroska / WebM; streams: audio)");
    expect_cli_failure(dir_->path(), "-r " + q(good) + " -d " + q(good) + " -n --feature psnr --ref_stream 1",
                       good.string() + ": --ref_stream 1: the file has 1 video stream (0)");
    expect_cli_failure(dir_->path(), "-r " + q(good) + " -d " + q(good) + " -n --feature psnr --pix_fmt nv12",
                       "--pix_fmt nv12: not a pixel format twinvmaf scores");
}

// Pictures are paired by number, which is what decoding first gives only at
// a constant rate (ffmpeg's Y4M output repeats or drops pictures of a
// variable-rate input) and for inputs of one length: both are errors naming
// the file and frame, with no output; --frame_cnt scores the common part.
TEST_F(Decode, VariableRateAndDifferentLengthsAreErrors)
{
    const auto x264 = [&](const std::string& name, const std::string& input, const std::string& filters) {
        const fs::path out = path(name);
        ffmpeg("-f lavfi -i " + input + " " + filters +
               " -c:v libx264 -preset ultrafast -pix_fmt yuv420p " + q(out));
        return out;
    };
    const fs::path cfr = x264("cfr.mkv", "testsrc2=s=64x48:r=25:d=1", "");
    // Pictures 10 and on five frames later: a gap, as in a capture that lost frames.
    const fs::path vfr =
        x264("vfr.mkv", "testsrc2=s=64x48:r=25:d=1", "-vf \"setpts='if(lt(N,10),N,N+5)/25/TB'\" -fps_mode passthrough");
    expect_cli_failure(dir_->path(), "-r " + q(cfr) + " -d " + q(vfr) + " -n --feature psnr",
                       vfr.string() + ": frame 10: variable frame rate (at the stream's constant 25 fps its "
                                      "timestamp is frame 15.00's)");
    // 29.97 fps in Matroska's 1 ms timestamps (33 or 34 ms apart): constant.
    const fs::path ntsc = x264("ntsc.mkv", "testsrc2=s=64x48:r=30000/1001:d=1", "");
    const CommandResult scored = run_cli("-r " + q(ntsc) + " -d " + q(ntsc) + " -n --feature psnr --json -o -");
    EXPECT_EQ(scored.exit_code, 0) << scored.stderr_text;
    EXPECT_NE(scored.stdout_text.find("\"frameNum\": 29"), std::string::npos);
    // 20 pictures against 25: an error, unless --frame_cnt asks for 20 or fewer.
    const fs::path shorter = x264("short.mp4", "testsrc2=s=64x48:r=25:d=0.8", "");
    expect_cli_failure(dir_->path(), "-r " + q(cfr) + " -d " + q(shorter) + " -n --feature psnr",
                       shorter.string() + ": frame 20: the video ends here, before " + cfr.string() +
                           " does (compressed inputs of different lengths); give --frame_cnt 20");
    const CommandResult counted =
        run_cli("-r " + q(cfr) + " -d " + q(shorter) + " -n --feature psnr --frame_cnt 20 --json -o -");
    EXPECT_EQ(counted.exit_code, 0) << counted.stderr_text;
    EXPECT_NE(counted.stdout_text.find("\"frameNum\": 19"), std::string::npos);
    EXPECT_EQ(counted.stdout_text.find("\"frameNum\": 20"), std::string::npos);
}

// --hwdec: NVDEC's pictures stay in GPU memory, so `cuda` is an error
// anywhere but on the CUDA backend and with a host step (--scale,
// --pix_fmt), before any file is written; `auto` (the default) and `none`
// decode on the host off CUDA and give the same bytes. NVDEC itself (the
// bytes of --hwdec cuda equal these) is checked on the GPU machine:
// tools/gpu_decode_check.sh, quoted in docs/decoding.md.
TEST_F(Decode, HardwareDecodingOnlyWhereItsPicturesCanBeScored)
{
    const Clip clip{"hwdec.mkv", "-c:v libx265 -preset ultrafast -x265-params log-level=error", "yuv420p10le"};
    const fs::path ref = high(clip), dis = low(clip);
    const std::string pair = "-r " + q(ref) + " -d " + q(dis) + " --feature psnr";
    expect_cli_failure(dir_->path(), pair + " --backend cpu --hwdec cuda",
                       "--hwdec cuda: NVDEC's pictures stay in GPU memory, which only --backend cuda scores (this run "
                       "is on cpu)");
    expect_cli_failure(dir_->path(), pair + " --hwdec nvdec", "--hwdec nvdec: expected none, cuda or auto");
    const CommandResult by_default = score(ref, dis, "json", "--backend cpu");
    ASSERT_EQ(by_default.exit_code, 0) << by_default.stderr_text;
    for (const char* mode : {"none", "auto"}) {
        const CommandResult asked = score(ref, dis, "json", std::string("--backend cpu --hwdec ") + mode);
        ASSERT_EQ(asked.exit_code, 0) << asked.stderr_text;
        EXPECT_EQ(strip_fps(asked.stdout_text), strip_fps(by_default.stdout_text)) << mode;
    }
}

}  // namespace
