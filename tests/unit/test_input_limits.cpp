// What bad inputs meet before any scoring (issue 17): values quoted in
// messages, container signatures, and no frame buffer before the file is
// known to hold the frame.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <new>
#include <random>
#include <string>
#include <thread>

#include "core/message_text.h"
#include "io/container_signature.h"
#include "io/video_reader.h"
#include "test_support.h"
#include "twinvmaf/error.h"

using namespace twinvmaf;
using namespace twinvmaf::test;

namespace {

bool valid_utf8(const std::string& text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
        if (length == 0 || i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        i += length;
    }
    return true;
}

TEST(MessageText, ShortValuesStayAndControlBytesAreEscaped)
{
    EXPECT_EQ(message_text("psnr"), "psnr");
    EXPECT_EQ(message_text("a\nb\tc\x7f"), "a\\nb\\x09c\\x7F");
    EXPECT_EQ(message_text(std::string("\0x", 2)), "\\x00x");
    EXPECT_EQ(message_text("h\xC3\xA9"), "h\xC3\xA9");  // UTF-8 as it is
}

TEST(MessageText, LongValuesKeepTheirStartAndEnd)
{
    std::string path = "/very/long/" + std::string(500, 'd') + "/clip.yuv";
    const std::string shown = message_text(path);
    EXPECT_EQ(shown.rfind("/very/long/ddd", 0), 0u) << shown;
    EXPECT_NE(shown.find("ddd/clip.yuv (" + std::to_string(path.size()) + " bytes)"), std::string::npos) << shown;
    EXPECT_LE(shown.size(), kMessageValueLimit + 3 + 20);
    // The limit counts what is shown: escapes do not make it longer.
    for (const std::string& value : {std::string(1000, '\0'), std::string(1000, '\n'), std::string(3000, 'x')}) {
        const std::string text = message_text(value);
        EXPECT_LE(text.size(), kMessageValueLimit + 3 + 20) << text;
        EXPECT_EQ(text.find('\n'), std::string::npos);
    }
    // Cuts never split a UTF-8 character, wherever they fall.
    for (std::size_t offset = 0; offset < 4; ++offset) {
        std::string text(offset, 'a');
        for (int i = 0; i < 100; ++i) text += "\xE2\x82\xAC";  // the euro sign, three bytes
        EXPECT_TRUE(valid_utf8(message_text(text))) << offset;
    }
}

TEST(ContainerSignature, KnowsTheCommonContainers)
{
    std::string head(kContainerSniffBytes, '\x10');
    auto with = [&](const std::string& start) {
        std::string bytes = head;
        return bytes.replace(0, start.size(), start);
    };
    EXPECT_EQ(container_name(with(std::string("\0\0\0\x18" "ftypmp42", 12))), "MP4/MOV");
    EXPECT_EQ(container_name(with(std::string("\0\0\0\x14" "ftypqt  ", 12))), "MP4/MOV");
    EXPECT_EQ(container_name(with(std::string("\0\0\0\x01" "mdat", 8))), "MP4/MOV");
    EXPECT_EQ(container_name(with("\x1A\x45\xDF\xA3")), "Matroska/WebM");
    EXPECT_EQ(container_name(with(std::string("DKIF\0\0\x20\0", 8))), "IVF");
    EXPECT_EQ(container_name(with(std::string("RIFF\0\0\0\0AVI ", 12))), "AVI");
    EXPECT_EQ(container_name(with(std::string("OggS\0", 5))), "Ogg");
    EXPECT_EQ(container_name(with("FLV\x01")), "FLV");
    std::string ts = head;
    for (std::size_t at = 0; at + 4 <= ts.size(); at += 188) std::memcpy(&ts[at], "\x47\x40\x11\x10", 4);
    EXPECT_EQ(container_name(ts), "MPEG-TS");
    std::string m2ts = head;
    for (std::size_t at = 4; at + 4 <= m2ts.size(); at += 192) std::memcpy(&m2ts[at], "\x47\x00\x00\x30", 4);
    EXPECT_EQ(container_name(m2ts), "MPEG-TS");
    // A short file, and a transport stream cut before its fifth packet.
    EXPECT_EQ(container_name("\x1A\x45"), std::nullopt);
    EXPECT_EQ(container_name(ts.substr(0, 4 * 188 + 3)), std::nullopt);
}

TEST(ContainerSignature, RawVideoIsNotMistakenForOne)
{
    // Flat pictures of every value (0x47 is MPEG-TS's sync byte), ramps of
    // many widths, and random noise.
    for (int value = 0; value < 256; ++value)
        EXPECT_EQ(container_name(std::string(kContainerSniffBytes, static_cast<char>(value))), std::nullopt) << value;
    for (unsigned width = 1; width <= 400; ++width) {
        std::string ramp(kContainerSniffBytes, '\0');
        for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<char>((i % width) * 255 / width);
        EXPECT_EQ(container_name(ramp), std::nullopt) << width;
    }
    std::mt19937 rng(17);
    for (int trial = 0; trial < 20000; ++trial) {
        std::string noise(kContainerSniffBytes, '\0');
        for (char& c : noise) c = static_cast<char>(rng());
        EXPECT_EQ(container_name(noise), std::nullopt) << trial;
    }
}

// Picture memory that counts what it is asked for and refuses more than a
// limit, as a machine without that much memory would.
struct CountingMemory {
    static inline std::size_t calls = 0;
    static inline std::size_t limit = 0;
    static void* allocate(std::size_t bytes, int)
    {
        ++calls;
        if (bytes > limit) throw std::bad_alloc();
        return ::operator new(bytes);
    }
    static void release(void* memory) { ::operator delete(memory); }
};

TEST(FrameMemory, AY4mClaimingAHugeFrameIsRefusedBeforeItsBufferIsMade)
{
    TempDir dir;
    const std::string header = "YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n";
    write_file(dir / "huge.y4m", header + std::string(384, '\0'));
    const PictureAllocator counting{CountingMemory::allocate, CountingMemory::release};
    CountingMemory::calls = 0;
    CountingMemory::limit = std::size_t{1} << 30;
    auto reader = open_video((dir / "huge.y4m").string(), std::nullopt);
    Picture picture(&counting);
    try {
        reader->read(picture);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("frame 0: truncated frame (got 384 of 6442450944 bytes)"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(CountingMemory::calls, 0u);
}

// The read end of a pipe that a thread fills with `bytes` and closes.
class PipeOf {
public:
    explicit PipeOf(std::string bytes) : bytes_(std::move(bytes))
    {
        int ends[2];
        if (::pipe(ends) != 0) throw std::runtime_error("pipe");
        read_end_ = ends[0];
        writer_ = std::thread([this, fd = ends[1]] {
            std::size_t done = 0;
            while (done < bytes_.size()) {
                const ssize_t n = ::write(fd, bytes_.data() + done, bytes_.size() - done);
                if (n <= 0) break;  // the reader stopped early
                done += static_cast<std::size_t>(n);
            }
            ::close(fd);
        });
    }
    ~PipeOf()
    {
        ::close(read_end_);  // unblocks the writer if the reader stopped
        writer_.join();
    }
    std::string path() const { return "/proc/self/fd/" + std::to_string(read_end_); }

private:
    std::string bytes_;
    int read_end_ = -1;
    std::thread writer_;
};

TEST(FrameMemory, APipeClaimingAHugeFrameGetsNoBufferBeforeItsBytes)
{
    const PictureAllocator counting{CountingMemory::allocate, CountingMemory::release};
    for (const bool y4m_input : {true, false}) {
        CountingMemory::calls = 0;
        CountingMemory::limit = std::size_t{1} << 30;
        const std::string data(100000, '\x01');
        PipeOf pipe(y4m_input ? "YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n" + data : data);
        const VideoFormat huge{32768, 32768, ChromaFormat::k444, 16};
        auto reader = open_video(pipe.path(), y4m_input ? std::nullopt : std::optional<VideoFormat>(huge));
        Picture picture(&counting);
        try {
            reader->read(picture);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(": frame 0: truncated frame (got 100000 of 6442450944 bytes)"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_EQ(CountingMemory::calls, 0u) << "y4m " << y4m_input;
    }
}

TEST(FrameMemory, LargeFramesFromAPipeArriveWhole)
{
    // 26 MB frames (above the size read in place) through a pipe, as from a
    // regular file.
    const VideoFormat format{4096, 2160, ChromaFormat::k444, 8};
    std::string frames(2 * format.frame_bytes(), '\0');
    for (std::size_t i = 0; i < frames.size(); ++i) frames[i] = static_cast<char>(i * 31 / 7);
    for (const bool y4m_input : {true, false}) {
        const std::string header = "YUV4MPEG2 W4096 H2160 C444\n";
        const std::string text = y4m_input ? header + "FRAME\n" + frames.substr(0, format.frame_bytes()) + "FRAME\n" +
                                                 frames.substr(format.frame_bytes())
                                           : frames;
        PipeOf pipe(text);
        auto reader = open_video(pipe.path(), y4m_input ? std::nullopt : std::optional<VideoFormat>(format));
        Picture picture;
        for (int frame = 0; frame < 2; ++frame) {
            ASSERT_TRUE(reader->read(picture)) << frame;
            EXPECT_EQ(std::memcmp(picture.bytes(), frames.data() + frame * format.frame_bytes(), format.frame_bytes()), 0)
                << "y4m " << y4m_input << " frame " << frame;
        }
        EXPECT_FALSE(reader->read(picture));
    }
}

TEST(FrameMemory, OutOfMemoryIsAnErrorNamingTheFrame)
{
    TempDir dir;
    write_file(dir / "clip.y4m", y4m(64, 32, "420", 2));
    const PictureAllocator counting{CountingMemory::allocate, CountingMemory::release};
    CountingMemory::calls = 0;
    CountingMemory::limit = 100;  // less than a frame
    for (const bool raw : {false, true}) {
        write_file(dir / "clip.yuv", raw_frames(64, 32, 2, 1));
        auto reader = raw ? open_video((dir / "clip.yuv").string(), VideoFormat{64, 32, ChromaFormat::k420, 8})
                          : open_video((dir / "clip.y4m").string(), std::nullopt);
        Picture picture(&counting);
        try {
            reader->read(picture);
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(": frame 0: out of memory for a 3072-byte frame of 64x32 4:2:0 8-bit"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(CountingMemory::calls, 2u);
}

}  // namespace
