// Text from a command line or a file, as it is quoted in an error message.
//
// A value can be megabytes long or hold newlines and terminal escapes; the
// message must stay one readable line. So control bytes are escaped (\n,
// \xNN) and a long value keeps its start and its end (where a path's file
// name is) around "..." and its length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace twinvmaf {

inline constexpr std::size_t kMessageValueLimit = 120;

std::string message_text(std::string_view text, std::size_t limit = kMessageValueLimit);

}  // namespace twinvmaf
