// Compressed video (any container and codec FFmpeg's libraries read:
// MP4/MOV, Matroska/WebM, IVF, MPEG-TS, ...; H.264, HEVC, VP9, AV1, ...)
// as a VideoReader: pictures in presentation order, each copied into a
// host Picture in the raw file layout, or converted there by libswscale
// when DecodeOptions ask for it (as ffmpeg's scale filter would do it, so
// that the bytes equal `ffmpeg -i FILE [-vf scale=W:H:flags=F] [-pix_fmt P]
// -f yuv4mpegpipe`'s).
//
// Only in builds with FFmpeg (TWINVMAF_HAVE_FFMPEG); io/video_reader.cpp
// says so in its message otherwise.
#pragma once

#include <memory>
#include <string>

#include "io/decode_options.h"
#include "io/raw_reader.h"
#include "io/video_reader.h"

namespace twinvmaf {

// Opens `file` (its first bytes `head` already read) for decoding. Throws
// twinvmaf::Error with one line naming the file: no video stream, no such
// stream, no decoder, a pixel format twinvmaf does not score (without
// options.convert_to), a damaged start. A file FFmpeg cannot read as
// video (no container it knows, no video stream) throws an Error for which
// is_not_video() is true: a caller that was only probing may replace it.
std::unique_ptr<VideoReader> open_decoded_video(InputFile file, std::string head, const DecodeOptions& options);

// Whether the caller's error is "not video" from open_decoded_video's probe.
bool is_not_video(const std::exception& error);

}  // namespace twinvmaf
