// Video readers: raw YUV and Y4M layouts, odd sizes, skip/frame_count, pipes,
// every refusal, and the sample range check.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "io/raw_reader.h"
#include "io/sample_range.h"
#include "io/video_reader.h"
#include "io/y4m_reader.h"
#include "test_support.h"
#include "twinvmaf/error.h"

namespace twinvmaf {
namespace {

using test::TempDir;
using test::write_file;

VideoFormat make_format(unsigned width, unsigned height, ChromaFormat chroma, unsigned bitdepth)
{
    VideoFormat format;
    format.width = width;
    format.height = height;
    format.chroma = chroma;
    format.bitdepth = bitdepth;
    return format;
}

// Sample `index` of a frame as stored (little-endian above 8 bits).
unsigned stored_sample(const std::string& frame, const VideoFormat& format, std::size_t index)
{
    const auto* bytes = reinterpret_cast<const unsigned char*>(frame.data());
    if (format.bytes_per_sample() == 1) return bytes[index];
    return bytes[2 * index] | (unsigned{bytes[2 * index + 1]} << 8);
}

void set_sample(std::string& frame, const VideoFormat& format, std::size_t index, unsigned value)
{
    if (format.bytes_per_sample() == 1) {
        frame[index] = static_cast<char>(value);
    } else {
        frame[2 * index] = static_cast<char>(value & 0xFF);
        frame[2 * index + 1] = static_cast<char>(value >> 8);
    }
}

// A frame of distinct-looking, in-range samples; `seed` tells frames apart.
std::string make_frame(const VideoFormat& format, unsigned seed)
{
    std::string frame(format.frame_bytes(), '\0');
    const std::size_t samples = frame.size() / format.bytes_per_sample();
    for (std::size_t i = 0; i < samples; ++i)
        set_sample(frame, format, i, static_cast<unsigned>((i * 7919 + seed * 104729) % (format.max_sample() + 1)));
    return frame;
}

std::string picture_bytes(const Picture& picture)
{
    return std::string(reinterpret_cast<const char*>(picture.bytes()), picture.size_bytes());
}

// Checks the scored plane views of `picture` against the stored frame.
void expect_planes_match(const Picture& picture, const std::string& frame)
{
    const VideoFormat& format = picture.format();
    std::size_t plane_start = 0;  // in samples
    for (int p = 0; p < 3; ++p) {
        const PlaneView view = picture.plane(p);
        ASSERT_EQ(view.width, format.plane_width(p));
        ASSERT_EQ(view.height, format.plane_height(p));
        ASSERT_EQ(view.stride, static_cast<std::ptrdiff_t>(format.stored_width(p) * format.bytes_per_sample()));
        for (unsigned y = 0; y < view.height; ++y) {
            for (unsigned x = 0; x < view.width; ++x) {
                const unsigned expected = stored_sample(frame, format, plane_start + y * format.stored_width(p) + x);
                const unsigned actual =
                    format.bytes_per_sample() == 1 ? view.row<std::uint8_t>(y)[x] : view.row<std::uint16_t>(y)[x];
                ASSERT_EQ(actual, expected) << "plane " << p << " x " << x << " y " << y;
            }
        }
        plane_start += std::size_t{format.stored_width(p)} * format.stored_height(p);
    }
}

// Expects `action` to throw twinvmaf::Error whose message contains every key.
template <class Action>
void expect_error(Action action, const std::vector<std::string>& keys)
{
    try {
        action();
        ADD_FAILURE() << "no error thrown; expected one containing '" << keys.front() << "'";
    } catch (const Error& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        for (const std::string& key : keys)
            EXPECT_NE(message.find(key), std::string::npos) << "'" << key << "' not in: " << message;
    }
}

// Writes `data` into a named pipe from a thread, so readers see a non-seekable
// file of unknown size. Declare it before the reader: the reader must close
// first when it leaves data unread.
class FifoWriter {
public:
    FifoWriter(const std::filesystem::path& path, std::string data) : path_(path)
    {
        std::signal(SIGPIPE, SIG_IGN);
        if (::mkfifo(path.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
        thread_ = std::thread([this, data = std::move(data)] {
            const int fd = ::open(path_.c_str(), O_WRONLY);
            opened_ = true;
            if (fd < 0) return;
            std::size_t done = 0;
            while (done < data.size()) {
                const ssize_t wrote = ::write(fd, data.data() + done, data.size() - done);
                if (wrote <= 0) break;
                done += static_cast<std::size_t>(wrote);
            }
            ::close(fd);
        });
    }
    ~FifoWriter()
    {
        // Unblock a writer still waiting for a reader to open the pipe.
        if (!opened_) {
            const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
        thread_.join();
    }

private:
    std::filesystem::path path_;
    std::atomic<bool> opened_{false};
    std::thread thread_;
};

std::string y4m_file(const std::string& tags, const std::vector<std::string>& frames,
                     const std::vector<std::string>& frame_headers = {})
{
    std::string file = "YUV4MPEG2 " + tags + "\n";
    for (std::size_t i = 0; i < frames.size(); ++i)
        file += (i < frame_headers.size() ? frame_headers[i] : std::string("FRAME\n")) + frames[i];
    return file;
}

// ---------------------------------------------------------------- raw YUV

TEST(RawReader, Odd420EightBitKeepsStoredChromaAndScoresFloor)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 8);
    ASSERT_EQ(format.frame_bytes(), 17u * 17 + 2 * 9 * 9);
    const std::string frame0 = make_frame(format, 0), frame1 = make_frame(format, 1);
    write_file(dir / "a.yuv", frame0 + frame1);

    auto reader = open_video((dir / "a.yuv").string(), format);
    EXPECT_EQ(reader->format(), format);
    ASSERT_EQ(reader->frame_count(), std::optional<std::uint64_t>(2));
    Picture picture;
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(reader->position(), 1u);
    EXPECT_EQ(picture_bytes(picture), frame0);

    const PlaneView u = picture.plane(1);
    EXPECT_EQ(u.width, 8u);
    EXPECT_EQ(u.height, 8u);
    EXPECT_EQ(u.stride, 9);
    for (unsigned y = 0; y < 8; ++y)
        for (unsigned x = 0; x < 8; ++x)
            ASSERT_EQ(u.row<std::uint8_t>(y)[x], static_cast<std::uint8_t>(frame0[289 + y * 9 + x]));
    const PlaneView v = picture.plane(2);
    EXPECT_EQ(v.row<std::uint8_t>(7)[7], static_cast<std::uint8_t>(frame0[289 + 81 + 7 * 9 + 7]));

    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frame1);
    EXPECT_FALSE(reader->read(picture));
    EXPECT_FALSE(reader->read(picture));
    EXPECT_EQ(reader->position(), 2u);
}

TEST(RawReader, EveryChromaAndDepthIncludingOddSizes)
{
    struct Case {
        unsigned width, height;
        ChromaFormat chroma;
        unsigned bitdepth;
    };
    const Case cases[] = {
        {17, 17, ChromaFormat::k420, 10}, {19, 23, ChromaFormat::k420, 8}, {16, 8, ChromaFormat::k420, 12},
        {19, 23, ChromaFormat::k422, 8},  {19, 23, ChromaFormat::k422, 10}, {6, 4, ChromaFormat::k422, 16},
        {5, 3, ChromaFormat::k444, 8},    {5, 3, ChromaFormat::k444, 10},   {1, 1, ChromaFormat::k420, 10},
    };
    TempDir dir;
    for (const Case& c : cases) {
        const VideoFormat format = make_format(c.width, c.height, c.chroma, c.bitdepth);
        SCOPED_TRACE(format.describe());
        std::vector<std::string> frames;
        std::string contents;
        for (unsigned i = 0; i < 3; ++i) {
            frames.push_back(make_frame(format, i));
            contents += frames.back();
        }
        const auto path = dir / "clip.yuv";
        write_file(path, contents);
        RawReader reader(path.string(), format);
        EXPECT_EQ(reader.frame_count(), std::optional<std::uint64_t>(3));
        Picture picture;
        for (const std::string& frame : frames) {
            ASSERT_TRUE(reader.read(picture));
            EXPECT_EQ(picture_bytes(picture), frame);
            expect_planes_match(picture, frame);
        }
        EXPECT_FALSE(reader.read(picture));
    }
}

TEST(RawReader, ChromaStoredSizes)
{
    // 19x23: 4:2:0 stores 10x12 chroma, 4:2:2 10x23, 4:4:4 19x23; scored 9x11, 9x23, 19x23.
    const VideoFormat f420 = make_format(19, 23, ChromaFormat::k420, 8);
    const VideoFormat f422 = make_format(19, 23, ChromaFormat::k422, 10);
    const VideoFormat f444 = make_format(19, 23, ChromaFormat::k444, 8);
    EXPECT_EQ(f420.frame_bytes(), 19u * 23 + 2 * 10 * 12);
    EXPECT_EQ(f422.frame_bytes(), 2 * (19u * 23 + 2 * 10 * 23));
    EXPECT_EQ(f444.frame_bytes(), 3u * 19 * 23);
    Picture picture(f420);
    EXPECT_EQ(picture.plane(1).width, 9u);
    EXPECT_EQ(picture.plane(1).height, 11u);
}

TEST(RawReader, SkipSeeksAndStopsAtTheEnd)
{
    TempDir dir;
    const VideoFormat format = make_format(8, 6, ChromaFormat::k420, 10);
    std::vector<std::string> frames;
    std::string contents;
    for (unsigned i = 0; i < 5; ++i) {
        frames.push_back(make_frame(format, i));
        contents += frames.back();
    }
    write_file(dir / "a.yuv", contents);
    auto reader = open_video((dir / "a.yuv").string(), format);
    Picture picture;
    reader->skip(2);
    EXPECT_EQ(reader->position(), 2u);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[2]);
    reader->skip(0);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[3]);
    reader->skip(100);
    EXPECT_EQ(reader->position(), 5u);
    EXPECT_FALSE(reader->read(picture));
    reader->skip(~std::uint64_t{0});
    EXPECT_EQ(reader->position(), 5u);
}

TEST(RawReader, ReadsFromAPipe)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 8);
    std::vector<std::string> frames;
    std::string contents;
    for (unsigned i = 0; i < 4; ++i) {
        frames.push_back(make_frame(format, i));
        contents += frames.back();
    }
    FifoWriter writer(dir / "pipe", contents);
    auto reader = open_video((dir / "pipe").string(), format);
    EXPECT_EQ(reader->frame_count(), std::nullopt);
    Picture picture;
    // The first bytes were read to look for the Y4M magic; they must not be lost.
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[0]);
    reader->skip(2);
    EXPECT_EQ(reader->position(), 3u);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[3]);
    EXPECT_FALSE(reader->read(picture));
}

TEST(RawReader, PipeEndingInsideAFrameIsAnError)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 8);
    const std::string frame = make_frame(format, 0);
    FifoWriter writer(dir / "pipe", frame + frame.substr(0, 100));
    auto reader = open_video((dir / "pipe").string(), format);
    Picture picture;
    ASSERT_TRUE(reader->read(picture));
    expect_error([&] { reader->read(picture); }, {"pipe: frame 1: truncated frame", "100 of 451 bytes"});
}

TEST(RawReader, PipeSkipEndingInsideAFrameIsAnError)
{
    TempDir dir;
    const VideoFormat format = make_format(4, 4, ChromaFormat::k444, 8);
    const std::string frame = make_frame(format, 0);
    FifoWriter writer(dir / "pipe", frame + frame.substr(0, 5));
    auto reader = open_video((dir / "pipe").string(), format);
    expect_error([&] { reader->skip(5); }, {"frame 1: truncated frame"});
}

TEST(RawReader, RefusesMissingEmptyAndDirectory)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 8);
    const std::string missing = (dir / "missing.yuv").string();
    expect_error([&] { open_video(missing, format); }, {missing + ": cannot open: No such file"});
    expect_error([&] { RawReader(missing, format); }, {"cannot open"});
    expect_error([&] { open_video(dir.path().string(), format); }, {"cannot open: Is a directory"});

    write_file(dir / "empty.yuv", "");
    expect_error([&] { open_video((dir / "empty.yuv").string(), format); },
                 {(dir / "empty.yuv").string() + ": empty file (0 frames)"});
}

TEST(RawReader, RefusesPartialFrames)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 8);
    const std::string path = (dir / "bad.yuv").string();
    write_file(path, std::string(1234, '\x10'));
    try {
        open_video(path, format);
        FAIL() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()),
                  path +
                      ": size 1234 bytes is not a whole number of 451-byte frames (2 frames + 332 bytes) "
                      "for 17x17 4:2:0 8-bit; check --width/--height/--pixel_format/--bitdepth (Netflix's "
                      "vmaf would score the 2 whole frames and stop with 'Error reading YUV frame data'; "
                      "twinvmaf refuses a truncated file)");
    }
    write_file(path, std::string(451 + 1, '\x10'));
    expect_error([&] { open_video(path, format); }, {"(1 frame + 1 bytes)", "score the 1 whole frame and"});
    write_file(path, std::string(450, '\x10'));
    expect_error([&] { open_video(path, format); }, {"450 bytes is less than one 451-byte frame", "--width"});
}

TEST(RawReader, RefusesBadFormats)
{
    TempDir dir;
    const std::string path = (dir / "a.yuv").string();
    write_file(path, std::string(4096, '\0'));
    expect_error([&] { open_video(path, std::nullopt); },
                 {path + ": raw YUV input needs --width, --height, --pixel_format and --bitdepth"});
    expect_error([&] { open_video(path, make_format(0, 16, ChromaFormat::k420, 8)); }, {"nonzero", "0x16"});
    expect_error([&] { open_video(path, make_format(16, 0, ChromaFormat::k420, 8)); }, {"nonzero", "16x0"});
    expect_error([&] { open_video(path, make_format(16, 16, ChromaFormat::k420, 9)); }, {"bit depth 9"});
    expect_error([&] { open_video(path, make_format(16, 16, ChromaFormat::k420, 0)); }, {"bit depth 0"});
    expect_error([&] { open_video(path, make_format(40000, 16, ChromaFormat::k420, 8)); },
                 {"40000x16", "too large"});
    expect_error([&] { open_video(path, make_format(16, 100000, ChromaFormat::k444, 16)); }, {"too large"});
}

TEST(RawReader, Y4mExtensionWithoutMagicIsAnError)
{
    TempDir dir;
    const std::string path = (dir / "clip.Y4M").string();
    write_file(path, std::string(451, '\0'));
    expect_error([&] { open_video(path, make_format(17, 17, ChromaFormat::k420, 8)); },
                 {path + ": .y4m file without YUV4MPEG2 header"});
    write_file(path, "");
    expect_error([&] { open_video(path, std::nullopt); }, {".y4m file without YUV4MPEG2 header"});
}

// ---------------------------------------------------------------- Y4M

TEST(Y4mReader, AcceptsEveryChromaTag)
{
    struct Case {
        const char* tag;
        ChromaFormat chroma;
        unsigned bitdepth;
    };
    const Case cases[] = {
        {"", ChromaFormat::k420, 8},  // no C tag: 420jpeg
        {" C420", ChromaFormat::k420, 8},       {" C420jpeg", ChromaFormat::k420, 8},
        {" C420paldv", ChromaFormat::k420, 8},  {" C420mpeg2", ChromaFormat::k420, 8},
        {" C422", ChromaFormat::k422, 8},       {" C444", ChromaFormat::k444, 8},
        {" C420p10", ChromaFormat::k420, 10},   {" C420p12", ChromaFormat::k420, 12},
        {" C420p16", ChromaFormat::k420, 16},   {" C422p10", ChromaFormat::k422, 10},
        {" C422p12", ChromaFormat::k422, 12},   {" C422p16", ChromaFormat::k422, 16},
        {" C444p10", ChromaFormat::k444, 10},   {" C444p12", ChromaFormat::k444, 12},
        {" C444p16", ChromaFormat::k444, 16},
    };
    TempDir dir;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.tag);
        const VideoFormat format = make_format(5, 3, c.chroma, c.bitdepth);
        std::string frame0 = make_frame(format, 0);
        const std::string frame1 = make_frame(format, 1);
        set_sample(frame0, format, 0, format.max_sample());  // the top of the range is valid
        const auto path = dir / "clip.y4m";
        write_file(path, y4m_file("W5 H3 F30000:1001 Ip A1:1" + std::string(c.tag) + " XYSCSS=420JPEG",
                                  {frame0, frame1}, {"FRAME\n", "FRAME Ip XFOO=bar\n"}));
        auto reader = open_video(path.string(), std::nullopt);
        EXPECT_EQ(reader->format(), format);
        Picture picture;
        ASSERT_TRUE(reader->read(picture));
        EXPECT_EQ(picture_bytes(picture), frame0);
        expect_planes_match(picture, frame0);
        ASSERT_TRUE(reader->read(picture));
        EXPECT_EQ(picture_bytes(picture), frame1);
        EXPECT_FALSE(reader->read(picture));
        EXPECT_EQ(reader->position(), 2u);
    }
}

TEST(Y4mReader, DetectedByMagicWhateverTheNameAndChecksRawFormat)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 10);
    const std::string frame = make_frame(format, 3);
    const std::string path = (dir / "clip.yuv").string();
    write_file(path, y4m_file("W17 H17 F25:1 It C420p10", {frame}));
    auto reader = open_video(path, format);  // agreeing raw options are fine
    EXPECT_NE(dynamic_cast<Y4mReader*>(reader.get()), nullptr);
    Picture picture;
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frame);
    EXPECT_EQ(picture.plane(1).width, 8u);

    expect_error([&] { open_video(path, make_format(17, 17, ChromaFormat::k420, 8)); },
                 {path + ": the Y4M header says 17x17 4:2:0 10-bit", "17x17 4:2:0 8-bit"});
    expect_error([&] { open_video(path, make_format(16, 17, ChromaFormat::k420, 10)); }, {"16x17 4:2:0 10-bit"});
    expect_error([&] { open_video(path, make_format(17, 17, ChromaFormat::k422, 10)); }, {"4:2:2"});
}

TEST(Y4mReader, FrameCountAndSkip)
{
    TempDir dir;
    const VideoFormat format = make_format(6, 4, ChromaFormat::k422, 8);
    std::vector<std::string> frames;
    for (unsigned i = 0; i < 4; ++i) frames.push_back(make_frame(format, i));
    const std::string path = (dir / "a.y4m").string();

    write_file(path, y4m_file("W6 H4 C422", frames));
    auto reader = open_video(path, std::nullopt);
    EXPECT_EQ(reader->frame_count(), std::optional<std::uint64_t>(4));
    Picture picture;
    reader->skip(1);
    EXPECT_EQ(reader->position(), 1u);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[1]);
    reader->skip(2);
    EXPECT_EQ(reader->position(), 4u);
    EXPECT_FALSE(reader->read(picture));
    reader->skip(3);
    EXPECT_EQ(reader->position(), 4u);

    // Frame parameters: the count is not known up front.
    write_file(path, y4m_file("W6 H4 C422", frames, {"FRAME\n", "FRAME\n", "FRAME\n", "FRAME Ib\n"}));
    EXPECT_EQ(open_video(path, std::nullopt)->frame_count(), std::nullopt);

    write_file(path, y4m_file("W6 H4 C422", {}));
    reader = open_video(path, std::nullopt);
    EXPECT_EQ(reader->frame_count(), std::optional<std::uint64_t>(0));
    EXPECT_FALSE(reader->read(picture));
}

TEST(Y4mReader, ReadsFromAPipe)
{
    TempDir dir;
    const VideoFormat format = make_format(5, 3, ChromaFormat::k420, 10);
    std::vector<std::string> frames;
    for (unsigned i = 0; i < 3; ++i) frames.push_back(make_frame(format, i));
    FifoWriter writer(dir / "pipe", y4m_file("W5 H3 C420p10", frames, {"FRAME\n", "FRAME Ip\n"}));
    auto reader = open_video((dir / "pipe").string(), std::nullopt);
    EXPECT_EQ(reader->format(), format);
    EXPECT_EQ(reader->frame_count(), std::nullopt);
    Picture picture;
    reader->skip(1);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[1]);
    ASSERT_TRUE(reader->read(picture));
    EXPECT_EQ(picture_bytes(picture), frames[2]);
    EXPECT_FALSE(reader->read(picture));
}

TEST(Y4mReader, RefusesBadHeaders)
{
    TempDir dir;
    const std::string path = (dir / "bad.y4m").string();
    auto open_with_header = [&](const std::string& header) {
        write_file(path, header + "FRAME\n" + std::string(64, '\0'));
        open_video(path, std::nullopt);
    };
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 Cmono\n"); },
                 {path + ": monochrome Y4M (Cmono) is not supported: VMAF needs Y, Cb and Cr planes"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 Cmono10\n"); }, {"monochrome Y4M (Cmono10)"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 C411\n"); },
                 {"'C411'", "accepted: C420, C420jpeg, C420paldv, C420mpeg2, C422, C444, C420p10", "C444p16"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 C444alpha\n"); }, {"'C444alpha'", "accepted"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 C420p9\n"); }, {"'C420p9'"});
    expect_error([&] { open_with_header("YUV4MPEG2 H4 C420\n"); }, {"no width (W tag)"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 C420\n"); }, {"no height (H tag)"});
    expect_error([&] { open_with_header("YUV4MPEG2 W0 H4\n"); }, {"zero width (W0)"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H0\n"); }, {"zero height (H0)"});
    expect_error([&] { open_with_header("YUV4MPEG2 Wabc H4\n"); }, {"bad width tag 'Wabc'"});
    expect_error([&] { open_with_header("YUV4MPEG2 W H4\n"); }, {"bad width tag 'W'"});
    expect_error([&] { open_with_header("YUV4MPEG2 W-4 H4\n"); }, {"bad width tag"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H99999999999\n"); }, {"bad height tag"});
    expect_error([&] { open_with_header("YUV4MPEG2 W40000 H4\n"); }, {"40000x4", "too large"});
    expect_error([&] { open_with_header("YUV4MPEG2 W4 H4 X" + std::string(5000, 'x') + "\n"); },
                 {"Y4M header is longer than 4096 bytes"});
    expect_error([&] {
        write_file(path, "YUV4MPEG2 W4 H4");
        open_video(path, std::nullopt);
    }, {"Y4M header is not terminated by a newline"});
    // A Y4M reader opened directly checks the magic itself.
    expect_error([&] {
        write_file(path, "YUV4MPEG W4 H4\n");
        Y4mReader reader(path);
    }, {path + ": not a Y4M file"});
}

TEST(Y4mReader, RefusesBadFrames)
{
    TempDir dir;
    const std::string path = (dir / "bad.y4m").string();
    const VideoFormat format = make_format(4, 4, ChromaFormat::k420, 8);
    const std::string frame = make_frame(format, 0);
    auto read_all = [&](const std::string& contents) {
        write_file(path, contents);
        auto reader = open_video(path, std::nullopt);
        Picture picture;
        while (reader->read(picture)) {
        }
    };
    const std::string header = "YUV4MPEG2 W4 H4 C420\n";
    expect_error([&] { read_all(header + "FRAME\n" + frame + "FRAME\n" + frame + "FRAMX\n" + frame); },
                 {path + ": frame 2: bad frame header (expected 'FRAME')"});
    expect_error([&] { read_all(header + "FRAME\n" + frame + frame); }, {"frame 1: bad frame header"});
    expect_error([&] { read_all(header + "FRAMEX\n" + frame); }, {"frame 0: bad frame header"});
    expect_error([&] { read_all(header + "FRAME\n" + frame + "FRA"); }, {"frame 1: truncated frame header"});
    expect_error([&] { read_all(header + "FRAME\n" + frame + "FRAME Ip"); }, {"frame 1: truncated frame header"});
    expect_error([&] { read_all(header + "FRAME\n" + frame + "FRAME\n" + frame.substr(0, 10)); },
                 {"frame 1: truncated frame (got 10 of 24 bytes)"});
    expect_error([&] { read_all(header + "FRAME " + std::string(5000, 'x') + "\n" + frame); },
                 {"frame 0: frame header is longer than 4096 bytes"});
    expect_error([&] {
        write_file(path, header + "FRAME\n" + frame + "FRAME\n" + frame.substr(0, 3));
        open_video(path, std::nullopt)->skip(5);
    }, {"frame 1: truncated frame (got 3 of 24 bytes)"});
}

// ---------------------------------------------------------------- sample range

TEST(SampleRange, ReaderCatchesElevenBitValueInTenBitFile)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 10);
    const std::string good = make_frame(format, 0);
    std::string bad = make_frame(format, 1);
    set_sample(bad, format, 17 * 3 + 5, 2047);
    const std::string path = (dir / "a.yuv").string();
    write_file(path, good + bad);
    auto reader = open_video(path, format);
    Picture picture;
    ASSERT_TRUE(reader->read(picture));
    expect_error([&] { reader->read(picture); },
                 {path + ": frame 1: sample value 2047 exceeds the 10-bit maximum 1023; is --bitdepth right?"});
}

TEST(SampleRange, PaddingColumnIsCheckedToo)
{
    TempDir dir;
    const VideoFormat format = make_format(17, 17, ChromaFormat::k420, 10);
    std::string frame = make_frame(format, 0);
    set_sample(frame, format, 289 + 8, 1024);  // U row 0, stored column 8: never scored
    const std::string path = (dir / "a.y4m").string();
    write_file(path, y4m_file("W17 H17 C420p10", {frame}));
    auto reader = open_video(path, std::nullopt);
    Picture picture;
    expect_error([&] { reader->read(picture); }, {"frame 0: sample value 1024 exceeds the 10-bit maximum 1023"});
}

// Frames larger than the readers' checked chunks (io/sample_range.h): a bad
// sample in any chunk, at a chunk's first or last sample or in the last
// chunk, is found by every way of reading (in order, by number, Y4M); a
// truncated frame is reported as truncated whatever its samples.
TEST(SampleRange, LargeFramesAreCheckedInEveryChunk)
{
    TempDir dir;
    const VideoFormat format = make_format(512, 300, ChromaFormat::k420, 10);  // 460800 bytes: 2 chunks
    const std::size_t chunk_samples = kCheckedChunkBytes / 2;
    ASSERT_GT(format.frame_bytes(), kCheckedChunkBytes);
    const std::size_t last = format.frame_bytes() / 2 - 1;
    for (std::size_t index : {std::size_t{0}, chunk_samples - 1, chunk_samples, chunk_samples + 1, last}) {
        SCOPED_TRACE(testing::Message() << "bad sample " << index);
        std::string bad = make_frame(format, 1);
        set_sample(bad, format, index, 1023 + 1 + static_cast<unsigned>(index % 7));
        const std::string message = "frame 1: sample value " + std::to_string(1024 + index % 7) + " exceeds";
        const std::string raw = (dir / "a.yuv").string(), y4m = (dir / "a.y4m").string();
        write_file(raw, make_frame(format, 0) + bad);
        write_file(y4m, y4m_file("W512 H300 C420p10", {make_frame(format, 0), bad}));
        for (const std::string& path : {raw, y4m}) {
            auto reader = open_video(path, format);
            Picture picture;
            ASSERT_TRUE(reader->read(picture));
            expect_error([&] { reader->read(picture); }, {path + ": " + message});
        }
        auto reader = open_video(raw, format);
        ASSERT_TRUE(reader->random_access());
        Picture picture(format);
        EXPECT_NO_THROW(reader->read_frame_part_at(0, picture, 0, format.frame_bytes()));
        expect_error([&] { reader->read_frame_part_at(1, picture, 0, format.frame_bytes()); }, {message});
        // The part holding the sample, and none without it.
        const std::size_t part = (2 * index) & ~std::size_t{7};
        expect_error([&] { reader->read_frame_part_at(1, picture, part, 8); }, {message});
        if (part >= 8) {
            EXPECT_NO_THROW(reader->read_frame_part_at(1, picture, 0, part));
        }
    }
    // A truncated last frame with a bad sample in its first chunk: truncated.
    std::string bad = make_frame(format, 1);
    set_sample(bad, format, 3, 4000);
    const std::string path = (dir / "t.y4m").string();
    std::string file = y4m_file("W512 H300 C420p10", {make_frame(format, 0), bad});
    file.resize(file.size() - 100);
    write_file(path, file);
    auto reader = open_video(path, std::nullopt);
    Picture picture;
    ASSERT_TRUE(reader->read(picture));
    expect_error([&] { reader->read(picture); }, {"truncated"});
}

TEST(SampleRange, DirectCheck)
{
    // 3x1 4:4:4 12-bit: 18 bytes, so the last sample sits past the 8-byte words.
    Picture picture(make_format(3, 1, ChromaFormat::k444, 12));
    ASSERT_EQ(picture.size_bytes(), 18u);
    std::memset(picture.bytes(), 0xFF, 18);
    for (std::size_t i = 1; i < 18; i += 2) picture.bytes()[i] = 0x0F;  // 4095 everywhere
    EXPECT_NO_THROW(check_sample_range(picture, "x", 0));
    picture.bytes()[17] = 0x10;  // last sample 4351
    expect_error([&] { check_sample_range(picture, "clip", 7); },
                 {"clip: frame 7: sample value 4351 exceeds the 12-bit maximum 4095"});
    picture.bytes()[17] = 0x0F;
    picture.bytes()[3] = 0x80;  // second sample: 0x80FF
    expect_error([&] { check_sample_range(picture, "clip", 0); }, {"sample value 33023"});

    Picture eight(make_format(4, 4, ChromaFormat::k420, 8));
    std::memset(eight.bytes(), 0xFF, eight.size_bytes());
    EXPECT_NO_THROW(check_sample_range(eight, "x", 0));
    Picture sixteen(make_format(4, 4, ChromaFormat::k420, 16));
    std::memset(sixteen.bytes(), 0xFF, sixteen.size_bytes());
    EXPECT_NO_THROW(check_sample_range(sixteen, "x", 0));
}

// ---------------------------------------------------------------- fixtures

TEST(Fixtures, ReadsSharedRawFixtures)
{
    const auto root = test::fixtures_dir();
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no fixtures at " << root;

    struct Case {
        const char* name;
        VideoFormat format;
        std::uint64_t frames;
    };
    const Case cases[] = {
        {"vtest_576x324_420p8", make_format(576, 324, ChromaFormat::k420, 8), 48},
        {"noise_17x17_420p10", make_format(17, 17, ChromaFormat::k420, 10), 5},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        for (const char* file : {"ref.yuv", "dis.yuv"}) {
            auto reader = open_video((root / c.name / file).string(), c.format);
            ASSERT_EQ(reader->frame_count(), std::optional<std::uint64_t>(c.frames));
            Picture picture;
            std::uint64_t frames = 0;
            while (reader->read(picture)) ++frames;
            EXPECT_EQ(frames, c.frames);
            EXPECT_EQ(reader->position(), c.frames);
        }
    }
}

}  // namespace
}  // namespace twinvmaf
