// The CLI's argument parser: the input is the argument vector, NUL-separated
// (at most 64 arguments), after "twinvmaf". Every vector is either accepted
// or refused with a one-line UsageError; nothing is opened or scored.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli_args.h"
#include "fuzz_support.h"
#include "twinvmaf/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace twinvmaf;
    std::vector<std::string> words{"twinvmaf"};
    std::string word;
    for (std::size_t i = 0; i < size && words.size() < 64; ++i) {
        if (data[i] == '\0') {
            words.push_back(word);
            word.clear();
        } else {
            word.push_back(static_cast<char>(data[i]));
        }
    }
    if (!word.empty() && words.size() < 64) words.push_back(word);
    // getopt permutes argv, as it would the program's.
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    try {
        const cli::ParseResult result = cli::parse_arguments(static_cast<int>(words.size()), argv.data());
        if (result.action == cli::Action::kRun) {
            const cli::Settings& s = result.settings;
            // A single run has both inputs; --batch takes them from its list.
            const bool inputs = s.batch_list.empty() ? !s.reference.empty() && !s.distorted.empty()
                                                     : s.reference.empty() && s.distorted.empty();
            if (!inputs || s.subsample == 0) __builtin_trap();
        }
    } catch (const cli::UsageError& e) {
        fuzz::check_message(e.what());
    } catch (const Error& e) {
        fuzz::check_message(e.what());
    }
    return 0;
}
