// YUV4MPEG2 (Y4M) reader.
//
// A Y4M file is one text header line ("YUV4MPEG2 W.. H.. C.. ...\n") and then,
// per frame, "FRAME" with optional parameters up to '\n' followed by the
// planes in exactly the raw YUV layout (16-bit little-endian above 8 bits).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "io/raw_reader.h"
#include "io/video_reader.h"

namespace twinvmaf {

// The file signature, including its trailing space.
inline constexpr char kY4mMagic[] = "YUV4MPEG2 ";
inline constexpr std::size_t kY4mMagicBytes = sizeof kY4mMagic - 1;

class Y4mReader final : public VideoReader {
public:
    explicit Y4mReader(const std::string& path);

    // Adopts `file`, whose first bytes `consumed` were already read from it;
    // they must be (a prefix of) the magic, as open_video leaves them.
    Y4mReader(InputFile file, const std::string& consumed);

    // Known for a regular file whose size is an exact number of frames with
    // plain "FRAME\n" headers (first and last checked); else nullopt. Reset to
    // nullopt if a frame with parameters shows the guess was wrong.
    std::optional<std::uint64_t> frame_count() const override { return frame_count_; }
    bool read(Picture& picture) override;
    void skip(std::uint64_t count) override;

private:
    void parse_header(const std::string& consumed);
    void count_plain_frames();
    // Consumes "FRAME...\n"; returns false at a clean end of file.
    bool read_frame_header();
    void discard_frame_data();
    // Regular files: throws "truncated frame" unless the rest of the file
    // holds frame_bytes_ (pipes show it only by ending).
    void check_file_holds_frame();
    [[noreturn]] void throw_frame_error(const std::string& problem) const;
    [[noreturn]] void throw_truncated(std::size_t got) const;
    [[noreturn]] void throw_read_error() const;

    struct FileCloser {
        void operator()(std::FILE* file) const { std::fclose(file); }
    };
    // Declared in this order so the stream is closed before its buffer is freed.
    std::unique_ptr<char[]> stdio_buffer_;
    std::unique_ptr<std::FILE, FileCloser> file_;
    bool regular_ = false;
    std::uint64_t file_size_ = 0;
    std::uint64_t offset_ = 0;  // bytes consumed so far (for regular files' seeks)
    std::size_t frame_bytes_ = 0;
    std::optional<std::uint64_t> frame_count_;
    // A pipe has delivered one whole frame (read_first_stream_frame).
    bool stream_proven_ = false;
};

}  // namespace twinvmaf
