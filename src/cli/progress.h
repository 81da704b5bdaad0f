// The progress line on stderr: "120/480 frames  412.3 fps", redrawn in
// place at most ten times a second, only when stderr is a terminal. In
// --batch it starts with the pair: "pair 3/10 (line 5): 120/480 frames ...".
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace twinvmaf::cli {

class Progress {
public:
    // `total`: frames expected when known; `prefix` starts every line;
    // `out`: where it is drawn (stderr; a file in the tests).
    Progress(bool enabled, std::optional<std::uint64_t> total, std::string prefix = {}, std::FILE* out = stderr);
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
    std::string prefix_;
    std::FILE* out_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace twinvmaf::cli
