#include "io/video_reader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "io/container_signature.h"
#include "io/raw_reader.h"
#include "io/y4m_reader.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

bool has_y4m_extension(const std::string& path)
{
    if (path.size() < 4) return false;
    std::string tail = path.substr(path.size() - 4);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tail == ".y4m";
}

}  // namespace

void VideoReader::read_frame_part_at(std::uint64_t, Picture&, std::size_t, std::size_t) const
{
    throw Error(path_ + ": internal: this input cannot be read out of order");
}

std::unique_ptr<VideoReader> open_video(const std::string& path,
                                        const std::optional<VideoFormat>& raw_format)
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
    if (const auto container = container_name(head))
        throw Error(name + ": this is " + *container +
                    " (compressed video in a container), not raw YUV or Y4M; decode it first, "
                    "e.g. ffmpeg -i FILE -f yuv4mpegpipe - | twinvmaf -r - ...");
    if (has_y4m_extension(path)) throw Error(name + ": .y4m file without YUV4MPEG2 header");
    if (!raw_format)
        throw Error(name + ": raw YUV input needs --width, --height, --pixel_format and --bitdepth");
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

void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame)
{
    check_sample_range(picture, what, frame, 0, picture.size_bytes());
}

void check_sample_range(const Picture& picture, const std::string& what, std::uint64_t frame,
                        std::size_t offset, std::size_t length)
{
    const unsigned depth = picture.format().bitdepth;
    // 8-bit samples are one byte and 16-bit ones use every bit: nothing to check.
    if (depth <= 8 || depth >= 16) return;

    // Samples are little-endian in the buffer, so a value above the depth's
    // maximum has a bit at or above (depth - 8) in its high (odd) byte. OR all
    // 8-byte words together and test those bits once: a branch-free loop.
    const std::uint8_t* bytes = picture.bytes() + offset;
    const std::size_t size = length;
    const auto high_mask = static_cast<std::uint8_t>(0xFFu << (depth - 8));
    std::uint8_t mask_bytes[8];
    for (int i = 0; i < 8; ++i) mask_bytes[i] = (i & 1) ? high_mask : 0;
    std::uint64_t word_mask;
    std::memcpy(&word_mask, mask_bytes, sizeof word_mask);

    const std::size_t words = size / 8;
    std::uint64_t all_bits = 0;
    for (std::size_t i = 0; i < words; ++i) {
        std::uint64_t word;
        std::memcpy(&word, bytes + i * 8, sizeof word);
        all_bits |= word;
    }
    unsigned tail_bits = 0;
    for (std::size_t i = words * 8 + 1; i < size; i += 2) tail_bits |= bytes[i];
    if ((all_bits & word_mask) == 0 && (tail_bits & high_mask) == 0) return;

    // Rare: find the first offending sample for the message.
    const unsigned max_value = picture.format().max_sample();
    for (std::size_t i = 0; i + 1 < size; i += 2) {
        const unsigned value = bytes[i] | (unsigned{bytes[i + 1]} << 8);
        if (value > max_value)
            throw Error(what + ": frame " + std::to_string(frame) + ": sample value " +
                        std::to_string(value) + " exceeds the " + std::to_string(depth) +
                        "-bit maximum " + std::to_string(max_value) + "; is --bitdepth right?");
    }
}

}  // namespace twinvmaf
