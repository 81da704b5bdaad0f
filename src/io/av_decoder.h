// Demuxing and decoding one video stream with FFmpeg's libraries: the
// part of a compressed input that does not depend on where the pictures go.
//
//   AvDemuxer        libavformat: the file (our descriptor, through an
//                    AVIOContext, so that pipes and already sniffed bytes
//                    work), the chosen video stream, its packets in order
//   AvVideoDecoder   libavcodec: packets in, pictures out in presentation
//                    order (the decoder's reordering), flushed at the end;
//                    a decoding error, or a picture the decoder marks
//                    corrupt, is an error, never a dropped frame
//
// Their output is an AVFrame. AvReader (io/av_reader.h) copies it, or
// converts it with libswscale, into a host Picture. A GPU build's NVDEC
// source is meant to take the same AvDemuxer and an AvVideoDecoder opened
// with a CUDA hardware device (hw_device_ctx), whose AVFrames are then
// device surfaces (AV_PIX_FMT_CUDA, NV12/P010) handed to the twins as device
// pictures instead of being copied here; see docs/decoding.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "io/ffmpeg_library.h"
#include "io/raw_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf::av {

// Thrown while opening when the file is not something FFmpeg reads as
// video, so that a caller that was only probing can say what it expected.
class NotVideo : public Error {
public:
    using Error::Error;
};

struct FrameDeleter {
    void operator()(AVFrame* frame) const;
};
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
FramePtr make_frame(const std::string& what);

class AvDemuxer {
public:
    // Opens `file` (whose first bytes `head` were already read from it; a
    // regular file is re-read from its start) and picks its `stream`-th
    // video stream (nullopt: the first), named by `stream_option` in
    // messages. Throws Error naming the file; NotVideo when FFmpeg finds no
    // container in it or no video stream.
    AvDemuxer(InputFile file, std::string head, std::optional<unsigned> stream, const std::string& stream_option);
    ~AvDemuxer();
    AvDemuxer(const AvDemuxer&) = delete;
    AvDemuxer& operator=(const AvDemuxer&) = delete;

    const std::string& path() const { return path_; }
    const AVStream& stream() const { return *context_->streams[stream_index_]; }
    // FFmpeg's name of the container: "QuickTime / MOV", "Matroska / WebM", ...
    std::string container() const;

    // The stream's next packet into `packet` (unreferenced first); false at
    // the end of the file. Throws on a read error or a packet the demuxer
    // marks corrupt; `frame` (pictures decoded so far) names where.
    bool read(AVPacket* packet, std::uint64_t frame);

private:
    void open(InputFile file, std::string head, std::optional<unsigned> stream, const std::string& stream_option);
    void close();

    struct Io;
    std::string path_;
    std::unique_ptr<Io> io_;
    AVFormatContext* context_ = nullptr;
    int stream_index_ = -1;
};

// Where an AvVideoDecoder decodes: DecodeOptions' hardware, gpu and
// hardware_fallback.
struct HardwareChoice {
    bool cuda = false;
    int gpu = 0;
    bool fallback = false;
};

class AvVideoDecoder {
public:
    // A decoder for `demuxer`'s stream; `threads` as DecodeOptions::threads.
    // With hardware.cuda, NVDEC decodes into CUDA frames (AV_PIX_FMT_CUDA,
    // in the device's primary context); a stream it cannot decode is an
    // error, or with hardware.fallback decoded on the host.
    AvVideoDecoder(AvDemuxer& demuxer, unsigned threads, HardwareChoice hardware = {});
    ~AvVideoDecoder();
    AvVideoDecoder(const AvVideoDecoder&) = delete;
    AvVideoDecoder& operator=(const AvVideoDecoder&) = delete;

    // The next picture in presentation order into `frame`; false after the
    // last (the decoder's delay flushed). Throws Error naming the file and
    // the picture's number on any decoding error.
    bool receive(AVFrame* frame);
    std::uint64_t pictures() const { return pictures_; }
    const char* codec_name() const;
    // The pixel format of the stream's pictures as the codec has them (for
    // CUDA frames, what their samples hold: yuv420p10le for P010).
    int software_format() const;

private:
    void open(unsigned threads, HardwareChoice hardware);
    // NVDEC's decoder for `codec`'s stream, set up on `context_`, or false
    // (with `why` filled) when this FFmpeg or this GPU has none.
    bool open_hardware(const AVCodec*& codec, HardwareChoice hardware, std::string& why);
    static AVPixelFormat choose_format(AVCodecContext* context, const AVPixelFormat* offered);
    void close();
    [[noreturn]] void fail(const std::string& what, int code) const;

    AvDemuxer& demuxer_;
    AVCodecContext* context_ = nullptr;
    AVPacket* packet_ = nullptr;
    bool draining_ = false;
    std::uint64_t pictures_ = 0;
    AVBufferRef* device_ = nullptr;  // the CUDA device of NVDEC decoding
    // Host decoding when NVDEC takes no format (--hwdec auto).
    bool hardware_fallback_ = false;
    std::string hardware_refusal_;   // why NVDEC took no format (choose_format)
};

}  // namespace twinvmaf::av
