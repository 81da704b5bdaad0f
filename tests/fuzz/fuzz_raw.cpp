// The raw YUV reader's size arithmetic: any geometry the flags allow, any
// file size (a sparse memfd of up to 2^48 bytes), skips and reads by number.
//
// Input: width (2 bytes), height (2), format (1: chroma, bit depth), the
// file's size (6), a skip count (8), mode (1: bit 0 a pipe), then the file's
// first bytes.
#include <algorithm>
#include <cstdint>

#include "fuzz_support.h"
#include "io/raw_reader.h"
#include "io/video_reader.h"
#include "twinvmaf/error.h"

// Compressed files are refused, as before FFmpeg's decoding: the target is
// twinvmaf's own parsing, not FFmpeg's demuxers.
const twinvmaf::DecodeOptions kNoDecoding{.use_ffmpeg = false};

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    VideoFormat format;
    format.width = static_cast<unsigned>(fuzz::take(data, size, 2));
    format.height = static_cast<unsigned>(fuzz::take(data, size, 2));
    const unsigned kind = static_cast<unsigned>(fuzz::take(data, size, 1));
    format.chroma = static_cast<ChromaFormat>(kind % 3);
    static const unsigned kDepths[] = {8, 10, 12, 16, 9, 0, 32, 7};
    format.bitdepth = kDepths[(kind / 3) % 8];
    const std::uint64_t file_size = fuzz::take(data, size, 6);
    const std::uint64_t skip = fuzz::take(data, size, 8);
    const bool pipe = fuzz::take(data, size, 1) & 1;

    fuzz::InputBytes file({reinterpret_cast<const char*>(data), size}, pipe);
    if (!pipe && file_size > size) file.resize(file_size);
    try {
        auto reader = open_video(file.path(), format, kNoDecoding);
        const std::size_t frame_bytes = reader->format().frame_bytes();
        reader->skip(skip);
        const auto left = reader->frames_left();
        if (left && reader->frame_count() && *left > *reader->frame_count()) __builtin_trap();
        // Frames are read only where they are small: the arithmetic is what
        // is under test, and a frame's buffer is its size.
        if (frame_bytes > (std::size_t{1} << 22)) return 0;
        Picture picture;
        for (int frame = 0; frame < 3 && reader->read(picture); ++frame) {
        }
        if (reader->random_access() && *reader->frame_count() > 0) {
            picture.reset(reader->format());
            const std::uint64_t last = *reader->frame_count() - 1;
            const std::size_t half = frame_bytes / 2 & ~std::size_t{1};
            reader->read_frame_part_at(std::min(last, skip), picture, 0, half);
            reader->read_frame_part_at(last, picture, half, frame_bytes - half);
        }
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    }
    return 0;
}
