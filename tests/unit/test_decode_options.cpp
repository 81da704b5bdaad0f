// The compressed-input flags (io/decode_options.h), parsed without FFmpeg:
// --scale's libswscale flags with their SWS_* values, --pix_fmt's names.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "io/decode_options.h"
#include "test_support.h"
#include "twinvmaf/error.h"

namespace {

using namespace twinvmaf;

TEST(DecodeOptions, ScaleFlagsAreLibswscalesBits)
{
    // libswscale/swscale.h: SWS_FAST_BILINEAR 1, SWS_BILINEAR 2, SWS_BICUBIC 4,
    // SWS_POINT 0x10, SWS_LANCZOS 0x200, SWS_SPLINE 0x400,
    // SWS_FULL_CHR_H_INT 0x2000, SWS_ACCURATE_RND 0x40000, SWS_BITEXACT 0x80000.
    EXPECT_EQ(parse_scale_flags("bicubic", "--scale"), 0x4u);
    EXPECT_EQ(kScaleBicubic, 0x4u);
    EXPECT_EQ(parse_scale_flags("fast_bilinear", "--scale"), 0x1u);
    EXPECT_EQ(parse_scale_flags("bilinear", "--scale"), 0x2u);
    EXPECT_EQ(parse_scale_flags("neighbor", "--scale"), 0x10u);
    EXPECT_EQ(parse_scale_flags("lanczos", "--scale"), 0x200u);
    EXPECT_EQ(parse_scale_flags("spline", "--scale"), 0x400u);
    EXPECT_EQ(parse_scale_flags("lanczos+accurate_rnd+full_chroma_int", "--scale"), 0x200u | 0x40000u | 0x2000u);
    EXPECT_EQ(parse_scale_flags("bitexact+bilinear", "--scale"), 0x80000u | 0x2u);
}

TEST(DecodeOptions, ScaleNeedsExactlyOneKnownFilter)
{
    EXPECT_NE(test::error_of([] { parse_scale_flags("cubic", "--scale"); }).find("--scale cubic: unknown libswscale flag \"cubic\""),
              std::string::npos);
    EXPECT_NE(test::error_of([] { parse_scale_flags("", "--scale"); }).find("unknown libswscale flag"), std::string::npos);
    EXPECT_NE(test::error_of([] { parse_scale_flags("bicubic+", "--scale"); }).find("unknown libswscale flag \"\""),
              std::string::npos);
    EXPECT_NE(test::error_of([] { parse_scale_flags("bicubic+lanczos", "--scale"); }).find("exactly one filter"),
              std::string::npos);
    EXPECT_NE(test::error_of([] { parse_scale_flags("accurate_rnd", "--scale"); }).find("exactly one filter"),
              std::string::npos);
}

TEST(DecodeOptions, PixelFormatNames)
{
    const PixelFormat p = parse_pixel_format_name("yuv422p10le", "--pix_fmt");
    EXPECT_EQ(p.name, "yuv422p10le");
    EXPECT_EQ(p.chroma, ChromaFormat::k422);
    EXPECT_EQ(p.bitdepth, 10u);
    // FFmpeg's native-endian alias names the little-endian format.
    EXPECT_EQ(parse_pixel_format_name("yuv444p12", "--pix_fmt").name, "yuv444p12le");
    EXPECT_EQ(parse_pixel_format_name("yuv420p", "--pix_fmt").bitdepth, 8u);
    EXPECT_EQ(parse_pixel_format_name("yuv420p16le", "--pix_fmt").bitdepth, 16u);
    for (const ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444})
        for (const unsigned bits : {8u, 10u, 12u, 16u}) {
            const PixelFormat round = parse_pixel_format_name(pixel_format_name(chroma, bits), "--pix_fmt");
            EXPECT_EQ(round.chroma, chroma);
            EXPECT_EQ(round.bitdepth, bits);
        }
    for (const char* bad : {"nv12", "yuv420p10be", "yuv420p9le", "rgb24", "yuv420", "YUV420P", "gray"})
        EXPECT_NE(test::error_of([&] { parse_pixel_format_name(bad, "--pix_fmt"); })
                      .find(std::string("--pix_fmt ") + bad + ": not a pixel format twinvmaf scores; accepted: yuv420p,"),
                  std::string::npos)
            << bad;
}

}  // namespace
