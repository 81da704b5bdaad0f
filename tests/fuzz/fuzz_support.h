// Helpers shared by the libFuzzer targets (tests/fuzz/README.md).
//
// Inputs reach the readers as real files: a memfd (a regular file that lives
// in memory, opened by its /proc/self/fd path) or a pipe, so the code under
// test is exactly what the CLI runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace twinvmaf::fuzz {

// A file holding `bytes`: a memfd (regular, seekable, its size known) or,
// when `pipe` is set, the read end of a pipe whose writer has already written
// everything and closed (so `bytes` must fit in the pipe buffer: see
// kMaxPipeBytes). path() names it for open(2).
class InputBytes {
public:
    static constexpr std::size_t kMaxPipeBytes = 1 << 20;

    InputBytes(std::string_view bytes, bool pipe);
    ~InputBytes();
    InputBytes(const InputBytes&) = delete;
    InputBytes& operator=(const InputBytes&) = delete;

    // Makes a memfd `size` bytes long (sparse past the bytes written).
    void resize(std::uint64_t size);
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

// What every error message must be: one line, not empty, and short enough to
// read (long values are shortened). Aborts (a fuzzer finding) otherwise.
void check_message(const char* what);

// Reads a little-endian integer of `bytes` bytes from the front of the
// input and advances it; zero past the end.
std::uint64_t take(const std::uint8_t*& data, std::size_t& size, unsigned bytes);

}  // namespace twinvmaf::fuzz
