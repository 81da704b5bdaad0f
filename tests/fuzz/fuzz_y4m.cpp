// The Y4M reader: its header and FRAME markers, from a regular file or a pipe.
//
// Input: one byte of mode, then the file. Mode bit 0: a pipe instead of a
// regular file; bit 1: skip frames first (bits 2..4: how many); bit 5: the
// raw geometry flags are given too (they must agree with the header).
#include <cstdint>
#include <optional>

#include "fuzz_support.h"
#include "io/video_reader.h"
#include "twinvmaf/error.h"

// Compressed files are refused, as before FFmpeg's decoding: the target is
// twinvmaf's own parsing, not FFmpeg's demuxers.
const twinvmaf::DecodeOptions kNoDecoding{.use_ffmpeg = false};

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    if (size < 1) return 0;
    const unsigned mode = data[0];
    fuzz::InputBytes file({reinterpret_cast<const char*>(data + 1), size - 1}, mode & 1);
    std::optional<VideoFormat> flags;
    if (mode & 32) flags = VideoFormat{32, 18, ChromaFormat::k420, 8};
    try {
        auto reader = open_video(file.path(), flags, kNoDecoding);
        if (mode & 2) reader->skip((mode >> 2) & 7);
        Picture picture;
        // A few frames are enough: every frame takes the same path.
        for (int frame = 0; frame < 8 && reader->read(picture); ++frame) {
            if (!(picture.format() == reader->format())) __builtin_trap();
        }
        (void)reader->frame_count();
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    }
    return 0;
}
