#include "cli/progress.h"

#include <cstdio>

namespace twinvmaf::cli {

Progress::Progress(bool enabled, std::optional<std::uint64_t> total)
    : enabled_(enabled), total_(total), start_(std::chrono::steady_clock::now()), last_draw_(start_)
{
}

void Progress::update(std::uint64_t frames_done)
{
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    draw(frames_done);
}

void Progress::draw(std::uint64_t frames_done)
{
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double fps = seconds > 0 ? static_cast<double>(frames_done) / seconds : 0.0;
    if (total_)
        std::fprintf(stderr, "\r%llu/%llu frames  %.1f fps\033[K", static_cast<unsigned long long>(frames_done),
                     static_cast<unsigned long long>(*total_), fps);
    else
        std::fprintf(stderr, "\r%llu frames  %.1f fps\033[K", static_cast<unsigned long long>(frames_done), fps);
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::finish(std::uint64_t frames_done)
{
    if (!enabled_) return;
    draw(frames_done);
    interrupt();
}

void Progress::interrupt()
{
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
}

}  // namespace twinvmaf::cli
