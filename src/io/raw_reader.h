// Raw planar YUV reader, plus the small file helpers the readers share.
//
// A raw file has no header: frames of VideoFormat::frame_bytes() bytes follow
// each other, so a frame is one read(2) straight into the Picture's buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "io/video_reader.h"

namespace twinvmaf {

// Largest width or height accepted; anything above is a typo, not a video.
inline constexpr unsigned kMaxFrameDimension = 32768;

// Throws if `format` is unusable: zero or absurd width/height, or a bit depth
// other than 8, 10, 12 or 16. `path` names the file in the message.
void check_video_format(const std::string& path, const VideoFormat& format);

// The path that names standard input (-r - / -d -).
inline constexpr char kStandardInputPath[] = "-";

// One open, read-only file descriptor with what fstat said about it.
class InputFile {
public:
    // Throws "<path>: cannot open: <reason>" (directories included). "-" is
    // standard input (a terminal is refused: nothing would ever arrive);
    // redirected from a regular file, it is that file when read from its
    // start, else a stream from where it stands.
    explicit InputFile(const std::string& path);
    ~InputFile();
    InputFile(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    InputFile& operator=(InputFile&&) = delete;

    // The name used in messages ("standard input" for "-"; shortened).
    const std::string& path() const { return path_; }
    int fd() const { return fd_; }
    // Regular files have a known size and can seek; pipes and devices cannot.
    bool regular() const { return regular_; }
    std::uint64_t size() const { return size_; }

    // Reads until `count` bytes arrived or the file ended, retrying short reads
    // (pipes) and EINTR. Returns the bytes read; throws on a read error.
    std::size_t read_fully(void* destination, std::size_t count);

    // Reads `count` bytes at `offset` without moving the file position (pread),
    // so several threads may read one file at once. Returns the bytes read.
    std::size_t read_at(void* destination, std::size_t count, std::uint64_t offset) const;
    // Hands the descriptor over (e.g. to fdopen); this object no longer closes it.
    int release();

private:
    std::string path_;
    int fd_ = -1;
    bool regular_ = false;
    std::uint64_t size_ = 0;
};

class RawReader final : public VideoReader {
public:
    RawReader(const std::string& path, const VideoFormat& format);

    // Adopts `file`, whose first bytes `consumed` were already read from it
    // (open_video sniffs for the Y4M magic; on a pipe they cannot be re-read).
    RawReader(InputFile file, const VideoFormat& format, std::string consumed);

    std::optional<std::uint64_t> frame_count() const override { return frame_count_; }
    bool read(Picture& picture) override;
    void skip(std::uint64_t count) override;
    bool random_access() const override { return frame_count_.has_value(); }
    void read_frame_part_at(std::uint64_t frame, Picture& picture, std::size_t offset,
                            std::size_t length) const override;

private:
    // Reads the next frame into `picture`, already reset() to format(), with
    // the sample check (nullptr: discard it). Returns false at a clean end of
    // file; throws on a partial frame.
    bool read_frame_bytes(Picture* picture);
    std::size_t take_consumed(std::uint8_t* destination, std::size_t count);

    InputFile file_;
    std::size_t frame_bytes_ = 0;
    std::optional<std::uint64_t> frame_count_;
    // Bytes read before this reader existed, served before the file's (pipes only).
    std::string consumed_;
    std::size_t consumed_offset_ = 0;
    // A pipe has delivered one whole frame (read_first_stream_frame).
    bool stream_proven_ = false;
};

}  // namespace twinvmaf
