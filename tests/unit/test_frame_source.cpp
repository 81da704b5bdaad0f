// The frame source: pairs come out in frame order with the right bytes,
// whether read by number on several threads (raw files) or in order (Y4M,
// pipes); limits, skips, a shorter input and a bad frame behave as reading
// in order would.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/frame_source.h"
#include "io/video_reader.h"
#include "test_support.h"
#include "twinvmaf/error.h"

namespace twinvmaf {
namespace {

using test::TempDir;
using test::write_file;

VideoFormat format_420(unsigned width, unsigned height, unsigned bitdepth)
{
    VideoFormat format;
    format.width = width;
    format.height = height;
    format.chroma = ChromaFormat::k420;
    format.bitdepth = bitdepth;
    return format;
}

VideoFormat small_format(unsigned bitdepth = 8) { return format_420(6, 4, bitdepth); }

// Frame `n` of a file: every byte says which file and frame it came from.
std::string frame_bytes(const VideoFormat& format, char file, unsigned n)
{
    return std::string(format.frame_bytes(), static_cast<char>(file * 16 + n % 16));
}

std::string video(const VideoFormat& format, char file, unsigned frames)
{
    std::string all;
    for (unsigned n = 0; n < frames; ++n) all += frame_bytes(format, file, n);
    return all;
}

std::string bytes_of(const Picture& picture)
{
    return std::string(reinterpret_cast<const char*>(picture.bytes()), picture.size_bytes());
}

struct SourceRun {
    std::vector<FramePair> pairs;
    std::vector<std::string> warnings;
};

SourceRun read_all(VideoReader& ref, VideoReader& dis, std::uint64_t limit, unsigned threads, unsigned ahead)
{
    SourceRun run;
    FrameSource source(ref, dis, std::make_shared<PicturePool>(nullptr),
                       FrameSourceConfig{.frame_limit = limit,
                                         .read_threads = threads,
                                         .ahead = ahead,
                                         .warn = [&](const std::string& w) { run.warnings.push_back(w); }});
    while (auto pair = source.next()) run.pairs.push_back(std::move(*pair));
    return run;
}

class FrameSourceTest : public testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

TEST_P(FrameSourceTest, PairsComeInOrderWithTheirBytes)
{
    const auto [threads, ahead] = GetParam();
    const VideoFormat format = small_format();
    TempDir tmp;
    write_file(tmp / "ref.yuv", video(format, 1, 37));
    write_file(tmp / "dis.yuv", video(format, 2, 37));
    auto ref = open_video(tmp / "ref.yuv", format);
    auto dis = open_video(tmp / "dis.yuv", format);
    ASSERT_TRUE(ref->random_access());
    const SourceRun run = read_all(*ref, *dis, 0, threads, ahead);
    ASSERT_EQ(run.pairs.size(), 37u);
    for (unsigned n = 0; n < 37; ++n) {
        EXPECT_EQ(run.pairs[n].index, n);
        EXPECT_EQ(bytes_of(*run.pairs[n].ref), frame_bytes(format, 1, n)) << n;
        EXPECT_EQ(bytes_of(*run.pairs[n].dis), frame_bytes(format, 2, n)) << n;
    }
    EXPECT_TRUE(run.warnings.empty());
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndDepths, FrameSourceTest,
                         testing::Values(std::tuple{1u, 1u}, std::tuple{1u, 4u}, std::tuple{3u, 2u},
                                         std::tuple{6u, 8u}, std::tuple{8u, 3u}));

TEST(FrameSource, LimitSkipAndShorterInput)
{
    const VideoFormat format = small_format();
    TempDir tmp;
    write_file(tmp / "ref.yuv", video(format, 1, 10));
    write_file(tmp / "dis.yuv", video(format, 2, 7));
    {
        auto ref = open_video(tmp / "ref.yuv", format);
        auto dis = open_video(tmp / "dis.yuv", format);
        const SourceRun run = read_all(*ref, *dis, 0, 4, 3);
        ASSERT_EQ(run.pairs.size(), 7u);
        ASSERT_EQ(run.warnings.size(), 1u);
        EXPECT_NE(run.warnings[0].find("dis.yuv\" ended before"), std::string::npos) << run.warnings[0];
        EXPECT_NE(run.warnings[0].find("first 7 frames"), std::string::npos) << run.warnings[0];
    }
    {
        // A limit within both inputs: no warning.
        auto ref = open_video(tmp / "ref.yuv", format);
        auto dis = open_video(tmp / "dis.yuv", format);
        const SourceRun run = read_all(*ref, *dis, 5, 4, 3);
        EXPECT_EQ(run.pairs.size(), 5u);
        EXPECT_TRUE(run.warnings.empty());
    }
    {
        // Skips: reading starts at the readers' positions.
        auto ref = open_video(tmp / "ref.yuv", format);
        auto dis = open_video(tmp / "dis.yuv", format);
        ref->skip(4);
        dis->skip(1);
        const SourceRun run = read_all(*ref, *dis, 0, 2, 2);
        ASSERT_EQ(run.pairs.size(), 6u);  // ref has 6 left, dis 6
        EXPECT_TRUE(run.warnings.empty());
        EXPECT_EQ(bytes_of(*run.pairs[0].ref), frame_bytes(format, 1, 4));
        EXPECT_EQ(bytes_of(*run.pairs[0].dis), frame_bytes(format, 2, 1));
        EXPECT_EQ(bytes_of(*run.pairs[5].ref), frame_bytes(format, 1, 9));
    }
}

TEST(FrameSource, InOrderReadersForY4mMatchRandomAccess)
{
    const VideoFormat format = small_format();
    TempDir tmp;
    std::string y4m = "YUV4MPEG2 W6 H4 F25:1 C420jpeg\n";
    for (unsigned n = 0; n < 9; ++n) y4m += "FRAME\n" + frame_bytes(format, 3, n);
    write_file(tmp / "ref.y4m", y4m);
    write_file(tmp / "dis.yuv", video(format, 2, 12));
    auto ref = open_video(tmp / "ref.y4m", std::nullopt);
    auto dis = open_video(tmp / "dis.yuv", format);
    ASSERT_FALSE(ref->random_access());
    const SourceRun run = read_all(*ref, *dis, 0, 4, 2);
    ASSERT_EQ(run.pairs.size(), 9u);
    for (unsigned n = 0; n < 9; ++n) {
        EXPECT_EQ(bytes_of(*run.pairs[n].ref), frame_bytes(format, 3, n));
        EXPECT_EQ(bytes_of(*run.pairs[n].dis), frame_bytes(format, 2, n));
    }
    ASSERT_EQ(run.warnings.size(), 1u);
    EXPECT_NE(run.warnings[0].find("ref.y4m\" ended before"), std::string::npos) << run.warnings[0];
}

TEST(FrameSource, BadFrameFailsAtItsIndexAfterTheGoodOnes)
{
    // 10-bit: frame 5 of the distorted file holds a sample above 1023.
    const VideoFormat format = small_format(10);
    std::string good(format.frame_bytes(), '\0');
    std::string bad = good;
    bad[1] = 0x04;  // sample 0 = 0x0400 = 1024
    std::string dis;
    for (unsigned n = 0; n < 8; ++n) dis += n == 5 ? bad : good;
    std::string ref;
    for (unsigned n = 0; n < 8; ++n) ref += good;
    TempDir tmp;
    write_file(tmp / "ref.yuv", ref);
    write_file(tmp / "dis.yuv", dis);
    for (unsigned threads : {1u, 4u}) {
        auto r = open_video(tmp / "ref.yuv", format);
        auto d = open_video(tmp / "dis.yuv", format);
        FrameSource source(*r, *d, std::make_shared<PicturePool>(nullptr),
                           FrameSourceConfig{.frame_limit = 0, .read_threads = threads, .ahead = 4, .warn = {}});
        for (unsigned n = 0; n < 5; ++n) ASSERT_TRUE(source.next().has_value()) << n;
        try {
            source.next();
            FAIL() << "frame 5 should fail";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("frame 5"), std::string::npos) << e.what();
        }
        EXPECT_FALSE(source.next().has_value());
    }
}

TEST(FrameSource, LargeFramesAreReadInPartsWithEveryByteAndCheck)
{
    // 1920x1080 10-bit: 6.2 MB a frame, read in 4 parts by 8 threads.
    const VideoFormat format = format_420(1920, 1080, 10);
    auto frame = [&](unsigned n) {
        std::string bytes(format.frame_bytes(), '\0');
        for (std::size_t i = 0; i < bytes.size(); i += 2) {
            const unsigned value = (i / 2 * 7 + n * 13) % 1024;
            bytes[i] = static_cast<char>(value & 0xFF);
            bytes[i + 1] = static_cast<char>(value >> 8);
        }
        return bytes;
    };
    std::string ref, dis;
    for (unsigned n = 0; n < 4; ++n) {
        ref += frame(n);
        dis += frame(n + 100);
    }
    // Frame 2 of the distorted input: one sample above 1023 in the last part.
    const std::size_t bad = 2 * format.frame_bytes() + format.frame_bytes() - 10;
    dis[bad + 1] = 0x04;
    TempDir tmp;
    write_file(tmp / "ref.yuv", ref);
    write_file(tmp / "dis.yuv", dis);
    auto r = open_video(tmp / "ref.yuv", format);
    auto d = open_video(tmp / "dis.yuv", format);
    FrameSource source(*r, *d, std::make_shared<PicturePool>(nullptr),
                       FrameSourceConfig{.frame_limit = 0, .read_threads = 8, .ahead = 3, .warn = {}});
    for (unsigned n = 0; n < 2; ++n) {
        auto pair = source.next();
        ASSERT_TRUE(pair.has_value());
        EXPECT_EQ(bytes_of(*pair->ref), frame(n)) << n;
        EXPECT_EQ(bytes_of(*pair->dis), frame(n + 100)) << n;
    }
    try {
        source.next();
        FAIL() << "frame 2 should fail";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("dis.yuv: frame 2: sample value"), std::string::npos) << e.what();
    }
}

TEST(FrameSource, ReadsOnlyTheFramePrefixItIsGiven)
{
    // Luma-only extractors: the pipeline asks for plane 0 only. A chroma
    // sample above the bit depth is then never read (nor checked), and the
    // luma bytes are the file's.
    const VideoFormat format = format_420(640, 480, 10);
    const std::size_t luma = format.stored_plane_bytes(0);
    auto frame = [&](unsigned n) {
        std::string bytes(format.frame_bytes(), '\0');
        for (std::size_t i = 0; i < bytes.size(); i += 2) bytes[i] = static_cast<char>((i / 2 + n) & 0xFF);
        return bytes;
    };
    std::string ref, dis;
    for (unsigned n = 0; n < 3; ++n) {
        ref += frame(n);
        dis += frame(n + 50);
    }
    dis[format.frame_bytes() + luma + 1] = 0x7F;  // frame 1: chroma sample 0x7Fxx
    TempDir tmp;
    write_file(tmp / "ref.yuv", ref);
    write_file(tmp / "dis.yuv", dis);
    for (const std::size_t prefix : {luma, std::size_t{0}}) {
        auto r = open_video(tmp / "ref.yuv", format);
        auto d = open_video(tmp / "dis.yuv", format);
        FrameSource source(*r, *d, std::make_shared<PicturePool>(nullptr),
                           FrameSourceConfig{.frame_limit = 0, .read_threads = 4, .ahead = 2, .frame_prefix = prefix});
        unsigned frames = 0;
        try {
            while (auto pair = source.next()) {
                EXPECT_EQ(bytes_of(*pair->ref).substr(0, luma), frame(frames).substr(0, luma));
                EXPECT_EQ(bytes_of(*pair->dis).substr(0, luma), frame(frames + 50).substr(0, luma));
                ++frames;
            }
            EXPECT_EQ(prefix, luma) << "the whole frame 1 is read and checked";
            EXPECT_EQ(frames, 3u);
        } catch (const Error& e) {
            EXPECT_EQ(prefix, 0u) << e.what();
            EXPECT_EQ(frames, 1u);
            EXPECT_NE(std::string(e.what()).find("dis.yuv: frame 1: sample value"), std::string::npos) << e.what();
        }
    }
}

TEST(FrameSource, StopsEarlyWithoutReadingEverything)
{
    // Destroying a source mid-video joins its readers (no hang, no leak).
    const VideoFormat format = small_format();
    TempDir tmp;
    write_file(tmp / "ref.yuv", video(format, 1, 50));
    write_file(tmp / "dis.yuv", video(format, 2, 50));
    auto ref = open_video(tmp / "ref.yuv", format);
    auto dis = open_video(tmp / "dis.yuv", format);
    FrameSource source(*ref, *dis, std::make_shared<PicturePool>(nullptr),
                       FrameSourceConfig{.frame_limit = 0, .read_threads = 4, .ahead = 6, .warn = {}});
    EXPECT_EQ(source.threads(), 4u);
    ASSERT_TRUE(source.next().has_value());
}

}  // namespace
}  // namespace twinvmaf
