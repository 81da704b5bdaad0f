#include "core/startup_timeline.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace twinvmaf::startup {

namespace {

using Clock = std::chrono::steady_clock;

struct Step {
    const char* name;
    Clock::time_point at;
};

struct Timeline {
    std::mutex mutex;
    std::vector<Step> steps;
};

Timeline& timeline()
{
    static Timeline t;
    return t;
}

}  // namespace

bool timing_enabled()
{
    static const bool enabled = std::getenv("TWINVMAF_GPU_TIMING") != nullptr;
    return enabled;
}

void mark(const char* step)
{
    if (!timing_enabled()) return;
    const Clock::time_point now = Clock::now();
    Timeline& t = timeline();
    std::lock_guard lock(t.mutex);
    for (const Step& s : t.steps)
        if (std::strcmp(s.name, step) == 0) return;
    t.steps.push_back({step, now});
}

std::string summary()
{
    Timeline& t = timeline();
    std::lock_guard lock(t.mutex);
    if (t.steps.size() < 2) return "";
    std::string text;
    char buffer[128];
    for (std::size_t i = 1; i < t.steps.size(); ++i) {
        const double ms = std::chrono::duration<double, std::milli>(t.steps[i].at - t.steps[i - 1].at).count();
        std::snprintf(buffer, sizeof buffer, "%s%s %.1f", i > 1 ? ", " : "", t.steps[i].name, ms);
        text += buffer;
    }
    const double total = std::chrono::duration<double, std::milli>(t.steps.back().at - t.steps.front().at).count();
    std::snprintf(buffer, sizeof buffer, "; %s to %s %.1f", t.steps.front().name, t.steps.back().name, total);
    return text + buffer;
}

}  // namespace twinvmaf::startup
