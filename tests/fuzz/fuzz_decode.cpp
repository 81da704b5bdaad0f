// Compressed input (issue 27, item 7): FFmpeg's demuxing and decoding as
// twinvmaf drives it (io/av_reader.h), from a file of any bytes: the seeds are
// tiny clips of every container and codec the decode test covers, whole, cut
// and bit-flipped (make_seeds.py, seeds_decode()).
//
// Input: one byte of mode, then the file (a memfd: a regular file, as a
// user's). Mode bit 0: scale the pictures to 24x16 (--scale); bit 1: convert
// them to 4:4:4 10-bit (--pix_fmt yuv444p10le); bit 2: ask for the second
// video stream (--ref_stream 1); bits 3..4: skip that many frames first;
// bit 5: one decoding thread (else libavcodec's choice).
//
// What FFmpeg itself does with the bytes is not the finding here (it is not
// built with the sanitizers); what twinvmaf makes of its answers is: every
// picture has the reader's format, frame counts and skips agree, and every
// refusal is one twinvmaf::Error line (fuzz::check_message).
#include <cstdint>

#include "fuzz_support.h"
#include "io/decode_options.h"
#include "io/video_reader.h"
#include "twinvmaf/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    if (size < 1) return 0;
    const unsigned mode = data[0];
    fuzz::InputBytes file({reinterpret_cast<const char*>(data + 1), size - 1}, false);
    DecodeOptions options;
    if (mode & 1) options.scale_to = std::pair{24u, 16u};
    if (mode & 2) options.convert_to = PixelFormat{"yuv444p10le", ChromaFormat::k444, 10};
    if (mode & 4) options.stream = 1;
    options.threads = mode & 32 ? 1 : 0;
    try {
        auto reader = open_video(file.path(), std::nullopt, options);
        if (mode & 24) reader->skip((mode >> 3) & 3);
        Picture picture;
        // A few frames are enough: every frame takes the same path.
        for (int frame = 0; frame < 8 && reader->read(picture); ++frame) {
            if (!(picture.format() == reader->format())) __builtin_trap();
            if (options.scale_to && (picture.format().width != 24 || picture.format().height != 16)) __builtin_trap();
        }
        (void)reader->frame_count();
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    }
    return 0;
}
