// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil), loaded
// when the first compressed input is opened, not when twinvmaf starts.
//
// Debian's libavcodec pulls in about 130 shared libraries (every codec's):
// linked normally, they cost every twinvmaf process about 30 ms of CPU at
// start-up, and libvmaf.so's users (FFmpeg's libvmaf filter, Python) would
// load them for nothing. So the build compiles against FFmpeg's headers
// (the -dev packages) and this table binds the few functions the decoder
// uses with dlopen/dlsym, from the sonames of the headers' major versions
// (Debian 12: libavformat.so.59, libavcodec.so.59, libswscale.so.6,
// libavutil.so.57).
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <string>

namespace twinvmaf::av {

#define TWINVMAF_AVUTIL_FUNCTIONS(X)                                                                   \
    X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) X(av_frame_get_buffer) X(av_strerror)         \
    X(av_get_pix_fmt_name) X(av_pix_fmt_desc_get) X(av_malloc) X(av_free) X(av_opt_set_int)           \
    X(av_dict_set) X(av_dict_free) X(av_log_set_callback) X(av_log_format_line2) X(av_frame_clone)         \
    X(av_hwdevice_ctx_create) X(av_buffer_ref) X(av_buffer_unref)
#define TWINVMAF_AVCODEC_FUNCTIONS(X)                                                                  \
    X(avcodec_find_decoder) X(avcodec_alloc_context3) X(avcodec_free_context)                          \
    X(avcodec_parameters_to_context) X(avcodec_open2) X(avcodec_send_packet) X(avcodec_receive_frame)  \
    X(av_packet_alloc) X(av_packet_free) X(av_packet_unref) X(avcodec_get_name)                         \
    X(avcodec_find_decoder_by_name) X(avcodec_get_hw_config)
#define TWINVMAF_AVFORMAT_FUNCTIONS(X)                                                                 \
    X(avformat_alloc_context) X(avformat_open_input) X(avformat_find_stream_info)                      \
    X(avformat_close_input) X(av_read_frame) X(avio_alloc_context) X(avio_context_free)
#define TWINVMAF_SWSCALE_FUNCTIONS(X)                                                                  \
    X(sws_alloc_context) X(sws_init_context) X(sws_freeContext) X(sws_scale_frame)                     \
    X(sws_getColorspaceDetails) X(sws_setColorspaceDetails)

struct Library {
#define TWINVMAF_AV_POINTER(name) decltype(&::name) name = nullptr;
    TWINVMAF_AVUTIL_FUNCTIONS(TWINVMAF_AV_POINTER)
    TWINVMAF_AVCODEC_FUNCTIONS(TWINVMAF_AV_POINTER)
    TWINVMAF_AVFORMAT_FUNCTIONS(TWINVMAF_AV_POINTER)
    TWINVMAF_SWSCALE_FUNCTIONS(TWINVMAF_AV_POINTER)
#undef TWINVMAF_AV_POINTER
};

// The bound functions, loaded on the first call (thread-safe). Throws
// twinvmaf::Error "<what>: cannot load FFmpeg's libraries: ..." when a
// library or function is missing.
const Library& library(const std::string& what);

// av_strerror's text of an FFmpeg error code.
std::string error_text(int code);

// The last error FFmpeg logged on this thread since clear_logged_error(),
// without its trailing newline ("" if none). Where twinvmaf loaded the
// libraries itself, their log goes here instead of stderr (errors are
// reported once, in twinvmaf's own line); in a process that had them loaded
// already (FFmpeg itself), its log is left alone and this stays empty.
std::string logged_error();
void clear_logged_error();

}  // namespace twinvmaf::av
