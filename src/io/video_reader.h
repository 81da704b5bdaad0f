// Video readers: raw planar YUV, YUV4MPEG2 (Y4M) and, with FFmpeg, compressed
// video (io/av_reader.h), streamed frame by frame.
//
// A reader holds one open file and no frame data of its own: read() fills a
// caller-owned Picture, so memory use does not grow with the video's length.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/decode_options.h"
#include "twinvmaf/picture.h"

namespace twinvmaf {

class VideoReader {
public:
    virtual ~VideoReader() = default;

    const VideoFormat& format() const { return format_; }
    const std::string& path() const { return path_; }

    // Frames in the file when known up front (raw YUV, plain Y4M files), else
    // nullopt (pipes, compressed video).
    virtual std::optional<std::uint64_t> frame_count() const = 0;

    // Reads the next frame into `picture` (resized to format()). Returns false
    // at a clean end of file. Throws twinvmaf::Error on a truncated frame, a
    // bad Y4M frame header, or a sample value above the bit depth's range.
    virtual bool read(Picture& picture) = 0;

    // Discards the next `count` frames; stops early at the end of the file.
    virtual void skip(std::uint64_t count) = 0;

    // Frames after position(), when frame_count() is known.
    std::optional<std::uint64_t> frames_left() const
    {
        const std::optional<std::uint64_t> count = frame_count();
        return count ? std::optional<std::uint64_t>(*count - position_) : std::nullopt;
    }

    // True when any frame can be read by its number, from several threads at
    // once (raw YUV in a regular file; frame_count() is then known): the frame
    // source reads ahead in parallel. Pipes and Y4M are read in order.
    virtual bool random_access() const { return false; }

    // Reads bytes [offset, offset + length) of frame `frame` into the same
    // bytes of `picture`, already reset() to format(), with the sample check
    // on them: several threads can fill one large frame. Offset and length are
    // even. Only when random_access().
    virtual void read_frame_part_at(std::uint64_t frame, Picture& picture, std::size_t offset,
                                    std::size_t length) const;

    // True for compressed video decoded by FFmpeg (io/av_reader.h), whose
    // pictures --scale and --pix_fmt may convert; false for Y4M and raw YUV,
    // which are read as they are.
    virtual bool decoded() const { return false; }

    // True when read() gives pictures in GPU memory (DeviceSurface: NVDEC's
    // frames, --hwdec cuda), which only a GPU backend scores.
    virtual bool device_pictures() const { return false; }
    // Frames returned or skipped so far.
    std::uint64_t position() const { return position_; }

protected:
    VideoFormat format_{};
    std::string path_;
    std::uint64_t position_ = 0;
};

// Opens `path` ("-": standard input). Y4M is recognised by the "YUV4MPEG2 "
// magic and read as it is; a compressed-video container (MP4/MOV,
// Matroska/WebM, IVF, MPEG-TS, AVI, Ogg, FLV: io/container_signature.h) is
// decoded with FFmpeg's libraries (io/av_reader.h, `decode` saying how), or
// refused in a build without them; a .y4m file without the magic is
// refused; anything else is raw YUV and needs `raw_format` (from --width,
// --height, --pixel_format, --bitdepth); without it, a file FFmpeg reads as
// video (an elementary stream) is decoded, unless its name ends in .yuv.
// When `raw_format` is given for a Y4M file, the header's geometry must
// agree with it. Throws twinvmaf::Error with a one-line message naming the
// file and the problem.
std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<VideoFormat>& raw_format,
                                        const DecodeOptions& decode = {});

// Whether this build decodes compressed video (it was built with FFmpeg's
// headers; the libraries themselves are loaded when a file needs them).
bool decodes_compressed_video();

// picture.reset(format) for frame `frame` of `what`, with an Error naming
// them (and the bytes) when memory runs out, rather than std::bad_alloc.
void reset_for_frame(Picture& picture, const VideoFormat& format, const std::string& what, std::uint64_t frame);

// "<what>: frame <frame>: truncated frame (got <got> of <bytes> bytes)".
[[noreturn]] void throw_truncated_frame(const std::string& what, std::uint64_t frame, std::uint64_t got,
                                        std::uint64_t bytes);

// Reads one frame of `format` from a stream (a pipe: its length is unknown)
// into `picture` without reserving the frame's memory before its bytes have
// arrived: they are gathered in a buffer that grows as they come (a header
// may claim frames of gigabytes), then copied. For a stream's first frame;
// once one has arrived whole, the size is real. `read_some(to, n)` reads up
// to n bytes, fewer only at the end. Returns false when the stream ended
// before the frame began; throws throw_truncated_frame's Error when it
// ended inside it.
bool read_first_stream_frame(Picture& picture, const VideoFormat& format, const std::string& what,
                             std::uint64_t frame,
                             const std::function<std::size_t(std::uint8_t*, std::size_t)>& read_some);

// Throws if any sample of `picture` exceeds its bit depth (e.g. a 10-bit file
// read with --bitdepth 8 is caught by its size; an 8-bit value range is always
// valid, so only > 8-bit formats are checked). `what` names the source.
void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame);
// The same for bytes [offset, offset + length) of the picture (offset and
// length even: whole samples).
void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame,
                        std::size_t offset, std::size_t length);

}  // namespace twinvmaf
