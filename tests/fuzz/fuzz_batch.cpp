// The --batch list parser (cli/batch.h): a list's text, then the output
// path of every pair for a fuzzed -o and format. Every line is a pair (its
// error, when malformed, a short one-line message naming the problem) or
// skipped; nothing is opened or scored.
//
// Input: a byte choosing -o ("", "-", a folder) and the output format, then
// the list's text.
#include <cstdint>
#include <string>

#include "cli/batch.h"
#include "fuzz_support.h"
#include "io/raw_reader.h"
#include "twinvmaf/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    if (size < 1) return 0;
    static const char* const kOutputs[] = {"", "-", "out dir"};
    const char* output_option = kOutputs[data[0] % 3];
    const auto format = static_cast<OutputFormat>((data[0] / 3) % 4);
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        for (const cli::BatchPair& pair : cli::parse_batch_list(text)) {
            if (pair.line == 0) __builtin_trap();
            if (!pair.error.empty()) {
                fuzz::check_message(pair.error.c_str());
                continue;
            }
            if (pair.reference.empty() || pair.distorted.empty()) __builtin_trap();
            if (pair.raw_format && (!pair.raw_format->width || !pair.raw_format->height ||
                                    pair.raw_format->width > kMaxFrameDimension ||
                                    pair.raw_format->height > kMaxFrameDimension))
                __builtin_trap();
            if (cli::batch_output_path(pair, output_option, format).empty()) __builtin_trap();
        }
    } catch (const Error& e) {
        // A whole list is never refused: a bad line fails its own pair.
        std::fprintf(stderr, "fuzz: the list was refused: %s\n", e.what());
        __builtin_trap();
    }
    return 0;
}
