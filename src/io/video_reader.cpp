#include "io/video_reader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "io/container_signature.h"
#if TWINVMAF_HAVE_FFMPEG
#include "io/av_reader.h"
#endif
#include "io/raw_reader.h"
#include "io/y4m_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

bool has_extension(const std::string& path, const char* extension)
{
    const std::size_t length = std::strlen(extension);
    if (path.size() < length) return false;
    std::string tail = path.substr(path.size() - length);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tail == extension;
}

bool has_y4m_extension(const std::string& path) { return has_extension(path, ".y4m"); }

}  // namespace

bool decodes_compressed_video()
{
#if TWINVMAF_HAVE_FFMPEG
    return true;
#else
    return false;
#endif
}

namespace {

}  // namespace

void VideoReader::read_frame_part_at(std::uint64_t, Picture&, std::size_t, std::size_t) const
{
    throw Error(path_ + ": internal: this input cannot be read out of order");
}

std::unique_ptr<VideoReader> open_video(const std::string& path, const std::optional<VideoFormat>& raw_format,
                                        const DecodeOptions& decode)
{
    InputFile file(path);
    const std::string name = file.path();  // a copy: `file` moves into the reader
    // Sniff by reading rather than peeking: a pipe cannot be re-read, so the
    // bytes travel on to the reader. The Y4M magic decides first (a Y4M
    // reader takes no more than the magic).
    std::string head(kY4mMagicBytes, '\0');
    head.resize(file.read_fully(head.data(), head.size()));

    if (head == kY4mMagic) {
        auto reader = std::make_unique<Y4mReader>(std::move(file), head);
        if (raw_format && *raw_format != reader->format())
            throw Error(name + ": the Y4M header says " + reader->format().describe() +
                        " but --width/--height/--pixel_format/--bitdepth say " +
                        raw_format->describe());
        return reader;
    }
    if (head.size() == kY4mMagicBytes) {
        head.resize(kContainerSniffBytes);
        head.resize(kY4mMagicBytes + file.read_fully(head.data() + kY4mMagicBytes, head.size() - kY4mMagicBytes));
    }
    const bool decoding = decodes_compressed_video() && decode.use_ffmpeg;
    if (const auto container = container_name(head)) {
#if TWINVMAF_HAVE_FFMPEG
        if (decoding) return open_decoded_video(std::move(file), std::move(head), decode);
#endif
        throw Error(name + ": this is " + *container + " (compressed video in a container), " +
                    (decodes_compressed_video() ? "which this reader is set not to decode"
                                                : "and this twinvmaf was built without FFmpeg's libraries to decode it") +
                    "; decode it first, e.g. ffmpeg -i FILE -f yuv4mpegpipe - | twinvmaf -r - ...");
    }
    if (has_y4m_extension(path)) throw Error(name + ": .y4m file without YUV4MPEG2 header");
    if (!raw_format) {
        // No signature we know, and no raw geometry: whatever FFmpeg reads
        // as video (an H.264 or HEVC elementary stream, MXF, ...), unless
        // the name says raw YUV.
        if (decoding && !has_extension(path, ".yuv")) {
#if TWINVMAF_HAVE_FFMPEG
            try {
                return open_decoded_video(std::move(file), std::move(head), decode);
            } catch (const Error& e) {
                if (!is_not_video(e)) throw;
            }
#endif
        }
        throw Error(name + ": raw YUV input needs --width, --height, --pixel_format and --bitdepth");
    }
    return std::make_unique<RawReader>(std::move(file), *raw_format, std::move(head));
}

namespace {

[[noreturn]] void throw_out_of_memory(const std::string& what, std::uint64_t frame, const VideoFormat& format)
{
    throw Error(what + ": frame " + std::to_string(frame) + ": out of memory for a " +
                std::to_string(format.frame_bytes()) + "-byte frame of " + format.describe());
}

}  // namespace

void reset_for_frame(Picture& picture, const VideoFormat& format, const std::string& what, std::uint64_t frame)
{
    try {
        picture.reset(format);
    } catch (const std::bad_alloc&) {
        throw_out_of_memory(what, frame, format);
    }
}

void throw_truncated_frame(const std::string& what, std::uint64_t frame, std::uint64_t got, std::uint64_t bytes)
{
    throw Error(what + ": frame " + std::to_string(frame) + ": truncated frame (got " + std::to_string(got) + " of " +
                std::to_string(bytes) + " bytes)");
}

bool read_first_stream_frame(Picture& picture, const VideoFormat& format, const std::string& what,
                             std::uint64_t frame,
                             const std::function<std::size_t(std::uint8_t*, std::size_t)>& read_some)
{
    const std::size_t frame_bytes = format.frame_bytes();
    // Small frames are read in place: their buffer is no risk.
    constexpr std::size_t kFirstStep = std::size_t{1} << 24;
    if (frame_bytes <= kFirstStep) {
        reset_for_frame(picture, format, what, frame);
        const std::size_t got = read_some(picture.bytes(), frame_bytes);
        if (got == 0) return false;
        if (got < frame_bytes) throw_truncated_frame(what, frame, got, frame_bytes);
        return true;
    }
    std::vector<std::uint8_t> gathered;
    std::size_t done = 0;
    while (done < frame_bytes) {
        const std::size_t want = std::min(frame_bytes, std::max(kFirstStep, 2 * done)) - done;
        try {
            gathered.resize(done + want);
        } catch (const std::bad_alloc&) {
            throw_out_of_memory(what, frame, format);
        }
        const std::size_t got = read_some(gathered.data() + done, want);
        done += got;
        if (got < want) break;
    }
    if (done == 0) return false;
    if (done < frame_bytes) throw_truncated_frame(what, frame, done, frame_bytes);
    reset_for_frame(picture, format, what, frame);
    std::memcpy(picture.bytes(), gathered.data(), frame_bytes);
    return true;
}

}  // namespace twinvmaf
