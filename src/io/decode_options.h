// How compressed inputs are decoded (io/av_reader.h): which video stream,
// and the libswscale step that scales or converts a decoded picture when
// asked. Parsed without FFmpeg, so that a bad flag fails on the command line
// of any build and before any file is opened.
#pragma once

#include <optional>
#include <string>

#include "twinvmaf/picture.h"

namespace twinvmaf {

// A planar YUV pixel format twinvmaf scores, by FFmpeg's name.
struct PixelFormat {
    std::string name;  // "yuv420p", "yuv422p10le", ...
    ChromaFormat chroma = ChromaFormat::k420;
    unsigned bitdepth = 8;
};

// FFmpeg's name of the format (little-endian above 8 bits): "yuv420p10le".
std::string pixel_format_name(ChromaFormat chroma, unsigned bitdepth);

// `text` as a target of --pix_fmt: yuv420p, yuv422p, yuv444p and their
// 10-, 12- and 16-bit little-endian forms (yuv420p10le; also yuv420p10).
// Throws twinvmaf::Error naming `option` and the accepted names.
PixelFormat parse_pixel_format_name(const std::string& text, const std::string& option);

// libswscale's flags for `text` as FFmpeg's scale filter takes them
// (flags=...): one filter (fast_bilinear, bilinear, bicubic, experimental,
// neighbor, area, bicublin, gauss, sinc, lanczos, spline), optionally with
// +accurate_rnd, +full_chroma_int, +full_chroma_inp, +bitexact,
// +error_diffusion. The values are libswscale's SWS_* bits. Throws naming
// `option`.
unsigned parse_scale_flags(const std::string& text, const std::string& option);

// libswscale's SWS_BICUBIC: the filter of FFmpeg's scale filter without
// flags=, and so of `ffmpeg -pix_fmt`'s conversions.
inline constexpr unsigned kScaleBicubic = 4;

// What --hwdec asks for (twinvmaf::Inputs::hwdec says what each does).
enum class HardwareDecodingMode { kNone, kCuda, kAuto };
// `text` as --hwdec: "none", "cuda" or "auto". Throws
// twinvmaf::Error naming `option` and the accepted values.
HardwareDecodingMode parse_hardware_decoding(const std::string& text, const std::string& option);

// Where compressed video is decoded (--hwdec): on the host, whose pictures
// are copied into host Pictures, or by the GPU's decoder (NVDEC, through
// libavcodec's CUDA hwaccel), whose pictures stay in GPU memory
// (DeviceSurface) for the twins to read.
enum class HardwareDecoding { kNone, kCuda };

struct DecodeOptions {
    // The N-th video stream of the file (0-based, as ffmpeg's -map 0:V:N);
    // nullopt: the first.
    std::optional<unsigned> stream;
    std::string stream_option = "--ref_stream";  // names it in messages
    // When set, a picture whose size differs from `scale_to` is scaled to it
    // with `scale_flags` (the distorted, to the reference's size).
    std::optional<std::pair<unsigned, unsigned>> scale_to;
    unsigned scale_flags = 0;  // 0: bicubic
    // When set, decoded pictures of another pixel format are converted to it,
    // in the same libswscale step as the scaling (as ffmpeg -vf
    // scale=W:H:flags=F -pix_fmt P does it).
    std::optional<PixelFormat> convert_to;
    // libavcodec's decoding threads (0: its choice, one per core). The
    // decoded pictures are the same for any count.
    unsigned threads = 0;
    // kCuda: NVDEC on CUDA device `gpu`, in the device's primary context
    // (the one the GPU backend runs in). Scaling and conversion are host
    // steps: not with kCuda.
    HardwareDecoding hardware = HardwareDecoding::kNone;
    int gpu = 0;
    // kCuda only: a stream NVDEC cannot decode (its codec, profile or chroma
    // format, or no NVDEC at all) is decoded on the host instead of being an
    // error (--hwdec auto).
    bool hardware_fallback = false;
    // false: compressed files are refused as in a build without FFmpeg (the
    // readers' fuzz targets, which are about twinvmaf's own parsing).
    bool use_ffmpeg = true;
};

}  // namespace twinvmaf
