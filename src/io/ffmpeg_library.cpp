#include "io/ffmpeg_library.h"

#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <type_traits>

#include "twinvmaf/error.h"

namespace twinvmaf::av {

namespace {

#define TWINVMAF_SONAME(name, major) "lib" name ".so." AV_STRINGIFY(major)
constexpr const char* kAvutil = TWINVMAF_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR);
constexpr const char* kSwscale = TWINVMAF_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR);
constexpr const char* kAvcodec = TWINVMAF_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR);
constexpr const char* kAvformat = TWINVMAF_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR);
#undef TWINVMAF_SONAME

thread_local std::string t_logged_error;
// Set before the callback is installed.
decltype(&::av_log_format_line2) g_format_line = nullptr;

// Keeps the last message of error level or worse, on the thread that
// logged it (open, probe and most decoder errors come on the caller's).
void log_callback(void* context, int level, const char* format, va_list arguments)
{
    if (level > AV_LOG_ERROR || !g_format_line) return;
    char line[1024];
    int print_prefix = 0;  // no "[h264 @ 0x55..]": addresses differ per run
    g_format_line(context, level, format, arguments, line, sizeof line, &print_prefix);
    std::string text = line;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    if (!text.empty()) t_logged_error = std::move(text);
}

struct Loaded {
    Library functions;
    std::string error;  // why loading failed; empty when it did not
};

Loaded load()
{
    Loaded loaded;
    // Whether someone (FFmpeg's own program) had them loaded: then its log
    // stays its own.
    void* before = ::dlopen(kAvutil, RTLD_NOW | RTLD_NOLOAD);
    if (before) ::dlclose(before);
    void* handles[4] = {};
    const char* names[4] = {kAvutil, kSwscale, kAvcodec, kAvformat};
    for (int i = 0; i < 4; ++i) {
        handles[i] = ::dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char* why = ::dlerror();
            loaded.error = std::string(why ? why : names[i]) +
                           " (install FFmpeg's libraries: libavformat, libavcodec, libswscale, libavutil)";
            return loaded;
        }
    }
    // Handles stay open for the process's life: frames and contexts may be
    // freed during exit.
    Library& f = loaded.functions;
    auto bind = [&](void* handle, const char* name, auto& pointer) {
        if (!loaded.error.empty()) return;
        void* symbol = ::dlsym(handle, name);
        if (!symbol) {
            loaded.error = std::string("missing function ") + name;
            return;
        }
        pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(symbol);
    };
#define TWINVMAF_AV_BIND_0(name) bind(handles[0], #name, f.name);
#define TWINVMAF_AV_BIND_1(name) bind(handles[1], #name, f.name);
#define TWINVMAF_AV_BIND_2(name) bind(handles[2], #name, f.name);
#define TWINVMAF_AV_BIND_3(name) bind(handles[3], #name, f.name);
    TWINVMAF_AVUTIL_FUNCTIONS(TWINVMAF_AV_BIND_0)
    TWINVMAF_SWSCALE_FUNCTIONS(TWINVMAF_AV_BIND_1)
    TWINVMAF_AVCODEC_FUNCTIONS(TWINVMAF_AV_BIND_2)
    TWINVMAF_AVFORMAT_FUNCTIONS(TWINVMAF_AV_BIND_3)
#undef TWINVMAF_AV_BIND_0
#undef TWINVMAF_AV_BIND_1
#undef TWINVMAF_AV_BIND_2
#undef TWINVMAF_AV_BIND_3
    if (loaded.error.empty() && !before) {
        g_format_line = f.av_log_format_line2;
        f.av_log_set_callback(log_callback);
    }
    return loaded;
}

}  // namespace

const Library& library(const std::string& what)
{
    static const Loaded loaded = load();
    if (!loaded.error.empty())
        throw Error((what.empty() ? std::string() : what + ": ") + "cannot load FFmpeg's libraries: " + loaded.error);
    return loaded.functions;
}

std::string error_text(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    if (library("").av_strerror(code, text, sizeof text) < 0)
        std::snprintf(text, sizeof text, "FFmpeg error %d", code);
    return text;
}

std::string logged_error() { return t_logged_error; }

void clear_logged_error() { t_logged_error.clear(); }

}  // namespace twinvmaf::av
