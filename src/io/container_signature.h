// Recognises compressed-video container files by their first bytes, so that
// an .mp4 or .mkv given where raw YUV is expected is refused instead of being
// scored as meaningless samples (its size may well be a multiple of a frame).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace twinvmaf {

// Bytes of the file's start that container_name() looks at; a shorter start
// (a short file) is fine.
inline constexpr std::size_t kContainerSniffBytes = 1024;

// "MP4/MOV", "Matroska/WebM", "IVF", "MPEG-TS", "AVI", ... when `head` (the
// file's first bytes) starts like one; nullopt otherwise. Each test is chosen
// so that raw 8- to 16-bit video practically never passes it (see the .cpp).
std::optional<std::string> container_name(std::string_view head);

}  // namespace twinvmaf
