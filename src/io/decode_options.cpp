#include "io/decode_options.h"

#include <array>
#include <utility>

#include "core/message_text.h"
#include "twinvmaf/error.h"

namespace twinvmaf {

namespace {

struct ScaleFlag {
    const char* name;
    unsigned bits;
    bool filter;  // one of the filters (exactly one is given)
};

// libswscale's option names and SWS_* values (libswscale/swscale.h, options.c).
constexpr ScaleFlag kScaleFlags[] = {
    {"fast_bilinear", 0x1, true},   {"bilinear", 0x2, true},        {"bicubic", 0x4, true},
    {"experimental", 0x8, true},    {"neighbor", 0x10, true},       {"area", 0x20, true},
    {"bicublin", 0x40, true},       {"gauss", 0x80, true},          {"sinc", 0x100, true},
    {"lanczos", 0x200, true},       {"spline", 0x400, true},        {"full_chroma_int", 0x2000, false},
    {"full_chroma_inp", 0x4000, false}, {"accurate_rnd", 0x40000, false}, {"bitexact", 0x80000, false},
    {"error_diffusion", 0x800000, false},
};

const char* chroma_tag(ChromaFormat chroma)
{
    switch (chroma) {
    case ChromaFormat::k420: return "yuv420p";
    case ChromaFormat::k422: return "yuv422p";
    case ChromaFormat::k444: return "yuv444p";
    }
    return "yuv420p";
}

}  // namespace

std::string pixel_format_name(ChromaFormat chroma, unsigned bitdepth)
{
    std::string name = chroma_tag(chroma);
    if (bitdepth > 8) name += std::to_string(bitdepth) + "le";
    return name;
}

PixelFormat parse_pixel_format_name(const std::string& text, const std::string& option)
{
    std::string accepted;
    for (const ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
        for (const unsigned bits : {8u, 10u, 12u, 16u}) {
            const std::string name = pixel_format_name(chroma, bits);
            if (text == name || (bits > 8 && text + "le" == name)) return PixelFormat{name, chroma, bits};
            if (!accepted.empty()) accepted += ", ";
            accepted += name;
        }
    }
    throw Error(option + " " + message_text(text) + ": not a pixel format twinvmaf scores; accepted: " + accepted);
}

HardwareDecodingMode parse_hardware_decoding(const std::string& text, const std::string& option)
{
    if (text == "none") return HardwareDecodingMode::kNone;
    if (text == "cuda") return HardwareDecodingMode::kCuda;
    if (text == "auto") return HardwareDecodingMode::kAuto;
    throw Error(option + " " + message_text(text) + ": expected none, cuda or auto");
}

unsigned parse_scale_flags(const std::string& text, const std::string& option)
{
    unsigned bits = 0;
    int filters = 0;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find('+', start);
        const std::string word = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        const ScaleFlag* found = nullptr;
        for (const ScaleFlag& flag : kScaleFlags)
            if (word == flag.name) found = &flag;
        if (!found) {
            std::string names;
            for (const ScaleFlag& flag : kScaleFlags) {
                if (!flag.filter) continue;
                if (!names.empty()) names += ", ";
                names += flag.name;
            }
            throw Error(option + " " + message_text(text) + ": unknown libswscale flag \"" + message_text(word) +
                        "\"; a filter is one of " + names +
                        ", optionally +accurate_rnd, +full_chroma_int, +full_chroma_inp, +bitexact");
        }
        bits |= found->bits;
        filters += found->filter;
        if (end == std::string::npos) break;
        start = end + 1;
    }
    if (filters != 1)
        throw Error(option + " " + message_text(text) + ": name exactly one filter (bicubic, bilinear, lanczos, ...)");
    return bits;
}

}  // namespace twinvmaf
