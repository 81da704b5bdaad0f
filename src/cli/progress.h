// The progress line on stderr: "  120/480 frames  412.3 fps", redrawn in
// place at most ten times a second, only when stderr is a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace twinvmaf::cli {

class Progress {
public:
    // `total`: frames expected when known.
    Progress(bool enabled, std::optional<std::uint64_t> total);
    void update(std::uint64_t frames_done);
    // Draws the final state and ends the line.
    void finish(std::uint64_t frames_done);
    // Ends the line (if one is drawn) so a message can follow.
    void interrupt();

private:
    void draw(std::uint64_t frames_done);

    bool enabled_;
    bool drawn_ = false;
    std::optional<std::uint64_t> total_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace twinvmaf::cli
