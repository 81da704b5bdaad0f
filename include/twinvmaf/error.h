// twinvmaf: the one exception type of the library.
//
// Library code throws twinvmaf::Error with a message that names the file,
// frame or option at fault; the CLI catches it at its boundary, prints the
// message on one line and exits nonzero without leaving an output file.
#pragma once

#include <stdexcept>
#include <string>

namespace twinvmaf {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace twinvmaf
