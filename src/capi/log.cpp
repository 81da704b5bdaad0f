#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "capi/capi.h"

namespace twinvmaf::capi {

namespace {

std::atomic<int> level{VMAF_LOG_LEVEL_INFO};

const char* level_name(VmafLogLevel value)
{
    switch (value) {
    case VMAF_LOG_LEVEL_ERROR: return "ERROR";
    case VMAF_LOG_LEVEL_WARNING: return "WARNING";
    case VMAF_LOG_LEVEL_INFO: return "INFO";
    case VMAF_LOG_LEVEL_DEBUG: return "DEBUG";
    default: return "";
    }
}

}  // namespace

void set_log_level(VmafLogLevel value)
{
    const int clamped = value < VMAF_LOG_LEVEL_NONE ? VMAF_LOG_LEVEL_NONE
                        : value > VMAF_LOG_LEVEL_DEBUG ? VMAF_LOG_LEVEL_DEBUG
                                                       : value;
    level.store(clamped);
}

void log(VmafLogLevel value, const char* function, const std::string& message)
{
    if (value <= VMAF_LOG_LEVEL_NONE || value > level.load()) return;
    std::fprintf(stderr, "libvmaf (twinvmaf) %s %s: %s\n", level_name(value), function, message.c_str());
}

}  // namespace twinvmaf::capi
