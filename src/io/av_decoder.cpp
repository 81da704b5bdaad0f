#include "io/av_decoder.h"

#include "gpu/gpu_engine.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "core/message_text.h"

namespace twinvmaf::av {

namespace {

// FFmpeg's own last error line, when it logged one, after ours.
std::string with_logged(const std::string& message)
{
    const std::string logged = logged_error();
    if (logged.empty() || message.find(logged) != std::string::npos) return message;
    return message + " (FFmpeg: " + message_text(logged) + ")";
}

constexpr int kIoBufferBytes = 1 << 16;

}  // namespace

void FrameDeleter::operator()(AVFrame* frame) const
{
    if (frame) library("").av_frame_free(&frame);
}

FramePtr make_frame(const std::string& what)
{
    FramePtr frame(library(what).av_frame_alloc());
    if (!frame) throw Error(what + ": out of memory for a picture");
    return frame;
}

// The file as libavformat reads it: a regular file by offset (it seeks, so
// MP4 files with their index at the end work), a pipe from the bytes the
// sniffing read and then on in order.
struct AvDemuxer::Io {
    InputFile file;
    std::string head;
    std::size_t head_used = 0;
    std::uint64_t position = 0;
    std::string error;  // a read error, for the message
    AVIOContext* context = nullptr;

    Io(InputFile f, std::string h) : file(std::move(f)), head(std::move(h)) {}

    static int read(void* opaque, std::uint8_t* to, int size)
    {
        Io& io = *static_cast<Io*>(opaque);
        const auto want = static_cast<std::size_t>(std::max(size, 0));
        if (io.file.regular()) {
            std::size_t got = 0;
            try {
                got = io.file.read_at(to, want, io.position);
            } catch (const std::exception& e) {
                io.error = e.what();
                return AVERROR(EIO);
            }
            io.position += got;
            return got ? static_cast<int>(got) : AVERROR_EOF;
        }
        if (io.head_used < io.head.size()) {
            const std::size_t n = std::min(want, io.head.size() - io.head_used);
            std::memcpy(to, io.head.data() + io.head_used, n);
            io.head_used += n;
            return static_cast<int>(n);
        }
        for (;;) {
            const ssize_t got = ::read(io.file.fd(), to, want);
            if (got > 0) return static_cast<int>(got);
            if (got == 0) return AVERROR_EOF;
            if (errno == EINTR) continue;
            io.error = io.file.path() + ": read error: " + std::strerror(errno);
            return AVERROR(errno);
        }
    }

    static std::int64_t seek(void* opaque, std::int64_t offset, int whence)
    {
        Io& io = *static_cast<Io*>(opaque);
        if (!io.file.regular()) return AVERROR(ESPIPE);
        const auto size = static_cast<std::int64_t>(io.file.size());
        switch (whence & ~AVSEEK_FORCE) {
        case AVSEEK_SIZE: return size;
        case SEEK_SET: break;
        case SEEK_CUR: offset += static_cast<std::int64_t>(io.position); break;
        case SEEK_END: offset += size; break;
        default: return AVERROR(EINVAL);
        }
        if (offset < 0) return AVERROR(EINVAL);
        io.position = static_cast<std::uint64_t>(offset);
        return offset;
    }
};

AvDemuxer::AvDemuxer(InputFile file, std::string head, std::optional<unsigned> stream,
                     const std::string& stream_option)
    : path_(file.path())
{
    try {
        open(std::move(file), std::move(head), stream, stream_option);
    } catch (...) {
        close();
        throw;
    }
}

void AvDemuxer::open(InputFile file, std::string head, std::optional<unsigned> stream,
                     const std::string& stream_option)
{
    const Library& av = library(path_);
    clear_logged_error();
    io_ = std::make_unique<Io>(std::move(file), std::move(head));
    auto* buffer = static_cast<std::uint8_t*>(av.av_malloc(kIoBufferBytes));
    if (!buffer) throw Error(path_ + ": out of memory for FFmpeg's read buffer");
    io_->context = av.avio_alloc_context(buffer, kIoBufferBytes, 0, io_.get(), &Io::read, nullptr,
                                         io_->file.regular() ? &Io::seek : nullptr);
    if (!io_->context) {
        av.av_free(buffer);
        throw Error(path_ + ": out of memory for FFmpeg's reader");
    }
    io_->context->seekable = io_->file.regular() ? AVIO_SEEKABLE_NORMAL : 0;
    context_ = av.avformat_alloc_context();
    if (!context_) throw Error(path_ + ": out of memory for FFmpeg's demuxer");
    context_->pb = io_->context;
    context_->flags |= AVFMT_FLAG_CUSTOM_IO;
    // The file's name lets libavformat use the extension when it probes.
    int status = av.avformat_open_input(&context_, io_->file.regular() ? path_.c_str() : "", nullptr, nullptr);
    if (status < 0) {
        context_ = nullptr;  // freed by avformat_open_input
        if (!io_->error.empty()) throw Error(io_->error);
        throw NotVideo(with_logged(path_ + ": FFmpeg cannot read it: " + error_text(status)));
    }
    status = av.avformat_find_stream_info(context_, nullptr);
    if (status < 0) {
        if (!io_->error.empty()) throw Error(io_->error);
        throw Error(with_logged(path_ + ": FFmpeg cannot read its streams: " + error_text(status)));
    }

    std::vector<int> video;
    std::string kinds;  // what the file holds, for the message
    for (unsigned i = 0; i < context_->nb_streams; ++i) {
        const AVStream& s = *context_->streams[i];
        const bool picture = s.codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
                             !(s.disposition & AV_DISPOSITION_ATTACHED_PIC);
        if (picture) video.push_back(static_cast<int>(i));
        if (!kinds.empty()) kinds += ", ";
        kinds += s.codecpar->codec_type == AVMEDIA_TYPE_AUDIO      ? "audio"
                 : s.codecpar->codec_type == AVMEDIA_TYPE_SUBTITLE ? "subtitles"
                 : s.codecpar->codec_type == AVMEDIA_TYPE_VIDEO    ? (picture ? "video" : "cover picture")
                                                                   : "data";
    }
    if (video.empty())
        throw NotVideo(path_ + ": no video stream in this file (" + container() + "; streams: " +
                       (kinds.empty() ? "none" : kinds) + ")");
    const unsigned wanted = stream.value_or(0);
    if (wanted >= video.size())
        throw Error(path_ + ": " + stream_option + " " + std::to_string(wanted) + ": the file has " +
                    std::to_string(video.size()) + " video stream" + (video.size() == 1 ? "" : "s") + " (0" +
                    (video.size() > 1 ? ".." + std::to_string(video.size() - 1) : "") + ")");
    stream_index_ = video[wanted];
    for (unsigned i = 0; i < context_->nb_streams; ++i)
        if (static_cast<int>(i) != stream_index_) context_->streams[i]->discard = AVDISCARD_ALL;
}

AvDemuxer::~AvDemuxer() { close(); }

void AvDemuxer::close()
{
    const Library& av = library("");
    if (context_) av.avformat_close_input(&context_);
    if (io_ && io_->context) {
        av.av_free(io_->context->buffer);
        av.avio_context_free(&io_->context);
    }
}

std::string AvDemuxer::container() const
{
    if (!context_ || !context_->iformat) return "unknown container";
    const AVInputFormat& format = *context_->iformat;
    return format.long_name ? format.long_name : format.name ? format.name : "unknown container";
}

bool AvDemuxer::read(AVPacket* packet, std::uint64_t frame)
{
    const Library& av = library(path_);
    for (;;) {
        av.av_packet_unref(packet);
        clear_logged_error();
        const int status = av.av_read_frame(context_, packet);
        if (status == AVERROR_EOF) return false;
        if (status < 0) {
            if (!io_->error.empty()) throw Error(io_->error);
            throw Error(with_logged(path_ + ": frame " + std::to_string(frame) + ": cannot read the file: " +
                                    error_text(status)));
        }
        if (packet->stream_index != stream_index_) continue;
        if (packet->flags & AV_PKT_FLAG_CORRUPT)
            throw Error(with_logged(path_ + ": frame " + std::to_string(frame) +
                                    ": the demuxer marks the stream's data corrupt (a damaged or truncated file)"));
        return true;
    }
}

AvVideoDecoder::AvVideoDecoder(AvDemuxer& demuxer, unsigned threads, HardwareChoice hardware) : demuxer_(demuxer)
{
    try {
        open(threads, hardware);
    } catch (...) {
        close();
        throw;
    }
}

// libavcodec offers the formats it can decode into, the hardware ones
// first: NVDEC's CUDA frames, or without them the host format (with
// fallback) or nothing (an error that says why).
AVPixelFormat AvVideoDecoder::choose_format(AVCodecContext* context, const AVPixelFormat* offered)
{
    auto& self = *static_cast<AvVideoDecoder*>(context->opaque);
    const Library& av = library(self.demuxer_.path());
    AVPixelFormat host = AV_PIX_FMT_NONE;
    for (const AVPixelFormat* format = offered; *format != AV_PIX_FMT_NONE; ++format) {
        if (*format == AV_PIX_FMT_CUDA) return *format;
        const AVPixFmtDescriptor* d = av.av_pix_fmt_desc_get(*format);
        if (host == AV_PIX_FMT_NONE && d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) host = *format;
    }
    if (self.hardware_fallback_) return host;
    const char* name = av.av_get_pix_fmt_name(context->sw_pix_fmt);
    self.hardware_refusal_ = std::string("NVDEC cannot decode this ") + self.codec_name() + " stream (" +
                             (name ? name : "unknown format") +
                             ", profile " + std::to_string(context->profile) + ") on this GPU";
    return AV_PIX_FMT_NONE;
}

bool AvVideoDecoder::open_hardware(const AVCodec*& codec, HardwareChoice hardware, std::string& why)
{
    const Library& av = library(demuxer_.path());
    // FFmpeg's own decoder of the codec carries its hwaccels (Debian picks
    // libdav1d for AV1 by default, which has none).
    const AVCodec* native = codec;
    if (codec->id == AV_CODEC_ID_AV1) {
        // FFmpeg's native AV1 decoder decodes in hardware only, so a GPU
        // without AV1 in NVDEC (Turing, GA100, Hopper: H100/H200) could not
        // fall back to the host: --hwdec auto keeps the host's decoder.
        if (hardware.fallback) {
            why = "--hwdec auto decodes AV1 on the host (NVDEC's AV1 has no host fallback; give --hwdec cuda)";
            return false;
        }
        if (const AVCodec* av1 = av.avcodec_find_decoder_by_name("av1")) native = av1;
    }
    bool has_cuda = false;
    for (int i = 0;; ++i) {
        const AVCodecHWConfig* config = av.avcodec_get_hw_config(native, i);
        if (!config) break;
        if (config->device_type == AV_HWDEVICE_TYPE_CUDA && (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
            has_cuda = true;
    }
    if (!has_cuda) {
        why = std::string("this FFmpeg has no NVDEC decoder for ") + av.avcodec_get_name(codec->id);
        return false;
    }
    AVDictionary* options = nullptr;
    // The primary context: the one the GPU backend's runtime uses, so that
    // the twins read the decoded surfaces in their own context.
    (void)share_primary_context_with_ffmpeg(hardware.gpu);
    av.av_dict_set(&options, "primary_ctx", "1", 0);
    clear_logged_error();
    const int status = av.av_hwdevice_ctx_create(&device_, AV_HWDEVICE_TYPE_CUDA,
                                                 std::to_string(hardware.gpu).c_str(), options, 0);
    av.av_dict_free(&options);
    if (status < 0) {
        why = with_logged("cannot open CUDA device " + std::to_string(hardware.gpu) + " for NVDEC: " +
                          error_text(status));
        device_ = nullptr;
        return false;
    }
    codec = native;
    return true;
}

void AvVideoDecoder::open(unsigned threads, HardwareChoice hardware)
{
    AvDemuxer& demuxer = demuxer_;
    const std::string& path = demuxer.path();
    const Library& av = library(path);
    const AVCodecParameters& parameters = *demuxer.stream().codecpar;
    // The decoder FFmpeg itself picks for the codec (libdav1d for AV1 in
    // Debian's build), so that the pictures are the ones `ffmpeg -i` gives.
    const AVCodec* codec = av.avcodec_find_decoder(parameters.codec_id);
    if (!codec) {
        std::string what = parameters.codec_id != AV_CODEC_ID_NONE ? av.avcodec_get_name(parameters.codec_id)
                                                                    : "a codec FFmpeg does not know";
        if (parameters.codec_tag) {
            char tag[4 * 5 + 1] = {};  // "[255]" at most per byte
            int used = 0;
            for (int i = 0; i < 4; ++i) {
                const auto c = static_cast<unsigned char>(parameters.codec_tag >> (8 * i));
                used += std::snprintf(tag + used, sizeof tag - static_cast<std::size_t>(used),
                                      c >= 0x20 && c < 0x7f ? "%c" : "[%u]", c);
            }
            what += std::string(", tag '") + tag + "'";
        }
        throw Error(path + ": this FFmpeg has no decoder for the video stream's codec (" + what + ")");
    }
    if (hardware.cuda) {
        std::string why;
        hardware_fallback_ = hardware.fallback;
        if (!open_hardware(codec, hardware, why) && !hardware.fallback)
            throw Error(path + ": --hwdec cuda: " + why + "; decode on the host with --hwdec none");
    }
    context_ = av.avcodec_alloc_context3(codec);
    packet_ = av.av_packet_alloc();
    if (!context_ || !packet_) throw Error(path + ": out of memory for FFmpeg's decoder");
    int status = av.avcodec_parameters_to_context(context_, &parameters);
    if (status < 0) fail("cannot set up the decoder", status);
    context_->pkt_timebase = demuxer.stream().time_base;
    context_->thread_count = static_cast<int>(threads);
    if (device_) {
        context_->hw_device_ctx = av.av_buffer_ref(device_);
        if (!context_->hw_device_ctx) throw Error(path + ": out of memory for FFmpeg's decoder");
        context_->opaque = this;
        context_->get_format = choose_format;
        // NVDEC does the decoding; more threads only add frame delay.
        context_->thread_count = 1;
    }
    // A damaged stream is an error rather than pictures concealed in silence.
    context_->err_recognition |= AV_EF_EXPLODE;
    clear_logged_error();
    status = av.avcodec_open2(context_, codec, nullptr);
    if (status < 0) fail(std::string("cannot open the ") + codec->name + " decoder", status);
}

AvVideoDecoder::~AvVideoDecoder() { close(); }

void AvVideoDecoder::close()
{
    const Library& av = library("");
    av.av_packet_free(&packet_);
    av.avcodec_free_context(&context_);
    av.av_buffer_unref(&device_);
}

int AvVideoDecoder::software_format() const { return context_->sw_pix_fmt; }

const char* AvVideoDecoder::codec_name() const { return context_->codec ? context_->codec->name : "?"; }

void AvVideoDecoder::fail(const std::string& what, int code) const
{
    if (!hardware_refusal_.empty())
        throw Error(demuxer_.path() + ": --hwdec cuda: " + hardware_refusal_ + "; decode on the host with --hwdec none");
    throw Error(with_logged(demuxer_.path() + ": frame " + std::to_string(pictures_) + ": " + what + ": " +
                            error_text(code)));
}

bool AvVideoDecoder::receive(AVFrame* frame)
{
    const Library& av = library(demuxer_.path());
    for (;;) {
        clear_logged_error();
        int status = av.avcodec_receive_frame(context_, frame);
        if (status == 0) {
            if ((frame->flags & AV_FRAME_FLAG_CORRUPT) || frame->decode_error_flags)
                throw Error(demuxer_.path() + ": frame " + std::to_string(pictures_) + ": the " + codec_name() +
                            " decoder marks the picture corrupt (a damaged stream)");
            ++pictures_;
            return true;
        }
        if (status == AVERROR_EOF) return false;
        if (status != AVERROR(EAGAIN)) fail(std::string("decoding failed (") + codec_name() + ")", status);
        if (draining_) return false;
        if (demuxer_.read(packet_, pictures_)) {
            clear_logged_error();
            status = av.avcodec_send_packet(context_, packet_);
            av.av_packet_unref(packet_);
        } else {
            // The end of the file: the pictures the decoder holds back.
            draining_ = true;
            status = av.avcodec_send_packet(context_, nullptr);
        }
        if (status < 0 && status != AVERROR(EAGAIN) && status != AVERROR_EOF)
            fail(std::string("decoding failed (") + codec_name() + ")", status);
    }
}

}  // namespace twinvmaf::av
