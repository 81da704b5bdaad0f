#include "cli/progress.h"

#include <utility>

namespace twinvmaf::cli {

Progress::Progress(bool enabled, std::optional<std::uint64_t> total, std::string prefix, std::FILE* out)
    : enabled_(enabled),
      total_(total),
      prefix_(std::move(prefix)),
      out_(out),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_)
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
        std::fprintf(out_, "\r%s%llu/%llu frames  %.1f fps\033[K", prefix_.c_str(),
                     static_cast<unsigned long long>(frames_done), static_cast<unsigned long long>(*total_), fps);
    else
        std::fprintf(out_, "\r%s%llu frames  %.1f fps\033[K", prefix_.c_str(),
                     static_cast<unsigned long long>(frames_done), fps);
    std::fflush(out_);
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
    if (drawn_) std::fputc('\n', out_);
    drawn_ = false;
}

}  // namespace twinvmaf::cli
