#include "core/message_text.h"

#include <cstdio>

namespace twinvmaf {

namespace {

// One byte as the message shows it: printable ASCII and UTF-8 as they are,
// a newline as \n, other control bytes as \xNN.
std::string shown(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') return "\\n";
    if (byte < 0x20 || byte == 0x7f) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
        return escaped;
    }
    return std::string(1, c);
}

bool continuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string message_text(std::string_view text, std::size_t limit)
{
    std::string whole;
    for (const char c : text) {
        whole += shown(c);
        if (whole.size() > limit) break;
    }
    if (whole.size() <= limit) return whole;

    // Two thirds of the limit from the start, one third from the end, each
    // made of whole shown bytes and ending on UTF-8 character boundaries.
    const std::size_t head_budget = limit * 2 / 3;
    const std::size_t tail_budget = limit - head_budget;
    std::string head;
    std::size_t head_end = 0;
    while (head_end < text.size()) {
        const std::string next = shown(text[head_end]);
        if (head.size() + next.size() > head_budget) break;
        head += next;
        ++head_end;
    }
    while (head_end > 0 && head_end < text.size() && continuation(text[head_end])) {
        --head_end;
        head.pop_back();  // a continuation byte is shown as itself: one char
    }
    std::string tail;
    std::size_t tail_start = text.size();
    while (tail_start > head_end) {
        const std::string next = shown(text[tail_start - 1]);
        if (tail.size() + next.size() > tail_budget) break;
        tail.insert(0, next);
        --tail_start;
    }
    while (tail_start < text.size() && continuation(text[tail_start])) {
        ++tail_start;
        tail.erase(0, 1);
    }
    return head + "..." + tail + " (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace twinvmaf
